package io.tandem.world;

import io.tandem.physics.SolverSettings;
import io.tandem.world.sdf.SdfLoader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * gz-sim's joint-driving systems read from a model's plugins: DiffDrive (Gazebo's example
 * vehicles drive by a twist), JointPositionController and JointController.
 */
class GazeboControllersTest {
    private static World sdf(String text, java.util.function.Consumer<String> warnings) {
        return SdfLoader.load(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "c.sdf", warnings);
    }

    /** Gazebo's levels example: its two vehicles have DiffDrive; a twist drives one forward, then round a bend. */
    @Test
    void diffDrive_gazeboLevelsVehicle_drivesForwardAndTurnsLeft() {
        World w = GazeboWorlds.load("examples/levels.sdf");
        World.Model blue = w.model("vehicle_blue").orElseThrow();
        assertThat(blue.controllers()).singleElement().isInstanceOfSatisfying(World.DiffDrive.class, d -> {
            assertThat(d.leftJoints()).containsExactly("left_wheel_joint");
            assertThat(d.rightJoints()).containsExactly("right_wheel_joint");
            assertThat(d.wheelSeparation()).isEqualTo(1.25);
            assertThat(d.wheelRadius()).isEqualTo(0.3);
        });
        assertThat(blue.joints().stream().filter(j -> j.name().endsWith("wheel_joint")).allMatch(World.Joint::motor)).isTrue();
        try (WorldRunner r = new WorldRunner(w, SolverSettings.defaults(), false)) {
            assertThat(r.hasTwistDrive("vehicle_blue")).isTrue();
            Pose start = r.modelPose("vehicle_blue");
            r.setTwist("vehicle_blue", 1.0, 0);
            for (int k = 0; k < 2000; k++) {
                r.step();
            }
            Pose p = r.modelPose("vehicle_blue");
            // 2 s at 1 m/s along its x (the wheels roll without slipping much on the tiles)
            assertThat(p.x() - start.x()).as("forward, m").isCloseTo(2.0, within(0.2));
            assertThat(p.y() - start.y()).as("sideways, m").isCloseTo(0, within(0.05));
            assertThat(r.jointVelocityCommand(r.jointHandle("vehicle_blue::left_wheel_joint"))).isCloseTo(1.0 / 0.3, within(1e-12));
            r.setTwist("vehicle_blue", 1.0, 0.5);
            for (int k = 0; k < 1000; k++) {
                r.step();
            }
            Pose q = r.modelPose("vehicle_blue");
            double yaw = 2 * Math.atan2(q.qz(), q.qw());
            assertThat(yaw).as("turned left, rad").isBetween(0.2, 0.7);
            assertThat(r.jointVelocityCommand(r.jointHandle("vehicle_blue::right_wheel_joint")))
                    .isCloseTo((1.0 + 0.25 * 1.25) / 0.3, within(1e-12));
            assertThatThrownBy(() -> r.setTwist("tile_1", 1, 0)).hasMessageContaining("no DiffDrive plugin");
        }
    }

    /** The example cart (examples/worlds/diff_drive.sdf): a twist drives it forward, then round a bend. */
    @Test
    void diffDrive_exampleCart_drivesForwardAndTurnsLeft() {
        World w = GazeboWorlds.example("diff_drive.sdf");
        try (WorldRunner r = new WorldRunner(w, SolverSettings.defaults(), false)) {
            Pose start = r.modelPose("cart");
            r.setTwist("cart", 1.0, 0);
            for (int k = 0; k < 2000; k++) {
                r.step();
            }
            Pose p = r.modelPose("cart");
            assertThat(p.x() - start.x()).as("forward, m").isCloseTo(2.0, within(0.2));
            assertThat(p.y() - start.y()).as("sideways, m").isCloseTo(0, within(0.05));
            r.setTwist("cart", 1.0, 0.5);
            for (int k = 0; k < 1000; k++) {
                r.step();
            }
            Pose q = r.modelPose("cart");
            assertThat(2 * Math.atan2(q.qz(), q.qw())).as("turned left, rad").isBetween(0.2, 0.7);
        }
    }

