package io.tandem.net;

import io.tandem.cosim.TandemException;

/**
 * A received frame is not a Tandem frame (wrong magic), is truncated, or holds an invalid value.
 *
 * <p>Immutable.
 */
public final class MalformedFrameException extends TandemException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong with the frame, with offsets and lengths; kept on one line
     *                (control characters of text quoted from the frame become spaces)
     */
    public MalformedFrameException(String message) {
        super(oneLine(message));
    }

    private static String oneLine(String message) {
        if (message == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(message.length());
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            b.append(Character.isISOControl(c) ? ' ' : c);
        }
        return b.toString();
    }
}
