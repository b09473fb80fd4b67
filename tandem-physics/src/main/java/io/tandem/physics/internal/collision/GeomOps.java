package io.tandem.physics.internal.collision;

/**
 * Small static kernels on flat arrays shared by the narrow-phase classes: quaternion to rotation
 * matrix, clamping, and the closest points of two segments. Allocation-free; stateless.
 */
final class GeomOps {
    private GeomOps() {
    }

    /**
     * Writes the row-major rotation matrix of the quaternion {@code quat[4i..4i+3]} = (w, x, y, z)
     * into {@code m[o..o+8]}. The quaternion is normalized on the fly (a zero quaternion gives the
     * identity). Column k of the matrix is the local axis k expressed in the world.
     */
    static void quatToMatrix(double[] quat, int i, double[] m, int o) {
        int q = 4 * i;
        double w = quat[q];
        double x = quat[q + 1];
        double y = quat[q + 2];
        double z = quat[q + 3];
        double n2 = w * w + x * x + y * y + z * z;
        double s = n2 > 0 ? 2.0 / n2 : 0.0;
        double xs = x * s;
        double ys = y * s;
        double zs = z * s;
        double wx = w * xs;
        double wy = w * ys;
        double wz = w * zs;
        double xx = x * xs;
        double xy = x * ys;
        double xz = x * zs;
        double yy = y * ys;
        double yz = y * zs;
        double zz = z * zs;
        m[o] = 1.0 - (yy + zz);
        m[o + 1] = xy - wz;
        m[o + 2] = xz + wy;
        m[o + 3] = xy + wz;
        m[o + 4] = 1.0 - (xx + zz);
        m[o + 5] = yz - wx;
        m[o + 6] = xz - wy;
        m[o + 7] = yz + wx;
        m[o + 8] = 1.0 - (xx + yy);
    }

    static double clamp(double v, double lo, double hi) {
        return v < lo ? lo : (v > hi ? hi : v);
    }

    /**
     * Closest points of the segments p1 + s d1 and p2 + t d2 (s, t in [0, 1]); Ericson,
     * Real-Time Collision Detection, 5.1.9. Both directions must be non-zero. Writes s into
     * {@code st[0]} and t into {@code st[1]}.
     */
    static void closestSegmentSegment(
            double p1x, double p1y, double p1z, double d1x, double d1y, double d1z,
            double p2x, double p2y, double p2z, double d2x, double d2y, double d2z, double[] st) {
        double rx = p1x - p2x;
        double ry = p1y - p2y;
        double rz = p1z - p2z;
        double a = d1x * d1x + d1y * d1y + d1z * d1z;
        double e = d2x * d2x + d2y * d2y + d2z * d2z;
        double f = d2x * rx + d2y * ry + d2z * rz;
        double c = d1x * rx + d1y * ry + d1z * rz;
        double b = d1x * d2x + d1y * d2y + d1z * d2z;
        double denom = a * e - b * b;
        double s;
        // parallel segments: any s works, pick the start of the first
        if (denom > 1e-14 * a * e) {
            s = clamp((b * f - c * e) / denom, 0.0, 1.0);
        } else {
            s = 0.0;
        }
        double t = (b * s + f) / e;
        if (t < 0.0) {
            t = 0.0;
            s = clamp(-c / a, 0.0, 1.0);
        } else if (t > 1.0) {
            t = 1.0;
            s = clamp((b - c) / a, 0.0, 1.0);
        }
        st[0] = s;
        st[1] = t;
    }
}
