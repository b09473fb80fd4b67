package io.tandem.world.internal;

import io.tandem.world.Pose;

/**
 * {@link Pose}'s arithmetic on flat arrays, for the allocation-free readers of the stepping loop.
 * Each method does exactly the floating-point operations of the {@link Pose} code it mirrors, in
 * the same order (the canonical constructor's normalization included), so the values are bitwise
 * those of the {@link Pose} records. A pose in an array is {@link #VALUES} values: x y z (m), then
 * qw qx qy qz. Allocates nothing (except the exception for a non-finite pose); stateless,
 * thread-safe.
 */
public final class PoseMath {
    /** values of one pose in an array: x y z qw qx qy qz */
    public static final int VALUES = 7;

    private PoseMath() {
    }

    /**
     * {@code new Pose(x, y, z, qw, qx, qy, qz)} into {@code out[o..o+6]}: the quaternion normalized.
     *
     * @throws IllegalArgumentException as the constructor, for a non-finite position or a zero or
     *                                  non-finite quaternion
     */
    public static void set(double[] out, int o, double x, double y, double z, double qw, double qx, double qy, double qz) {
        double n = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
        if (!Double.isFinite(x + y + z) || !(n > 1e-12) || !Double.isFinite(n)) {
            new Pose(x, y, z, qw, qx, qy, qz); // throws the record's own exception (cold path)
            throw new AssertionError("unreachable: Pose rejects what set rejects");
        }
        out[o] = x;
        out[o + 1] = y;
        out[o + 2] = z;
        out[o + 3] = qw / n;
        out[o + 4] = qx / n;
        out[o + 5] = qy / n;
        out[o + 6] = qz / n;
    }

    /**
     * {@code a.compose(child)} ({@link Pose#compose}: a * child) into {@code out[oo..oo+6]}; out
     * may be a (the same offset too).
     *
     * @param a     the parent pose's 7 values at {@code ao}
     * @param child the child pose, in a's frame
     */
    public static void compose(double[] a, int ao, Pose child, double[] out, int oo) {
        double x = a[ao];
        double y = a[ao + 1];
        double z = a[ao + 2];
        double qw = a[ao + 3];
        double qx = a[ao + 4];
        double qy = a[ao + 5];
        double qz = a[ao + 6];
        // Pose.rotate(child.x, child.y, child.z)
        double vx = child.x();
        double vy = child.y();
        double vz = child.z();
        double tx = 2 * (qy * vz - qz * vy);
        double ty = 2 * (qz * vx - qx * vz);
        double tz = 2 * (qx * vy - qy * vx);
        double p0 = vx + qw * tx + (qy * tz - qz * ty);
        double p1 = vy + qw * ty + (qz * tx - qx * tz);
        double p2 = vz + qw * tz + (qx * ty - qy * tx);
        double cw = child.qw();
        double cx = child.qx();
        double cy = child.qy();
        double cz = child.qz();
        set(out, oo, x + p0, y + p1, z + p2,
                qw * cw - qx * cx - qy * cy - qz * cz,
                qw * cx + qx * cw + qy * cz - qz * cy,
                qw * cy - qx * cz + qy * cw + qz * cx,
                qw * cz + qx * cy - qy * cx + qz * cw);
    }

    /**
     * {@link io.tandem.world.WorldRunner#modelPoseOf} into {@code out[o..o+6]}: a model's pose from its first
     * link's body state.
     *
     * @param bodyInLinkInverse       {@code bodyInLink.inverse()} of the first link's body
     * @param firstLinkInModelInverse {@code firstLinkInModel.inverse()} of the model
     */
    public static void modelPose(double[] pos, int p, double[] quat, int q, Pose bodyInLinkInverse,
                          Pose firstLinkInModelInverse, double[] out, int o) {
        set(out, o, pos[p], pos[p + 1], pos[p + 2], quat[q], quat[q + 1], quat[q + 2], quat[q + 3]);
        compose(out, o, bodyInLinkInverse, out, o);
        compose(out, o, firstLinkInModelInverse, out, o);
    }

    /**
     * A model's pose from its first link's body state: the one formula of the runner and of the
     * distributed primary's scene, so both give bitwise the same poses from the same state.
     */
    public static Pose modelPose(double[] pos, int p, double[] quat, int q, Pose bodyInLink, Pose firstLinkInModel) {
        Pose body = new Pose(pos[p], pos[p + 1], pos[p + 2], quat[q], quat[q + 1], quat[q + 2], quat[q + 3]);
        Pose link = body.compose(bodyInLink.inverse());
        return link.compose(firstLinkInModel.inverse());
    }

    /**
     * {@link #linkPose(double[], int, double[], int, Pose)} into {@code out[o..o+6]} (x, y, z, qw, qx,
     * qy, qz), allocating nothing.
     *
     * @param bodyInLinkInverse {@code bodyInLink.inverse()} of the link's body
     */
    public static void linkPose(double[] pos, int p, double[] quat, int q, Pose bodyInLinkInverse, double[] out, int o) {
        set(out, o, pos[p], pos[p + 1], pos[p + 2], quat[q], quat[q + 1], quat[q + 2], quat[q + 3]);
        compose(out, o, bodyInLinkInverse, out, o);
    }

    /**
     * A link's frame from its body's state: the one formula of the runner and of the distributed
     * primary's scene, so both give bitwise the same link poses from the same state.
     */
    public static Pose linkPose(double[] pos, int p, double[] quat, int q, Pose bodyInLink) {
        Pose body = new Pose(pos[p], pos[p + 1], pos[p + 2], quat[q], quat[q + 1], quat[q + 2], quat[q + 3]);
        return body.compose(bodyInLink.inverse());
    }
}
