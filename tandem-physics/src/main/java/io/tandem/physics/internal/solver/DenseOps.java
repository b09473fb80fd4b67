package io.tandem.physics.internal.solver;

/**
 * Small dense kernels on row-major arrays with offsets: Cholesky factorization and solves (also
 * the articulations' step, PhysicsEngine's package). Stateless; allocate nothing.
 */
public final class DenseOps {
    private DenseOps() {
    }

    /**
     * In-place Cholesky factorization of the SPD n x n matrix at {@code m[off..]} (row-major):
     * the strict lower triangle becomes L with A = L L^T and the diagonal holds 1 / L_ii (so solves
     * multiply instead of divide). Modified.
     *
     * @return false if the matrix is not positive definite
     */
    public static boolean cholesky(double[] m, int off, int n) {
        for (int j = 0; j < n; j++) {
            double d = m[off + j * n + j];
            for (int k = 0; k < j; k++) {
                double l = m[off + j * n + k];
                d -= l * l;
            }
            if (!(d > 0)) {
                return false;
            }
            double inv = 1.0 / Math.sqrt(d);
            m[off + j * n + j] = inv;
            for (int i = j + 1; i < n; i++) {
                double s = m[off + i * n + j];
                for (int k = 0; k < j; k++) {
                    s -= m[off + i * n + k] * m[off + j * n + k];
                }
                m[off + i * n + j] = s * inv;
            }
        }
        return true;
    }

    /** Solves L L^T x = rhs in place ({@code x[xo..xo+n)} holds rhs on entry). */
    public static void choleskySolve(double[] l, int off, int n, double[] x, int xo) {
        for (int i = 0; i < n; i++) {
            double s = x[xo + i];
            for (int k = 0; k < i; k++) {
                s -= l[off + i * n + k] * x[xo + k];
            }
            x[xo + i] = s * l[off + i * n + i];
        }
        for (int i = n - 1; i >= 0; i--) {
            double s = x[xo + i];
            for (int k = i + 1; k < n; k++) {
                s -= l[off + k * n + i] * x[xo + k];
            }
            x[xo + i] = s * l[off + i * n + i];
        }
    }

    /**
     * Forward substitution only: x = L^-1 rhs in place; with it J A^-1 J^T = |L^-1 J^T|^2.
     */
    static void forwardSolve(double[] l, int off, int n, double[] x, int xo) {
        for (int i = 0; i < n; i++) {
            double s = x[xo + i];
            for (int k = 0; k < i; k++) {
                s -= l[off + i * n + k] * x[xo + k];
            }
            x[xo + i] = s * l[off + i * n + i];
        }
    }

    /**
     * Dense inverse of a factored n x n matrix into {@code inv[io..io + n n)}, via n solves;
     * {@code col[co..co + n)} is scratch (give each thread its own range).
     */
    static void inverse(double[] l, int off, int n, double[] inv, int io, double[] col, int co) {
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                col[co + i] = i == j ? 1 : 0;
            }
            choleskySolve(l, off, n, col, co);
            for (int i = 0; i < n; i++) {
                inv[io + i * n + j] = col[co + i];
            }
        }
    }

    /**
     * Inverse of the SPD n x n matrix at {@code m[mo..]} (not modified) into {@code inv[io..]};
     * {@code scratch[so..so + n n + n)} is used (give each thread its own range).
     *
     * @return false if the matrix is not positive definite
     */
    static boolean invertSpd(double[] m, int mo, int n, double[] inv, int io, double[] scratch, int so) {
        System.arraycopy(m, mo, scratch, so, n * n);
        if (!cholesky(scratch, so, n)) {
            return false;
        }
        inverse(scratch, so, n, inv, io, scratch, so + n * n);
        return true;
    }

    /** y = M x for the dense n x n row-major M at {@code m[mo..]}; x and y must not overlap. */
    static void multiply(double[] m, int mo, int n, double[] x, int xo, double[] y, int yo) {
        for (int i = 0; i < n; i++) {
            double s = 0;
            int row = mo + i * n;
            for (int k = 0; k < n; k++) {
                s += m[row + k] * x[xo + k];
            }
            y[yo + i] = s;
        }
    }
}
