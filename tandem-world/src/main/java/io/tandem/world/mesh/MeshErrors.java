package io.tandem.world.mesh;

import io.tandem.world.WorldFormatException;
import java.nio.file.Path;

/** The one-line messages of the readers: file, line when the format is text, what is wrong and the fix. */
final class MeshErrors {
    /** longest quoted token, characters */
    private static final int MAX_QUOTE = 40;

    private MeshErrors() {
    }

    /** @param line the 1-based line, or 0 for none (a binary file, the whole file) */
    static WorldFormatException at(Path file, int line, String what) {
        return new WorldFormatException(line > 0 ? file + ":" + line + ": " + what : file + ": " + what);
    }

    /** @return the text, cut to a short quote */
    static String quote(String text) {
        String t = text.length() > MAX_QUOTE ? text.substring(0, MAX_QUOTE) + "..." : text;
        return "'" + t + "'";
    }

    /** @return the file's name without its extension (the name of an unnamed part) */
    static String stem(Path file) {
        Path name = file.getFileName();
        String s = name == null ? "mesh" : name.toString();
        int dot = s.lastIndexOf('.');
        return dot > 0 ? s.substring(0, dot) : s;
    }
}
