package io.tandem.physics.internal.fem;

/**
 * The co-rotational linear tetrahedron (M. Mueller, M. Gross, "Interactive Virtual Materials", GI
 * 2004; as Vega FEM's corotationalLinearFEM; physics-wave2.md section 6.1): the linear element
 * stiffness {@code K_e = V B^T D B} at rest, the rotation {@code R = polar(F)} of the deformation
 * gradient {@code F = Ds Dm^-1}, and the elastic force {@code -(R (x) I4) K_e (R^T x - X)}, which is
 * zero for any rigid motion.
 *
 * <p>Static methods on caller arrays, 12-vectors node after node (x, y, z), 3x3 matrices row-major;
 * they allocate nothing but small scratch arrays where noted. Thread-safe.
 */
public final class CorotationalTet {
    private CorotationalTet() {
    }

    /**
     * @param youngsModulus E, Pa
     * @param poissonRatio  nu
     * @return the Lame parameters {lambda, mu}, Pa
     * @throws IllegalArgumentException for E <= 0 or nu outside (-1, 0.5), saying which
     */
    public static double[] lame(double youngsModulus, double poissonRatio) {
        if (!(youngsModulus > 0) || Double.isInfinite(youngsModulus)) {
            throw new IllegalArgumentException("Young's modulus E must be a finite number > 0 Pa, got " + youngsModulus
                    + " (steel is about 2e11, rubber about 1e6 to 1e7)");
        }
        if (!(poissonRatio > -1 && poissonRatio < 0.5)) {
            throw new IllegalArgumentException("Poisson's ratio nu must lie in (-1, 0.5), got " + poissonRatio
                    + " (0.5 is incompressible, which linear elements lock on; most solids are 0.25 to 0.45)");
        }
        double lambda = youngsModulus * poissonRatio / ((1 + poissonRatio) * (1 - 2 * poissonRatio));
        double mu = youngsModulus / (2 * (1 + poissonRatio));
        return new double[] {lambda, mu};
    }

