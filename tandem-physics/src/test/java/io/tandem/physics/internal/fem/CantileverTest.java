package io.tandem.physics.internal.fem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * The element and the mesher against Euler-Bernoulli (issue 19's validation): a cantilever of
 * linear tetrahedra, its end face clamped, under its own weight; the static tip deflection
 * K u = f (the rest stiffness K_e of every element assembled, solved by conjugate gradients)
 * against w L^4 / (8 E I). Linear tetrahedra are too stiff in bending on coarse meshes (shear
 * locking), so the check is on a fine mesh (80 x 8 x 8 cells, 41 k coordinates), and the coarse mesh is
 * shown stiffer.
 */
class CantileverTest {
    private static final double L = 0.3;
    private static final double SIDE = 0.03;
    private static final double E = 1e7;
    private static final double NU = 0.3;
    private static final double RHO = 1000;
    private static final double G = 9.81;

    @Test
    void fineMesh_underOwnWeight_tipDeflectionWithinTenPercentOfEulerBernoulli() {
        // measured: 60 x 6 x 6 cells 0.89 of Euler-Bernoulli, 80 x 6 x 6 0.91,
        // 80 x 8 x 8 0.94 (the beam is 10 times longer than thick: shear adds about 1 %)
        double fine = tipDeflection(80, 8, 8);
        assertThat(fine).as("tip deflection, m").isCloseTo(eulerBernoulli(), within(0.10 * eulerBernoulli()));
        double coarse = tipDeflection(20, 2, 2);
        assertThat(coarse).as("coarse mesh: stiffer (locking)").isLessThan(0.9 * fine);
    }

    private static double eulerBernoulli() {
        double w = RHO * SIDE * SIDE * G;
        double i = Math.pow(SIDE, 4) / 12;
        return w * Math.pow(L, 4) / (8 * E * i);
    }

    /** The mean downward deflection of the free end face's nodes, m. */
    private static double tipDeflection(int nx, int ny, int nz) {
        TetMesh mesh = BoxMesher.box(L, SIDE, SIDE, nx, ny, nz, true);
        int n = mesh.nodeCount();
        double[] x = mesh.nodes();
        int[] t = mesh.tets();
        int m = mesh.tetCount();
        double[] lame = CorotationalTet.lame(E, NU);
        double[] ke = new double[144 * m];
        double[] k = new double[144];
        double[] rest = new double[12];
        double[] inv = new double[9];
        double[] f = new double[3 * n];
        for (int e = 0; e < m; e++) {
            double v = CorotationalTet.restStiffness(mesh.restCoordinates(e, rest), lame, k, inv);
            System.arraycopy(k, 0, ke, 144 * e, 144);
            for (int a = 0; a < 4; a++) {
                f[3 * t[4 * e + a] + 2] -= RHO * v * G / 4;
            }
        }
        boolean[] fixed = new boolean[3 * n];
        for (int p = 0; p < n; p++) {
            if (x[3 * p] < -L / 2 + 1e-9) {
                fixed[3 * p] = fixed[3 * p + 1] = fixed[3 * p + 2] = true;
            }
        }
        double[] u = solve(ke, t, m, fixed, f);
        double sum = 0;
        int count = 0;
        for (int p = 0; p < n; p++) {
            if (x[3 * p] > L / 2 - 1e-9) {
                sum -= u[3 * p + 2];
                count++;
            }
        }
        return sum / count;
    }

    /** K u = f over the free coordinates, Jacobi-preconditioned conjugate gradients, matrix-free. */
    private static double[] solve(double[] ke, int[] t, int m, boolean[] fixed, double[] f) {
        int dof = f.length;
        double[] diag = new double[dof];
        for (int e = 0; e < m; e++) {
            for (int r = 0; r < 12; r++) {
                diag[3 * t[4 * e + r / 3] + r % 3] += ke[144 * e + 13 * r];
            }
        }
        double[] u = new double[dof];
        double[] r = new double[dof];
        double[] z = new double[dof];
        double[] p = new double[dof];
        double[] q = new double[dof];
        for (int i = 0; i < dof; i++) {
            r[i] = fixed[i] ? 0 : f[i];
            z[i] = fixed[i] ? 0 : r[i] / diag[i];
            p[i] = z[i];
        }
        double rz = dot(r, z);
        double r0 = Math.sqrt(dot(r, r));
        for (int it = 0; it < 20 * dof && Math.sqrt(dot(r, r)) > 1e-9 * r0; it++) {
            multiply(ke, t, m, fixed, p, q);
            double alpha = rz / dot(p, q);
            for (int i = 0; i < dof; i++) {
                u[i] += alpha * p[i];
                r[i] -= alpha * q[i];
                z[i] = fixed[i] ? 0 : r[i] / diag[i];
            }
            double next = dot(r, z);
            for (int i = 0; i < dof; i++) {
                p[i] = z[i] + next / rz * p[i];
            }
            rz = next;
        }
        return u;
    }

    private static void multiply(double[] ke, int[] t, int m, boolean[] fixed, double[] p, double[] q) {
        java.util.Arrays.fill(q, 0);
        for (int e = 0; e < m; e++) {
            for (int a = 0; a < 12; a++) {
                int ia = 3 * t[4 * e + a / 3] + a % 3;
                if (fixed[ia]) {
                    continue;
                }
                double s = 0;
                for (int b = 0; b < 12; b++) {
                    int ib = 3 * t[4 * e + b / 3] + b % 3;
                    if (!fixed[ib]) {
                        s += ke[144 * e + 12 * a + b] * p[ib];
                    }
                }
                q[ia] += s;
            }
        }
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
