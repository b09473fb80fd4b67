package io.tandem.cle.experiment;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Test helpers: the shipped examples, and small experiments written next to a copy of the Husky world. */
final class ExperimentFileTestSupport {
    private ExperimentFileTestSupport() {
    }

    /** @return the repository's examples/experiments folder */
    static Path examples() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("examples/experiments"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("examples/experiments not found above " + Path.of("").toAbsolutePath());
        }
        return p.resolve("examples/experiments");
    }

    /** A small valid experiment: the Husky world next to it, the builtin Braitenberg brain. */
    static String minimal() {
        return "{\n"
                + "  \"name\": \"t\",\n"
                + "  \"world\": {\"file\": \"world.sdf\"},\n"
                + "  \"brain\": {\"builtin\": \"braitenberg\"},\n"
                + "  \"timeout_s\": 1\n"
                + "}\n";
    }

    /** Writes {@code text} as dir/exp.json with the Husky world as dir/world.sdf; returns the file. */
    static Path write(Path dir, String text) {
        try {
            Path world = dir.resolve("world.sdf");
            if (!Files.exists(world)) {
                Files.copy(examples().resolve("husky_braitenberg/world.sdf"), world);
            }
            Path f = dir.resolve("exp.json");
            Files.writeString(f, text, StandardCharsets.UTF_8);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ExperimentFile load(Path dir, String text) {
        return ExperimentFile.load(write(dir, text));
    }

    static ExperimentFile load(Path dir, String text, Map<String, String> overrides) {
        return ExperimentFile.load(write(dir, text), overrides);
    }

    /** @return the message of the ExperimentFileException loading {@code text} throws */
    static String errors(Path dir, String text) {
        return errors(dir, text, Map.of());
    }

    static String errors(Path dir, String text, Map<String, String> overrides) {
        Path f = write(dir, text);
        String[] msg = new String[1];
        assertThatThrownBy(() -> ExperimentFile.load(f, overrides))
                .isInstanceOfSatisfying(ExperimentFileException.class, e -> msg[0] = e.getMessage());
        return msg[0];
    }

    /** @return {@code text} with {@code old} replaced once (which must occur) */
    static String replace(String text, String old, String replacement) {
        int i = text.indexOf(old);
        if (i < 0) {
            throw new IllegalArgumentException("'" + old + "' not in the text");
        }
        return text.substring(0, i) + replacement + text.substring(i + old.length());
    }
}
