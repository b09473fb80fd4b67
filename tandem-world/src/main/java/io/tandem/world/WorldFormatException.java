package io.tandem.world;

/**
 * A world file that cannot be loaded: the message names the file, the line and the fix, on one
 * line (control characters, such as the line breaks of quoted file text, become spaces; more than
 * {@link #MAX_LENGTH} characters are cut).
 */
public final class WorldFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** the longest message, characters */
    public static final int MAX_LENGTH = 500;

    /** @param message file:line: what is wrong and how to fix it */
    public WorldFormatException(String message) {
        super(oneLine(message));
    }

    /**
     * @param message file:line: what is wrong and how to fix it
     * @param cause   the underlying error
     */
    public WorldFormatException(String message, Throwable cause) {
        super(oneLine(message), cause);
    }

    /** @return the text on one line ({@link io.tandem.cosim.TandemException#oneLine}), at most MAX_LENGTH characters */
    public static String oneLine(String text) {
        String line = io.tandem.cosim.TandemException.oneLine(text);
        return line.length() > MAX_LENGTH ? line.substring(0, MAX_LENGTH) + "..." : line;
    }
}
