package io.tandem.physics.internal.geometry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MassPropertiesTest {
    private static final double RHO = 1000;

    @Test
    void of_sphere_matchesClosedForm() {
        MassProperties m = MassProperties.of(Shape.sphere(0.1), RHO);
        double mass = 4.0 / 3.0 * Math.PI * 1e-3 * RHO;
        assertThat(m.mass()).isCloseTo(mass, within(1e-12));
        assertThat(m.ixx()).isCloseTo(0.4 * mass * 0.01, within(1e-15));
        assertThat(m.iyy()).isEqualTo(m.ixx());
        assertThat(m.izz()).isEqualTo(m.ixx());
        assertThat(new double[] {m.comX(), m.comY(), m.comZ()}).containsExactly(0, 0, 0);
    }

    @Test
    void of_box_matchesClosedFormWithFullExtents() {
        // 0.1 x 0.02 x 0.02 m chain link
        MassProperties m = MassProperties.of(Shape.box(0.05, 0.01, 0.01), RHO);
        double mass = 0.1 * 0.02 * 0.02 * RHO;
        assertThat(m.mass()).isCloseTo(mass, within(1e-15));
        assertThat(m.ixx()).isCloseTo(mass * (0.02 * 0.02 + 0.02 * 0.02) / 12, within(1e-18));
        assertThat(m.iyy()).isCloseTo(mass * (0.1 * 0.1 + 0.02 * 0.02) / 12, within(1e-18));
        assertThat(m.izz()).isCloseTo(mass * (0.1 * 0.1 + 0.02 * 0.02) / 12, within(1e-18));
    }

    @Test
    void of_cylinder_matchesClosedForm() {
        double r = 0.2;
        double h = 0.5;
        MassProperties m = MassProperties.of(Shape.cylinder(r, h), RHO);
        double mass = Math.PI * r * r * 2 * h * RHO;
        assertThat(m.mass()).isCloseTo(mass, within(1e-9));
        assertThat(m.izz()).isCloseTo(0.5 * mass * r * r, within(1e-9));
        assertThat(m.ixx()).isCloseTo(mass * (3 * r * r + (2 * h) * (2 * h)) / 12, within(1e-9));
        assertThat(m.iyy()).isEqualTo(m.ixx());
    }

    @Test
    void of_capsule_matchesSliceIntegration() {
        double r = 0.1;
        double h = 0.3;
        MassProperties m = MassProperties.of(Shape.capsule(r, h), RHO);
        // independent check: integrate thin disks along z (Simpson), disk radius a(z)
        int n = 20_000;
        double z0 = -h - r;
        double z1 = h + r;
        double dz = (z1 - z0) / n;
        double mass = 0;
        double ixx = 0;
        double izz = 0;
        for (int k = 0; k <= n; k++) {
            double z = z0 + k * dz;
            double e = Math.max(0, Math.abs(z) - h);
            double a2 = Math.max(0, r * r - e * e);
            double w = (k == 0 || k == n) ? 1 : (k % 2 == 1 ? 4 : 2);
            double dm = RHO * Math.PI * a2;
            mass += w * dm;
            ixx += w * dm * (a2 / 4 + z * z);
            izz += w * dm * a2 / 2;
        }
        mass *= dz / 3;
        ixx *= dz / 3;
        izz *= dz / 3;
        assertThat(m.mass()).isCloseTo(mass, within(1e-6 * mass));
        assertThat(m.ixx()).isCloseTo(ixx, within(1e-6 * ixx));
        assertThat(m.izz()).isCloseTo(izz, within(1e-6 * izz));
        // closed form: cylinder + sphere mass
        double closed = Math.PI * r * r * 2 * h * RHO + 4.0 / 3.0 * Math.PI * r * r * r * RHO;
        assertThat(m.mass()).isCloseTo(closed, within(1e-12));
    }

    @Test
    void of_plane_throws() {
        assertThatThrownBy(() -> MassProperties.of(Shape.plane(), RHO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("static");
    }

    @Test
    void of_nonPositiveDensity_throws() {
        assertThatThrownBy(() -> MassProperties.of(Shape.sphere(1), 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("density");
        assertThatThrownBy(() -> MassProperties.of(Shape.sphere(1), Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void of_convexTetrahedron_matchesClosedForm() {
        // the corner tetrahedron (0, 0, 0), (a, 0, 0), (0, a, 0), (0, 0, a): V = a^3/6, centroid a/4 (1, 1, 1);
        // about the origin integral x^2 dV = a^5/60 and integral x y dV = a^5/120 (Tonon 2005)
        double a = 0.3;
        MassProperties m = MassProperties.of(Shape.convex(new double[] {0, 0, 0, a, 0, 0, 0, a, 0, 0, 0, a}), RHO);
        double vol = a * a * a / 6;
        double mass = RHO * vol;
        assertThat(m.mass()).isCloseTo(mass, within(1e-12 * mass));
        assertThat(new double[] {m.comX(), m.comY(), m.comZ()}).containsExactly(new double[] {a / 4, a / 4, a / 4},
                within(1e-15));
        double xx = RHO * Math.pow(a, 5) / 60 - mass * a * a / 16;
        double xy = RHO * Math.pow(a, 5) / 120 - mass * a * a / 16;
        double tol = 1e-12 * mass * a * a;
        assertThat(m.ixx()).isCloseTo(2 * xx, within(tol));
        assertThat(m.iyy()).isCloseTo(2 * xx, within(tol));
        assertThat(m.izz()).isCloseTo(2 * xx, within(tol));
        assertThat(m.ixy()).isCloseTo(-xy, within(tol));
        assertThat(m.ixz()).isCloseTo(-xy, within(tol));
        assertThat(m.iyz()).isCloseTo(-xy, within(tol));
    }

    @Test
    void of_convexCubeOffTheOrigin_matchesTheBoxAtItsCentre() {
        MassProperties box = MassProperties.of(Shape.box(0.05, 0.1, 0.2), RHO);
        MassProperties m = MassProperties.of(
                Shape.convex(Meshes.shifted(Meshes.boxCorners(0.05, 0.1, 0.2), 1, -2, 0.5)), RHO);
        assertThat(m.mass()).isCloseTo(box.mass(), within(1e-12 * box.mass()));
        assertThat(new double[] {m.comX(), m.comY(), m.comZ()}).containsExactly(new double[] {1, -2, 0.5},
                within(1e-12));
        double tol = 1e-12 * box.izz();
        assertThat(m.ixx()).isCloseTo(box.ixx(), within(tol));
        assertThat(m.iyy()).isCloseTo(box.iyy(), within(tol));
        assertThat(m.izz()).isCloseTo(box.izz(), within(tol));
        assertThat(new double[] {m.ixy(), m.ixz(), m.iyz()}).containsExactly(new double[] {0, 0, 0}, within(tol));
        assertThat(new double[] {box.ixy(), box.ixz(), box.iyz()}).containsExactly(0, 0, 0);
    }

    @Test
    void of_convexTurnedBox_hasTheRotatedTensor() {
        // a 0.2 x 0.1 x 0.1 m box turned 30 degrees about z: I' = R diag(I) R^T
        double c = Math.cos(Math.PI / 6);
        double s = Math.sin(Math.PI / 6);
        double[] corners = Meshes.boxCorners(0.1, 0.05, 0.05);
        for (int k = 0; k < 8; k++) {
            double x = corners[3 * k];
            double y = corners[3 * k + 1];
            corners[3 * k] = c * x - s * y;
            corners[3 * k + 1] = s * x + c * y;
        }
        MassProperties m = MassProperties.of(Shape.convex(corners), RHO);
        MassProperties box = MassProperties.of(Shape.box(0.1, 0.05, 0.05), RHO);
        double tol = 1e-12 * box.izz();
        assertThat(m.ixx()).isCloseTo(c * c * box.ixx() + s * s * box.iyy(), within(tol));
        assertThat(m.iyy()).isCloseTo(s * s * box.ixx() + c * c * box.iyy(), within(tol));
        assertThat(m.ixy()).isCloseTo(c * s * (box.ixx() - box.iyy()), within(tol));
        assertThat(m.izz()).isCloseTo(box.izz(), within(tol));
        assertThat(m.ixz()).isCloseTo(0, within(tol));
    }

    @Test
    void of_convexIcosphere_approachesTheBall() {
        // a 2562-vertex icosphere, simplified to 44 vertices: volume within the simplification error
        double r = 0.1;
        Shape s = Shape.convex(Meshes.icosphere(r, 4));
        MassProperties m = MassProperties.of(s, RHO);
        double ball = 4.0 / 3.0 * Math.PI * r * r * r * RHO;
        double e = s.hull.simplificationError / r;
        assertThat(m.mass()).isLessThan(ball).isGreaterThan(ball * Math.pow(1 - e, 3));
        assertThat(m.ixy() / m.ixx()).isCloseTo(0, within(0.05));
    }
}
