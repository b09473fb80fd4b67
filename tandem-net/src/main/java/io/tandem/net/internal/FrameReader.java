package io.tandem.net.internal;

import io.tandem.net.MalformedFrameException;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;

/**
 * A bounds-checked little-endian cursor over one frame: reading past the frame's end throws
 * {@link MalformedFrameException} naming the frame type and offset, never reads a neighbour's
 * bytes. Reusable ({@link #wrap}); not thread-safe. Reading primitives does not allocate.
 */
final class FrameReader {
    private DirectBuffer buffer;
    private int start;
    private int position;
    private int limit;
    private int type;

    /**
     * @param buffer the buffer (not modified)
     * @param offset the frame's first byte
     * @param length the frame's length
     * @param bodyOffset where reading starts, relative to {@code offset}
     * @return this
     */
    FrameReader wrap(DirectBuffer buffer, int offset, int length, int bodyOffset) {
        this.buffer = buffer;
        this.start = offset;
        this.position = offset + bodyOffset;
        this.limit = offset + length;
        this.type = WireFormat.type(buffer, offset);
        return this;
    }

    private void require(int n, String what) {
        if (n < 0 || limit - position < n) {
            throw new MalformedFrameException("truncated " + WireFormat.typeName(type) + " frame: " + what + " needs "
                    + n + " bytes at offset " + (position - start) + " but the frame has " + (limit - position) + " left");
        }
    }

    int getInt(String what) {
        require(4, what);
        int v = buffer.getInt(position, WireFormat.ORDER);
        position += 4;
        return v;
    }

    long getLong(String what) {
        require(8, what);
        long v = buffer.getLong(position, WireFormat.ORDER);
        position += 8;
        return v;
    }

    boolean getBoolean(String what) {
        require(1, what);
        byte b = buffer.getByte(position++);
        if (b != 0 && b != 1) {
            throw invalid(what, b);
        }
        return b == 1;
    }

    String getString(String what) {
        int n = getInt(what + " length");
        require(n, what);
        byte[] bytes = new byte[n];
        buffer.getBytes(position, bytes);
        position += n;
        return new String(bytes, StandardCharsets.UTF_8);
    }

    byte[] getBytes(String what) {
        int n = getInt(what + " length");
        if (n == -1) {
            return null;
        }
        require(n, what);
        byte[] bytes = new byte[n];
        buffer.getBytes(position, bytes);
        position += n;
        return bytes;
    }

    /**
     * Reads an element count and checks the frame can hold that many elements.
     *
     * @param minElementBytes the smallest encoding of one element
     */
    int getCount(String what, int minElementBytes) {
        int n = getInt(what);
        if (n < 0) {
            throw invalid(what, n);
        }
        require((int) Math.min(Integer.MAX_VALUE, (long) n * minElementBytes), n + " x " + what);
        return n;
    }

    /** @return how many bytes are left */
    int remaining() {
        return limit - position;
    }

    /** @return the absolute buffer index of the cursor */
    int position() {
        return position;
    }

    /** @throws MalformedFrameException if bytes are left after the last field */
    void expectEnd() {
        if (position != limit) {
            throw new MalformedFrameException(WireFormat.typeName(type) + " frame has " + (limit - position)
                    + " bytes after its last field (frame length " + (limit - start) + ")");
        }
    }

    /** @return an exception for an invalid field value */
    MalformedFrameException invalid(String what, long value) {
        return new MalformedFrameException("invalid " + what + " " + value + " in " + WireFormat.typeName(type)
                + " frame at offset " + (position - start));
    }
}
