package io.tandem.physics.internal.collision;

import static io.tandem.physics.internal.collision.ContactAssertions.EPS;
import static io.tandem.physics.internal.collision.ContactAssertions.assertAllDepths;
import static io.tandem.physics.internal.collision.ContactAssertions.assertNormal;
import static io.tandem.physics.internal.collision.ContactAssertions.assertPoint;
import static io.tandem.physics.internal.collision.ContactAssertions.nearest;
import static io.tandem.physics.internal.collision.ContactAssertions.sortedFeatures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.internal.geometry.Poses;
import io.tandem.physics.internal.geometry.Shape;
import org.junit.jupiter.api.Test;

class CapsuleContactsTest {
    private static final double HALF_PI = Math.PI / 2;
    private final NarrowPhase np = new NarrowPhase();
    private final ContactManifold m = new ContactManifold();
    private final Shape capsule = Shape.capsule(0.1, 0.5);
    private final Shape cube = Shape.box(0.5, 0.5, 0.5);

    private int collide(Shape a, Shape b, Poses p, double margin) {
        return np.collide(a, p.pos, p.quat, 0, b, 1, margin, m);
    }

    /** Capsule along world x at (x, y, z). */
    private static void alongX(Poses p, int i, double x, double y, double z) {
        p.at(i, x, y, z, 0, 1, 0, HALF_PI);
    }

    /** Capsule along world y at (x, y, z). */
    private static void alongY(Poses p, int i, double x, double y, double z) {
        p.at(i, x, y, z, 1, 0, 0, HALF_PI);
    }

    @Test
    void capsuleCapsule_crossing_onePointBetweenAxes() {
        Poses p = new Poses(2);
        alongX(p, 0, 0, 0, 0);
        alongY(p, 1, 0.1, 0.2, 0.19);
        assertThat(collide(capsule, capsule, p, 0)).isEqualTo(1);
        assertNormal(m, 0, 0, 1, EPS);
        assertThat(m.depth[0]).isCloseTo(0.01, within(EPS));
        assertPoint(m, 0, 0.1, 0, 0.095, EPS);
    }

    @Test
    void capsuleCapsule_parallelSideBySide_twoPointsAtOverlapEnds() {
        Poses p = new Poses(2);
        alongX(p, 0, 0, 0, 0);
        alongX(p, 1, 0.3, 0, 0.19);
        assertThat(collide(capsule, capsule, p, 0)).isEqualTo(2);
        assertNormal(m, 0, 0, 1, EPS);
        assertAllDepths(m, 0.01, EPS);
        assertPoint(m, nearest(m, -0.2, 0, 0.095), -0.2, 0, 0.095, EPS);
        assertPoint(m, nearest(m, 0.5, 0, 0.095), 0.5, 0, 0.095, EPS);
    }

    @Test
    void capsuleCapsule_collinearEndToEnd_onePointAlongAxis() {
        Poses p = new Poses(2);
        alongX(p, 0, 0, 0, 0);
        alongX(p, 1, 1.15, 0, 0);
        assertThat(collide(capsule, capsule, p, 0)).isEqualTo(1);
        assertNormal(m, 1, 0, 0, EPS);
        assertThat(m.depth[0]).isCloseTo(0.05, within(EPS));
    }

