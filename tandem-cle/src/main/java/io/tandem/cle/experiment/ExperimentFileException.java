package io.tandem.cle.experiment;

import java.util.List;

/**
 * An experiment file that cannot be run as written: malformed JSON or YAML, a schema violation, an
 * unknown parameter in {@code --set}, a brain the network builder rejects. Each error reads
 * {@code file:line:column: what is wrong and the fix}; the message lists them all, one per line.
 */
public final class ExperimentFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The first error's location. */
    private final transient ExperimentFileLocation location;
    private final List<String> errors;

    /**
     * One error.
     *
     * @param at      where
     * @param problem what is wrong and the fix, without the location
     */
    public ExperimentFileException(ExperimentFileLocation at, String problem) {
        this(at, List.of(at + ": " + problem), null);
    }

    /**
     * One error with a cause.
     *
     * @param at      where
     * @param problem what is wrong and the fix, without the location
     * @param cause   the underlying error
     */
    public ExperimentFileException(ExperimentFileLocation at, String problem, Throwable cause) {
        this(at, List.of(at + ": " + problem), cause);
    }

    /**
     * Several errors.
     *
     * @param first  the first error's location
     * @param errors each {@code file:line:column: problem}, in file order
     */
    ExperimentFileException(ExperimentFileLocation first, List<String> errors, Throwable cause) {
        this(first, cause, errors.stream().map(io.tandem.cosim.TandemException::oneLine).toList());
    }

    private ExperimentFileException(ExperimentFileLocation first, Throwable cause, List<String> errors) {
        super(String.join("\n", errors), cause);
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("no errors");
        }
        this.location = first;
        this.errors = List.copyOf(errors);
    }

    /** @return where the first error is */
    public ExperimentFileLocation location() {
        return location;
    }

    /** @return every error, each {@code file:line:column: problem} (immutable) */
    public List<String> errors() {
        return errors;
    }
}
