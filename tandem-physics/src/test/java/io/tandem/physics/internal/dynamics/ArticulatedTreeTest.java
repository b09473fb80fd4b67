package io.tandem.physics.internal.dynamics;

import io.tandem.physics.PandaParameters;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The tree's kinematics and dynamics against the Panda's test vectors (shared/specs/physics-wave2.md
 * 1.7: flange positions, M(q_t), gravity torques and C(q_t, qd), each printed to 6 decimals) and
 * against finite differences of its own mass matrix (Christoffel symbols).
 */
class ArticulatedTreeTest {
    static final double[] GRAVITY = {0, 0, -9.81};

    /** The Panda as a tree: link frames at the URDF anchors, world-aligned at q = 0. */
    static ArticulatedTree panda() {
        PandaParameters p = new PandaParameters();
        int[] parent = {-1, 0, 1, 2, 3, 4, 5};
        int[] type = new int[7];
        double[] offset = new double[21];
        double[] com = new double[21];
        for (int i = 0; i < 7; i++) {
            for (int a = 0; a < 3; a++) {
                offset[3 * i + a] = p.anchor[3 * i + a] - (i == 0 ? 0 : p.anchor[3 * (i - 1) + a]);
                com[3 * i + a] = p.com[3 * i + a] - p.anchor[3 * i + a];
            }
        }
        return new ArticulatedTree(parent, type, p.axis, offset, p.mass, com, p.inertia);
    }

    /** The flange: URDF frame 7's origin plus 0.107 m along its z. */
    static double[] flange(ArticulatedTree t) {
        PandaParameters p = new PandaParameters();
        double[] q = t.linkQuaternions();
        double[] z0 = {p.frames[12 * 6 + 2], p.frames[12 * 6 + 5], p.frames[12 * 6 + 8]};
        double[] z = new double[3];
        RigidOps.rotate(q, 24, z0[0], z0[1], z0[2], z, 0);
        double[] o = t.linkOrigins();
        return new double[] {o[18] + 0.107 * z[0], o[19] + 0.107 * z[1], o[20] + 0.107 * z[2]};
    }

    static double[] gravityTorque(ArticulatedTree t, double[] q) {
        t.kinematics(q, 0);
        double[] g = new double[7];
        t.addBias(new double[7], 0, GRAVITY, g, 0);
        return g;
    }

    @Test
    void kinematicsAndGravity_atZero_matchTheTestVectors() {
        ArticulatedTree t = panda();
        double[] g = gravityTorque(t, new double[7]);
        assertThat(flange(t)).containsExactly(new double[] {0.088, 0, 0.926}, within(1e-12));
        assertThat(g).containsExactly(new double[] {0, -3.434432, 0, -3.257224, 0, 1.694217, 0}, within(1e-6));
        double[] m = new double[49];
        t.addMassMatrix(m, 0);
        double[] diag = {0.114334, 2.610297, 0.076996, 0.585333, 0.033404, 0.031751, 0.004910};
        for (int i = 0; i < 7; i++) {
            assertThat(m[8 * i]).as("M[%d][%d]", i, i).isCloseTo(diag[i], within(1e-6));
        }
    }

    @Test
    void gravity_atHome_matchesTheTestVector() {
        ArticulatedTree t = panda();
        double[] g = gravityTorque(t, new double[] {0, -0.785, 0, -2.356, 0, 1.571, 0.785});
        assertThat(flange(t)).containsExactly(new double[] {0.30702, 0, 0.59027}, within(1e-5));
        assertThat(g).containsExactly(new double[] {0, -1.782856, -0.643765, 18.574611, 0.633876, 1.693697, 0}, within(1e-6));
    }

