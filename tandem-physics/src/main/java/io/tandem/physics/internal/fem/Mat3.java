package io.tandem.physics.internal.fem;

/** 3x3 matrices as row-major {@code double[9]}; static, allocation-free helpers. */
final class Mat3 {
    private Mat3() {
    }

    static double det(double[] m) {
        return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
    }

    /** out = m^-1 (out may not be m); @return det m */
    static double inverse(double[] m, double[] out) {
        double d = det(m);
        double s = 1 / d;
        out[0] = (m[4] * m[8] - m[5] * m[7]) * s;
        out[1] = (m[2] * m[7] - m[1] * m[8]) * s;
        out[2] = (m[1] * m[5] - m[2] * m[4]) * s;
        out[3] = (m[5] * m[6] - m[3] * m[8]) * s;
        out[4] = (m[0] * m[8] - m[2] * m[6]) * s;
        out[5] = (m[2] * m[3] - m[0] * m[5]) * s;
        out[6] = (m[3] * m[7] - m[4] * m[6]) * s;
        out[7] = (m[1] * m[6] - m[0] * m[7]) * s;
        out[8] = (m[0] * m[4] - m[1] * m[3]) * s;
        return d;
    }

    /** out = a b (out may not be a or b) */
    static void multiply(double[] a, double[] b, double[] out) {
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                out[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
            }
        }
    }
}
