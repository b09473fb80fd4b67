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
}
