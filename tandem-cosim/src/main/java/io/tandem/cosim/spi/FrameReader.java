package io.tandem.cosim.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A bounds-checked cursor that reads one binary frame in place from a byte array, little-endian,
 * as {@link FrameWriter} writes it. Reading past the frame's end throws the codec's
 * {@link FrameErrors#truncated} exception (naming the field where the codec names it), never reads
 * a neighbour's bytes; {@link #expectEnd()} refuses bytes after the last field.
 *
 * <p>Offsets and lengths are in bytes; {@link #position()} counts from the frame's first byte.
 * The {@code what} argument of a getter names the field for error messages; the getters without
 * it name none.
 *
 * <p>Reusable ({@link #wrap}): reading primitives, raw bytes and arrays does not allocate;
 * {@link #getString} and {@link #getBytes} allocate what they return, {@link #copyBuffer} when it
 * grows. Not thread-safe: one reader per thread.
 */
public final class FrameReader {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final FrameErrors errors;
    private byte[] buffer;
    private int start;
    private int position;
    private int limit;
    private int type;
    private byte[] copy = new byte[0];

    /**
     * @param errors how the codec reports a malformed frame
     * @throws IllegalArgumentException if {@code errors} is null
     */
    public FrameReader(FrameErrors errors) {
        if (errors == null) {
            throw new IllegalArgumentException("a frame reader needs its codec's FrameErrors");
        }
        this.errors = errors;
    }

    /**
     * Reads a little-endian int32 without a cursor (a header field). Does not allocate.
     *
     * @param array the bytes (not modified)
     * @param index its first byte
     * @return the value
     * @throws IndexOutOfBoundsException past the array's end
     */
    public static int intAt(byte[] array, int index) {
        return (int) INT.get(array, index);
    }

    /**
     * Reads a little-endian int64 without a cursor (a header field). Does not allocate.
     *
     * @param array the bytes (not modified)
     * @param index its first byte
     * @return the value
     * @throws IndexOutOfBoundsException past the array's end
     */
    public static long longAt(byte[] array, int index) {
        return (long) LONG.get(array, index);
    }

    /**
     * Starts reading a frame (no copy).
     *
     * @param frame      the array holding it (not modified; read until the next wrap)
     * @param offset     the frame's first byte in {@code frame}
     * @param length     the frame's length
     * @param bodyOffset where reading starts, from the frame's first byte (after a header the codec checked)
     * @param type       the frame's type as the codec numbers it, for its errors ({@link #type()})
     * @return this
     * @throws IndexOutOfBoundsException unless the frame lies in the array and the body in the frame
     */
    public FrameReader wrap(byte[] frame, int offset, int length, int bodyOffset, int type) {
        if (offset < 0 || length < 0 || offset > frame.length - length || bodyOffset < 0 || bodyOffset > length) {
            throw new IndexOutOfBoundsException("frame of " + length + " bytes at " + offset + " (body at " + bodyOffset
                    + ") does not fit an array of " + frame.length);
        }
        this.buffer = frame;
        this.start = offset;
        this.position = offset + bodyOffset;
        this.limit = offset + length;
        this.type = type;
        return this;
    }

    /**
     * A reusable array of at least {@code length} bytes, owned by this reader: for a frame that
     * lies where the reader cannot wrap it (memory-mapped, off-heap), to be copied here and then
     * wrapped. Valid until the next call; allocates only when it must grow.
     *
     * @param length the frame's length
     * @return the array
     */
    public byte[] copyBuffer(int length) {
        if (copy.length < length) {
            copy = new byte[Math.max(length, 2 * copy.length)];
        }
        return copy;
    }

    /** @return the type given to {@link #wrap} */
    public int type() {
        return type;
    }

    /** @return the array the frame lies in */
    public byte[] array() {
        return buffer;
    }

    /** @return the frame's length, bytes */
    public int length() {
        return limit - start;
    }

    /** @return the cursor, bytes from the frame's first byte */
    public int position() {
        return position - start;
    }

    /** @return how many bytes are left after the cursor */
    public int remaining() {
        return limit - position;
    }

    /** @return whether every byte of the frame was read */
    public boolean atEnd() {
        return position == limit;
    }

    /** @throws RuntimeException the codec's {@link FrameErrors#trailingBytes} if bytes are left */
    public void expectEnd() {
        if (position != limit) {
            throw errors.trailingBytes(this);
        }
    }

    /**
     * @param what  the field
     * @param value the value read
     * @return the codec's exception for an invalid value, positioned after it (the caller throws it)
     */
    public RuntimeException invalid(String what, long value) {
        return errors.invalid(this, what, value);
    }

    private void require(int n, String what) {
        if (n < 0 || limit - position < n) {
            throw errors.truncated(this, what, n);
        }
    }

    /** @return the next byte */
    public byte getByte() {
        return getByte(null);
    }

    /**
     * @param what the field
     * @return the next byte
     */
    public byte getByte(String what) {
        require(1, what);
        return buffer[position++];
    }

    /**
     * @param what the field
     * @return the next byte as a boolean
     * @throws RuntimeException the codec's {@link FrameErrors#invalid} unless the byte is 0 or 1
     */
    public boolean getBoolean(String what) {
        byte b = getByte(what);
        if (b != 0 && b != 1) {
            throw invalid(what, b);
        }
        return b == 1;
    }

    /** @return the next int32 */
    public int getInt() {
        return getInt(null);
    }

    /**
     * @param what the field
     * @return the next int32
     */
    public int getInt(String what) {
        require(4, what);
        int v = (int) INT.get(buffer, position);
        position += 4;
        return v;
    }

    /** @return the next int64 */
    public long getLong() {
        return getLong(null);
    }

    /**
     * @param what the field
     * @return the next int64
     */
    public long getLong(String what) {
        require(8, what);
        long v = (long) LONG.get(buffer, position);
        position += 8;
        return v;
    }

    /** @return the next double (from its raw bits) */
    public double getDouble() {
        return Double.longBitsToDouble(getLong(null));
    }

    /**
     * @param what the field
     * @return the next double (from its raw bits)
     */
    public double getDouble(String what) {
        return Double.longBitsToDouble(getLong(what));
    }

    /**
     * Reads bytes written without a length.
     *
     * @param dst    where they go (modified)
     * @param offset the first index in {@code dst}
     * @param length how many
     */
    public void getRaw(byte[] dst, int offset, int length) {
        require(length, null);
        System.arraycopy(buffer, position, dst, offset, length);
        position += length;
    }

    /**
     * Reads int32 values written without a count.
     *
     * @param dst filled with the next {@code dst.length} values (modified)
     */
    public void getInts(int[] dst) {
        require((int) Math.min(Integer.MAX_VALUE, 4L * dst.length), null);
        for (int i = 0; i < dst.length; i++) {
            dst[i] = (int) INT.get(buffer, position);
            position += 4;
        }
    }

    /**
     * Reads doubles written without a count (from their raw bits).
     *
     * @param dst filled with the next {@code dst.length} values (modified)
     */
    public void getDoubles(double[] dst) {
        require((int) Math.min(Integer.MAX_VALUE, 8L * dst.length), null);
        for (int i = 0; i < dst.length; i++) {
            dst[i] = Double.longBitsToDouble((long) LONG.get(buffer, position));
            position += 8;
        }
    }

    /** @return the next string (int32 length + UTF-8); allocates it */
    public String getString() {
        return getString(null);
    }

    /**
     * @param what the field ("WHAT length" names its length in errors)
     * @return the next string (int32 length + UTF-8); allocates it
     */
    public String getString(String what) {
        int n = getLength(what);
        require(n, what);
        String s = new String(buffer, position, n, StandardCharsets.UTF_8);
        position += n;
        return s;
    }

    /**
     * @param what the field ("WHAT length" names its length in errors)
     * @return the next byte array (int32 length, -1 for null, + bytes); allocates it
     */
    public byte[] getBytes(String what) {
        int n = getLength(what);
        if (n == -1) {
            return null;
        }
        require(n, what);
        byte[] bytes = Arrays.copyOfRange(buffer, position, position + n);
        position += n;
        return bytes;
    }

    /**
     * Reads length-prefixed bytes (as {@link FrameWriter#putBytes} wrote them) and compares them
     * without allocating; they are consumed either way.
     *
     * @param expected the bytes to compare with (not modified)
     * @return whether they are equal
     */
    public boolean bytesEqual(byte[] expected) {
        int n = getLength(null);
        require(n, null);
        boolean equal = Arrays.equals(buffer, position, position + n, expected, 0, expected.length);
        position += n;
        return equal;
    }

    private int getLength(String what) {
        if (limit - position < 4) {
            throw errors.truncated(this, what == null ? null : what + " length", 4);
        }
        return getInt(null);
    }

    /**
     * Reads an element count and checks that the frame can hold that many elements.
     *
     * @param what            the elements ("label count")
     * @param minElementBytes the smallest encoding of one element
     * @return the count
     * @throws RuntimeException the codec's {@link FrameErrors#invalid} for a negative count, its
     *                          {@link FrameErrors#truncated} ("N x WHAT") for one the frame cannot hold
     */
    public int getCount(String what, int minElementBytes) {
        int n = getInt(what);
        if (n < 0) {
            throw invalid(what, n);
        }
        long needed = (long) n * minElementBytes;
        if (limit - position < needed) {
            throw errors.truncated(this, n + " x " + what, (int) Math.min(Integer.MAX_VALUE, needed));
        }
        return n;
    }
}
