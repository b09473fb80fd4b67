package io.tandem.physics.internal.collision;

import static io.tandem.physics.internal.collision.ContactAssertions.EPS;
import static io.tandem.physics.internal.collision.ContactAssertions.assertNormal;
import static io.tandem.physics.internal.collision.ContactAssertions.assertPoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.internal.geometry.Poses;
import io.tandem.physics.internal.geometry.Shape;
import org.junit.jupiter.api.Test;

class SphereContactsTest {
    private final NarrowPhase np = new NarrowPhase();
    private final ContactManifold m = new ContactManifold();
    private final Shape ball = Shape.sphere(0.1);

    private int collide(Shape a, Shape b, Poses p, double margin) {
        return np.collide(a, p.pos, p.quat, 0, b, 1, margin, m);
    }

    @Test
    void sphereSphere_overlapping_depthNormalAndMidpoint() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.15, 0, 0);
        assertThat(collide(ball, ball, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.05, within(EPS));
        assertNormal(m, 1, 0, 0, EPS);
        // surfaces at x = 0.1 (A) and 0.05 (B)
        assertPoint(m, 0, 0.075, 0, 0, EPS);
        assertThat(m.colliderA).isEqualTo(0);
        assertThat(m.colliderB).isEqualTo(1);
    }

    @Test
    void sphereSphere_touching_zeroDepth() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0, 0.2, 0);
        assertThat(collide(ball, ball, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0, within(EPS));
        assertNormal(m, 0, 1, 0, EPS);
    }

    @Test
    void sphereSphere_gapWithinMargin_negativeDepth() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0, 0, 0.205);
        assertThat(collide(ball, ball, p, 0.01)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(-0.005, within(EPS));
    }

    @Test
    void sphereSphere_separatedBeyondMargin_noContact() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0, 0, 0.215);
        assertThat(collide(ball, ball, p, 0.01)).isZero();
        assertThat(m.count).isZero();
    }

    @Test
    void spherePlane_tiltedPlane_depthAlongPlaneNormal() {
        double angle = 0.3;
        // plane normal = R_x(0.3) e_z = (0, -sin, cos)
        double ny = -Math.sin(angle);
        double nz = Math.cos(angle);
        Poses p = new Poses(2).at(1, 0, 0, 1, 1, 0, 0, angle);
        p.at(0, 0.4 + ny * 0.0, ny * 0.08, 1 + nz * 0.08);
        assertThat(collide(ball, Shape.plane(), p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.02, within(EPS));
        assertNormal(m, 0, -ny, -nz, EPS);
        // midway between sphere surface (-0.1 n) and plane (0)
        assertPoint(m, 0, 0.4, ny * -0.01, 1 + nz * -0.01, EPS);
        // swapped: plane first, normal flips
        Poses q = new Poses(2);
        System.arraycopy(p.pos, 3, q.pos, 0, 3);
        System.arraycopy(p.quat, 4, q.quat, 0, 4);
        System.arraycopy(p.pos, 0, q.pos, 3, 3);
        System.arraycopy(p.quat, 0, q.quat, 4, 4);
        assertThat(np.collide(Shape.plane(), q.pos, q.quat, 0, ball, 1, 0, m)).isEqualTo(1);
        assertNormal(m, 0, ny, nz, EPS);
        assertThat(m.depth[0]).isCloseTo(0.02, within(EPS));
    }

    @Test
    void sphereBox_faceRegionRotatedBox_depthAndInwardNormal() {
        double a = Math.PI / 6;
        Poses p = new Poses(2).at(1, 1, 2, 3, 0, 0, 1, a);
        double c = Math.cos(a);
        double s = Math.sin(a);
        // local (0.55, 0.1, 0) in the box frame
        p.at(0, 1 + 0.55 * c - 0.1 * s, 2 + 0.55 * s + 0.1 * c, 3);
        assertThat(collide(ball, Shape.box(0.5, 0.5, 0.5), p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.05, within(EPS));
        assertNormal(m, -c, -s, 0, EPS);
    }

    @Test
    void sphereBox_edgeAndVertexRegions_exactDistance() {
        Shape box = Shape.box(0.5, 0.5, 0.5);
        Poses p = new Poses(2).at(1, 0, 0, 0).at(0, 0.55, 0.55, 0);
        assertThat(collide(ball, box, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.1 - 0.05 * Math.sqrt(2), within(EPS));
        double k = Math.sqrt(0.5);
        assertNormal(m, -k, -k, 0, EPS);
        p.at(0, 0.55, 0.55, 0.55);
        assertThat(collide(ball, box, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.1 - 0.05 * Math.sqrt(3), within(EPS));
    }

    @Test
    void sphereBox_centreInside_pushesOutThroughNearestFace() {
        Poses p = new Poses(2).at(1, 0, 0, 0).at(0, 0.1, 0.05, 0.4);
        assertThat(collide(ball, Shape.box(0.5, 0.5, 0.5), p, 0)).isEqualTo(1);
        // nearest face +z at 0.1, plus the radius
        assertThat(m.depth[0]).isCloseTo(0.2, within(EPS));
        assertNormal(m, 0, 0, -1, EPS);
    }

    @Test
    void boxSphere_swappedOrder_normalFlips() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0, 0, 0.58);
        assertThat(np.collide(Shape.box(0.5, 0.5, 0.5), p.pos, p.quat, 0, ball, 1, 0, m)).isEqualTo(1);
        assertNormal(m, 0, 0, 1, EPS);
        assertThat(m.depth[0]).isCloseTo(0.02, within(EPS));
    }

    @Test
    void sphereCapsule_sideAndEnd_closestPointOnSegment() {
        // capsule along world x (rotated about y), half length 0.5, radius 0.05
        Shape cap = Shape.capsule(0.05, 0.5);
        Poses p = new Poses(2).at(1, 0, 0, 0, 0, 1, 0, Math.PI / 2).at(0, 0.2, 0, 0.14);
        assertThat(collide(ball, cap, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.01, within(EPS));
        assertNormal(m, 0, 0, -1, EPS);
        p.at(0, 0.64, 0, 0);
        assertThat(collide(ball, cap, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.01, within(EPS));
        assertNormal(m, -1, 0, 0, EPS);
    }

    @Test
    void sphereCylinder_sideCapAndRim_exact() {
        Shape cyl = Shape.cylinder(0.3, 0.2);
        Poses p = new Poses(2).at(1, 0, 0, 0).at(0, 0.39, 0, 0.1);
        assertThat(collide(ball, cyl, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.01, within(EPS));
        assertNormal(m, -1, 0, 0, EPS);
        p.at(0, 0.1, 0.1, 0.28);
        assertThat(collide(ball, cyl, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.02, within(EPS));
        assertNormal(m, 0, 0, -1, EPS);
        p.at(0, 0.35, 0, 0.25);
        assertThat(collide(ball, cyl, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.1 - 0.05 * Math.sqrt(2), within(EPS));
        // exact round side: no prism error at a vertex-free angle
        double ang = Math.PI / 16;
        p.at(0, 0.38 * Math.cos(ang), 0.38 * Math.sin(ang), 0);
        assertThat(collide(ball, cyl, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.02, within(EPS));
    }

    @Test
    void sphereCylinder_centreInside_nearerOfSideAndCap() {
        Shape cyl = Shape.cylinder(0.3, 0.2);
        Poses p = new Poses(2).at(1, 0, 0, 0).at(0, 0.25, 0, 0);
        assertThat(collide(ball, cyl, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.15, within(EPS));
        assertNormal(m, -1, 0, 0, EPS);
        p.at(0, 0, 0.05, -0.15);
        assertThat(collide(ball, cyl, p, 0)).isEqualTo(1);
        assertThat(m.depth[0]).isCloseTo(0.15, within(EPS));
        assertNormal(m, 0, 0, 1, EPS);
    }

    @Test
    void sphereCapsule_rotatedCapsuleSeparatedBeyondMargin_noContact() {
        Poses p = new Poses(2).at(1, 0, 0, 0, 1, 0, 0, 0.7).at(0, 0.5, 0, 0);
        assertThat(collide(ball, Shape.capsule(0.1, 0.4), p, 0.05)).isZero();
    }

    @Test
    void collide_nanPose_noContactAndCounted() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, Double.NaN, 0, 0.1);
        assertThat(collide(Shape.box(0.5, 0.5, 0.5), ball, p, 0)).isZero();
        assertThat(np.invalidCount()).isEqualTo(1);
        p.at(1, 0, 0, 0.1);
        assertThat(collide(Shape.box(0.5, 0.5, 0.5), ball, p, 0)).isEqualTo(1);
        assertThat(np.invalidCount()).isEqualTo(1);
    }
}