    private static final String ARM = """
            <sdf version="1.9"><world name="w"><physics><max_step_size>0.002</max_step_size></physics>
              <model name="arm">
                <link name="base"><pose>0 0 1 0 0 0</pose>
                  <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
                <link name="upper"><pose>0.25 0 1 0 0 0</pose>
                  <inertial><mass>1.2</mass><inertia><ixx>0.001</ixx><iyy>0.025</iyy><izz>0.025</izz></inertia></inertial></link>
                <link name="wheel"><pose>0.5 0 1 0 0 0</pose>
                  <inertial><mass>0.5</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
                <joint name="pin" type="fixed"><parent>world</parent><child>base</child></joint>
                <joint name="shoulder" type="revolute"><parent>base</parent><child>upper</child><pose>-0.25 0 0 0 0 0</pose>
                  <axis><xyz>0 1 0</xyz><limit><lower>-2</lower><upper>2</upper></limit></axis></joint>
                <joint name="spin" type="revolute"><parent>upper</parent><child>wheel</child>
                  <axis><xyz>1 0 0</xyz></axis></joint>
                %s
              </model>
            </world></sdf>
            """;

    private static String arm(String plugin) {
        return ARM.replace("%s", plugin);
    }

    /** A JointPositionController holds a pinned arm's joint at its initial position with its gains. */
    @Test
    void jointPositionController_pinnedArm_holdsItsInitialPosition() {
        List<String> warnings = new ArrayList<>();
        World w = sdf(arm("""
                <plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController">
                  <joint_name>shoulder</joint_name><p_gain>400</p_gain><d_gain>40</d_gain><initial_position>0.6</initial_position>
                  <topic>shoulder_cmd</topic>
                </plugin>"""), warnings::add);
        assertThat(warnings).anyMatch(x -> x.contains("<topic>") && x.contains("ignored"));
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
            int h = r.jointHandle("arm::shoulder");
            for (int k = 0; k < 1500; k++) {
                r.step();
            }
            // the gravity sag of a 400 N m/rad servo holding about 3 N m
            assertThat(r.jointPosition(h)).isCloseTo(0.6, within(0.02));
            r.setJointTarget(h, -0.3, 0);
            for (int k = 0; k < 1500; k++) {
                r.step();
            }
            assertThat(r.jointPosition(h)).isCloseTo(-0.3, within(0.02));
        }
    }

    /** A JointController's initial velocity is its joint motor's command from the start. */
    @Test
    void jointController_initialVelocity_commandsTheMotor() {
        World w = sdf(arm("""
                <plugin filename="gz-sim-joint-controller-system" name="gz::sim::systems::JointController">
                  <joint_name>spin</joint_name><initial_velocity>2.5</initial_velocity>
                </plugin>"""), x -> { });
        assertThat(w.model("arm").orElseThrow().joints().stream().filter(j -> j.name().equals("spin")).findFirst().orElseThrow()
                .motor()).isTrue();
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
            int h = r.jointHandle("arm::spin");
            assertThat(r.jointVelocityCommand(h)).isEqualTo(2.5);
            for (int k = 0; k < 500; k++) {
                r.step();
            }
            assertThat(r.jointVelocity(h)).isCloseTo(2.5, within(0.05));
        }
    }

    @Test
    void controllers_badPlugins_refusedAtTheirLine() {
        assertThatThrownBy(() -> sdf(arm("""
                <plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive">
                  <left_joint>spin</left_joint><right_joint>nope</right_joint>
                </plugin>"""), x -> { })).isInstanceOf(WorldFormatException.class).hasMessageContaining("c.sdf:")
                .hasMessageContaining("names joint 'nope'").hasMessageContaining("shoulder");
        assertThatThrownBy(() -> sdf(arm("""
                <plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController">
                  <joint_name>pin</joint_name>
                </plugin>"""), x -> { })).hasMessageContaining("'pin' is a fixed joint");
        assertThatThrownBy(() -> sdf(arm("""
                <plugin filename="gz-sim-joint-position-controller-system" name="gz::sim::systems::JointPositionController">
                  <joint_name>shoulder</joint_name><p_gain>fast</p_gain>
                </plugin>"""), x -> { })).hasMessageContaining("<p_gain> must be a finite number, got 'fast'");
    }
}
