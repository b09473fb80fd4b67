package io.tandem.cle.engine;

import io.tandem.cle.device.JointPositionCommand;
import io.tandem.cle.device.JointState;
import io.tandem.world.World;
import io.tandem.world.urdf.UrdfLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * A robot arm in joint coordinates driven through the closed loop's devices: position commands
 * (targets and gains, as a transfer function sets them) and joint states read back, as an NRP
 * brain drives a robot's joints.
 */
class WorldEngineJointsTest {
    private static final long MS = 1_000_000;
    private static final Path PANDA = Path.of("../examples/robots/panda/panda.urdf");

    @Test
    void jointPositionCommand_pandaElbow_reachesTheTargetSeenInItsJointState() {
        World w = UrdfLoader.load(PANDA, x -> { });
        try (WorldEngine e = WorldEngine.builder("world", w).build()) {
            double[] home = {0, -0.785, 0, -2.356, 0, 1.571, 0.785};
            double[] kp = {4500, 4500, 3500, 3500, 2000, 2000, 2000};
            JointPositionCommand[] cmd = new JointPositionCommand[7];
            for (int i = 0; i < 7; i++) {
                cmd[i] = e.device("panda::joint" + (i + 1), JointPositionCommand.class);
                cmd[i].setGains(kp[i], kp[i] / 10);
                cmd[i].setTarget(i == 3 ? -1.8 : home[i]);
            }
            JointState elbow = e.device("panda::joint4", JointState.class);
            for (int k = 0; k < 75; k++) {
                e.applyInputs();
                e.advance(20 * MS);
                e.publishOutputs();
                elbow.latch();
            }
            assertThat(elbow.position()).as("joint4, rad").isCloseTo(-1.8, within(0.01));
            assertThat(elbow.velocity()).as("joint4 speed, rad/s").isCloseTo(0, within(0.01));
            assertThat(cmd[3].takeChanged()).as("applied and cleared").isFalse();
        }
    }

    @Test
    void jointPositionCommand_jointOfAFreeRobot_refusedNamingWhy() {
        World w = io.tandem.world.sdf.SdfLoader.load(new java.io.ByteArrayInputStream("""
                <sdf version="1.9"><world name="w">
                  <model name="cart">
                    <link name="a"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>
                    <link name="b"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>
                    <joint name="hinge" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>
                  </model>
                </world></sdf>
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "cart.sdf", x -> { });
        try (WorldEngine e = WorldEngine.builder("world", w).build()) {
            assertThatThrownBy(() -> e.device("cart::hinge", JointPositionCommand.class))
                    .hasMessageContaining("not a robot in joint coordinates");
        }
    }
}
