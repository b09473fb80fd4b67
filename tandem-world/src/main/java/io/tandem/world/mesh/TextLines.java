package io.tandem.world.mesh;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The lines of a text mesh (ASCII STL, OBJ) streamed from bytes, with a cursor over the current
 * line's whitespace-separated tokens. Lines end at LF, CR LF or CR; a line may end in a backslash
 * that joins the next one (OBJ). Bytes up to 0x20 are whitespace. Reuses one line buffer; a token
 * read as a String allocates.
 */
final class TextLines {
    /** longest line, bytes */
    static final int MAX_LINE_BYTES = 1 << 20;

    private final InputStream in;
    private final Path file;
    private final byte[] buffer = new byte[1 << 16];
    private int bufferPosition;
    private int bufferLength;
    private byte[] line = new byte[256];
    private int length;
    private int physicalLines;
    private int lineNumber;
    private int cursor;
    private int tokenStart;
    private int tokenEnd;

    TextLines(InputStream in, Path file) {
        this.in = in;
        this.file = file;
    }

    /**
     * Reads the next line (and the lines a trailing backslash joins to it when {@code joinContinuations}).
     *
     * @return false at the end of the file
     */
    boolean next(boolean joinContinuations) throws IOException {
        length = 0;
        cursor = 0;
        if (!readPhysical()) {
            return false;
        }
        lineNumber = physicalLines;
        while (joinContinuations && endsInBackslash()) {
            line[lastNonBlank()] = ' ';
            if (!readPhysical()) {
                break;
            }
        }
        return true;
    }

    /** @return the 1-based number of the current line (its first line when lines were joined) */
    int number() {
        return lineNumber;
    }

    private boolean endsInBackslash() {
        int i = lastNonBlank();
        return i >= 0 && line[i] == '\\';
    }

    private int lastNonBlank() {
        int i = length - 1;
        while (i >= 0 && (line[i] & 0xff) <= ' ') {
            i--;
        }
        return i;
    }

    /** Appends one physical line to the line buffer; false when the file had no more bytes. */
    private boolean readPhysical() throws IOException {
        boolean any = false;
        while (true) {
            if (bufferPosition == bufferLength) {
                bufferLength = in.read(buffer, 0, buffer.length);
                bufferPosition = 0;
                if (bufferLength <= 0) {
                    bufferLength = 0;
                    if (any) {
                        physicalLines++;
                    }
                    return any;
                }
            }
            any = true;
            byte b = buffer[bufferPosition++];
            if (b == '\n') {
                physicalLines++;
                return true;
            }
            if (b == '\r') {
                physicalLines++;
                // CR LF: the LF belongs to this line ending
                if (bufferPosition == bufferLength) {
                    bufferLength = in.read(buffer, 0, buffer.length);
                    bufferPosition = 0;
                    if (bufferLength <= 0) {
                        bufferLength = 0;
                        return true;
                    }
                }
                if (buffer[bufferPosition] == '\n') {
                    bufferPosition++;
                }
                return true;
            }
            if (length == line.length) {
                if (length >= MAX_LINE_BYTES) {
                    throw MeshErrors.at(file, physicalLines + 1, String.format(Locale.ROOT,
                            "the line is longer than %d bytes; is this a text mesh? re-export it (a binary file given"
                                    + " the wrong extension is read as text)", MAX_LINE_BYTES));
                }
                line = java.util.Arrays.copyOf(line, Math.min(MAX_LINE_BYTES, 2 * line.length));
            }
            line[length++] = b;
        }
    }

    /** Moves to the next token of the line; false when there is none. */
    boolean nextToken() {
        int i = cursor;
        while (i < length && (line[i] & 0xff) <= ' ') {
            i++;
        }
        if (i == length) {
            cursor = i;
            return false;
        }
        tokenStart = i;
        while (i < length && (line[i] & 0xff) > ' ') {
            i++;
        }
        tokenEnd = i;
        cursor = i;
        return true;
    }

    /** @return whether the current token is this ASCII keyword, ignoring case */
    boolean tokenIs(String keyword) {
        int n = tokenEnd - tokenStart;
        if (n != keyword.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            int a = line[tokenStart + i] & 0xff;
            int b = keyword.charAt(i);
            if (a != b && (a | 0x20) != (b | 0x20)) {
                return false;
            }
        }
        return true;
    }

    /** @return the current token's first byte */
    int tokenFirstByte() {
        return line[tokenStart] & 0xff;
    }

    /** @return the current token (bytes read as ISO-8859-1, one char each); allocates */
    String token() {
        return new String(line, tokenStart, tokenEnd - tokenStart, StandardCharsets.ISO_8859_1);
    }

    /** @return the start and end of the current token within {@link #bytes()} */
    int tokenStart() {
        return tokenStart;
    }

    int tokenEnd() {
        return tokenEnd;
    }

    /** @return the line buffer (valid up to the end of the current token) */
    byte[] bytes() {
        return line;
    }

    /** @return the rest of the line after the current token, trimmed, as UTF-8 (malformed bytes replaced) */
    String rest() {
        int from = cursor;
        int to = length;
        while (from < to && (line[from] & 0xff) <= ' ') {
            from++;
        }
        while (to > from && (line[to - 1] & 0xff) <= ' ') {
            to--;
        }
        return new String(line, from, to - from, StandardCharsets.UTF_8);
    }

    /** @return the next token as a finite number; the message names {@code what} when it is missing or bad */
    double nextNumber(String what) {
        if (!nextToken()) {
            throw MeshErrors.at(file, lineNumber, what + " is missing; the line needs three numbers x y z");
        }
        return MeshNumbers.parseFinite(token(), file, lineNumber, what);
    }
}
