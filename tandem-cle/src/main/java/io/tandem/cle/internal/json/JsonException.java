package io.tandem.cle.internal.json;

/**
 * Malformed JSON or YAML: where (1-based line and column) and what is wrong, with the fix. The message
 * is {@code line:column: problem}; callers prefix the file name.
 */
public final class JsonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;
    private final String problem;

    /** @param problem what is wrong and the fix, without the position */
    public JsonException(int line, int column, String problem) {
        super(line + ":" + column + ": " + problem);
        this.line = line;
        this.column = column;
        this.problem = problem;
    }

    /** @return the 1-based line */
    public int line() {
        return line;
    }

    /** @return the 1-based column */
    public int column() {
        return column;
    }

    /** @return what is wrong and the fix, without the position */
    public String problem() {
        return problem;
    }
}
