package io.tandem.physics.internal.fem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The co-rotational tetrahedron against physics-wave2.md section 6.1's values, and the box mesher. */
class CorotationalTetTest {
    private static final double[] UNIT = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};

    @Test
    void restStiffness_unitTetEOneNuQuarter_theSpecsEntries() {
        double[] ke = new double[144];
        double v = CorotationalTet.restStiffness(UNIT, CorotationalTet.lame(1, 0.25), ke, new double[9]);
        assertThat(v).isCloseTo(1.0 / 6, within(1e-15));
        double[][] block = {{1.0 / 3, 2.0 / 15, 2.0 / 15}, {2.0 / 15, 1.0 / 3, 2.0 / 15}, {2.0 / 15, 2.0 / 15, 1.0 / 3}};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertThat(ke[12 * i + j]).as("K_e[%d][%d]", i, j).isCloseTo(block[i][j], within(1e-14));
            }
        }
        double[] diag = {1.0 / 3, 1.0 / 3, 1.0 / 3, 0.2, 1.0 / 15, 1.0 / 15, 1.0 / 15, 0.2, 1.0 / 15, 1.0 / 15, 1.0 / 15, 0.2};
        for (int i = 0; i < 12; i++) {
            assertThat(ke[13 * i]).as("diag %d", i).isCloseTo(diag[i], within(1e-14));
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void restStiffness_anyTet_symmetricWithExactlySixZeroEigenvalues(long seed) {
        double[] x = randomTet(new SplittableRandom(seed));
        double[] ke = new double[144];
        CorotationalTet.restStiffness(x, CorotationalTet.lame(2e5, 0.3), ke, new double[9]);
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 12; j++) {
                assertThat(ke[12 * i + j]).isCloseTo(ke[12 * j + i], within(1e-9 * Math.abs(ke[0])));
            }
        }
        double[] eig = jacobiEigenvalues(ke, 12);
        Arrays.sort(eig);
        double largest = eig[11];
        for (int i = 0; i < 6; i++) {
            assertThat(Math.abs(eig[i])).as("eigenvalue %d of %s", i, Arrays.toString(eig)).isLessThan(1e-10 * largest);
        }
        assertThat(eig[6]).as("the seventh eigenvalue (deformation modes are stiff)").isGreaterThan(1e-6 * largest);
    }

    @ParameterizedTest
    @ValueSource(longs = {4, 5, 6})
    void elasticForce_rigidMotion_zero(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] rest = randomTet(rnd);
        double[] ke = new double[144];
        double[] dmInv = new double[9];
        CorotationalTet.restStiffness(rest, CorotationalTet.lame(1e6, 0.45), ke, dmInv);
        double[] r = rotation(rnd.nextDouble(-3, 3), rnd.nextDouble(-3, 3), rnd.nextDouble(-3, 3));
        double[] x = new double[12];
        for (int a = 0; a < 4; a++) {
            for (int i = 0; i < 3; i++) {
                x[3 * a + i] = r[3 * i] * rest[3 * a] + r[3 * i + 1] * rest[3 * a + 1] + r[3 * i + 2] * rest[3 * a + 2] + 0.7 * i;
            }
        }
        double[] f = new double[9];
        CorotationalTet.deformationGradient(x, dmInv, f);
        double[] polar = new double[9];
        CorotationalTet.polarRotation(f, polar);
        for (int i = 0; i < 9; i++) {
            assertThat(polar[i]).isCloseTo(r[i], within(1e-10));
        }
        double[] force = new double[12];
        CorotationalTet.elasticForce(ke, polar, x, rest, force);
        for (double c : force) {
            assertThat(Math.abs(c)).isLessThan(1e-6 * 1e6 * 1e-3); // N, for a stiffness of about 1e6 * 1e-1 m
        }
    }

    @Test
    void elasticForce_stretchedAlongX_pullsBackAndSumsToZero() {
        double[] ke = new double[144];
        double[] dmInv = new double[9];
        CorotationalTet.restStiffness(UNIT, CorotationalTet.lame(1, 0.25), ke, dmInv);
        double[] x = UNIT.clone();
        x[3] = 1.01; // node 1 moved 1 cm along +x
        double[] f = new double[9];
        CorotationalTet.deformationGradient(x, dmInv, f);
        double[] r = new double[9];
        CorotationalTet.polarRotation(f, r);
        double[] force = new double[12];
        CorotationalTet.elasticForce(ke, r, x, UNIT, force);
        assertThat(force[3]).as("node 1 pulled back").isNegative().isCloseTo(-ke[3 * 12 + 3] * 0.01, within(1e-12));
        for (int i = 0; i < 3; i++) {
            assertThat(force[i] + force[3 + i] + force[6 + i] + force[9 + i]).as("net force %d", i).isCloseTo(0, within(1e-15));
        }
    }

    @Test
    void badMaterialOrElements_oneLineNamingWhatAndTheFix() {
        assertThatThrownBy(() -> CorotationalTet.lame(0, 0.3)).hasMessageStartingWith("Young's modulus E must be a finite"
                + " number > 0 Pa, got 0.0");
        assertThatThrownBy(() -> CorotationalTet.lame(1e6, 0.5)).hasMessageStartingWith("Poisson's ratio nu must lie in"
                + " (-1, 0.5), got 0.5");
        assertThatThrownBy(() -> new TetMesh(UNIT, new int[] {0, 2, 1, 3})).hasMessage("tetrahedron 0 (nodes [0, 2, 1, 3]) is"
                + " inverted (negative volume -0.16666666666666666 m^3): swap two of its nodes");
        double[] flat = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
        assertThatThrownBy(() -> new TetMesh(flat, new int[] {0, 1, 2, 3})).hasMessageContaining("tetrahedron 0 (nodes"
                + " [0, 1, 2, 3]) is degenerate");
        assertThatThrownBy(() -> new TetMesh(UNIT, new int[] {0, 1, 2, 9})).hasMessage("tetrahedron 0 names node 9, but the"
                + " mesh has nodes 0..3");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void box_anyGrid_countsPositiveVolumesSummingToTheBoxAndConformingFaces(boolean six) {
        int nx = 3;
        int ny = 2;
        int nz = 2;
        TetMesh m = BoxMesher.box(1.5, 0.4, 0.3, nx, ny, nz, six);
        assertThat(m.nodeCount()).isEqualTo((nx + 1) * (ny + 1) * (nz + 1));
        assertThat(m.tetCount()).isEqualTo((six ? 6 : 5) * nx * ny * nz);
        double total = 0;
        for (int e = 0; e < m.tetCount(); e++) {
            assertThat(m.volume(e)).isPositive();
            total += m.volume(e);
        }
        assertThat(total).isCloseTo(1.5 * 0.4 * 0.3, within(1e-12));
        // conforming: every triangle is shared by two tetrahedra inside, one on the surface, and the
        // surface triangles are two per cell face on the boundary
        Map<String, Integer> faces = new HashMap<>();
        int[] t = m.tets();
        for (int e = 0; e < m.tetCount(); e++) {
            for (int skip = 0; skip < 4; skip++) {
                int[] f = new int[3];
                int k = 0;
                for (int c = 0; c < 4; c++) {
                    if (c != skip) {
                        f[k++] = t[4 * e + c];
                    }
                }
                Arrays.sort(f);
                faces.merge(Arrays.toString(f), 1, Integer::sum);
            }
        }
        assertThat(faces.values()).allMatch(n -> n == 1 || n == 2);
        long surface = faces.values().stream().filter(n -> n == 1).count();
        assertThat(surface).isEqualTo(2L * 2 * (nx * ny + ny * nz + nz * nx));
    }

    private static double[] randomTet(SplittableRandom rnd) {
        while (true) {
            double[] x = new double[12];
            for (int i = 0; i < 12; i++) {
                x[i] = rnd.nextDouble(-0.1, 0.1);
            }
            if (TetMesh.det(x, new int[] {0, 1, 2, 3}, 0) > 1e-4) {
                return x;
            }
        }
    }

    private static double[] rotation(double ax, double ay, double az) {
        double[] rx = {1, 0, 0, 0, Math.cos(ax), -Math.sin(ax), 0, Math.sin(ax), Math.cos(ax)};
        double[] ry = {Math.cos(ay), 0, Math.sin(ay), 0, 1, 0, -Math.sin(ay), 0, Math.cos(ay)};
        double[] rz = {Math.cos(az), -Math.sin(az), 0, Math.sin(az), Math.cos(az), 0, 0, 0, 1};
        double[] t = new double[9];
        double[] r = new double[9];
        Mat3.multiply(rz, ry, t);
        Mat3.multiply(t, rx, r);
        return r;
    }

    /** the eigenvalues of a symmetric n x n matrix by cyclic Jacobi rotations (slow, exact enough) */
    private static double[] jacobiEigenvalues(double[] m, int n) {
        double[] a = m.clone();
        double scale = 0;
        for (double v : m) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int sweep = 0; ; sweep++) {
            double off = 0;
            for (int p = 0; p < n; p++) {
                for (int q = p + 1; q < n; q++) {
                    off += a[n * p + q] * a[n * p + q];
                }
            }
            if (off < 1e-28 * scale * scale) {
                break;
            }
            if (sweep == 100) {
                throw new AssertionError("Jacobi did not converge: off-diagonal " + Math.sqrt(off) + " of " + scale);
            }
            for (int p = 0; p < n; p++) {
                for (int q = p + 1; q < n; q++) {
                    double apq = a[n * p + q];
                    if (Math.abs(apq) < 1e-300) {
                        continue;
                    }
                    double theta = (a[n * q + q] - a[n * p + p]) / (2 * apq);
                    double tt = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) {
                        tt = 1;
                    }
                    double c = 1 / Math.sqrt(tt * tt + 1);
                    double s = tt * c;
                    for (int k = 0; k < n; k++) {
                        double akp = a[n * k + p];
                        double akq = a[n * k + q];
                        a[n * k + p] = c * akp - s * akq;
                        a[n * k + q] = s * akp + c * akq;
                    }
                    for (int k = 0; k < n; k++) {
                        double apk = a[n * p + k];
                        double aqk = a[n * q + k];
                        a[n * p + k] = c * apk - s * aqk;
                        a[n * q + k] = s * apk + c * aqk;
                    }
                }
            }
        }
        double[] eig = new double[n];
        for (int i = 0; i < n; i++) {
            eig[i] = a[n * i + i];
        }
        return eig;
    }
}
