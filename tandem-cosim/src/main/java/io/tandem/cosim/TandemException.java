package io.tandem.cosim;

/** Base of Tandem's co-simulation errors (SIL Kit's {@code SilKitError}). */
public class TandemException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong and how to fix it */
    public TandemException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong and how to fix it
     * @param cause   the underlying failure
     */
    public TandemException(String message, Throwable cause) {
        super(message, cause);
    }
}
