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

class CylinderContactsTest {
    private static final double R = 0.3;
    private static final double H = 0.2;
    /** largest inward error of the inscribed 16-gon prism */
    private static final double PRISM_ERROR = R * (1 - Math.cos(Math.PI / Shape.CYLINDER_PRISM_SIDES));
    private final NarrowPhase np = new NarrowPhase();
    private final ContactManifold m = new ContactManifold();
    private final Shape cylinder = Shape.cylinder(R, H);
    private final Shape plane = Shape.plane();

    private int collide(Shape a, Shape b, Poses p, double margin) {
        return np.collide(a, p.pos, p.quat, 0, b, 1, margin, m);
    }

    @Test
    void cylinderPlane_standing_fourRimPoints() {
        Poses p = new Poses(2).at(0, 1, 1, H - 0.01).at(1, 0, 0, 0);
        assertThat(collide(cylinder, plane, p, 0.005)).isEqualTo(4);
        assertNormal(m, 0, 0, -1, EPS);
        assertAllDepths(m, 0.01, EPS);
        assertPoint(m, nearest(m, 1 + R, 1, 0), 1 + R, 1, -0.005, EPS);
        assertPoint(m, nearest(m, 1, 1 - R, 0), 1, 1 - R, -0.005, EPS);
    }

    @Test
    void cylinderPlane_lyingOnSide_twoLowestRimPoints() {
        Poses p = new Poses(2).at(0, 0, 0, R - 0.01, 1, 0, 0, Math.PI / 2).at(1, 0, 0, 0);
        assertThat(collide(cylinder, plane, p, 0.005)).isEqualTo(2);
        assertAllDepths(m, 0.01, EPS);
        // caps at y = -+H after the rotation
        assertPoint(m, nearest(m, 0, H, 0), 0, H, -0.005, EPS);
        assertPoint(m, nearest(m, 0, -H, 0), 0, -H, -0.005, EPS);
        // rolled about its own axis: still exact (the wheel on the ground)
        p.at(0, 0, 0, R - 0.01, 1, 0, 0, Math.PI / 2).rotate(0, 0, 1, 0, 0.123);
        assertThat(collide(cylinder, plane, p, 0.005)).isEqualTo(2);
        assertAllDepths(m, 0.01, EPS);
    }

    @Test
    void cylinderPlane_tilted_deepestPointIsExactLowestRimPoint() {
        double a = 0.5;
        double lowest = H * Math.cos(a) + R * Math.sin(a);
        Poses p = new Poses(2).at(0, 0, 0, lowest - 0.01, 1, 0, 0, a).at(1, 0, 0, 0);
        assertThat(collide(cylinder, plane, p, 0.005)).isPositive();
        assertThat(m.maxDepth()).isCloseTo(0.01, within(EPS));
        for (int k = 0; k < m.count; k++) {
            assertThat(m.depth[k]).isLessThanOrEqualTo(0.01 + EPS);
        }
    }

    @Test
    void cylinderPlane_tinyPerturbation_sameFeatureIds() {
        Poses p = new Poses(2).at(0, 0, 0, H - 0.01).at(1, 0, 0, 0);
        collide(cylinder, plane, p, 0.005);
        int[] before = sortedFeatures(m);
        p.translate(0, 1e-7, 0, 1e-7).rotate(0, 0, 0, 1, 1e-6);
        collide(cylinder, plane, p, 0.005);
        assertThat(sortedFeatures(m)).containsExactly(before);
    }

    @Test
    void boxCylinder_standingOnBox_fourRimPoints() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.1, 0, 0.5 + H - 0.01, 0, 0, 1, 0.3);
        assertThat(collide(Shape.box(1, 1, 0.5), cylinder, p, 0.005)).isEqualTo(4);
        assertNormal(m, 0, 0, 1, EPS);
        assertAllDepths(m, 0.01, EPS);
        for (int k = 0; k < 4; k++) {
            double r = Math.hypot(m.point[3 * k] - 0.1, m.point[3 * k + 1]);
            assertThat(r).isCloseTo(R, within(1e-9));
        }
    }

    @Test
    void cylinderCylinder_stackedCoaxial_fourPoints() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.05, 0, 2 * H - 0.01);
        assertThat(collide(cylinder, cylinder, p, 0.005)).isEqualTo(4);
        assertNormal(m, 0, 0, 1, EPS);
        assertAllDepths(m, 0.01, EPS);
    }

    @Test
    void boxCylinder_lyingOnBox_lineContactAtPrismVertexRow() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0, 0, 0.5 + R - 0.01, 1, 0, 0, Math.PI / 2);
        assertThat(collide(Shape.box(1, 1, 0.5), cylinder, p, 0.005)).isGreaterThanOrEqualTo(2);
        assertNormal(m, 0, 0, 1, EPS);
        assertThat(m.maxDepth()).isCloseTo(0.01, within(EPS));
    }

    @Test
    void boxCylinder_sideAgainstBoxSide_depthWithinPrismError() {
        for (double twist = 0; twist < Math.PI / 8; twist += Math.PI / 64) {
            Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.5 + R - 0.01, 0, 0, 0, 0, 1, twist);
            assertThat(collide(cube(), cylinder, p, 0.01)).isPositive();
            assertNormal(m, 1, 0, 0, 1e-9);
            assertThat(m.maxDepth()).isBetween(0.01 - PRISM_ERROR - EPS, 0.01 + EPS);
        }
    }

    @Test
    void capsuleCylinder_lyingOnCap_twoPoints() {
        Shape capsule = Shape.capsule(0.1, 0.2);
        Poses p = new Poses(2).at(0, 0, 0.05, H + 0.1 - 0.01, 0, 1, 0, Math.PI / 2).at(1, 0, 0, 0);
        assertThat(collide(capsule, cylinder, p, 0)).isEqualTo(2);
        assertNormal(m, 0, 0, -1, EPS);
        assertAllDepths(m, 0.01, EPS);
        // cylinder first
        assertThat(np.collide(cylinder, p.pos, p.quat, 1, capsule, 0, 0, m)).isEqualTo(2);
        assertNormal(m, 0, 0, 1, EPS);
    }

    @Test
    void planePlane_anyPoses_noContact() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0, 0, 1);
        assertThat(collide(plane, plane, p, 1)).isZero();
        assertThat(m.count).isZero();
    }

    private static Shape cube() {
        return Shape.box(0.5, 0.5, 0.5);
    }
}
