package io.tandem.world.urdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shipped Panda (examples/robots/panda/panda.urdf, from franka_ros and Gaz et al.'s identified
 * parameters) against its published closed forms: every link frame equals the modified-DH chain
 * (Craig) of physics-wave2.md 2.2, the masses add up to the published totals with the flange and
 * hand lumped into link7, and it hangs under gravity without blowing up.
 */
class PandaTest {
    static final Path PANDA = Path.of("../examples/robots/panda/panda.urdf");
    private static final double PI = Math.PI;
    /** d_1..d_8, a_0..a_7, alpha_0..alpha_7 (physics-wave2.md 2.2, from Load_Franka_DH.m) */
    private static final double[] D = {0.333, 0, 0.316, 0, 0.384, 0, 0, 0.107};
    private static final double[] A = {0, 0, 0, 0.0825, -0.0825, 0, 0.088, 0};
    private static final double[] ALPHA = {0, -PI / 2, PI / 2, PI / 2, -PI / 2, PI / 2, PI / 2, 0};

    private static World panda(List<String> warnings) {
        return UrdfLoader.load(PANDA, warnings::add);
    }

    @Test
    void load_panda_linksJointsAndMassesAsPublished() {
        List<String> warnings = new ArrayList<>();
        World.Model m = panda(warnings).models().get(0);
        assertThat(warnings).hasSize(1).allMatch(w -> w.contains("<mimic> is not simulated yet"));
        assertThat(m.links()).extracting(World.Link::name).containsExactly("link0", "link1", "link2", "link3", "link4",
                "link5", "link6", "link7", "leftfinger", "rightfinger");
        assertThat(m.joints()).extracting(World.Joint::name).containsExactly("panda_base", "joint1", "joint2", "joint3",
                "joint4", "joint5", "joint6", "joint7", "finger_joint1", "finger_joint2");
        double arm = 0;
        for (int i = 1; i <= 7; i++) {
            arm += m.links().get(i).inertial().mass();
        }
        // links 1-7: 16.062 kg, and link7 carries the hand (0.73 kg) lumped through the flange
        assertThat(arm).isCloseTo(16.062 + 0.73, within(0.001));
        assertThat(m.links().get(7).inertial().mass()).isCloseTo(0.735522 + 0.73, within(1e-12));
        assertThat(m.links().get(8).inertial().mass() + m.links().get(9).inertial().mass()).isCloseTo(0.03, within(1e-12));
        World.Joint j4 = m.joints().get(4);
        assertThat(new double[] {j4.lower(), j4.upper(), j4.effort(), j4.velocityLimit()}).containsExactly(-3.0718, -0.0698,
                87, 2.175);
    }

    /** Link i's frame is T_{i-1,i} = Rx(alpha_{i-1}) Dx(a_{i-1}) Rz(q_i) Dz(d_i) composed from the base, at q = 0. */
    @Test
    void load_panda_everyLinkFrameEqualsTheModifiedDhChain() {
        World.Model m = panda(new ArrayList<>()).models().get(0);
        Pose t = Pose.IDENTITY;
        for (int i = 1; i <= 7; i++) {
            t = t.compose(Pose.fromXyzRpy(0, 0, 0, ALPHA[i - 1], 0, 0)).compose(Pose.translation(A[i - 1], 0, 0))
                    .compose(Pose.translation(0, 0, D[i - 1]));
            World.Link link = m.links().get(i);
            assertFrame(link.pose(), t, "link" + i);
            // each arm joint turns about its link's z
            World.Joint j = m.joints().get(i);
            double[] z = t.rotate(0, 0, 1);
            assertThat(new double[] {j.axisX(), j.axisY(), j.axisZ()}).as("joint%d axis", i).containsExactly(z, within(1e-12));
        }
        // the flange: 0.088 m out and 0.926 m up at q = 0 (d1 + d3 + d5 - d8)
        Pose flange = t.compose(Pose.fromXyzRpy(0, 0, 0, ALPHA[7], 0, 0)).compose(Pose.translation(A[7], 0, D[7]));
        assertThat(flange.transform(0, 0, 0)).containsExactly(new double[] {0.088, 0, 0.926}, within(1e-12));
    }

    @Test
    void step_pandaHangingUnderGravity_staysFiniteAndNearItsLimits() {
        try (WorldRunner r = new WorldRunner(panda(new ArrayList<>()), false)) {
            int[] h = new int[7];
            for (int i = 0; i < 7; i++) {
                h[i] = r.jointHandle("panda::joint" + (i + 1));
            }
            double[] lower = {-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973};
            double[] upper = {2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973};
            for (int step = 0; step < 2000; step++) {
                r.step();
            }
            for (int i = 0; i < 7; i++) {
                double q = r.jointPosition(h[i]);
                assertThat(q).as("joint%d after 2 s", i + 1).isFinite().isBetween(lower[i] - 0.05, upper[i] + 0.05);
                assertThat(r.jointVelocity(h[i])).as("joint%d speed after 2 s", i + 1).isFinite();
            }
        }
    }

    private static void assertFrame(Pose actual, Pose expected, String what) {
        assertThat(actual.transform(0, 0, 0)).as("%s origin", what).containsExactly(expected.transform(0, 0, 0),
                within(1e-12));
        for (int k = 0; k < 3; k++) {
            double[] e = {k == 0 ? 1 : 0, k == 1 ? 1 : 0, k == 2 ? 1 : 0};
            assertThat(actual.rotate(e[0], e[1], e[2])).as("%s axis %d", what, k)
                    .containsExactly(expected.rotate(e[0], e[1], e[2]), within(1e-12));
        }
    }
}
