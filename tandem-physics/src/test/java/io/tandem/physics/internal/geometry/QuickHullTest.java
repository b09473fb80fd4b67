package io.tandem.physics.internal.geometry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Quickhull: topology, containment and degenerate input. Seed overridable with -Dtandem.test.seed=N. */
class QuickHullTest {
    private static final long SEED = Long.getLong("tandem.test.seed", 20240611L);

    /** Closed 2-manifold: every directed loop edge once, its reverse once, and V - E + F = 2. */
    private static void assertClosedPolytope(QuickHull h, String what) {
        Set<Long> directed = new HashSet<>();
        for (int f = 0; f < h.faceCount; f++) {
            int start = h.faceStart[f];
            int m = h.faceStart[f + 1] - start;
            assertThat(m).as("%s: face %d loop length", what, f).isGreaterThanOrEqualTo(3);
            for (int k = 0; k < m; k++) {
                long a = h.loops[start + k];
                long b = h.loops[start + (k + 1) % m];
                assertThat(directed.add(a << 32 | b)).as("%s: directed edge %d-%d twice", what, a, b).isTrue();
            }
        }
        for (long e : directed) {
            assertThat(directed).as("%s: edge without its reverse", what).contains((e & 0xFFFFFFFFL) << 32 | e >>> 32);
        }
        int edges = directed.size() / 2;
        assertThat(h.vertexCount - edges + h.faceCount).as("%s: Euler characteristic", what).isEqualTo(2);
    }

    /**
     * Every input point behind every face plane (within tau), every face's vertices on its plane
     * (within 2 tau: a merged face's vertices lie within tau of its seed's plane) and its loop
     * counter-clockwise about its unit normal; every hull vertex is an input point.
     */
    private static void assertHullOf(QuickHull h, double[] xyz, String what) {
        double tau = h.tolerance;
        int n = xyz.length / 3;
        for (int f = 0; f < h.faceCount; f++) {
            double nx = h.normals[3 * f];
            double ny = h.normals[3 * f + 1];
            double nz = h.normals[3 * f + 2];
            assertThat(Math.sqrt(nx * nx + ny * ny + nz * nz)).as(what).isCloseTo(1, within(1e-12));
            double d = h.offsets[f];
            for (int p = 0; p < n; p++) {
                double s = nx * xyz[3 * p] + ny * xyz[3 * p + 1] + nz * xyz[3 * p + 2] - d;
                assertThat(s).as("%s: point %d in front of face %d", what, p, f).isLessThanOrEqualTo(tau);
            }
            int start = h.faceStart[f];
            int m = h.faceStart[f + 1] - start;
            for (int k = 0; k < m; k++) {
                int a = h.loops[start + k];
                int b = h.loops[start + (k + 1) % m];
                int c = h.loops[start + (k + 2) % m];
                double s = nx * h.vertices[3 * a] + ny * h.vertices[3 * a + 1] + nz * h.vertices[3 * a + 2] - d;
                assertThat(s).as("%s: vertex %d of face %d off its plane", what, a, f).isBetween(-2 * tau, 1e-12);
                // turn at b about the normal: counter-clockwise or straight (within tau)
                double ux = h.vertices[3 * b] - h.vertices[3 * a];
                double uy = h.vertices[3 * b + 1] - h.vertices[3 * a + 1];
                double uz = h.vertices[3 * b + 2] - h.vertices[3 * a + 2];
                double vx = h.vertices[3 * c] - h.vertices[3 * b];
                double vy = h.vertices[3 * c + 1] - h.vertices[3 * b + 1];
                double vz = h.vertices[3 * c + 2] - h.vertices[3 * b + 2];
                double turn = (uy * vz - uz * vy) * nx + (uz * vx - ux * vz) * ny + (ux * vy - uy * vx) * nz;
                double lu = Math.sqrt(ux * ux + uy * uy + uz * uz);
                double lv = Math.sqrt(vx * vx + vy * vy + vz * vz);
                assertThat(turn).as("%s: face %d turns clockwise at vertex %d", what, f, b)
                        .isGreaterThanOrEqualTo(-4 * tau * Math.max(lu, lv));
            }
        }
        for (int v = 0; v < h.vertexCount; v++) {
            int src = h.sourceIndex[v];
            for (int d = 0; d < 3; d++) {
                assertThat(h.vertices[3 * v + d]).isEqualTo(xyz[3 * src + d]);
            }
        }
        assertClosedPolytope(h, what);
    }

    @Test
    void of_cubeWithInteriorFaceAndEdgePoints_eightVerticesSixQuadFaces() {
        Random rnd = new Random(SEED);
        double[] corners = Meshes.boxCorners(1, 1, 1);
        int extra = 500;
        double[] cloud = new double[3 * extra];
        for (int i = 0; i < extra; i++) {
            for (int d = 0; d < 3; d++) {
                cloud[3 * i + d] = 2 * rnd.nextDouble() - 1;
            }
            // a third inside, a third on a face, a third on an edge
            int kind = i % 3;
            int axis = rnd.nextInt(3);
            if (kind >= 1) {
                cloud[3 * i + axis] = rnd.nextBoolean() ? 1 : -1;
            }
            if (kind == 2) {
                cloud[3 * i + (axis + 1) % 3] = rnd.nextBoolean() ? 1 : -1;
            }
        }
        // corners last and repeated, so that neither order nor duplicates matter
        double[] xyz = Meshes.concat(cloud, corners, corners);
        QuickHull h = QuickHull.of(xyz, xyz.length / 3);
        assertThat(h.vertexCount).isEqualTo(8);
        assertThat(h.faceCount).isEqualTo(6);
        for (int f = 0; f < 6; f++) {
            assertThat(h.faceStart[f + 1] - h.faceStart[f]).isEqualTo(4);
            assertThat(h.offsets[f]).isCloseTo(1, within(1e-12));
        }
        assertHullOf(h, xyz, "cube cloud");
    }

