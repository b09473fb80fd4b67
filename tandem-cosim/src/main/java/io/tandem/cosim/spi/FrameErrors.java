package io.tandem.cosim.spi;

/**
 * How a codec reports a malformed frame that its {@link FrameReader} found: the exception type
 * and the wording are the codec's (a transport throws its own exception type, naming the frame
 * type and the field). Each method returns the exception; the reader throws it.
 *
 * <p>Implementations must be stateless (one instance serves every reader of a codec); they are
 * called only on the error path and may allocate.
 */
public interface FrameErrors {
    /**
     * The frame ends before a value.
     *
     * @param frame  the reader, positioned at the value (its {@link FrameReader#type()},
     *               {@link FrameReader#position()}, {@link FrameReader#remaining()} and
     *               {@link FrameReader#length()} describe where)
     * @param field  the value's name as the codec gave it ("topic", "topic length", "3 x label
     *               count"), or null where the codec names none
     * @param needed how many bytes the value needs (negative for a corrupt length)
     * @return the exception to throw
     */
    RuntimeException truncated(FrameReader frame, String field, int needed);

    /**
     * Bytes are left after the last field ({@link FrameReader#expectEnd()}).
     *
     * @param frame the reader; {@link FrameReader#remaining()} bytes are left
     * @return the exception to throw
     */
    RuntimeException trailingBytes(FrameReader frame);

    /**
     * A field holds a value its codec does not accept (an unknown enum code, a negative count).
     *
     * @param frame the reader, positioned after the value
     * @param field the value's name
     * @param value the value read
     * @return the exception to throw
     */
    RuntimeException invalid(FrameReader frame, String field, long value);
}
