package io.tandem.physics.internal.collision;

import static io.tandem.physics.internal.collision.ContactAssertions.EPS;
import static io.tandem.physics.internal.collision.ContactAssertions.assertAllDepths;
import static io.tandem.physics.internal.collision.ContactAssertions.assertNormal;
import static io.tandem.physics.internal.collision.ContactAssertions.assertPoint;
import static io.tandem.physics.internal.collision.ContactAssertions.nearest;
import static io.tandem.physics.internal.collision.ContactAssertions.sortedFeatures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.internal.geometry.AabbOps;
import io.tandem.physics.internal.geometry.Poses;
import io.tandem.physics.internal.geometry.Shape;
import org.junit.jupiter.api.Test;

class BoxContactsTest {
    private final NarrowPhase np = new NarrowPhase();
    private final ContactManifold m = new ContactManifold();
    private final Shape cube = Shape.box(0.5, 0.5, 0.5);

    private int collide(Shape a, Shape b, Poses p, double margin) {
        return np.collide(a, p.pos, p.quat, 0, b, 1, margin, m);
    }

    @Test
    void boxPlane_restingFlat_fourCornerPointsWithDepth() {
        Poses p = new Poses(2).at(0, 1, 2, 0.49).at(1, 0, 0, 0);
        assertThat(collide(cube, Shape.plane(), p, 0.005)).isEqualTo(4);
        assertNormal(m, 0, 0, -1, EPS);
        assertAllDepths(m, 0.01, EPS);
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                int k = nearest(m, 1 + 0.5 * sx, 2 + 0.5 * sy, 0);
                assertPoint(m, k, 1 + 0.5 * sx, 2 + 0.5 * sy, -0.005, EPS);
            }
        }
    }

    @Test
    void boxPlane_tiltedOnEdgeAndOnVertex_twoAndOnePoints() {
        double a = 0.3;
        // lowest edge at z = centre - 0.5 (cos a + sin a)
        double lowest = 0.5 * (Math.cos(a) + Math.sin(a));
        Poses p = new Poses(2).at(0, 0, 0, lowest - 0.01, 1, 0, 0, a).at(1, 0, 0, 0);
        assertThat(collide(cube, Shape.plane(), p, 0.005)).isEqualTo(2);
        assertAllDepths(m, 0.01, EPS);
        p.at(0, 0, 0, 0, 1, 0, 0, a).rotate(0, 0, 1, 0, 0.2);
        double minZ = Double.POSITIVE_INFINITY;
        double[] min = new double[3];
        double[] max = new double[3];
        AabbOps.compute(cube, p.pos, p.quat, 0, 0, min, max);
        minZ = min[2];
        p.translate(0, 0, 0, -minZ - 0.01);
        assertThat(collide(cube, Shape.plane(), p, 0.005)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.01, within(EPS));
    }

    @Test
    void boxPlane_sunkBelowPlane_keepsFourDeepestCorners() {
        Poses p = new Poses(2).at(0, 0, 0, -0.2).at(1, 0, 0, 0);
        assertThat(collide(cube, Shape.plane(), p, 0)).isEqualTo(4);
        assertAllDepths(m, 0.7, EPS);
    }

    @Test
    void boxBox_equalBoxesFaceToFace_fourPointsWithDepth() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0, 0, 0.99);
        assertThat(collide(cube, cube, p, 0.005)).isEqualTo(4);
        assertNormal(m, 0, 0, 1, EPS);
        assertAllDepths(m, 0.01, EPS);
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                int k = nearest(m, 0.5 * sx, 0.5 * sy, 0.495);
                assertPoint(m, k, 0.5 * sx, 0.5 * sy, 0.495, EPS);
            }
        }
    }

    @Test
    void boxBox_smallBoxRotatedOnTop_fourPointsAtItsCorners() {
        Shape big = Shape.box(1, 1, 0.5);
        Shape small = Shape.box(0.3, 0.2, 0.1);
        double a = 0.7;
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.2, -0.1, 0.6 - 0.02, 0, 0, 1, a);
        assertThat(collide(big, small, p, 0.005)).isEqualTo(4);
        assertNormal(m, 0, 0, 1, EPS);
        assertAllDepths(m, 0.02, EPS);
        double c = Math.cos(a);
        double s = Math.sin(a);
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                double x = 0.2 + c * 0.3 * sx - s * 0.2 * sy;
                double y = -0.1 + s * 0.3 * sx + c * 0.2 * sy;
                assertPoint(m, nearest(m, x, y, 0.49), x, y, 0.49, EPS);
            }
        }
        // the same from the small box's side: normal flips, same depths
        assertThat(np.collide(small, p.pos, p.quat, 1, big, 0, 0.005, m)).isEqualTo(4);
        assertNormal(m, 0, 0, -1, EPS);
        assertAllDepths(m, 0.02, EPS);
    }

    @Test
    void boxBox_equalBoxesTwisted45_clippedOctagonReducedToFour() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0, 0, 0.98, 0, 0, 1, Math.PI / 4);
        assertThat(collide(cube, cube, p, 0.005)).isEqualTo(4);
        assertNormal(m, 0, 0, 1, EPS);
        assertAllDepths(m, 0.02, EPS);
        for (int k = 0; k < 4; k++) {
            // every point on the boundary of the lower box's top face (side planes carry a 1e-3 r slop)
            double x = Math.abs(m.point[3 * k]);
            double y = Math.abs(m.point[3 * k + 1]);
            assertThat(Math.max(x, y)).isCloseTo(0.5, within(1e-3));
        }
    }

    @Test
    void boxBox_crossedEdges_singleEdgeContact() {
        double h = 0.5 * Math.sqrt(2);
        Poses p = new Poses(2).at(0, 0, 0, 0, 1, 0, 0, Math.PI / 4).at(1, 0, 0, 2 * h - 0.01, 0, 1, 0, Math.PI / 4);
        assertThat(collide(cube, cube, p, 0.005)).isEqualTo(1);
        assertNormal(m, 0, 0, 1, EPS);
        assertThat(m.depth[0]).isCloseTo(0.01, within(EPS));
        assertPoint(m, 0, 0, 0, h - 0.005, EPS);
    }

    @Test
    void boxBox_gapWithinAndBeyondMargin_negativeDepthThenNothing() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.3, 0, 1.004);
        assertThat(collide(cube, cube, p, 0.005)).isEqualTo(4);
        assertAllDepths(m, -0.004, EPS);
        p.at(1, 0.3, 0, 1.006);
        assertThat(collide(cube, cube, p, 0.005)).isZero();
        p.at(1, 3, 0, 0);
        assertThat(collide(cube, cube, p, 0.005)).isZero();
    }

    @Test
    void boxBox_sideBySideRotatedPair_normalAlongSeparatingFace() {
        // B against A's +x face, both rotated together 30 degrees about z
        double a = Math.PI / 6;
        double c = Math.cos(a);
        double s = Math.sin(a);
        Poses p = new Poses(2).at(0, 0, 0, 0, 0, 0, 1, a).at(1, 0.97 * c, 0.97 * s, 0.2, 0, 0, 1, a);
        assertThat(collide(cube, cube, p, 0)).isEqualTo(4);
        assertNormal(m, c, s, 0, EPS);
        assertAllDepths(m, 0.03, EPS);
    }

    @Test
    void boxBox_tinyPerturbation_sameFeatureIds() {
        Shape big = Shape.box(1, 1, 0.5);
        Shape small = Shape.box(0.3, 0.2, 0.1);
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.2, -0.1, 0.59, 0, 0, 1, 0.4);
        assertThat(collide(big, small, p, 0.005)).isEqualTo(4);
        int[] before = sortedFeatures(m);
        p.translate(1, 1e-7, -2e-7, 3e-7).rotate(1, 1, 1, 0, 1e-6);
        assertThat(collide(big, small, p, 0.005)).isEqualTo(4);
        assertThat(sortedFeatures(m)).containsExactly(before);
        // equal boxes stacked: vertex contacts survive sub-slop lateral jitter
        Poses q = new Poses(2).at(0, 0, 0, 0).at(1, 0, 0, 0.99);
        assertThat(collide(cube, cube, q, 0.005)).isEqualTo(4);
        int[] stack = sortedFeatures(m);
        q.translate(1, 2e-5, -1e-5, 0).rotate(1, 0, 0, 1, 1e-5);
        assertThat(collide(cube, cube, q, 0.005)).isEqualTo(4);
        assertThat(sortedFeatures(m)).containsExactly(stack);
        // box on plane
        Poses r = new Poses(2).at(0, 0, 0, 0.49).at(1, 0, 0, 0);
        collide(cube, Shape.plane(), r, 0.005);
        int[] ground = sortedFeatures(m);
        r.translate(0, 1e-7, 0, 1e-7).rotate(0, 1, 0, 0, 1e-6);
        collide(cube, Shape.plane(), r, 0.005);
        assertThat(sortedFeatures(m)).containsExactly(ground);
    }

    @Test
    void boxBox_restingStackWithJitter_fourPointsWithStableFeatures() {
        java.util.Random rnd = new java.util.Random(11);
        int[] reference = null;
        for (int draw = 0; draw < 100; draw++) {
            // tilts up to 5e-4 rad and lateral offsets up to 2e-4 m, as in a settled stack
            Poses p = new Poses(2)
                    .at(0, 0, 0, 0, rnd.nextDouble() - 0.5, rnd.nextDouble() - 0.5, 0, 5e-4 * rnd.nextDouble())
                    .at(1, 2e-4 * (rnd.nextDouble() - 0.5), 2e-4 * (rnd.nextDouble() - 0.5), 0.995,
                            rnd.nextDouble() - 0.5, rnd.nextDouble() - 0.5, rnd.nextDouble() - 0.5,
                            5e-4 * rnd.nextDouble());
            assertThat(collide(cube, cube, p, 0.01)).as("draw %d", draw).isEqualTo(4);
            assertThat(m.normal[2]).isGreaterThan(Math.cos(1e-3));
            for (int k = 0; k < 4; k++) {
                assertThat(m.depth[k]).isBetween(0.005 - 1e-3, 0.005 + 1e-3);
            }
            if (reference == null) {
                reference = sortedFeatures(m);
            }
            assertThat(sortedFeatures(m)).as("draw %d", draw).containsExactly(reference);
        }
    }

    @Test
    void boxBox_swappedArguments_negatedNormalSameDepths() {
        Poses p = new Poses(2).at(0, 0, 0, 0, 1, 2, 3, 0.3).at(1, 0.2, 0.6, 0.7, 3, 1, 1, 1.1);
        int n = collide(cube, cube, p, 0.01);
        assertThat(n).isPositive();
        double[] normal = m.normal.clone();
        double depth = m.maxDepth();
        assertThat(np.collide(cube, p.pos, p.quat, 1, cube, 0, 0.01, m)).isPositive();
        // the reference face may switch sides, so compare the deepest penetration and the axis
        assertThat(m.maxDepth()).isCloseTo(depth, within(1e-3));
        assertThat(m.normal[0] * normal[0] + m.normal[1] * normal[1] + m.normal[2] * normal[2]).isLessThan(-0.99);
    }
}
