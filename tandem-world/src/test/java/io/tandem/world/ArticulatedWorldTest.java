package io.tandem.world;

import io.tandem.physics.PhysicsModel;
import io.tandem.physics.SolverSettings;
import io.tandem.world.sdf.SdfLoader;
import io.tandem.world.urdf.UrdfLoader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Robots pinned to the world compile into one articulation in joint coordinates (the default) or,
 * on request, into free bodies and joint rows; the runner drives them by joint targets and hands
 * their joint states over with them.
 */
class ArticulatedWorldTest {
    static final Path PANDA = Path.of("../examples/robots/panda/panda.urdf");
    static final String[] ARM = {"joint1", "joint2", "joint3", "joint4", "joint5", "joint6", "joint7"};
    static final double[] HOME = {0, -0.785, 0, -2.356, 0, 1.571, 0.785};
    static final double[] KP = {4500, 4500, 3500, 3500, 2000, 2000, 2000};
    static final double[] KD = {450, 450, 350, 350, 200, 200, 200};

    @Test
    void compile_pandaUrdf_oneArticulationUnlessMaximalIsAsked(@TempDir Path dir) throws Exception {
        try (WorldRunner r = new WorldRunner(UrdfLoader.load(PANDA, w -> { }), false)) {
            PhysicsModel m = r.physicsModel();
            assertThat(m.articulationCount()).isEqualTo(1);
            // seven arm joints and two fingers; the fixed joints are lumped or welded
            assertThat(m.dofCount()).isEqualTo(9);
            assertThat(m.jointCount()).isZero();
        }
        String text = Files.readString(PANDA).replace("</robot>",
                "  <gazebo><tandem:coordinates>maximal</tandem:coordinates></gazebo>\n</robot>");
        Path maximal = dir.resolve("panda.urdf");
        Files.writeString(maximal, text);
        List<String> warnings = new ArrayList<>();
        try (WorldRunner r = new WorldRunner(UrdfLoader.load(maximal, warnings::add), false)) {
            assertThat(r.physicsModel().articulationCount()).isZero();
            assertThat(r.physicsModel().jointCount()).isEqualTo(10);
        }
        assertThat(warnings).noneMatch(w -> w.contains("tandem:coordinates"));
    }

    /**
     * A two-link arm folded so that its second link lies inside its base: its links collide with
     * each other only when the file asks for self-collision (Gazebo's default is not to), in URDF
     * robot-level, URDF link-level and SDF model-level form.
     */
    @Test
    void selfCollide_foldedArm_contactsOnlyWhenTheFileAsks() {
        String urdf = """
                <robot name="fold">
                  <link name="world"/>
                  <joint name="pin" type="fixed"><parent link="world"/><child link="base"/><origin xyz="0 0 1"/></joint>
                  <link name="base">
                    <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
                    <collision><geometry><box size="0.4 0.4 0.4"/></geometry></collision>
                  </link>
                  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><origin xyz="0 0 0.5"/>
                    <axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="100" velocity="5"/></joint>
                  <link name="l1">
                    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
                    <collision><origin xyz="0 0 0.1"/><geometry><sphere radius="0.05"/></geometry></collision>
                  </link>
                  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0 0 0.2"/>
                    <axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="100" velocity="5"/></joint>
                  <link name="l2">
                    <inertial><origin xyz="0 0 -0.6"/><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
                    <collision><origin xyz="0 0 -0.6"/><geometry><sphere radius="0.1"/></geometry></collision>
                  </link>
                  GAZEBO
                </robot>
                """;
        String[] variants = {"", "<gazebo><self_collide>true</self_collide></gazebo>",
            "<gazebo reference=\"l2\"><selfCollide>true</selfCollide></gazebo>"};
        for (int v = 0; v < variants.length; v++) {
            World w = UrdfLoader.load(new ByteArrayInputStream(urdf.replace("GAZEBO", variants[v]).getBytes(StandardCharsets.UTF_8)),
                    "fold.urdf", x -> { });
            assertThat(w.models().get(0).selfCollide()).as("variant %d", v).isEqualTo(v > 0);
            assertThat(contactsAfterAStep(w)).as("variant %d", v).isEqualTo(v > 0);
        }
        String sdf = """
                <sdf version="1.9"><world name="w"><model name="fold">
                  SELF
                  <link name="base"><pose>0 0 1 0 0 0</pose>
                    <collision name="c"><geometry><box><size>0.4 0.4 0.4</size></box></geometry></collision></link>
                  <joint name="pin" type="fixed"><parent>world</parent><child>base</child></joint>
                  <link name="l1"><pose>0 0 1.5 0 0 0</pose>
                    <collision name="c"><pose>0 0 0.1 0 0 0</pose><geometry><sphere><radius>0.05</radius></sphere></geometry></collision></link>
                  <joint name="j1" type="revolute"><parent>base</parent><child>l1</child><axis><xyz>0 1 0</xyz></axis></joint>
                  <link name="l2"><pose>0 0 1.7 0 0 0</pose>
                    <inertial><pose>0 0 -0.6 0 0 0</pose><mass>1</mass></inertial>
                    <collision name="c"><pose>0 0 -0.6 0 0 0</pose><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link>
                  <joint name="j2" type="revolute"><parent>l1</parent><child>l2</child><axis><xyz>0 1 0</xyz></axis></joint>
                </model></world></sdf>
                """;
        for (boolean self : new boolean[] {false, true}) {
            World w = SdfLoader.load(new ByteArrayInputStream(sdf.replace("SELF", self ? "<self_collide>true</self_collide>" : "")
                    .getBytes(StandardCharsets.UTF_8)), "fold.sdf", x -> { });
            assertThat(w.models().get(0).selfCollide()).isEqualTo(self);
            assertThat(contactsAfterAStep(w)).as("sdf self_collide %s", self).isEqualTo(self);
        }
    }

