package io.tandem.world;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.SolverSettings;
import io.tandem.world.sdf.SdfLoader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SDF velocity motors and camera sensors, and the runner's joint commands and readings. */
public class RobotJointsTest {

    /** @return a world of one model in {@code body}, warnings collected */
    public static World parse(String body, List<String> warnings) {
        String sdf = "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\" xmlns:tandem=\"https://github.com/tandem/sdf\">\n"
                + "<world name=\"w\"><gravity>0 0 0</gravity><physics><max_step_size>0.002</max_step_size></physics>\n"
                + body + "\n</world>\n</sdf>\n";
        return SdfLoader.load(new ByteArrayInputStream(sdf.getBytes(StandardCharsets.UTF_8)), "t.sdf", warnings::add);
    }

    /** A 1 kg wheel on a revolute joint to the world about z, limit and motor elements as given, and a flag welded to it. */
    public static String wheel(String limit, String motor) {
        return """
                <model name="rig">
                  <link name="wheel"><pose>0 0 1 0 0 0</pose>
                    <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.2</izz></inertia></inertial>
                  </link>
                  <joint name="spin" type="revolute"><parent>world</parent><child>wheel</child>
                    <axis><xyz>0 0 1</xyz><limit><lower>-1e16</lower><upper>1e16</upper>%s</limit></axis>%s
                  </joint>
                  <link name="flag"><pose>0 0 1.5 0 0 0</pose>
                    <inertial><mass>0.1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
                  </link>
                  <joint name="free" type="fixed"><parent>wheel</parent><child>flag</child></joint>
                </model>
                """.replace("%s", "\u0000").replaceFirst("\u0000", limit).replaceFirst("\u0000", motor);
    }

    @Test
    void load_velocityMotor_effortAndVelocityLimitRead() {
        World w = parse(wheel("<effort>5</effort><velocity>3</velocity>", "<tandem:velocity_motor/>"), new ArrayList<>());
        World.Joint j = w.model("rig").orElseThrow().joints().get(0);
        assertThat(j.motor()).isTrue();
        assertThat(j.effort()).isEqualTo(5);
        assertThat(j.velocityLimit()).isEqualTo(3);
        // SDF's -1: no bound; no motor element: no motor
        World plain = parse(wheel("<effort>-1</effort><velocity>-1</velocity>", ""), new ArrayList<>());
        World.Joint p = plain.model("rig").orElseThrow().joints().get(0);
        assertThat(p.motor()).isFalse();
        assertThat(p.effort()).isInfinite();
        assertThat(p.velocityLimit()).isInfinite();
    }

    @Test
    void load_motorWithoutEffort_errorNamesJointAndFix() {
        assertThatThrownBy(() -> parse(wheel("", "<tandem:velocity_motor/>"), new ArrayList<>()))
                .isInstanceOf(WorldFormatException.class)
                .hasMessageMatching("(?s)t\\.sdf:\\d+: joint 'spin' has <tandem:velocity_motor> but no finite <axis><limit><effort> > 0.*");
        assertThatThrownBy(() -> parse(wheel("<effort>-1</effort>", "<tandem:velocity_motor/>"), new ArrayList<>()))
                .hasMessageContaining("no finite <axis><limit><effort> > 0");
    }

    @Test
    void load_cameraSensor_gazeboElementsAndDefaults() {
        List<String> warnings = new ArrayList<>();
        World w = parse("""
                <model name="bot"><static>true</static>
                  <link name="base">
                    <sensor name="eye" type="camera"><pose>0.5 0 0.2 0 0.1 0</pose><update_rate>30</update_rate>
                      <camera><horizontal_fov>1.2</horizontal_fov><image><width>80</width><height>60</height></image>
                        <clip><near>0.02</near><far>30</far></clip></camera>
                    </sensor>
                    <sensor name="plain" type="camera"/>
                    <sensor name="laser" type="gpu_lidar"/>
                  </link>
                </model>
                """, warnings);
        List<World.Camera> cams = w.model("bot").orElseThrow().links().get(0).cameras();
        assertThat(cams).hasSize(2);
        World.Camera eye = cams.get(0);
        assertThat(eye.name()).isEqualTo("eye");
        assertThat(eye.horizontalFov()).isEqualTo(1.2);
        assertThat(eye.width()).isEqualTo(80);
        assertThat(eye.height()).isEqualTo(60);
        assertThat(eye.near()).isEqualTo(0.02);
        assertThat(eye.far()).isEqualTo(30);
        assertThat(eye.updateRate()).isEqualTo(30);
        assertThat(eye.pose().x()).isEqualTo(0.5);
        // SDF's defaults
        World.Camera plain = cams.get(1);
        assertThat(plain.horizontalFov()).isEqualTo(1.047);
        assertThat(plain.width()).isEqualTo(320);
        assertThat(plain.height()).isEqualTo(240);
        assertThat(plain.near()).isEqualTo(0.1);
        assertThat(plain.far()).isEqualTo(100);
        assertThat(plain.updateRate()).isZero();
        assertThat(warnings).singleElement().asString().contains("gpu_lidar").contains("not supported");
        // a bad value names the file, the line and the camera
        assertThatThrownBy(() -> parse("""
                <model name="bot"><link name="base"><sensor name="eye" type="camera"><camera>
                  <horizontal_fov>4</horizontal_fov></camera></sensor></link></model>
                """, new ArrayList<>())).isInstanceOf(WorldFormatException.class)
                .hasMessageMatching("t\\.sdf:\\d+: link 'base': camera 'eye': horizontal_fov must be in \\(0, pi\\).*");
    }

