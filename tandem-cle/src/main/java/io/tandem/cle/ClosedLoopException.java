package io.tandem.cle;

/** A closed loop failed while running: an engine or a transfer function threw. The loop cannot run on (reset or close it). */
public final class ClosedLoopException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, naming the engine or transfer function
     * @param cause   the original failure
     */
    public ClosedLoopException(String message, Throwable cause) {
        super(message, cause);
    }
}