    /**
     * A free robot (no joint to the world) compiles into one articulation with a floating base;
     * dropped onto the ground with its elbow swinging it moves as the same model in maximal
     * coordinates does (within 1 cm over 1 s), and its joint reads the same from the poses.
     */
    @Test
    void freeRobot_floatingBase_movesAsItsMaximalTwin() {
        String sdf = """
                <sdf version="1.9"><world name="w"><physics><max_step_size>0.001</max_step_size></physics>
                  <model name="ground"><static>true</static><link name="l">
                    <collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
                  <model name="bot">
                    COORDINATES
                    <pose>0 0 0.6 0.2 0.1 0</pose>
                    <link name="torso">
                      <inertial><mass>3</mass><inertia><ixx>0.03</ixx><iyy>0.04</iyy><izz>0.05</izz></inertia></inertial>
                      <collision name="c"><geometry><box><size>0.3 0.2 0.1</size></box></geometry></collision></link>
                    <link name="arm"><pose>0.3 0 0 0 0 0</pose>
                      <inertial><mass>0.5</mass><inertia><ixx>0.001</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
                      <collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry></collision></link>
                    <joint name="elbow" type="revolute"><parent>torso</parent><child>arm</child><pose>-0.15 0 0 0 0 0</pose>
                      <axis><xyz>0 1 0</xyz><dynamics><damping>0.05</damping></dynamics></axis></joint>
                  </model>
                </world></sdf>
                """;
        double[][] ends = new double[2][];
        double[] elbow = new double[2];
        for (int v = 0; v < 2; v++) {
            World w = SdfLoader.load(new ByteArrayInputStream(sdf.replace("COORDINATES",
                    v == 0 ? "" : "<tandem:coordinates>maximal</tandem:coordinates>").getBytes(StandardCharsets.UTF_8)), "bot.sdf", x -> { });
            try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
                assertThat(r.physicsModel().articulationCount()).isEqualTo(v == 0 ? 1 : 0);
                for (int k = 0; k < 1000; k++) {
                    r.step();
                }
                Pose torso = r.linkPose("bot", 0);
                Pose arm = r.linkPose("bot", 1);
                ends[v] = new double[] {torso.x(), torso.y(), torso.z(), arm.x(), arm.y(), arm.z()};
                elbow[v] = r.jointPosition("bot::elbow");
            }
        }
        for (int d = 0; d < 6; d++) {
            assertThat(ends[0][d]).as("coordinate %d", d).isCloseTo(ends[1][d], within(0.01));
        }
        // it fell and landed: the torso rests near the ground
        assertThat(ends[0][2]).isLessThan(0.2);
        assertThat(elbow[0]).isCloseTo(elbow[1], within(0.02));
    }

    private static boolean contactsAfterAStep(World w) {
        try (WorldRunner r = new WorldRunner(w, false)) {
            assertThat(r.physicsModel().articulationCount()).isEqualTo(1);
            try (io.tandem.physics.PhysicsEngine e = new io.tandem.physics.PhysicsEngine(r.physicsModel())) {
                e.step(r.physicsState());
                return e.contactCount() > 0;
            }
        }
    }

    @Test
    void sdfCoordinates_unknownValue_refusedAtItsLine() {
        String sdf = """
                <sdf version="1.9"><world name="w">
                  <model name="arm">
                    <tandem:coordinates>reduced</tandem:coordinates>
                    <link name="a"/>
                  </model>
                </world></sdf>
                """;
        assertThatThrownBy(() -> SdfLoader.load(new ByteArrayInputStream(sdf.getBytes(StandardCharsets.UTF_8)), "bad.sdf", w -> { }))
                .isInstanceOf(WorldFormatException.class)
                .hasMessageContaining("bad.sdf:3")
                .hasMessageContaining("'reduced'")
                .hasMessageContaining("'maximal'");
    }

    /** The runner's joint targets and gains drive the Panda from home to a new pose (the implicit PD, h = 1 ms). */
    @Test
    void jointTargets_pandaFromHome_reachTheTargetPose() {
        try (WorldRunner r = new WorldRunner(UrdfLoader.load(PANDA, w -> { }), SolverSettings.subAdmm(30), false)) {
            int[] h = new int[7];
            for (int i = 0; i < 7; i++) {
                h[i] = r.jointHandle("panda::" + ARM[i]);
                r.setJointGains(h[i], KP[i], KD[i]);
                r.setJointTarget(h[i], HOME[i], 0);
            }
            // hold the fingers too
            for (String f : new String[] {"finger_joint1", "finger_joint2"}) {
                r.setJointGains(r.jointHandle("panda::" + f), 100, 10);
                r.setJointTarget(r.jointHandle("panda::" + f), 0.02, 0);
            }
            for (int k = 0; k < 1500; k++) {
                r.step();
            }
            for (int i = 0; i < 7; i++) {
                // the PD's steady error is gravity over Kp: below 20 N m / 2000 N m/rad
                assertThat(r.jointPosition(h[i])).as(ARM[i]).isCloseTo(HOME[i], within(0.012));
                assertThat(r.jointVelocity(h[i])).as(ARM[i] + " speed").isCloseTo(0, within(1e-2));
                assertThat(Math.abs(r.jointEffort(h[i]))).as(ARM[i] + " effort, N m").isLessThan(40);
            }
        }
    }

    /**
     * The Panda's hand (its franka_ros collision shapes, lumped into link 7) swinging about joint 1
     * strikes a free sphere in its path (no gravity, so nothing else moves it): the sphere flies
     * off along the hand's motion, and the arm, slowed for a moment, still reaches its target.
     */
    @Test
    void pandaSwing_handStrikesAFreeSphere_knocksItAlongTheMotion() {
        World file = UrdfLoader.load(PANDA, w -> { });
        World.Link ballLink = new World.Link("body", Pose.translation(5, 5, 5), new World.Inertial(0.5, Pose.IDENTITY, 3.2e-4, 0, 0,
                3.2e-4, 0, 3.2e-4), List.of(new World.Collision("c", Pose.IDENTITY, new Geometry.Sphere(0.04), 0.5)), List.of(), 0);
        World w = new World("strike", file.source(), 0, 0, 0, 1_000_000, 1, List.of(file.models().get(0),
                new World.Model("ball", false, Pose.translation(5, 5, 5), List.of(ballLink), List.of(), 0)), List.of(), List.of(), false);
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
            io.tandem.physics.PhysicsModel m = r.physicsModel();
            io.tandem.physics.PhysicsState s = r.physicsState();
            int a = m.articulationIndex("panda");
            for (int i = 0; i < 7; i++) {
                s.setDofState(m.dof(a, i), HOME[i], 0);
                int h = r.jointHandle("panda::" + ARM[i]);
                r.setJointGains(h, KP[i], KD[i]);
                r.setJointTarget(h, HOME[i], 0);
            }
            int link7 = -1;
            for (int k = 0; k < file.models().get(0).links().size(); k++) {
                link7 = file.models().get(0).links().get(k).name().equals("link7") ? k : link7;
            }
            // the hand's body (its cylinder 0.04 m up the hand, 0.107 m beyond link 7), turned 0.4 rad about z
            double[] hand = r.linkPose("panda", link7).transform(0, 0, 0.147);
            double radius = Math.hypot(hand[0], hand[1]);
            double angle = Math.atan2(hand[1], hand[0]) + 0.4;
            Pose start = Pose.translation(radius * Math.cos(angle), radius * Math.sin(angle), hand[2]);
            r.setModelPose("ball", start);
            r.setJointTarget(r.jointHandle("panda::joint1"), HOME[0] + 0.8, 0);
            for (int k = 0; k < 800; k++) {
                r.step();
            }
            Pose end = r.modelPose("ball");
            double dx = end.x() - start.x();
            double dy = end.y() - start.y();
            // the sweep's direction at the sphere: counter-clockwise about z
            double along = -Math.sin(angle) * dx + Math.cos(angle) * dy;
            assertThat(along).as("knocked along the motion, m").isGreaterThan(0.1);
            assertThat(end.z()).as("stays near the hand's height, m").isCloseTo(start.z(), within(0.15));
            assertThat(r.jointPosition(r.jointHandle("panda::joint1"))).isCloseTo(HOME[0] + 0.8, within(0.05));
        }
    }

    @Test
    void jointTarget_freeRobotFloatsButInMaximalCoordinatesIsRefusedNamingWhy() {
        World relay = GazeboWorlds.example("relay.sdf");
        World.Model vehicle = relay.models().stream().filter(m -> !m.joints().isEmpty() && !m.isStatic()).findFirst().orElseThrow();
        String joint = vehicle.name() + "::" + vehicle.joints().get(0).name();
        // a free robot (no joint to the world) is one articulation with a floating base: its joints take targets
        try (WorldRunner r = new WorldRunner(relay, false)) {
            assertThat(r.physicsModel().articulationCount()).isEqualTo(1);
            int h = r.jointHandle(joint);
            r.step();
            r.setJointGains(h, 10, 1);
            r.setJointTarget(h, 0.1, 0);
        }
        // the same vehicle in maximal coordinates has joint rows, not joint coordinates
        List<World.Model> models = new ArrayList<>();
        for (World.Model m : relay.models()) {
            models.add(m != vehicle ? m : new World.Model(m.name(), m.isStatic(), m.pose(), m.links(), m.joints(), m.line(),
                    World.Coordinates.MAXIMAL, m.controllers(), m.selfCollide()));
        }
        World maximal = new World(relay.name(), relay.source(), relay.gravityX(), relay.gravityY(), relay.gravityZ(),
                relay.stepSizeNs(), relay.realTimeFactor(), models, relay.performers(), relay.levels(), relay.levelPlugin());
        try (WorldRunner r = new WorldRunner(maximal, false)) {
            assertThat(r.physicsModel().articulationCount()).isZero();
            int h = r.jointHandle(joint);
            r.step();
            assertThatThrownBy(() -> r.setJointTarget(h, 0, 0)).hasMessageContaining("not a robot in joint coordinates");
        }
    }

    /** A two-link arm pinned to the world (joint coordinates by default), a performer on it. */
    private static final String ARM_SDF = """
            <?xml version="1.0"?>
            <sdf version="1.9">
            <world name="w"><physics><max_step_size>0.002</max_step_size></physics>
              <model name="arm">
                <link name="base"><pose>0 0 1 0 0 0</pose>
                  <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
                </link>
                <link name="upper"><pose>0.25 0 1 0 0 0</pose>
                  <inertial><mass>1.2</mass><inertia><ixx>0.001</ixx><iyy>0.025</iyy><izz>0.025</izz></inertia></inertial>
                  <collision name="c"><geometry><box><size>0.5 0.05 0.05</size></box></geometry></collision>
                </link>
                <link name="lower"><pose>0.75 0 1 0 0 0</pose>
                  <inertial><mass>0.8</mass><inertia><ixx>0.001</ixx><iyy>0.017</iyy><izz>0.017</izz></inertia></inertial>
                  <collision name="c"><geometry><box><size>0.5 0.05 0.05</size></box></geometry></collision>
                </link>
                <joint name="pin" type="fixed"><parent>world</parent><child>base</child></joint>
                <joint name="shoulder" type="revolute"><parent>base</parent><child>upper</child><pose>-0.25 0 0 0 0 0</pose>
                  <axis><xyz>0 1 0</xyz><limit><lower>-2</lower><upper>2</upper></limit></axis></joint>
                <joint name="elbow" type="revolute"><parent>upper</parent><child>lower</child><pose>-0.25 0 0 0 0 0</pose>
                  <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
              </model>
              <plugin name="gz::sim" filename="dummy">
                <performer name="perf_arm"><ref>arm</ref><geometry><box><size>4 4 4</size></box></geometry></performer>
              </plugin>
            </world>
            </sdf>
            """;

    /**
     * A robot in joint coordinates handed between runners (exportState, importState, adopt: what
     * DistributedSecondary does) moves on bitwise as on the sender: its joint positions,
     * velocities, targets, gains and limit warm starts travel with it.
     */
    @Test
    void handover_armInJointCoordinates_receiverContinuesBitwise() {
        World w = SdfLoader.load(new ByteArrayInputStream(ARM_SDF.getBytes(StandardCharsets.UTF_8)), "arm.sdf", x -> { });
        SolverSettings solver = SolverSettings.subAdmm(30);
        try (WorldRunner from = new WorldRunner(w, solver, new LevelManager(w, true, List.of("perf_arm"), true));
             WorldRunner to = new WorldRunner(w, solver, new LevelManager(w, true, List.of(), false))) {
            int shoulder = from.jointHandle("arm::shoulder");
            int elbow = from.jointHandle("arm::elbow");
            from.step();
            assertThat(from.physicsModel().articulationCount()).isEqualTo(1);
            from.setJointGains(shoulder, 200, 20);
            from.setJointTarget(shoulder, 0.5, 0);
            for (int i = 0; i < 150; i++) {
                from.step();
                to.step();
            }
            ModelState st = from.exportState("arm");
            assertThat(st.dofs()).hasSize(2 * ModelState.DOF_VALUES);
            to.importState(st);
            to.levels().adopt("perf_arm", List.of());
            for (int i = 0; i < 300; i++) {
                from.step();
                to.step();
                assertThat(to.jointPosition(shoulder)).as("shoulder at step %d", i).isEqualTo(from.jointPosition(shoulder));
                assertThat(to.jointPosition(elbow)).as("elbow at step %d", i).isEqualTo(from.jointPosition(elbow));
            }
            // the PD target travelled: the shoulder settles at 0.5 rad on the receiver
            assertThat(to.jointPosition(shoulder)).isCloseTo(0.5, within(0.05));
        }
    }

    static final Path HUSKY = Path.of("../examples/robots/husky/husky.urdf");
    static final Path MOBILE = Path.of("../examples/robots/mobile_manipulator/mobile_manipulator.urdf");

    /**
     * The Husky-like planar base driven at 1 m/s forward and 0.5 rad/s yaw: it never slides
     * sideways (the no-slip row), reaches its command, and drives a circle of radius v / w = 2 m.
     */
    @Test
    void planarBase_drivenWhileTurning_noLateralVelocityAndACircle() {
        List<String> warnings = new ArrayList<>();
        World w = UrdfLoader.load(HUSKY, warnings::add);
        assertThat(warnings).isEmpty();
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
            r.step();
            PhysicsModel m = r.physicsModel();
            assertThat(m.articulationCount()).isEqualTo(1);
            assertThat(m.dofCount()).as("x, y, yaw").isEqualTo(3);
            assertThat(m.mass(m.dofBody(2))).as("base with its wheels, kg").isCloseTo(56.582, within(1e-9));
            r.setBaseVelocity("husky", 1.0, 0.5);
            double[] v = new double[3];
            double worstLateral = 0;
            double cx = 0;
            double cy = 0;
            for (int k = 0; k < 3000; k++) {
                r.step();
                r.baseVelocity("husky", v);
                worstLateral = Math.max(worstLateral, Math.abs(midpointLateral(v, 1e-3)));
                if (k == 999) {
                    // in steady state after 1 s: the centre of the circle, 2 m to the base's left
                    Pose p = r.modelPose("husky");
                    double th = 2 * Math.atan2(p.qz(), p.qw());
                    cx = p.x() - 2 * Math.sin(th);
                    cy = p.y() + 2 * Math.cos(th);
                }
            }
            assertThat(worstLateral).as("lateral speed, m/s").isLessThan(1e-9);
            assertThat(v[0]).as("forward, m/s").isCloseTo(1.0, within(1e-3));
            assertThat(v[2]).as("yaw rate, rad/s").isCloseTo(0.5, within(1e-3));
            // two more seconds on the same circle of radius v / w (an arc of 1 rad)
            Pose p = r.modelPose("husky");
            double distance = Math.hypot(p.x() - cx, p.y() - cy);
            assertThat(distance).as("distance from the circle's centre, m").isCloseTo(2, within(2e-3));
            assertThat(p.z()).as("height kept, m").isCloseTo(0, within(1e-12));
        }
    }

    /**
     * The mobile manipulator: one subsystem of 10 joint coordinates (base x, y, yaw and the arm's 7);
     * the arm holds its pose by its PD while the base drives and turns, and the base does not slide.
     */
    @Test
    void mobileManipulator_armHeldWhileTheBaseDrives_tenJointsAndNoSliding() {
        try (WorldRunner r = new WorldRunner(UrdfLoader.load(MOBILE, x -> { }), SolverSettings.subAdmm(30), false)) {
            r.step();
            assertThat(r.physicsModel().dofCount()).isEqualTo(10);
            int[] h = new int[7];
            for (int i = 0; i < 7; i++) {
                h[i] = r.jointHandle("mobile_manipulator::" + ARM[i]);
                r.setJointGains(h[i], KP[i], KD[i]);
                r.setJointTarget(h[i], HOME[i], 0);
            }
            for (int k = 0; k < 1000; k++) {
                r.step();
            }
            r.setBaseVelocity("mobile_manipulator", 0.5, 0.8);
            double[] v = new double[3];
            double worstLateral = 0;
            for (int k = 0; k < 2000; k++) {
                r.step();
                r.baseVelocity("mobile_manipulator", v);
                worstLateral = Math.max(worstLateral, Math.abs(midpointLateral(v, 1e-3)));
            }
            assertThat(worstLateral).as("lateral speed, m/s").isLessThan(1e-9);
            // (velocity servos without integral action: the swinging arm's load leaves a few per cent)
            assertThat(v[0]).isCloseTo(0.5, within(0.02));
            assertThat(v[2]).isCloseTo(0.8, within(0.03));
            for (int i = 0; i < 7; i++) {
                assertThat(r.jointPosition(h[i])).as(ARM[i]).isCloseTo(HOME[i], within(0.02));
            }
            assertThatThrownBy(() -> r.setBaseVelocity("nothing", 1, 0)).hasMessageContaining("not a loaded planar base");
        }
    }

    /**
     * The lateral speed in the frame of the heading the no-slip row holds, the step's midpoint
     * (half a step of yaw before the end): the end heading reads forward x yaw rate x h / 2 more.
     */
    private static double midpointLateral(double[] v, double h) {
        double back = 0.5 * h * v[2];
        return v[1] * Math.cos(back) + v[0] * Math.sin(back);
    }
}
