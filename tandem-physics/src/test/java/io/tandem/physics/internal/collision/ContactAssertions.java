package io.tandem.physics.internal.collision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Test helpers for manifolds. */
final class ContactAssertions {
    static final double EPS = 1e-9;

    private ContactAssertions() {
    }

    static void assertNormal(ContactManifold m, double x, double y, double z, double tol) {
        assertThat(m.normal[0]).as("normal x of %s", m).isCloseTo(x, within(tol));
        assertThat(m.normal[1]).as("normal y of %s", m).isCloseTo(y, within(tol));
        assertThat(m.normal[2]).as("normal z of %s", m).isCloseTo(z, within(tol));
    }

    static void assertPoint(ContactManifold m, int k, double x, double y, double z, double tol) {
        assertThat(m.point[3 * k]).as("point %d x of %s", k, m).isCloseTo(x, within(tol));
        assertThat(m.point[3 * k + 1]).as("point %d y of %s", k, m).isCloseTo(y, within(tol));
        assertThat(m.point[3 * k + 2]).as("point %d z of %s", k, m).isCloseTo(z, within(tol));
    }

    static void assertAllDepths(ContactManifold m, double depth, double tol) {
        for (int k = 0; k < m.count; k++) {
            assertThat(m.depth[k]).as("depth %d of %s", k, m).isCloseTo(depth, within(tol));
        }
    }

    /** Index of the point nearest to (x, y, z). */
    static int nearest(ContactManifold m, double x, double y, double z) {
        int best = -1;
        double bd = Double.POSITIVE_INFINITY;
        for (int k = 0; k < m.count; k++) {
            double dx = m.point[3 * k] - x;
            double dy = m.point[3 * k + 1] - y;
            double dz = m.point[3 * k + 2] - z;
            double d = dx * dx + dy * dy + dz * dz;
            if (d < bd) {
                bd = d;
                best = k;
            }
        }
        return best;
    }

    static int[] sortedFeatures(ContactManifold m) {
        int[] f = java.util.Arrays.copyOf(m.feature, m.count);
        java.util.Arrays.sort(f);
        return f;
    }
}
