package io.tandem.physics.internal.dynamics;

/**
 * Rigid-body kernels on flat arrays: quaternions (w, x, y, z) at 4 i, vectors at 3 i, 3x3
 * matrices row-major at 9 i. Stateless; allocate nothing.
 */
public final class RigidOps {
    private RigidOps() {
    }

    /** out = R(q) v (rotates a body-frame vector to world). */
    public static void rotate(double[] q, int qi, double vx, double vy, double vz, double[] out, int oi) {
        rotate(q[qi], q[qi + 1], q[qi + 2], q[qi + 3], vx, vy, vz, out, oi);
    }

    /** out = R(q)^T v (world to body frame): the rotation by the conjugate quaternion. */
    public static void rotateInverse(double[] q, int qi, double vx, double vy, double vz, double[] out, int oi) {
        rotate(q[qi], -q[qi + 1], -q[qi + 2], -q[qi + 3], vx, vy, vz, out, oi);
    }

    private static void rotate(double w, double x, double y, double z, double vx, double vy, double vz,
                               double[] out, int oi) {
        // t = 2 q_vec x v ; v' = v + w t + q_vec x t
        double tx = 2 * (y * vz - z * vy);
        double ty = 2 * (z * vx - x * vz);
        double tz = 2 * (x * vy - y * vx);
        out[oi] = vx + w * tx + (y * tz - z * ty);
        out[oi + 1] = vy + w * ty + (z * tx - x * tz);
        out[oi + 2] = vz + w * tz + (x * ty - y * tx);
    }

    /** World inertia R diag(d) R^T into m[mi..mi+9). */
    public static void worldInertia(double[] q, int qi, double dx, double dy, double dz, double[] m, int mi) {
        double w = q[qi];
        double x = q[qi + 1];
        double y = q[qi + 2];
        double z = q[qi + 3];
        double r00 = 1 - 2 * (y * y + z * z);
        double r01 = 2 * (x * y - w * z);
        double r02 = 2 * (x * z + w * y);
        double r10 = 2 * (x * y + w * z);
        double r11 = 1 - 2 * (x * x + z * z);
        double r12 = 2 * (y * z - w * x);
        double r20 = 2 * (x * z - w * y);
        double r21 = 2 * (y * z + w * x);
        double r22 = 1 - 2 * (x * x + y * y);
        m[mi] = r00 * r00 * dx + r01 * r01 * dy + r02 * r02 * dz;
        m[mi + 1] = r00 * r10 * dx + r01 * r11 * dy + r02 * r12 * dz;
        m[mi + 2] = r00 * r20 * dx + r01 * r21 * dy + r02 * r22 * dz;
        m[mi + 3] = m[mi + 1];
        m[mi + 4] = r10 * r10 * dx + r11 * r11 * dy + r12 * r12 * dz;
        m[mi + 5] = r10 * r20 * dx + r11 * r21 * dy + r12 * r22 * dz;
        m[mi + 6] = m[mi + 2];
        m[mi + 7] = m[mi + 5];
        m[mi + 8] = r20 * r20 * dx + r21 * r21 * dy + r22 * r22 * dz;
    }

    /**
     * q = exp(h w / 2) (x) q, the world-frame rotation update q^{k+1} = exp(h [w]x) q^k, then
     * renormalized. w at wi (3), q at qi (4). Modified: q.
     */
    public static void integrateRotation(double[] q, int qi, double wx, double wy, double wz, double h) {
        double ax = wx * h;
        double ay = wy * h;
        double az = wz * h;
        double angle = Math.sqrt(ax * ax + ay * ay + az * az);
        double c;
        double s;
        if (angle < 1e-8) {
            c = 1 - angle * angle / 8;
            s = 0.5 - angle * angle / 48;
        } else {
            c = Math.cos(angle / 2);
            s = Math.sin(angle / 2) / angle;
        }
        double dw = c;
        double dx = ax * s;
        double dy = ay * s;
        double dz = az * s;
        double w = q[qi];
        double x = q[qi + 1];
        double y = q[qi + 2];
        double z = q[qi + 3];
        double nw = dw * w - dx * x - dy * y - dz * z;
        double nx = dw * x + dx * w + dy * z - dz * y;
        double ny = dw * y - dx * z + dy * w + dz * x;
        double nz = dw * z + dx * y - dy * x + dz * w;
        double n = 1.0 / Math.sqrt(nw * nw + nx * nx + ny * ny + nz * nz);
        q[qi] = nw * n;
        q[qi + 1] = nx * n;
        q[qi + 2] = ny * n;
        q[qi + 3] = nz * n;
    }

    /** out = a (x) b (quaternion product), all (w, x, y, z). */
    public static void multiply(double[] a, int ai, double[] b, int bi, double[] out, int oi) {
        double aw = a[ai];
        double ax = a[ai + 1];
        double ay = a[ai + 2];
        double az = a[ai + 3];
        double bw = b[bi];
        double bx = b[bi + 1];
        double by = b[bi + 2];
        double bz = b[bi + 3];
        out[oi] = aw * bw - ax * bx - ay * by - az * bz;
        out[oi + 1] = aw * bx + ax * bw + ay * bz - az * by;
        out[oi + 2] = aw * by - ax * bz + ay * bw + az * bx;
        out[oi + 3] = aw * bz + ax * by - ay * bx + az * bw;
    }

    /** out = conj(a) (x) b. */
    public static void multiplyConjugate(double[] a, int ai, double[] b, int bi, double[] out, int oi) {
        double aw = a[ai];
        double ax = -a[ai + 1];
        double ay = -a[ai + 2];
        double az = -a[ai + 3];
        double bw = b[bi];
        double bx = b[bi + 1];
        double by = b[bi + 2];
        double bz = b[bi + 3];
        out[oi] = aw * bw - ax * bx - ay * by - az * bz;
        out[oi + 1] = aw * bx + ax * bw + ay * bz - az * by;
        out[oi + 2] = aw * by - ax * bz + ay * bw + az * bx;
        out[oi + 3] = aw * bz + ax * by - ay * bx + az * bw;
    }

    /** Two unit vectors p1, p2 with (a, p1, p2) right-handed orthonormal; a must be unit. */
    public static void perpendicular(double[] a, double[] p1, double[] p2) {
        perpendicular(a, 0, p1, 0, p2, 0);
    }

    /** {@link #perpendicular(double[], double[], double[])} on vectors at offsets. */
    public static void perpendicular(double[] a, int ao, double[] p1, int o1, double[] p2, int o2) {
        // pick the world axis least aligned with a
        double a0 = a[ao];
        double a1 = a[ao + 1];
        double a2 = a[ao + 2];
        double ax = Math.abs(a0);
        double ay = Math.abs(a1);
        double az = Math.abs(a2);
        double tx;
        double ty;
        double tz;
        if (ax <= ay && ax <= az) {
            tx = 0;
            ty = a2;
            tz = -a1;
        } else if (ay <= az) {
            tx = -a2;
            ty = 0;
            tz = a0;
        } else {
            tx = a1;
            ty = -a0;
            tz = 0;
        }
        double n = 1.0 / Math.sqrt(tx * tx + ty * ty + tz * tz);
        double p0 = tx * n;
        double p1y = ty * n;
        double p1z = tz * n;
        p1[o1] = p0;
        p1[o1 + 1] = p1y;
        p1[o1 + 2] = p1z;
        p2[o2] = a1 * p1z - a2 * p1y;
        p2[o2 + 1] = a2 * p0 - a0 * p1z;
        p2[o2 + 2] = a0 * p1y - a1 * p0;
    }
}