    @Test
    void setJointVelocity_motorizedJoint_reachesCommandAndReadsBack() {
        World w = parse(wheel("<effort>2</effort><velocity>4</velocity>", "<tandem:velocity_motor/>"), new ArrayList<>());
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
            int spin = r.jointHandle("rig::spin");
            // starts at rest with target 0
            r.step();
            assertThat(r.jointVelocity(spin)).isZero();
            r.setJointVelocity(spin, 3);
            // 2 N m on 0.2 + 0.01 kg m^2 (wheel and flag): about 0.32 s to 3 rad/s
            for (int k = 0; k < 250; k++) {
                r.step();
            }
            assertThat(r.jointVelocity("rig::spin")).isCloseTo(3, within(0.01));
            double before = r.jointPosition(spin);
            for (int k = 0; k < 50; k++) {
                r.step();
            }
            // 0.1 s at 3 rad/s
            assertThat(r.jointPosition("rig::spin") - before).isCloseTo(0.3, within(1e-3));
            // the velocity limit clamps a command
            r.setJointVelocity("rig::spin", -10);
            assertThat(r.jointVelocityCommand(spin)).isEqualTo(-4);
            for (int k = 0; k < 500; k++) {
                r.step();
            }
            assertThat(r.jointVelocity(spin)).isCloseTo(-4, within(0.01));
        }
    }

    @Test
    void jointApi_badNamesAndJoints_helpfulErrors() {
        World w = parse(wheel("<effort>2</effort>", "<tandem:velocity_motor/>"), new ArrayList<>());
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
            assertThatThrownBy(() -> r.setJointVelocity("rig::spn", 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no joint 'rig::spn' in world 'w'").hasMessageContaining("close matches: rig::spin");
            assertThatThrownBy(() -> r.jointPosition("spin")).hasMessageContaining("close matches: rig::spin");
            assertThatThrownBy(() -> r.jointHandle("nothing::like::it")).hasMessageContaining("known: rig::spin, rig::free");
            assertThatThrownBy(() -> r.setJointVelocity(-1, 1)).hasMessageContaining("joint handle -1 out of range");
            assertThatThrownBy(() -> r.setJointVelocity("rig::spin", Double.NaN)).hasMessageContaining("finite");
            assertThatThrownBy(() -> r.jointPosition("rig::free")).hasMessageContaining("joint 'rig::free' is fixed");
        }
        World noMotor = parse(wheel("<effort>2</effort>", ""), new ArrayList<>());
        try (WorldRunner r = new WorldRunner(noMotor, SolverSettings.subAdmm(10), false)) {
            assertThatThrownBy(() -> r.setJointVelocity("rig::spin", 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("joint 'rig::spin' has no velocity motor")
                    .hasMessageContaining("<tandem:velocity_motor/>");
        }
    }

    @Test
    void setJointVelocity_levelRebuild_commandKept() {
        // a probe performer moved into a level loads its tile: the physics model is rebuilt, the wheel's command stays
        World w = parse(wheel("<effort>2</effort>", "<tandem:velocity_motor/>") + """
                <model name="probe"><pose>0 5 0 0 0 0</pose><link name="l">
                  <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>
                <model name="tile"><static>true</static><pose>20 0 0 0 0 0</pose><link name="l">
                  <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>
                <plugin name="gz::sim" filename="dummy">
                  <performer name="p"><ref>probe</ref><geometry><box><size>1 1 1</size></box></geometry></performer>
                  <level name="far"><pose>20 0 0 0 0 0</pose><geometry><box><size>4 4 4</size></box></geometry><ref>tile</ref></level>
                </plugin>
                """, new ArrayList<>());
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), true)) {
            int spin = r.jointHandle("rig::spin");
            r.setJointVelocity(spin, 2);
            for (int k = 0; k < 200; k++) {
                r.step();
            }
            assertThat(r.loadedModels()).doesNotContain("tile");
            r.setModelPose("probe", Pose.translation(20, 1.5, 0));
            r.step();
            assertThat(r.loadedModels()).contains("tile");
            assertThat(r.rebuilds()).isEqualTo(1);
            assertThat(r.jointVelocityCommand(spin)).isEqualTo(2);
            for (int k = 0; k < 100; k++) {
                r.step();
            }
            assertThat(r.jointVelocity(spin)).isCloseTo(2, within(1e-3));
        }
    }

    @Test
    void jointPosition_huskyWheels_allFourReadable() {
        try (WorldRunner r = new WorldRunner(HuskyWorld.load(), SolverSettings.subAdmm(30), false)) {
            for (String j : HuskyWorld.LEFT) {
                r.setJointVelocity(j, 1);
            }
            for (String j : HuskyWorld.RIGHT) {
                r.setJointVelocity(j, 1);
            }
            for (int k = 0; k < 250; k++) {
                r.step();
            }
            for (String j : new String[] {HuskyWorld.LEFT[0], HuskyWorld.LEFT[1], HuskyWorld.RIGHT[0], HuskyWorld.RIGHT[1]}) {
                assertThat(r.jointVelocity(j)).as(j).isCloseTo(1, within(0.01));
                // about 0.5 s at 1 rad/s
                assertThat(r.jointPosition(j)).as(j).isCloseTo(0.5, within(0.05));
            }
            // and the model pose: it rolled forward (-x, facing yaw pi) by about 0.5 rad x 0.165 m
            assertThat(r.modelPose("husky").x()).isCloseTo(-0.5 * 0.165, within(0.01));
        }
    }
}
