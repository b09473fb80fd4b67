package io.tandem.world;

/**
 * A world file that cannot be loaded: the message names the file, the line and the fix.
 */
public final class WorldFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message file:line: what is wrong and how to fix it */
    public WorldFormatException(String message) {
        super(message);
    }

    /**
     * @param message file:line: what is wrong and how to fix it
     * @param cause   the underlying error
     */
    public WorldFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
