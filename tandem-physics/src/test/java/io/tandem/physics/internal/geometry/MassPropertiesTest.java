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
}