    /**
     * The rest stiffness of one tetrahedron.
     *
     * @param rest the 12 rest coordinates X0..X3, m (positive volume, see {@link TetMesh})
     * @param lame {lambda, mu}, Pa ({@link #lame})
     * @param ke   receives K_e, 12 x 12 row-major, N/m
     * @param dmInverse receives Dm^-1 (9), for {@link #deformationGradient}
     * @return the rest volume V, m^3
     */
    public static double restStiffness(double[] rest, double[] lame, double[] ke, double[] dmInverse) {
        double[] dm = new double[9];
        columns(rest, dm);
        double det = Mat3.inverse(dm, dmInverse);
        double v = Math.abs(det) / 6;
        // shape gradients: row a of [grad N1; grad N2; grad N3] = column a of Dm^-1 ... i.e. [grad N1 grad N2 grad N3] = Dm^-T
        double[] g = new double[12]; // grad N0..N3 (x, y, z each)
        for (int a = 1; a <= 3; a++) {
            for (int i = 0; i < 3; i++) {
                g[3 * a + i] = dmInverse[3 * (a - 1) + i]; // (Dm^-T)[i][a-1] = (Dm^-1)[a-1][i]
                g[i] -= g[3 * a + i];
            }
        }
        double l = lame[0];
        double m = lame[1];
        double[] d = {l + 2 * m, l, l, l, l + 2 * m, l, l, l, l + 2 * m};
        // K_e = V B^T D B, B = [B_0 .. B_3], B_a the 6x3 strain-displacement block of node a
        double[] b = new double[6 * 12];
        for (int a = 0; a < 4; a++) {
            double dx = g[3 * a];
            double dy = g[3 * a + 1];
            double dz = g[3 * a + 2];
            int c = 3 * a;
            b[c] = dx;
            b[12 + c + 1] = dy;
            b[24 + c + 2] = dz;
            b[36 + c] = dy;
            b[36 + c + 1] = dx;
            b[48 + c + 1] = dz;
            b[48 + c + 2] = dy;
            b[60 + c] = dz;
            b[60 + c + 2] = dx;
        }
        for (int r = 0; r < 12; r++) {
            for (int c = 0; c < 12; c++) {
                double sum = 0;
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        sum += b[12 * i + r] * d[3 * i + j] * b[12 * j + c];
                    }
                }
                for (int i = 3; i < 6; i++) {
                    sum += b[12 * i + r] * m * b[12 * i + c];
                }
                ke[12 * r + c] = v * sum;
            }
        }
        return v;
    }

    /** F = Ds Dm^-1 of the current coordinates x (12) into f (9) */
    public static void deformationGradient(double[] x, double[] dmInverse, double[] f) {
        double[] ds = new double[9];
        columns(x, ds);
        Mat3.multiply(ds, dmInverse, f);
    }

    /**
     * The rotation of a polar decomposition F = R S, with det R = +1 (an inverted element's
     * reflection turned into a rotation, as Vega's forceRotation): Higham's iteration
     * {@code R <- (R + R^-T) / 2} from F, at most 50 steps, to 1e-12.
     *
     * @param f the deformation gradient (9)
     * @param r receives R (9)
     */
    public static void polarRotation(double[] f, double[] r) {
        polarRotation(f, r, new double[9]);
    }

    /** {@link #polarRotation(double[], double[])} with caller scratch {@code inv} (9): allocation-free. */
    public static void polarRotation(double[] f, double[] r, double[] inv) {
        System.arraycopy(f, 0, r, 0, 9);
        if (Mat3.det(r) < 0) {
            // reflect through the axis of the smallest column: the nearest proper rotation's start
            int k = 0;
            double least = Double.MAX_VALUE;
            for (int c = 0; c < 3; c++) {
                double n = r[c] * r[c] + r[3 + c] * r[3 + c] + r[6 + c] * r[6 + c];
                if (n < least) {
                    least = n;
                    k = c;
                }
            }
            r[k] = -r[k];
            r[3 + k] = -r[3 + k];
            r[6 + k] = -r[6 + k];
        }
        for (int it = 0; it < 50; it++) {
            double det = Mat3.inverse(r, inv);
            if (!(Math.abs(det) > 1e-300)) {
                break; // a collapsed element: keep the last estimate
            }
            double change = 0;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    double next = 0.5 * (r[3 * i + j] + inv[3 * j + i]); // (R + R^-T) / 2
                    change = Math.max(change, Math.abs(next - r[3 * i + j]));
                    r[3 * i + j] = next;
                }
            }
            if (change < 1e-12) {
                break;
            }
        }
    }

    /**
     * The elastic forces on the four nodes: {@code -(R (x) I4) K_e (R^T x - X)}.
     *
     * @param ke   K_e (144)
     * @param r    the element's rotation (9)
     * @param x    current coordinates (12)
     * @param rest rest coordinates (12)
     * @param out  receives the 12 force components, N
     */
    public static void elasticForce(double[] ke, double[] r, double[] x, double[] rest, double[] out) {
        double[] z = new double[12];
        for (int a = 0; a < 4; a++) {
            for (int i = 0; i < 3; i++) {
                // (R^T x_a)_i - X_a,i
                z[3 * a + i] = r[i] * x[3 * a] + r[3 + i] * x[3 * a + 1] + r[6 + i] * x[3 * a + 2] - rest[3 * a + i];
            }
        }
        double[] kz = new double[12];
        for (int row = 0; row < 12; row++) {
            double s = 0;
            for (int c = 0; c < 12; c++) {
                s += ke[12 * row + c] * z[c];
            }
            kz[row] = s;
        }
        for (int a = 0; a < 4; a++) {
            for (int i = 0; i < 3; i++) {
                out[3 * a + i] = -(r[3 * i] * kz[3 * a] + r[3 * i + 1] * kz[3 * a + 1] + r[3 * i + 2] * kz[3 * a + 2]);
            }
        }
    }

    /** the edge matrix [x1-x0, x2-x0, x3-x0] (columns) of 12 coordinates, into m (9, row-major) */
    private static void columns(double[] x, double[] m) {
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < 3; i++) {
                m[3 * i + k] = x[3 * (k + 1) + i] - x[i];
            }
        }
    }
}
