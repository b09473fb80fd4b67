package io.tandem.cle.experiment;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A place in an experiment file, for messages: {@code file:line:column}. Line and column are
 * 1-based; line 0 means the file as a whole (then {@link #toString()} is just the file).
 *
 * @param file   the experiment file as it was given (not made absolute, so messages stay short)
 * @param line   1-based line, or 0
 * @param column 1-based column (UTF-16 units), or 0
 */
public record ExperimentFileLocation(Path file, int line, int column) {
    /** Validates. */
    public ExperimentFileLocation {
        Objects.requireNonNull(file, "file");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line and column are >= 0, got " + line + ":" + column);
        }
    }

    /** @return {@code file:line:column}, or {@code file} for line 0 */
    @Override
    public String toString() {
        return line == 0 ? file.toString() : file + ":" + line + ":" + column;
    }
}
