package io.tandem.cosim.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/*
 * Implementation notes.
 *
 * Values go into the array through little-endian byte-array views (VarHandle): one bounds check
 * per value and no ByteBuffer around an array that is replaced when it grows. The codecs that
 * share this writer (tandem-net's frames, the closed loop's remote-engine frames, the
 * distributed world's messages) were little-endian before it; their bytes did not change.
 */

/**
 * A cursor that writes one binary frame, little-endian, into a growable byte array: the
 * primitive under the project's explicit codecs (one per message). Values are written as they
 * are: int8, int16, int32, int64 two's complement; doubles as their raw IEEE 754 bits (every NaN
 * payload survives); strings as int32 byte length + UTF-8; byte arrays as int32 length (-1 for
 * null) + bytes. The frame starts at index 0 of {@link #array()}.
 *
 * <p>Reusable ({@link #reset()}): writing primitives and byte arrays does not allocate unless the
 * array must grow (it doubles); strings allocate their UTF-8 bytes. Not thread-safe: one writer
 * per thread.
 */
public final class FrameWriter {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** the largest frame, bytes (a little under the largest array) */
    private static final int MAX_LENGTH = Integer.MAX_VALUE - 16;

    private final String protocol;
    private byte[] buffer;
    private int position;

    /**
     * @param protocol        names the frames in errors ("remote-engine" gives "remote-engine frame too large")
     * @param initialCapacity the array's first size, bytes, 1 or more
     * @throws IllegalArgumentException for a blank protocol or a capacity below 1
     */
    public FrameWriter(String protocol, int initialCapacity) {
        if (protocol == null || protocol.isBlank()) {
            throw new IllegalArgumentException("a frame writer needs the name of its protocol, for its errors");
        }
        if (initialCapacity < 1 || initialCapacity > MAX_LENGTH) {
            throw new IllegalArgumentException(protocol + " frame writer: initial capacity must be 1 to " + MAX_LENGTH
                    + " bytes, got " + initialCapacity);
        }
        this.protocol = protocol;
        this.buffer = new byte[initialCapacity];
    }

    /**
     * Starts a new frame at index 0, keeping the array. Does not allocate.
     *
     * @return this
     */
    public FrameWriter reset() {
        position = 0;
        return this;
    }

    /** @return the bytes written since {@link #reset()}: the frame's length so far */
    public int position() {
        return position;
    }

    /**
     * @return the array holding the frame in {@code [0, position())}; the writer keeps using it
     *         (not a copy), and a later write may replace it with a larger one
     */
    public byte[] array() {
        return buffer;
    }

    /** @return a copy of the frame, {@link #position()} bytes long (allocates) */
    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, position);
    }

    /**
     * @param v the low 8 bits are written
     * @return this
     */
    public FrameWriter putByte(int v) {
        ensure(1);
        buffer[position++] = (byte) v;
        return this;
    }

    /**
     * @param v written as one byte, 1 or 0
     * @return this
     */
    public FrameWriter putBoolean(boolean v) {
        return putByte(v ? 1 : 0);
    }

    /**
     * @param v the low 16 bits are written
     * @return this
     */
    public FrameWriter putShort(int v) {
        ensure(2);
        SHORT.set(buffer, position, (short) v);
        position += 2;
        return this;
    }

    /**
     * @param v the value
     * @return this
     */
    public FrameWriter putInt(int v) {
        ensure(4);
        INT.set(buffer, position, v);
        position += 4;
        return this;
    }

    /**
     * @param v the value
     * @return this
     */
    public FrameWriter putLong(long v) {
        ensure(8);
        LONG.set(buffer, position, v);
        position += 8;
        return this;
    }

    /**
     * @param v written as its raw bits, so every value (NaN payloads too) survives bitwise
     * @return this
     */
    public FrameWriter putDouble(double v) {
        return putLong(Double.doubleToRawLongBits(v));
    }

    /**
     * Writes bytes as they are, without a length.
     *
     * @param src    the bytes (not modified)
     * @param offset the first one
     * @param length how many
     * @return this
     */
    public FrameWriter putRaw(byte[] src, int offset, int length) {
        ensure(length);
        System.arraycopy(src, offset, buffer, position, length);
        position += length;
        return this;
    }

    /**
     * Writes an int32 length (-1 for null), then the bytes.
     *
     * @param b the bytes, or null (not modified)
     * @return this
     */
    public FrameWriter putBytes(byte[] b) {
        if (b == null) {
            return putInt(-1);
        }
        putInt(b.length);
        return putRaw(b, 0, b.length);
    }

    /**
     * Writes the int32 length of the string's UTF-8 bytes, then the bytes. Allocates the bytes.
     *
     * @param s the string (not null)
     * @return this
     */
    public FrameWriter putString(String s) {
        return putBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes an int32 count, then each string as {@link #putString} does. Allocates.
     *
     * @param strings the strings (not modified)
     * @return this
     */
    public FrameWriter putStrings(List<String> strings) {
        putInt(strings.size());
        for (String s : strings) {
            putString(s);
        }
        return this;
    }

    /**
     * Writes the values one after the other, without a count.
     *
     * @param values the values (not modified)
     * @return this
     */
    public FrameWriter putInts(int[] values) {
        ensure(4L * values.length);
        for (int v : values) {
            INT.set(buffer, position, v);
            position += 4;
        }
        return this;
    }

    /**
     * Writes the values' raw bits one after the other, without a count.
     *
     * @param values the values (not modified)
     * @return this
     */
    public FrameWriter putDoubles(double[] values) {
        ensure(8L * values.length);
        for (double v : values) {
            LONG.set(buffer, position, Double.doubleToRawLongBits(v));
            position += 8;
        }
        return this;
    }

    /**
     * Overwrites an int32 already written (a length or count known only at the end).
     *
     * @param index where it starts, from the frame's start
     * @param v     the value
     * @return this
     * @throws IndexOutOfBoundsException unless the 4 bytes were written
     */
    public FrameWriter setInt(int index, int v) {
        written(index, 4);
        INT.set(buffer, index, v);
        return this;
    }

    /**
     * Overwrites an int64 already written (a sequence number, a time known only at sending).
     *
     * @param index where it starts, from the frame's start
     * @param v     the value
     * @return this
     * @throws IndexOutOfBoundsException unless the 8 bytes were written
     */
    public FrameWriter setLong(int index, long v) {
        written(index, 8);
        LONG.set(buffer, index, v);
        return this;
    }

    private void written(int index, int n) {
        if (index < 0 || index > position - n) {
            throw new IndexOutOfBoundsException(protocol + " frame: cannot overwrite " + n + " bytes at index " + index
                    + ", " + position + " bytes written");
        }
    }

    private void ensure(long n) {
        if (position + n > buffer.length) {
            long need = position + n;
            if (need > MAX_LENGTH) {
                throw new IllegalArgumentException(protocol + " frame too large: " + need + " bytes");
            }
            buffer = Arrays.copyOf(buffer, (int) Math.min(MAX_LENGTH, Math.max(need, 2L * buffer.length)));
        }
    }
}
