package io.tandem.physics.internal.geometry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Convex hulls of point clouds: topology, simplification error, closest points. */
class ConvexHullTest {
    private static final long SEED = Long.getLong("tandem.test.seed", 20240611L);

    /** Largest distance from a point of xyz to the hull (0 inside), by closestPoint. */
    private static double farthestOutside(ConvexHull h, double[] xyz) {
        double[] out = new double[7];
        double worst = 0;
        for (int i = 0; i < xyz.length / 3; i++) {
            h.closestPoint(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], out);
            worst = Math.max(worst, out[6]);
        }
        return worst;
    }

    @Test
    void of_eightCubeCorners_boxTopology() {
        ConvexHull h = ConvexHull.of(Meshes.boxCorners(0.3, 0.2, 0.1));
        ConvexHull box = ConvexHull.box(0.3, 0.2, 0.1);
        assertThat(h.vertexCount).isEqualTo(8);
        assertThat(h.faceCount).isEqualTo(6);
        assertThat(h.edgeCount).isEqualTo(12);
        assertThat(Math.abs(h.centreX) + Math.abs(h.centreY) + Math.abs(h.centreZ)).isLessThan(1e-15);
        assertThat(h.radius).isCloseTo(box.radius, within(1e-15));
        assertThat(h.simplificationError).isZero();
        // the same set of face planes as the box
        for (int f = 0; f < 6; f++) {
            boolean found = false;
            for (int g = 0; g < 6 && !found; g++) {
                found = Math.abs(h.faceNormals[3 * f] - box.faceNormals[3 * g]) < 1e-15
                        && Math.abs(h.faceNormals[3 * f + 1] - box.faceNormals[3 * g + 1]) < 1e-15
                        && Math.abs(h.faceNormals[3 * f + 2] - box.faceNormals[3 * g + 2]) < 1e-15
                        && Math.abs(h.faceOffsets[f] - box.faceOffsets[g]) < 1e-15;
            }
            assertThat(found).as("face %d of the hull is a box face", f).isTrue();
        }
    }

    @Test
    void of_pointsOffTheOrigin_centreInsideAndRadiusAboutIt() {
        double[] xyz = Meshes.shifted(Meshes.boxCorners(0.1, 0.1, 0.1), 2, -1, 0.5);
        ConvexHull h = ConvexHull.of(xyz);
        assertThat(h.centreX).isCloseTo(2, within(1e-12));
        assertThat(h.centreY).isCloseTo(-1, within(1e-12));
        assertThat(h.centreZ).isCloseTo(0.5, within(1e-12));
        assertThat(h.radius).isCloseTo(Math.sqrt(0.03), within(1e-12));
        assertThat(Shape.convex(xyz).boundingRadius()).isCloseTo(Math.sqrt(2.1 * 2.1 + 1.1 * 1.1 + 0.6 * 0.6),
                within(1e-12));
    }

    @Test
    void of_finelyTessellatedSphere_simplifiedWithinLimitsAndWithinTenPercentOfTheRadius() {
        for (int subdivisions = 2; subdivisions <= 4; subdivisions++) {
            double r = 0.25;
            double[] xyz = Meshes.shifted(Meshes.icosphere(r, subdivisions), 0.1, 0.2, -0.3);
            ConvexHull h = ConvexHull.of(xyz);
            String what = "icosphere " + subdivisions + " of " + xyz.length / 3 + " vertices";
            assertThat(h.vertexCount).as(what).isLessThan(ConvexHull.MAX_FEATURES);
            assertThat(h.faceCount).as(what).isLessThan(ConvexHull.MAX_FEATURES);
            assertThat(h.edgeCount).as(what).isLessThan(ConvexHull.MAX_FEATURES);
            // inscribed: every vertex of the simplified hull is a mesh vertex, so it lies on the sphere
            for (int v = 0; v < h.vertexCount; v++) {
                double dx = h.vertices[3 * v] - 0.1;
                double dy = h.vertices[3 * v + 1] - 0.2;
                double dz = h.vertices[3 * v + 2] + 0.3;
                assertThat(Math.sqrt(dx * dx + dy * dy + dz * dz)).as(what).isCloseTo(r, within(1e-12));
            }
            double worst = farthestOutside(h, xyz);
            assertThat(worst).as(what).isPositive().isLessThan(0.1 * r);
            // the reported error is that distance (the Hausdorff distance of the two hulls)
            assertThat(h.simplificationError).as(what).isCloseTo(worst, within(1e-12));
        }
    }

    @Test
    void of_denseCylinderMesh_simplifiedToASmallError() {
        // 200 segments: 400 vertices, 600 edges; the seeds and the greedy choice find the rim
        int n = 200;
        double[] xyz = new double[6 * n];
        for (int i = 0; i < n; i++) {
            double a = 2 * Math.PI * i / n;
            for (int cap = 0; cap < 2; cap++) {
                xyz[6 * i + 3 * cap] = 0.1 * Math.cos(a);
                xyz[6 * i + 3 * cap + 1] = 0.1 * Math.sin(a);
                xyz[6 * i + 3 * cap + 2] = cap == 0 ? -0.3 : 0.3;
            }
        }
        ConvexHull h = ConvexHull.of(xyz);
        assertThat(h.edgeCount).isLessThan(ConvexHull.MAX_FEATURES);
        assertThat(h.simplificationError).isPositive().isLessThan(0.01 * 0.1);
        assertThat(farthestOutside(h, xyz)).isCloseTo(h.simplificationError, within(1e-12));
    }

    @Test
    void of_hullWithinLimits_keepsEveryHullVertex() {
        double[] xyz = Meshes.icosphere(1, 1);
        ConvexHull h = ConvexHull.of(xyz);
        assertThat(h.vertexCount).isEqualTo(42);
        assertThat(h.faceCount).isEqualTo(80);
        assertThat(h.edgeCount).isEqualTo(120);
        assertThat(h.simplificationError).isZero();
    }

    @Test
    void of_inputArray_copiedNotModified() {
        double[] xyz = Meshes.boxCorners(1, 1, 1);
        double[] before = xyz.clone();
        ConvexHull h = ConvexHull.of(xyz);
        assertThat(xyz).containsExactly(before);
        xyz[0] = 100;
        assertThat(h.vertices).doesNotContain(100.0);
    }

    @Test
    void of_badInput_clearMessages() {
        assertThatThrownBy(() -> ConvexHull.of(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null");
        assertThatThrownBy(() -> ConvexHull.of(new double[13])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("triples");
        double[] square = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 0};
        assertThatThrownBy(() -> ConvexHull.of(square)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flat or degenerate");
        assertThatThrownBy(() -> Shape.convex(square)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flat or degenerate");
    }

    @Test
    void closestPoint_randomPoints_matchesBruteForceOverTheSurface() {
        Random rnd = new Random(SEED);
        double[] out = new double[7];
        for (int trial = 0; trial < 20; trial++) {
            double[] cloud = Meshes.ball(5 + rnd.nextInt(40), 0.5, 0.3, -0.2, 0.1, rnd);
            ConvexHull h = ConvexHull.of(cloud);
            for (int s = 0; s < 200; s++) {
                double x = 0.3 + 1.5 * rnd.nextGaussian() * 0.5;
                double y = -0.2 + 1.5 * rnd.nextGaussian() * 0.5;
                double z = 0.1 + 1.5 * rnd.nextGaussian() * 0.5;
                int feature = h.closestPoint(x, y, z, out);
                String what = "trial " + trial + " sample " + s + " seed " + SEED;
                assertThat(feature).as(what).isBetween(0, 4 * ConvexHull.MAX_FEATURES - 1);
                double inside = Double.NEGATIVE_INFINITY;
                for (int f = 0; f < h.faceCount; f++) {
                    inside = Math.max(inside, h.faceNormals[3 * f] * x + h.faceNormals[3 * f + 1] * y
                            + h.faceNormals[3 * f + 2] * z - h.faceOffsets[f]);
                }
                // the reported surface point and normal reproduce the query point
                assertThat(x - out[0]).as(what).isCloseTo(out[3] * out[6], within(1e-12));
                assertThat(y - out[1]).as(what).isCloseTo(out[4] * out[6], within(1e-12));
                assertThat(z - out[2]).as(what).isCloseTo(out[5] * out[6], within(1e-12));
                if (inside <= 0) {
                    assertThat(out[6]).as(what).isCloseTo(inside, within(1e-12));
                    assertThat(feature).as(what).isGreaterThanOrEqualTo(3 * ConvexHull.MAX_FEATURES);
                } else {
                    // brute force: the nearest of many points sampled on the faces is no nearer
                    double best = bruteForceDistance(h, x, y, z, rnd);
                    assertThat(out[6]).as(what).isPositive().isLessThanOrEqualTo(best + 1e-12);
                    assertThat(out[6]).as(what).isGreaterThanOrEqualTo(inside - 1e-12);
                    // the surface point lies on the hull's surface
                    double on = Double.NEGATIVE_INFINITY;
                    for (int f = 0; f < h.faceCount; f++) {
                        on = Math.max(on, h.faceNormals[3 * f] * out[0] + h.faceNormals[3 * f + 1] * out[1]
                                + h.faceNormals[3 * f + 2] * out[2] - h.faceOffsets[f]);
                    }
                    assertThat(on).as(what).isCloseTo(0, within(1e-12));
                }
            }
        }
    }

    /** Distance to the nearest of the vertices and of random points on the faces' fan triangles. */
    private static double bruteForceDistance(ConvexHull h, double x, double y, double z, Random rnd) {
        double best = Double.POSITIVE_INFINITY;
        double[] v = h.vertices;
        for (int f = 0; f < h.faceCount; f++) {
            int a = h.faceVertices[h.faceStart[f]];
            for (int k = h.faceStart[f] + 1; k + 1 < h.faceStart[f + 1]; k++) {
                int b = h.faceVertices[k];
                int c = h.faceVertices[k + 1];
                for (int s = 0; s < 20; s++) {
                    double u = rnd.nextDouble();
                    double w = rnd.nextDouble();
                    if (u + w > 1) {
                        u = 1 - u;
                        w = 1 - w;
                    }
                    double px = v[3 * a] + u * (v[3 * b] - v[3 * a]) + w * (v[3 * c] - v[3 * a]);
                    double py = v[3 * a + 1] + u * (v[3 * b + 1] - v[3 * a + 1]) + w * (v[3 * c + 1] - v[3 * a + 1]);
                    double pz = v[3 * a + 2] + u * (v[3 * b + 2] - v[3 * a + 2]) + w * (v[3 * c + 2] - v[3 * a + 2]);
                    best = Math.min(best, Math.sqrt((x - px) * (x - px) + (y - py) * (y - py) + (z - pz) * (z - pz)));
                }
            }
        }
        for (int k = 0; k < h.vertexCount; k++) {
            double dx = x - v[3 * k];
            double dy = y - v[3 * k + 1];
            double dz = z - v[3 * k + 2];
            best = Math.min(best, Math.sqrt(dx * dx + dy * dy + dz * dz));
        }
        return best;
    }

    @Test
    void closestPoint_nonFinitePoint_reportsNoFeature() {
        ConvexHull h = ConvexHull.of(Meshes.boxCorners(1, 1, 1));
        double[] out = new double[7];
        assertThat(h.closestPoint(Double.NaN, 0, 0, out)).isEqualTo(-1);
        assertThat(out[6]).isNaN();
    }
}
