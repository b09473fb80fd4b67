package io.tandem.cle.record;

import io.tandem.cle.device.ModelPose;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A model's recorded poses: one sample per loop step (the pose at the step's start, as the
 * transfer functions see it) and one at the end of each run. Storage grows before a run, never
 * during it. Loop thread only.
 */
public final class Trajectory {
    private static final int FIELDS = 7;
    private final String model;
    private long[] timeNs = new long[0];
    /** sample x (x, y, z, qw, qx, qy, qz) */
    private double[] pose = new double[0];
    private int size;

    /** @param model the model recorded; the loop creates one per recorded model */
    public Trajectory(String model) {
        this.model = model;
    }

    /** @return the model recorded */
    public String model() {
        return model;
    }

    /**
     * Loop side: room for {@code samples} samples in all (allocates when it grows; called before stepping).
     * @param samples the total
     */
    public void ensureCapacity(int samples) {
        if (samples > timeNs.length) {
            int n = Math.max(samples, 2 * timeNs.length);
            timeNs = Arrays.copyOf(timeNs, n);
            pose = Arrays.copyOf(pose, FIELDS * n);
        }
    }

    /**
     * Loop side: appends the pose {@code p} holds at {@code t} (ns); allocates nothing within the capacity.
     * @param t the virtual time, ns
     * @param p the model's pose device (not modified)
     */
    public void record(long t, ModelPose p) {
        if (size > 0 && timeNs[size - 1] == t) {
            return;
        }
        if (size == timeNs.length) {
            ensureCapacity(size + 1);
        }
        timeNs[size] = t;
        p.copyTo(scratch);
        System.arraycopy(scratch, 0, pose, FIELDS * size, FIELDS);
        size++;
    }

    private final double[] scratch = new double[FIELDS];

    /** Loop side: forgets every sample (the loop's reset). */
    public void clear() {
        size = 0;
    }

    /** @return the samples recorded */
    public int size() {
        return size;
    }

    /** @return the simulated time of sample {@code i}, ns */
    public long timeNs(int i) {
        return timeNs[check(i)];
    }

    /** @return x of sample {@code i}, m */
    public double x(int i) {
        return pose[FIELDS * check(i)];
    }

    /** @return y of sample {@code i}, m */
    public double y(int i) {
        return pose[FIELDS * check(i) + 1];
    }

    /** @return z of sample {@code i}, m */
    public double z(int i) {
        return pose[FIELDS * check(i) + 2];
    }

    /** @return the heading of sample {@code i}, rad in (-pi, pi] */
    public double yaw(int i) {
        int o = FIELDS * check(i);
        double w = pose[o + 3];
        double x = pose[o + 4];
        double y = pose[o + 5];
        double z = pose[o + 6];
        return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
    }

    /**
     * @return the SHA-256 of the samples, lowercase hex ({@code trajectory_sha256}): per sample the
     *         time (ns) and x, y, z, qw, qx, qy, qz as IEEE-754 bits, big-endian. Equal hashes mean
     *         bitwise equal trajectories. Allocates.
     */
    public String sha256() {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
        ByteBuffer b = ByteBuffer.allocate(8 * (1 + FIELDS));
        for (int i = 0; i < size; i++) {
            b.clear();
            b.putLong(timeNs[i]);
            for (int f = 0; f < FIELDS; f++) {
                b.putLong(Double.doubleToLongBits(pose[FIELDS * i + f]));
            }
            md.update(b.array());
        }
        StringBuilder hex = new StringBuilder(64);
        for (byte x : md.digest()) {
            hex.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return hex.toString();
    }

    private int check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("sample " + i + " of " + size);
        }
        return i;
    }
}
