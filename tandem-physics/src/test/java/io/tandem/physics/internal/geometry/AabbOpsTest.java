package io.tandem.physics.internal.geometry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AabbOpsTest {
    private final double[] min = new double[6];
    private final double[] max = new double[6];

    private void assertBox(int o, double x0, double y0, double z0, double x1, double y1, double z1) {
        assertThat(min[3 * o]).isCloseTo(x0, within(1e-12));
        assertThat(min[3 * o + 1]).isCloseTo(y0, within(1e-12));
        assertThat(min[3 * o + 2]).isCloseTo(z0, within(1e-12));
        assertThat(max[3 * o]).isCloseTo(x1, within(1e-12));
        assertThat(max[3 * o + 1]).isCloseTo(y1, within(1e-12));
        assertThat(max[3 * o + 2]).isCloseTo(z1, within(1e-12));
    }

    @Test
    void compute_sphereWithMargin_isCentredCube() {
        Poses p = new Poses(2).at(1, 1, 2, 3);
        AabbOps.compute(Shape.sphere(0.1), p.pos, p.quat, 1, 0.01, min, max);
        assertBox(1, 0.89, 1.89, 2.89, 1.11, 2.11, 3.11);
    }

    @Test
    void compute_boxRotated45AboutZ_growsInXAndY() {
        Poses p = new Poses(1).at(0, 0, 0, 0, 0, 0, 1, Math.PI / 4);
        AabbOps.compute(Shape.box(1, 1, 0.5), p.pos, p.quat, 0, 0, min, max);
        double e = Math.sqrt(2);
        assertBox(0, -e, -e, -0.5, e, e, 0.5);
    }

    @Test
    void compute_capsuleAlongX_spansSegmentPlusRadius() {
        Poses p = new Poses(1).at(0, 0, 0, 0, 0, 1, 0, Math.PI / 2);
        AabbOps.compute(Shape.capsule(0.1, 0.5), p.pos, p.quat, 0, 0, min, max);
        assertBox(0, -0.6, -0.1, -0.1, 0.6, 0.1, 0.1);
    }

    @Test
    void compute_cylinderTilted_isTightDiskExtent() {
        double angle = 0.3;
        Poses p = new Poses(1).at(0, 0, 0, 0, 1, 0, 0, angle);
        double r = 0.2;
        double h = 0.5;
        AabbOps.compute(Shape.cylinder(r, h), p.pos, p.quat, 0, 0, min, max);
        // axis a = (0, -sin, cos)
        double ay = Math.sin(angle);
        double az = Math.cos(angle);
        double ey = ay * h + r * Math.sqrt(1 - ay * ay);
        double ez = az * h + r * Math.sqrt(1 - az * az);
        assertBox(0, -r, -ey, -ez, r, ey, ez);
    }

    @Test
    void compute_floorPlane_isBoundedOnlyAboveItsSurface() {
        Poses p = new Poses(1).at(0, 0, 0, 0.5);
        AabbOps.compute(Shape.plane(), p.pos, p.quat, 0, 0.01, min, max);
        assertThat(max[2]).isEqualTo(0.51);
        assertThat(min[2]).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(min[0]).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(max[1]).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void compute_tiltedPlane_isUnboundedEverywhere() {
        Poses p = new Poses(1).at(0, 0, 0, 0, 1, 1, 0, 0.2);
        AabbOps.compute(Shape.plane(), p.pos, p.quat, 0, 0, min, max);
        for (int k = 0; k < 3; k++) {
            assertThat(min[k]).isEqualTo(Double.NEGATIVE_INFINITY);
            assertThat(max[k]).isEqualTo(Double.POSITIVE_INFINITY);
        }
    }

    @Test
    void compute_outputIndex_writesOnlyThatSlot() {
        Poses p = new Poses(1).at(0, 1, 1, 1);
        AabbOps.compute(Shape.box(0.1, 0.2, 0.3), p.pos, p.quat, 0, 0, min, max, 1);
        assertBox(1, 0.9, 0.8, 0.7, 1.1, 1.2, 1.3);
        assertBox(0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void compute_offCentreConvexTurned_isTheBoxOfItsWorldVertices() {
        // a box hull whose centre sits at (0.5, 0, 0) in its shape frame, turned 90 degrees about z
        Shape s = Shape.convex(Meshes.shifted(Meshes.boxCorners(0.1, 0.2, 0.3), 0.5, 0, 0));
        Poses p = new Poses(1).at(0, 1, 2, 3, 0, 0, 1, Math.PI / 2);
        AabbOps.compute(s, p.pos, p.quat, 0, 0.01, min, max);
        // local x becomes world y: centre at (1, 2.5, 3), half extents (0.2, 0.1, 0.3)
        assertBox(0, 0.79, 2.39, 2.69, 1.21, 2.61, 3.31);
    }

    @Test
    void compute_convexWithNanPose_givesNanBounds() {
        Shape s = Shape.convex(Meshes.boxCorners(0.1, 0.2, 0.3));
        Poses p = new Poses(1).at(0, 0, 0, 0);
        p.quat[1] = Double.NaN;
        AabbOps.compute(s, p.pos, p.quat, 0, 0, min, max);
        assertThat(min[0]).isNaN();
        assertThat(max[2]).isNaN();
    }
}