    @Test
    void of_randomPointSets_everyPointInsideAndEveryFaceSupporting() {
        Random rnd = new Random(SEED);
        for (int trial = 0; trial < 60; trial++) {
            int n = 4 + rnd.nextInt(400);
            double[] xyz = new double[3 * n];
            int kind = trial % 5;
            for (int i = 0; i < n; i++) {
                double x = rnd.nextGaussian();
                double y = rnd.nextGaussian();
                double z = rnd.nextGaussian();
                switch (kind) {
                    case 0 -> { }
                    case 1 -> {
                        // on a sphere: every point a vertex
                        double l = Math.sqrt(x * x + y * y + z * z);
                        x /= l;
                        y /= l;
                        z /= l;
                    }
                    case 2 -> {
                        // an integer grid: many coplanar and collinear points
                        x = rnd.nextInt(4);
                        y = rnd.nextInt(3);
                        z = rnd.nextInt(5);
                    }
                    case 3 -> {
                        // a thin slab far from the origin, rounded to float as in an STL file
                        x = (float) (100 + x);
                        y = (float) (-50 + y);
                        z = (float) (3 + 0.01 * z);
                    }
                    default -> {
                        // a box's surface with float-rounded noise
                        int axis = rnd.nextInt(3);
                        double[] p = {2 * rnd.nextDouble() - 1, 2 * rnd.nextDouble() - 1, 2 * rnd.nextDouble() - 1};
                        p[axis] = rnd.nextBoolean() ? 1 : -1;
                        x = (float) (0.3 * p[0] + 1e-8 * x);
                        y = (float) (0.2 * p[1] + 1e-8 * y);
                        z = (float) (0.1 * p[2] + 1e-8 * z);
                    }
                }
                xyz[3 * i] = x;
                xyz[3 * i + 1] = y;
                xyz[3 * i + 2] = z;
            }
            String what = "trial " + trial + " kind " + kind + " n " + n + " seed " + SEED;
            QuickHull h;
            try {
                h = QuickHull.of(xyz, n);
            } catch (IllegalArgumentException e) {
                // a handful of grid points can all be coplanar
                assertThat(kind).as(what).isEqualTo(2);
                continue;
            }
            assertHullOf(h, xyz, what);
            if (kind == 1) {
                assertThat(h.vertexCount).as(what).isEqualTo(n);
            }
        }
    }

    @Test
    void of_boxSurfaceMesh_facetsMergeIntoSixFaces() {
        // a finely triangulated box, as from an STL file, float-rounded: 6 faces, 8 corners
        Random rnd = new Random(SEED);
        int n = 3000;
        double[] xyz = new double[3 * n + 24];
        for (int i = 0; i < n; i++) {
            int axis = i % 3;
            double[] p = {2 * rnd.nextDouble() - 1, 2 * rnd.nextDouble() - 1, 2 * rnd.nextDouble() - 1};
            p[axis] = rnd.nextBoolean() ? 1 : -1;
            xyz[3 * i] = (float) (0.3 * p[0]);
            xyz[3 * i + 1] = (float) (0.2 * p[1]);
            xyz[3 * i + 2] = (float) (0.1 * p[2]);
        }
        double[] c = Meshes.boxCorners(0.3, 0.2, 0.1);
        for (int k = 0; k < 24; k++) {
            xyz[3 * n + k] = (float) c[k];
        }
        QuickHull h = QuickHull.of(xyz, xyz.length / 3);
        assertThat(h.faceCount).isEqualTo(6);
        assertThat(h.vertexCount).isEqualTo(8);
        assertHullOf(h, xyz, "box mesh");
    }

    @Test
    void of_samePointsTwice_identicalResult() {
        double[] xyz = Meshes.ball(300, 1, 0.2, 0.1, 0, new Random(SEED));
        QuickHull a = QuickHull.of(xyz, 300);
        QuickHull b = QuickHull.of(xyz.clone(), 300);
        assertThat(b.vertices).containsExactly(a.vertices);
        assertThat(b.loops).containsExactly(a.loops);
        assertThat(b.faceStart).containsExactly(a.faceStart);
        assertThat(b.normals).containsExactly(a.normals);
    }

    @Test
    void of_degeneratePoints_throwNamingTheDegeneracy() {
        double[] flat = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 1e-9};
        assertThatThrownBy(() -> QuickHull.of(flat, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one plane").hasMessageContaining("flat or degenerate");
        double[] line = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
        assertThatThrownBy(() -> QuickHull.of(line, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one line");
        double[] point = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
        assertThatThrownBy(() -> QuickHull.of(point, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one point");
        assertThatThrownBy(() -> QuickHull.of(new double[9], 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 4 points");
        double[] nan = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, Double.NaN};
        assertThatThrownBy(() -> QuickHull.of(nan, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("point 3").hasMessageContaining("not finite");
    }
}
