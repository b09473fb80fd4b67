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

    /**
     * A message on one line: control characters (the line breaks of a name or text quoted from a
     * file or a received frame) become spaces. For every error a user reads on one line.
     *
     * @param text the text, or null
     * @return it on one line ("" for null)
     */
    public static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            b.append(Character.isISOControl(c) ? ' ' : c);
        }
        return b.toString();
    }
}