    @Test
    void capsuleCapsule_separatedBeyondMargin_noContact() {
        Poses p = new Poses(2);
        alongX(p, 0, 0, 0, 0);
        alongY(p, 1, 0, 0, 0.25);
        assertThat(collide(capsule, capsule, p, 0.02)).isZero();
        assertThat(collide(capsule, capsule, p, 0.06)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(-0.05, within(EPS));
    }

    @Test
    void capsulePlane_lyingAndStanding_twoPointsThenOne() {
        Poses p = new Poses(2).at(1, 0, 0, 0);
        alongX(p, 0, 0, 0, 0.09);
        assertThat(collide(capsule, Shape.plane(), p, 0)).isEqualTo(2);
        assertNormal(m, 0, 0, -1, EPS);
        assertAllDepths(m, 0.01, EPS);
        assertPoint(m, nearest(m, 0.5, 0, 0), 0.5, 0, -0.005, EPS);
        p.at(0, 0, 0, 0.58);
        assertThat(collide(capsule, Shape.plane(), p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.02, within(EPS));
        assertPoint(m, 0, 0, 0, -0.01, EPS);
    }

    @Test
    void boxCapsule_lyingOnFace_twoPoints() {
        Shape shortCapsule = Shape.capsule(0.1, 0.2);
        Poses p = new Poses(2).at(0, 0, 0, 0);
        alongX(p, 1, 0.2, 0, 0.59);
        assertThat(collide(cube, shortCapsule, p, 0)).isEqualTo(2);
        assertNormal(m, 0, 0, 1, EPS);
        assertAllDepths(m, 0.01, EPS);
        assertPoint(m, nearest(m, 0, 0, 0.5), 0, 0, 0.495, EPS);
        assertPoint(m, nearest(m, 0.4, 0, 0.5), 0.4, 0, 0.495, EPS);
        // capsule first: normal flips
        assertThat(np.collide(shortCapsule, p.pos, p.quat, 1, cube, 0, 0, m)).isEqualTo(2);
        assertNormal(m, 0, 0, -1, EPS);
    }

    @Test
    void boxCapsule_hangingOverEdge_pointsClippedToFace() {
        Shape c = Shape.capsule(0.1, 0.3);
        Poses p = new Poses(2).at(0, 0, 0, 0);
        alongX(p, 1, 0.5, 0, 0.59);
        assertThat(collide(cube, c, p, 0)).isEqualTo(2);
        assertNormal(m, 0, 0, 1, EPS);
        assertAllDepths(m, 0.01, EPS);
        assertThat(m.point[3 * nearest(m, 0.2, 0, 0.5)]).isCloseTo(0.2, within(EPS));
        assertThat(m.point[3 * nearest(m, 0.5, 0, 0.5)]).isCloseTo(0.5, within(1e-3));
    }

    @Test
    void boxCapsule_standingOnFace_onePointUnderTheEnd() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.1, 0.1, 0.5 + 0.5 + 0.1 - 0.01);
        assertThat(collide(cube, capsule, p, 0.005)).isEqualTo(1);
        assertNormal(m, 0, 0, 1, EPS);
        assertThat(m.depth[0]).isCloseTo(0.01, within(EPS));
        assertPoint(m, 0, 0.1, 0.1, 0.495, EPS);
    }

    @Test
    void boxCapsule_acrossEdge_exactDistanceDiagonalNormal() {
        Poses p = new Poses(2).at(0, 0, 0, 0);
        alongY(p, 1, 0.55, 0.1, 0.55);
        assertThat(collide(cube, capsule, p, 0)).isEqualTo(1);
        double k = Math.sqrt(0.5);
        assertNormal(m, k, 0, k, 1e-7);
        assertThat(m.depth[0]).isCloseTo(0.1 - 0.05 * Math.sqrt(2), within(1e-7));
    }

    @Test
    void boxCapsule_nearCornerDiagonally_noFalseContact() {
        // end of the capsule 0.15 from the corner along the diagonal: gap 0.05, the SAT lower bound would say overlap
        double d = 0.15 / Math.sqrt(3);
        Shape c = Shape.capsule(0.1, 0.2);
        Poses p = new Poses(2).at(0, 0, 0, 0);
        // capsule axis along (1, 1, 1)
        double ax = 1 / Math.sqrt(3);
        double centre = 0.5 + d + 0.2 * ax;
        p.at(1, centre, centre, centre, -1, 1, 0, Math.acos(ax));
        assertThat(collide(cube, c, p, 0.01)).isZero();
        assertThat(collide(cube, c, p, 0.06)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(-0.05, within(1e-7));
    }

    @Test
    void boxCapsule_coreInsideBox_satDepthThroughTopFace() {
        Shape c = Shape.capsule(0.1, 0.2);
        Poses p = new Poses(2).at(0, 0, 0, 0);
        alongX(p, 1, 0, 0, 0.45);
        assertThat(collide(cube, c, p, 0)).isEqualTo(2);
        assertNormal(m, 0, 0, 1, EPS);
        assertAllDepths(m, 0.15, EPS);
    }

    @Test
    void boxCapsule_tinyPerturbation_sameFeatureIds() {
        Shape c = Shape.capsule(0.1, 0.2);
        Poses p = new Poses(2).at(0, 0, 0, 0, 0, 0, 1, 0.3);
        alongX(p, 1, 0.1, 0.05, 0.595);
        assertThat(collide(cube, c, p, 0.01)).isEqualTo(2);
        int[] before = sortedFeatures(m);
        p.translate(1, 1e-7, 1e-7, -1e-7).rotate(1, 0, 0, 1, 1e-6);
        assertThat(collide(cube, c, p, 0.01)).isEqualTo(2);
        assertThat(sortedFeatures(m)).containsExactly(before);
        Poses q = new Poses(2);
        alongX(q, 0, 0, 0, 0);
        alongX(q, 1, 0.3, 0, 0.19);
        collide(capsule, capsule, q, 0);
        int[] pair = sortedFeatures(m);
        q.translate(1, 1e-7, 0, 1e-7).rotate(1, 0, 0, 1, 1e-6);
        collide(capsule, capsule, q, 0);
        assertThat(sortedFeatures(m)).containsExactly(pair);
    }
}
