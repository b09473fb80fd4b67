package io.tandem.world.view;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code TPF1} pose frame of the viewer's stream and of MCAP's {@code /tandem/frames}:
 * little-endian, u32 magic {@code 0x31465054} ("TPF1"), u64 iteration, u64 simulated time (ns),
 * u32 n, then n records of 32 bytes: u32 entity id, f32 x, y, z (m, world frame), f32 qx, qy, qz,
 * qw. The records start 4-byte aligned, so a page lays a {@code Float32Array} over them without
 * copying. Single precision is for display; exact comparisons use the f64 CSV, JSON lines or MCAP
 * pose records.
 *
 * <p>Static methods: writers on a caller's array, readers on a caller's buffer; they allocate
 * nothing. Thread-safe.
 */
public final class PoseFrame {
    /** "TPF1" read as a little-endian u32 */
    public static final int MAGIC = 0x31465054;
    /** bytes before the first record */
    public static final int HEADER_BYTES = 24;
    /** bytes per entity record */
    public static final int RECORD_BYTES = 32;
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle F32 = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

    private PoseFrame() {
    }

    /** @return the bytes of a frame of n records */
    public static int bytes(int n) {
        return HEADER_BYTES + RECORD_BYTES * n;
    }

    /**
     * Writes a frame header into an array, little-endian (no buffer object, and none of a heap
     * {@link ByteBuffer}'s checks per field: a recording packs one every iteration).
     *
     * @param out       the array, with at least {@link #bytes}(n) bytes from off
     * @param off       where the frame starts
     * @param iteration the iteration the poses are of
     * @param simTimeNs its simulated time, ns
     * @param n         the number of records that follow
     */
    public static void writeHeader(byte[] out, int off, long iteration, long simTimeNs, int n) {
        I32.set(out, off, MAGIC);
        I64.set(out, off + 4, iteration);
        I64.set(out, off + 12, simTimeNs);
        I32.set(out, off + 20, n);
    }

    /** Writes one record into an array, little-endian.
     *
     * @param out the array, with {@link #RECORD_BYTES} bytes from off
     * @param off where the record starts
     * @param id  the entity's id (its index in the {@link SceneDescription})
     * @param x   position, m
     * @param qw  the unit quaternion's w (written last, as x, y, z, w)
     */
    public static void writeRecord(byte[] out, int off, int id, double x, double y, double z, double qw, double qx,
                                   double qy, double qz) {
        I32.set(out, off, id);
        F32.set(out, off + 4, (float) x);
        F32.set(out, off + 8, (float) y);
        F32.set(out, off + 12, (float) z);
        F32.set(out, off + 16, (float) qx);
        F32.set(out, off + 20, (float) qy);
        F32.set(out, off + 24, (float) qz);
        F32.set(out, off + 28, (float) qw);
    }

    /**
     * Checks a frame and returns its record count.
     *
     * @param frame the frame's bytes, from its position to its limit (not moved)
     * @return the number of records
     * @throws IllegalArgumentException naming what is wrong: not a TPF1 frame, or a length that does
     *         not match its count
     */
    public static int count(ByteBuffer frame) {
        ByteBuffer b = frame.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int p = b.position();
        if (b.remaining() < HEADER_BYTES || b.getInt(p) != MAGIC) {
            throw new IllegalArgumentException("not a TPF1 pose frame (" + b.remaining() + " bytes"
                    + (b.remaining() >= 4 ? String.format(java.util.Locale.ROOT, ", magic 0x%08x", b.getInt(p)) : "") + ")");
        }
        int n = b.getInt(p + 20);
        if (n < 0 || (long) b.remaining() != bytes(n)) {
            throw new IllegalArgumentException("TPF1 pose frame of " + b.remaining() + " bytes says it holds " + n
                    + " records (" + (n < 0 ? "negative" : bytes(n) + " bytes") + ")");
        }
        return n;
    }

    /** @return the frame's iteration (a checked frame, see {@link #count}) */
    public static long iteration(ByteBuffer frame) {
        return frame.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(frame.position() + 4);
    }

    /** @return the frame's simulated time, ns */
    public static long simTimeNs(ByteBuffer frame) {
        return frame.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(frame.position() + 12);
    }

    /** @return record i's entity id */
    public static int id(ByteBuffer frame, int i) {
        return frame.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(frame.position() + HEADER_BYTES + RECORD_BYTES * i);
    }

    /**
     * @param k 0..6 for x, y, z, qx, qy, qz, qw
     * @return record i's value k
     */
    public static float value(ByteBuffer frame, int i, int k) {
        return frame.duplicate().order(ByteOrder.LITTLE_ENDIAN)
                .getFloat(frame.position() + HEADER_BYTES + RECORD_BYTES * i + 4 + 4 * k);
    }
}
