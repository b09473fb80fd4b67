package io.tandem.world.mesh;

/**
 * 4 x 4 affine transforms as row-major double[16] acting on column vectors (COLLADA's layout:
 * a {@code <matrix>}'s 16 numbers in the order written). Kernels allocate only their result.
 */
final class AffineOps {
    private AffineOps() {
    }

    static double[] identity() {
        return new double[] {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    }

    /** @return a b (b applied first) */
    static double[] multiply(double[] a, double[] b) {
        double[] c = new double[16];
        for (int r = 0; r < 4; r++) {
            for (int k = 0; k < 4; k++) {
                double s = 0;
                for (int j = 0; j < 4; j++) {
                    s += a[4 * r + j] * b[4 * j + k];
                }
                c[4 * r + k] = s;
            }
        }
        return c;
    }

    static double[] translation(double x, double y, double z) {
        double[] m = identity();
        m[3] = x;
        m[7] = y;
        m[11] = z;
        return m;
    }

    static double[] scaling(double x, double y, double z) {
        double[] m = identity();
        m[0] = x;
        m[5] = y;
        m[10] = z;
        return m;
    }

    /** @return the rotation by {@code degrees} about the unit axis (x, y, z), counter-clockwise */
    static double[] rotation(double x, double y, double z, double degrees) {
        double a = Math.toRadians(degrees);
        double c = Math.cos(a);
        double s = Math.sin(a);
        double t = 1 - c;
        return new double[] {
            t * x * x + c, t * x * y - s * z, t * x * z + s * y, 0,
            t * x * y + s * z, t * y * y + c, t * y * z - s * x, 0,
            t * x * z - s * y, t * y * z + s * x, t * z * z + c, 0,
            0, 0, 0, 1};
    }

    /**
     * COLLADA's {@code <lookat>}: the frame at {@code eye} whose -z points at {@code target} and
     * whose y leans to {@code up}; null when eye and target coincide or up is along the view.
     */
    static double[] lookAt(double[] eye, double[] target, double[] up) {
        double[] z = normalized(eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]);
        if (z == null) {
            return null;
        }
        double[] x = normalized(up[1] * z[2] - up[2] * z[1], up[2] * z[0] - up[0] * z[2], up[0] * z[1] - up[1] * z[0]);
        if (x == null) {
            return null;
        }
        double[] y = {z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]};
        return new double[] {
            x[0], y[0], z[0], eye[0],
            x[1], y[1], z[1], eye[1],
            x[2], y[2], z[2], eye[2],
            0, 0, 0, 1};
    }

    /** @return the unit vector, or null when its length is zero or not finite */
    static double[] normalized(double x, double y, double z) {
        double n = Math.sqrt(x * x + y * y + z * z);
        if (!(n > 0) || !Double.isFinite(n)) {
            return null;
        }
        return new double[] {x / n, y / n, z / n};
    }

    /** @return the determinant of the upper-left 3 x 3 block (negative for a mirroring transform) */
    static double determinant3(double[] m) {
        return m[0] * (m[5] * m[10] - m[6] * m[9])
                - m[1] * (m[4] * m[10] - m[6] * m[8])
                + m[2] * (m[4] * m[9] - m[5] * m[8]);
    }
}