    @Test
    void massMatrixAndBias_atTestConfiguration_matchTheTestVectors() {
        ArticulatedTree t = panda();
        double[] q = {0.1, 0.2, 0.3, -1.0, 0.5, 1.0, 0.7};
        double[] qd = {0.3, -0.2, 0.5, 0.1, -0.4, 0.6, 0.2};
        t.kinematics(q, 0);
        assertThat(flange(t)).containsExactly(new double[] {0.470437, 0.241200, 0.743474}, within(1e-6));
        double[] m = new double[49];
        t.addMassMatrix(m, 0);
        double[][] expected = {
                {1.200777, -0.346480, 0.899194, -0.053714, 0.057925, -0.039792, -0.007484},
                {-0.346480, 2.738339, -0.395691, -1.190666, -0.085278, -0.028495, 0.004955},
                {0.899194, -0.395691, 0.713467, 0.028487, 0.058618, -0.030321, -0.007325},
                {-0.053714, -1.190666, 0.028487, 0.730825, 0.051267, 0.052881, -0.004144},
                {0.057925, -0.085278, 0.058618, 0.051267, 0.035479, 0.001527, -0.003809},
                {-0.039792, -0.028495, -0.030321, 0.052881, 0.001527, 0.032401, -0.001497},
                {-0.007484, 0.004955, -0.007325, -0.004144, -0.003809, -0.001497, 0.004910}};
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < 7; j++) {
                assertThat(m[7 * i + j]).as("M[%d][%d]", i, j).isCloseTo(expected[i][j], within(1e-6));
            }
        }
        double[] g = new double[7];
        t.addBias(new double[7], 0, GRAVITY, g, 0);
        assertThat(g).containsExactly(new double[] {0, -26.613747, 1.436767, 15.180561, 1.168248, 1.383668, -0.035717}, within(1e-6));
        double[] c = new double[7];
        t.addBias(qd, 0, GRAVITY, c, 0);
        assertThat(c).containsExactly(new double[] {-0.182162, -27.244891, 1.347372, 15.447518, 1.190840, 1.360504, -0.037734}, within(1e-6));
    }

    /**
     * The velocity terms against the mass matrix's own derivatives: C(q, qd) - C(q, 0) =
     * Mdot qd - 1/2 d(qd^T M qd)/dq (Lagrange), by central differences, on a tree with prismatic
     * joints and branches (which the Panda lacks).
     */
    @Test
    void velocityTerms_ofABranchedTreeWithSlides_equalLagrangesEquations() {
        int[] parent = {-1, 0, 1, 1, 3, 0};
        int[] type = {ArticulatedTree.REVOLUTE, ArticulatedTree.PRISMATIC, ArticulatedTree.REVOLUTE, ArticulatedTree.REVOLUTE,
                ArticulatedTree.PRISMATIC, ArticulatedTree.REVOLUTE};
        double[] axis = {0, 0, 1, 1, 0, 0, 0, 1, 0, 0.6, 0, 0.8, 0, 1, 0, 1, 1, 0};
        double[] offset = {0, 0, 0.3, 0.1, 0, 0.2, 0, 0.2, 0, 0.3, 0, 0, 0, 0, 0.25, -0.2, 0.1, 0};
        double[] mass = {2, 1.5, 0.7, 1.1, 0.4, 0.9};
        java.util.Random rnd = new java.util.Random(7);
        double[] com = new double[18];
        double[] inertia = new double[54];
        for (int i = 0; i < 6; i++) {
            for (int a = 0; a < 3; a++) {
                com[3 * i + a] = 0.2 * (rnd.nextDouble() - 0.5);
            }
            // a random SPD inertia: L L^T + 0.01 I
            double[] l = new double[9];
            for (int k = 0; k < 9; k++) {
                l[k] = 0.1 * (rnd.nextDouble() - 0.5);
            }
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 3; b++) {
                    double s = a == b ? 0.01 : 0;
                    for (int k = 0; k < 3; k++) {
                        s += l[3 * a + k] * l[3 * b + k];
                    }
                    inertia[9 * i + 3 * a + b] = s;
                }
            }
        }
        ArticulatedTree t = new ArticulatedTree(parent, type, axis, offset, mass, com, inertia);
        int n = 6;
        double[] q = new double[n];
        double[] qd = new double[n];
        for (int i = 0; i < n; i++) {
            q[i] = rnd.nextDouble() - 0.5;
            qd[i] = 2 * (rnd.nextDouble() - 0.5);
        }
        double[] zero = new double[3];
        t.kinematics(q, 0);
        double[] c = new double[n];
        t.addBias(qd, 0, zero, c, 0);
        // Mdot qd and grad(qd^T M qd) by central differences
        double eps = 1e-6;
        double[] expected = new double[n];
        double[] mp = new double[n * n];
        double[] mm = new double[n * n];
        for (int k = 0; k < n; k++) {
            double[] qp = q.clone();
            double[] qm = q.clone();
            qp[k] += eps;
            qm[k] -= eps;
            java.util.Arrays.fill(mp, 0);
            java.util.Arrays.fill(mm, 0);
            t.kinematics(qp, 0);
            t.addMassMatrix(mp, 0);
            t.kinematics(qm, 0);
            t.addMassMatrix(mm, 0);
            // d M / d q_k
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double dm = (mp[n * i + j] - mm[n * i + j]) / (2 * eps);
                    expected[i] += dm * qd[k] * qd[j];
                    expected[k] -= 0.5 * qd[i] * dm * qd[j];
                }
            }
        }
        assertThat(c).containsExactly(expected, within(1e-7));
        // gravity: the gradient of the potential energy sum m g z
        t.kinematics(q, 0);
        double[] g = new double[n];
        t.addBias(new double[n], 0, GRAVITY, g, 0);
        for (int k = 0; k < n; k++) {
            double[] qp = q.clone();
            double[] qm = q.clone();
            qp[k] += eps;
            qm[k] -= eps;
            double dv = (potential(t, qp) - potential(t, qm)) / (2 * eps);
            assertThat(g[k]).as("gravity torque %d", k).isCloseTo(dv, within(1e-7));
        }
    }

    private static double potential(ArticulatedTree t, double[] q) {
        t.kinematics(q, 0);
        double u = 0;
        for (int i = 0; i < t.n; i++) {
            u += t.mass(i) * 9.81 * t.linkCentres()[3 * i + 2];
        }
        return u;
    }
}
