package io.tandem.physics.internal.fem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The patch test (physics-wave2.md section 6; issue 19's validation): on a meshed box, the boundary
 * nodes displaced by a uniform strain field u = A X + c, the interior nodes at equilibrium of the
 * assembled element stiffnesses take that same field, to rounding. A dense assembly and Gaussian
 * elimination, here only: small meshes.
 */
class PatchTest {
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void uniformStrainOnTheBoundary_interiorReproducesItExactly(boolean six) {
        int cells = 3;
        TetMesh m = BoxMesher.box(1.0, 0.8, 0.6, cells, cells, cells, six);
        int n = m.nodeCount();
        double[] k = new double[9 * n * n];
        double[] lame = CorotationalTet.lame(2.1e5, 0.3);
        double[] ke = new double[144];
        double[] x = new double[12];
        int[] t = m.tets();
        for (int e = 0; e < m.tetCount(); e++) {
            CorotationalTet.restStiffness(m.restCoordinates(e, x), lame, ke, new double[9]);
            for (int a = 0; a < 4; a++) {
                for (int b = 0; b < 4; b++) {
                    for (int i = 0; i < 3; i++) {
                        for (int j = 0; j < 3; j++) {
                            k[(3 * t[4 * e + a] + i) * 3 * n + 3 * t[4 * e + b] + j] += ke[(3 * a + i) * 12 + 3 * b + j];
                        }
                    }
                }
            }
        }
        double[][] strain = {{1e-3, 2e-4, -3e-4}, {5e-4, -2e-3, 1e-4}, {-1e-4, 3e-4, 1.5e-3}};
        double[] c = {0.01, -0.02, 0.005};
        double[] nodes = m.nodes();
        double[] u = new double[3 * n];
        boolean[] boundary = new boolean[n];
        for (int a = 0; a < n; a++) {
            for (int i = 0; i < 3; i++) {
                u[3 * a + i] = c[i] + strain[i][0] * nodes[3 * a] + strain[i][1] * nodes[3 * a + 1] + strain[i][2] * nodes[3 * a + 2];
            }
            boundary[a] = Math.abs(Math.abs(nodes[3 * a]) - 0.5) < 1e-12 || Math.abs(Math.abs(nodes[3 * a + 1]) - 0.4) < 1e-12
                    || Math.abs(Math.abs(nodes[3 * a + 2]) - 0.3) < 1e-12;
        }
        // the interior unknowns: K_ii u_i = -K_ib u_b
        int[] interior = new int[3 * n];
        int ni = 0;
        for (int a = 0; a < n; a++) {
            if (!boundary[a]) {
                for (int i = 0; i < 3; i++) {
                    interior[ni++] = 3 * a + i;
                }
            }
        }
        assertThat(ni).isEqualTo(3 * (cells - 1) * (cells - 1) * (cells - 1));
        double[] a = new double[ni * ni];
        double[] rhs = new double[ni];
        for (int r = 0; r < ni; r++) {
            for (int col = 0; col < 3 * n; col++) {
                double kv = k[interior[r] * 3 * n + col];
                if (!boundary[col / 3]) {
                    continue;
                }
                rhs[r] -= kv * u[col];
            }
            for (int s = 0; s < ni; s++) {
                a[r * ni + s] = k[interior[r] * 3 * n + interior[s]];
            }
        }
        double[] solved = solve(a, rhs, ni);
        for (int r = 0; r < ni; r++) {
            assertThat(solved[r]).as("interior dof %d", interior[r]).isCloseTo(u[interior[r]], within(1e-12));
        }
    }

    /** Gaussian elimination with partial pivoting (a, b modified) */
    private static double[] solve(double[] a, double[] b, int n) {
        for (int col = 0; col < n; col++) {
            int piv = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(a[r * n + col]) > Math.abs(a[piv * n + col])) {
                    piv = r;
                }
            }
            if (piv != col) {
                for (int c = 0; c < n; c++) {
                    double tmp = a[col * n + c];
                    a[col * n + c] = a[piv * n + c];
                    a[piv * n + c] = tmp;
                }
                double tmp = b[col];
                b[col] = b[piv];
                b[piv] = tmp;
            }
            for (int r = col + 1; r < n; r++) {
                double f = a[r * n + col] / a[col * n + col];
                for (int c = col; c < n; c++) {
                    a[r * n + c] -= f * a[col * n + c];
                }
                b[r] -= f * b[col];
            }
        }
        double[] x = new double[n];
        for (int r = n - 1; r >= 0; r--) {
            double s = b[r];
            for (int c = r + 1; c < n; c++) {
                s -= a[r * n + c] * x[c];
            }
            x[r] = s / a[r * n + r];
        }
        return x;
    }
}
