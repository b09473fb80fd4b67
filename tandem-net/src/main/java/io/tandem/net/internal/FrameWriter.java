package io.tandem.net.internal;

import java.nio.charset.StandardCharsets;
import org.agrona.MutableDirectBuffer;

/**
 * A little-endian cursor that writes one frame into a buffer, which must be expandable
 * (e.g. {@link org.agrona.ExpandableArrayBuffer}) or large enough. Reusable ({@link #wrap}); not
 * thread-safe. Writing primitives does not allocate; strings allocate their UTF-8 bytes.
 */
final class FrameWriter {
    private MutableDirectBuffer buffer;
    private int start;
    private int position;

    /**
     * @param buffer destination (modified)
     * @param offset where the frame starts
     * @return this
     */
    FrameWriter wrap(MutableDirectBuffer buffer, int offset) {
        this.buffer = buffer;
        this.start = offset;
        this.position = offset;
        return this;
    }

    FrameWriter header(int version, int type) {
        WireFormat.putHeader(buffer, position, version, type);
        position += WireFormat.HEADER_LENGTH;
        return this;
    }

    FrameWriter putInt(int v) {
        buffer.putInt(position, v, WireFormat.ORDER);
        position += 4;
        return this;
    }

    FrameWriter putLong(long v) {
        buffer.putLong(position, v, WireFormat.ORDER);
        position += 8;
        return this;
    }

    FrameWriter putBoolean(boolean v) {
        buffer.putByte(position++, (byte) (v ? 1 : 0));
        return this;
    }

    FrameWriter putString(String s) {
        return putBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    FrameWriter putBytes(byte[] b) {
        if (b == null) {
            return putInt(-1);
        }
        putInt(b.length);
        buffer.putBytes(position, b);
        position += b.length;
        return this;
    }

    /** @return bytes written since {@link #wrap} */
    int length() {
        return position - start;
    }
}
