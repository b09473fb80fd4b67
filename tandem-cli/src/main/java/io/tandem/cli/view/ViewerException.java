package io.tandem.cli.view;

/** The viewer cannot start or cannot read its recording; the message is one line with the fix. */
public final class ViewerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ViewerException(String message, Throwable cause) {
        super(message, cause);
    }

    public ViewerException(String message) {
        super(message);
    }
}
