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
    void jointPositionCommand_jointOfARobotInMaximalCoordinates_refusedNamingWhy() {
        // (a free robot floats in joint coordinates by default; this one asks for joint rows)
        World w = io.tandem.world.sdf.SdfLoader.load(new java.io.ByteArrayInputStream("""
                <sdf version="1.9"><world name="w">
                  <model name="cart">
                    <tandem:coordinates>maximal</tandem:coordinates>
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

    /** A TwistCommand of a model with gz-sim's DiffDrive plugin drives it (no skid-steer declared). */
    @Test
    void twistCommand_diffDriveVehicle_drivesForward() {
        World w = io.tandem.world.sdf.SdfLoader.load(new java.io.ByteArrayInputStream("""
                <sdf version="1.9"><world name="w"><physics><max_step_size>0.002</max_step_size></physics>
                  <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane>
                    <normal>0 0 1</normal><size>100 100</size></plane></geometry></collision></link></model>
                  <model name="cart"><pose>0 0 0.2 0 0 0</pose>
                    <link name="chassis"><inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
                      <collision name="c"><geometry><box><size>0.6 0.3 0.1</size></box></geometry></collision></link>
                    <link name="left"><pose>0.2 0.25 0 -1.5707963 0 0</pose>
                      <inertial><mass>0.5</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
                      <collision name="c"><geometry><sphere><radius>0.2</radius></sphere></geometry></collision></link>
                    <link name="right"><pose>0.2 -0.25 0 -1.5707963 0 0</pose>
                      <inertial><mass>0.5</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
                      <collision name="c"><geometry><sphere><radius>0.2</radius></sphere></geometry></collision></link>
                    <link name="caster"><pose>-0.25 0 -0.1 0 0 0</pose>
                      <inertial><mass>0.2</mass><inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz></inertia></inertial>
                      <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry>
                        <surface><friction><ode><mu>0</mu></ode></friction></surface></collision></link>
                    <joint name="l" type="revolute"><parent>chassis</parent><child>left</child><axis><xyz>0 0 1</xyz></axis></joint>
                    <joint name="r" type="revolute"><parent>chassis</parent><child>right</child><axis><xyz>0 0 1</xyz></axis></joint>
                    <joint name="c" type="ball"><parent>chassis</parent><child>caster</child></joint>
                    <plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive">
                      <left_joint>l</left_joint><right_joint>r</right_joint>
                      <wheel_separation>0.5</wheel_separation><wheel_radius>0.2</wheel_radius>
                    </plugin>
                  </model>
                </world></sdf>
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "cart.sdf", x -> { });
        try (WorldEngine e = WorldEngine.builder("world", w).build()) {
            io.tandem.cle.device.TwistCommand twist = e.device("cart", io.tandem.cle.device.TwistCommand.class);
            io.tandem.cle.device.ModelPose pose = e.device("cart", io.tandem.cle.device.ModelPose.class);
            e.publishOutputs();
            pose.latch();
            double x0 = pose.x();
            twist.set(0.5, 0);
            for (int k = 0; k < 50; k++) {
                e.applyInputs();
                e.advance(20 * MS);
                e.publishOutputs();
                pose.latch();
            }
            // 1 s at 0.5 m/s, the first moments spent spinning the wheels up
            assertThat(pose.x() - x0).as("forward, m").isBetween(0.3, 0.55);
        }
    }
}
