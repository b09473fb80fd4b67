package io.tandem.world.distributed;

import io.tandem.cosim.spi.FrameErrors;
import io.tandem.cosim.spi.FrameReader;

/**
 * How the distributed world's codecs report a malformed frame: an {@link IllegalArgumentException}
 * saying that it is truncated (with its length) or has bytes after its end; their counts are
 * checked by the codecs themselves. Immutable.
 *
 * @param message what a frame is, for "truncated MESSAGE (N bytes)"
 * @param end     what a frame ends with, for "N unexpected bytes after the END"
 */
record MessageErrors(String message, String end) implements FrameErrors {
    @Override
    public RuntimeException truncated(FrameReader frame, String field, int needed) {
        return new IllegalArgumentException("truncated " + message + " (" + frame.length() + " bytes)");
    }

    @Override
    public RuntimeException trailingBytes(FrameReader frame) {
        return new IllegalArgumentException(frame.remaining() + " unexpected bytes after the " + end);
    }

    @Override
    public RuntimeException invalid(FrameReader frame, String field, long value) {
        return new IllegalArgumentException("invalid " + field + " " + value + " in a " + message);
    }
}
