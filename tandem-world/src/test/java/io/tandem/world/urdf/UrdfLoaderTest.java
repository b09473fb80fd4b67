package io.tandem.world.urdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.world.Geometry;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import io.tandem.world.WorldRunner;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The URDF loader against its closed forms: the shipped pendulum's frames, Gazebo's lumping of a
 * fixed joint (mass, centre of mass, inertia by the parallel-axis sum), the swing's small-angle
 * period, and lumping against keeping the fixed joint; and the mistakes of physics-wave2.md 3.3,
 * each refused at its line with the fix.
 */
class UrdfLoaderTest {
    static final Path PENDULUM = Path.of("../examples/robots/pendulum/pendulum.urdf");

    private static World load(String urdf) {
        return UrdfLoader.load(new ByteArrayInputStream(urdf.getBytes(StandardCharsets.UTF_8)), "r.urdf", w -> { });
    }

    @Test
    void load_pendulum_lumpsTheTipIntoTheArmKeepingMassCentreAndInertia() {
        List<String> warnings = new ArrayList<>();
        World w = UrdfLoader.load(PENDULUM, warnings::add);
        assertThat(warnings).isEmpty();
        World.Model m = w.models().get(0);
        assertThat(m.name()).isEqualTo("pendulum");
        assertThat(m.links()).extracting(World.Link::name).containsExactly("post", "arm");
        assertThat(m.joints()).extracting(World.Joint::name).containsExactly("anchor", "pivot");
        World.Joint anchor = m.joints().get(0);
        assertThat(anchor.kind()).isEqualTo(World.JointKind.FIXED);
        assertThat(anchor.parent()).isEqualTo("world");
        World.Joint pivot = m.joints().get(1);
        assertThat(pivot.kind()).isEqualTo(World.JointKind.REVOLUTE);
        assertThat(pivot.parent()).isEqualTo("post");
        assertThat(new double[] {pivot.pose().x(), pivot.pose().y(), pivot.pose().z()}).containsExactly(
                new double[] {0, 0, 2.2}, within(1e-12));
        assertThat(new double[] {pivot.axisX(), pivot.axisY(), pivot.axisZ()}).containsExactly(new double[] {1, 0, 0},
                within(1e-12));
        assertThat(pivot.lower()).isEqualTo(-1.5);
        assertThat(pivot.effort()).isEqualTo(10);

        World.Link arm = m.links().get(1);
        // m = 1 + 0.5; centre (1 * -0.5 + 0.5 * -1) / 1.5 = -2/3 along the arm's z
        assertThat(arm.inertial().mass()).isCloseTo(1.5, within(1e-12));
        assertThat(arm.inertial().pose().z()).isCloseTo(-2.0 / 3, within(1e-12));
        double rod = 1.0 / 12 + 0.05 * 0.05 / 4;
        double ball = 0.4 * 0.5 * 0.01;
        double across = rod + 1 * (1.0 / 6) * (1.0 / 6) + ball + 0.5 * (1.0 / 3) * (1.0 / 3);
        assertThat(arm.inertial().ixx()).isCloseTo(across, within(1e-12));
        assertThat(arm.inertial().iyy()).isCloseTo(across, within(1e-12));
        assertThat(arm.inertial().izz()).isCloseTo(0.00125 + ball, within(1e-12));
        assertThat(arm.inertial().ixy()).isCloseTo(0, within(1e-12));
        // the tip's shapes move into the arm, 1 m down its z, with its friction
        assertThat(arm.collisions()).hasSize(2);
        World.Collision tip = arm.collisions().get(1);
        assertThat(tip.geometry()).isEqualTo(new Geometry.Sphere(0.1));
        assertThat(tip.pose().z()).isCloseTo(-1, within(1e-12));
        assertThat(tip.friction()).isEqualTo(0.5);
        assertThat(arm.visuals().get(1).rgba()).containsExactly(0.8, 0.1, 0.1, 1);
    }

    /** Swings of a compound pendulum: T0 = 2 pi sqrt(I_pivot / (m g d)), measured 1.83624 s against 1.83625 s. */
    @Test
    void step_pendulum_swingsWithTheClosedFormPeriod() throws Exception {
        double m = 1.5;
        double d = 2.0 / 3;
        double rod = 1.0 / 12 + 0.05 * 0.05 / 4;
        double ball = 0.4 * 0.5 * 0.01;
        double iCom = rod + 1.0 / 36 + ball + 0.5 / 9;
        double amplitude = 0.1;
        // with the finite-amplitude series T0 (1 + a^2 / 16 + 11 a^4 / 3072)
        double expected = 2 * Math.PI * Math.sqrt((iCom + m * d * d) / (m * 9.8 * d))
                * (1 + amplitude * amplitude / 16 + 11 * Math.pow(amplitude, 4) / 3072);
        assertThat(period(UrdfLoader.load(PENDULUM, w -> { }))).isCloseTo(expected, within(1e-4 * expected));
    }

    /** Keeping the tip's fixed joint (a weld) swings as lumping it does. */
    @Test
    void step_pendulumWithTheFixedJointPreserved_swingsAsTheLumpedOne() throws Exception {
        String text = Files.readString(PENDULUM).replace("<gazebo reference=\"tip\">",
                "<gazebo reference=\"tip_mount\"><preserveFixedJoint>true</preserveFixedJoint></gazebo>\n"
                        + "  <gazebo reference=\"tip\">");
        World kept = load(text);
        assertThat(kept.models().get(0).links()).extracting(World.Link::name).containsExactly("post", "arm", "tip");
        assertThat(kept.models().get(0).joints().get(2).kind()).isEqualTo(World.JointKind.FIXED);
        double lumped = period(UrdfLoader.load(PENDULUM, w -> { }));
        assertThat(period(kept)).isCloseTo(lumped, within(1e-5 * lumped));
    }

    /** A robot's record has a row per link, named MODEL::LINK, and per joint, MODEL::JOINT, beside the model's row. */
    @Test
    void record_pendulum_rowPerLinkScopedAsGazeboNamesThem() throws Exception {
        java.io.StringWriter out = new java.io.StringWriter();
        World w = UrdfLoader.load(PENDULUM, x -> { });
        try (WorldRunner r = new WorldRunner(w, false)) {
            r.addListener(new io.tandem.world.PoseRecorder(out, io.tandem.world.PoseRecorder.Format.CSV));
            for (int i = 0; i < 200; i++) {
                r.step();
            }
            double q = r.jointPosition("pendulum::pivot");
            String last = out.toString().lines().filter(l -> l.startsWith("200,") && l.contains(",pendulum::arm,"))
                    .findFirst().orElseThrow();
            String[] f = last.split(",");
            // the arm's frame stays at the pivot, turned about x by the tilt plus the joint angle
            assertThat(Double.parseDouble(f[5])).isCloseTo(2.2, within(1e-6));
            double angle = 2 * Math.atan2(Double.parseDouble(f[6]), Double.parseDouble(f[9]));
            assertThat(angle).isCloseTo(0.1 + q, within(1e-6));
            // the joints with a coordinate, rad or m, in x; the fixed anchor has none
            assertThat(out.toString()).contains("200,0.2,pendulum::pivot," + q + ",,,,,,,joint\n");
        }
        assertThat(out.toString().lines().filter(l -> l.startsWith("0,"))).extracting(l -> l.split(",")[2])
                .containsExactly("pendulum", "pendulum::post", "pendulum::arm", "pendulum::pivot");
    }

    /**
     * A runner's rows are read by handle into arrays; every one is bitwise what its Pose readers
     * ({@code modelPose(String)}, {@code linkPose(String, int)}, {@code jointPosition}) give at that
     * iteration, the values a distributed primary records: the panda arm swinging under gravity.
     */
    @Test
    void record_pandaEveryIteration_rowsBitwiseTheRunnersPoseReaders() throws Exception {
        java.io.StringWriter out = new java.io.StringWriter();
        StringBuilder expected = new StringBuilder(io.tandem.world.PoseRecorder.CSV_HEADER);
        World w = UrdfLoader.load(java.nio.file.Path.of("../examples/robots/panda/panda.urdf"), x -> { });
        World.Model panda = w.models().get(0);
        try (WorldRunner r = new WorldRunner(w, false)) {
            r.addListener(new io.tandem.world.PoseRecorder(out, io.tandem.world.PoseRecorder.Format.CSV));
            r.addListener((view, iteration, changes) -> {
                double t = view.simTimeNs() / 1e9;
                expected.append(io.tandem.world.PoseRecorder.csvRow(iteration, t, panda.name(), view.modelPose(panda.name())));
                for (int l = 0; l < panda.links().size(); l++) {
                    expected.append(io.tandem.world.PoseRecorder.csvRow(iteration, t,
                            panda.name() + "::" + panda.links().get(l).name(), view.linkPose(panda.name(), l)));
                }
                for (int j = 0; j < panda.joints().size(); j++) {
                    double q = view.jointPosition(panda.name(), j);
                    if (!Double.isNaN(q)) {
                        expected.append(iteration).append(',').append(t).append(',').append(panda.name()).append("::")
                                .append(panda.joints().get(j).name()).append(',').append(q).append(",,,,,,,joint\n");
                    }
                }
            });
            for (int i = 0; i < 400; i++) {
                r.step();
            }
        }
        // the arm moved (so the rows are not the initial pose repeated), and every row is the readers'
        assertThat(out.toString()).contains("400,0.4,panda::joint2,");
        assertThat(out.toString().lines().skip(1).filter(l -> l.contains("::joint2,")).map(l -> l.split(",")[3]).distinct())
                .hasSizeGreaterThan(100);
        assertThat(out.toString()).isEqualTo(expected.toString());
    }

    /**
     * Joint friction from the file: the tilted pendulum (in joint coordinates) stays where it is
     * when its pivot's Coulomb friction exceeds the gravity torque, and swings without it; the same
     * in maximal coordinates (a motor of speed 0 bounded by the friction).
     */
    @Test
    void dynamicsFriction_pendulumPivot_holdsItOrLetsItSwing() throws Exception {
        String text = java.nio.file.Files.readString(PENDULUM);
        for (String coordinates : new String[] {"joint", "maximal"}) {
            for (double friction : new double[] {0, 100}) {
                String urdf = text.replace("<limit lower=\"-1.5\" upper=\"1.5\" effort=\"10\" velocity=\"5\"/>",
                        "<limit lower=\"-1.5\" upper=\"1.5\" effort=\"10\" velocity=\"5\"/><dynamics friction=\"" + friction + "\"/>")
                        .replace("</robot>", "<gazebo><tandem:coordinates>" + coordinates + "</tandem:coordinates></gazebo></robot>");
                assertThat(urdf).contains("friction=");
                World w = UrdfLoader.load(new java.io.ByteArrayInputStream(urdf.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                        "pendulum.urdf", x -> { });
                assertThat(w.models().get(0).joints().stream().filter(j -> j.name().equals("pivot")).findFirst().orElseThrow()
                        .friction()).isEqualTo(friction);
                try (WorldRunner r = new WorldRunner(w, false)) {
                    int pivot = r.jointHandle("pendulum::pivot");
                    double start = r.jointPosition(pivot);
                    for (int i = 0; i < 500; i++) {
                        r.step();
                    }
                    double moved = Math.abs(r.jointPosition(pivot) - start);
                    if (friction > 0) {
                        assertThat(moved).as("%s coordinates, friction %s: held", coordinates, friction).isLessThan(1e-3);
                    } else {
                        assertThat(moved).as("%s coordinates, no friction: swings", coordinates).isGreaterThan(0.02);
                    }
                }
            }
        }
    }

    /** @return the pivot's swing period, s, from its angle's crossings of the swing's middle over 4 s */
    private static double period(World w) {
        try (WorldRunner r = new WorldRunner(w, false)) {
            int pivot = r.jointHandle("pendulum::pivot");
            double middle = -0.1; // the arm starts tilted 0.1 rad from hanging straight
            double last = r.jointPosition(pivot) - middle;
            List<Double> crossings = new ArrayList<>();
            for (int i = 0; i < 4000; i++) {
                r.step();
                double now = r.jointPosition(pivot) - middle;
                if (Math.signum(now) != Math.signum(last) && last != 0) {
                    crossings.add(r.simTimeNs() / 1e9 - 0.001 * now / (now - last));
                }
                last = now;
            }
            assertThat(crossings).hasSizeGreaterThan(3);
            return 2 * (crossings.get(crossings.size() - 1) - crossings.get(0)) / (crossings.size() - 1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        revolute without limit | <joint name='j' type='revolute'><parent link='a'/><child link='b'/></joint> | 4 | gives no <limit>
        limit without effort | <joint name='j' type='revolute'><parent link='a'/><child link='b'/><limit lower='0' upper='1' velocity='1'/></joint> | 4 | needs effort
        lower above upper | <joint name='j' type='prismatic'><parent link='a'/><child link='b'/><limit lower='1' upper='0' effort='1' velocity='1'/></joint> | 4 | lower limit 1.0 is above the upper 0.0
        unknown link | <joint name='j' type='continuous'><parent link='a'/><child link='c'/></joint> | 4 | child link 'c' is not a link of this robot
        zero axis | <joint name='j' type='continuous'><parent link='a'/><child link='b'/><axis xyz='0 0 0'/></joint> | 4 | the axis is zero
        two roots | <joint name='j' type='fixed'><parent link='a'/><child link='a2'/></joint><link name='a2'/> | 3 | no joint's child
        xacro left | <joint name='j' type='continuous'><parent link='a'/><child link='b'/><origin xyz='${x} 0 0'/></joint> | 4 | unexpanded xacro expression
        massless moving link | <joint name='k' type='fixed'><parent link='a'/><child link='b'/></joint><joint name='j' type='continuous'><parent link='a'/><child link='m'/></joint><link name='m'/> | 5 | has no mass
        impossible inertia | <joint name='k' type='fixed'><parent link='a'/><child link='b'/></joint><joint name='j' type='continuous'><parent link='a'/><child link='i'/></joint><link name='i'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='3' ixy='0' ixz='0' iyz='0'/></inertial></link> | 5 | each must be at most the sum of the other two
        planar joint | <joint name='j' type='planar'><parent link='a'/><child link='b'/></joint> | 4 | planar joints are not supported
        """)
    void load_commonMistake_refusedAtItsLineWithTheFix(String what, String joint, int line, String message) {
        String urdf = "<robot name='r'>\n"
                + "<link name='a'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial></link>\n"
                + "<link name='b'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial></link>\n"
                + joint.replace("\n", "").replace("><link", ">\n<link") + "\n</robot>\n";
        assertThatThrownBy(() -> load(urdf)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith("r.urdf:" + line + ": ").hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void load_notUrdfOrDuplicateNames_refusedNamingTheFix() {
        assertThatThrownBy(() -> load("<sdf version='1.9'/>")).hasMessage(
                "r.urdf:1: the root element is <sdf>, expected <robot>: is this a URDF file?");
        assertThatThrownBy(() -> load("<robot name='r'>\n<link name='a'/>\n<link name='a'/>\n</robot>"))
                .hasMessageStartingWith("r.urdf:3: a second link named 'a'");
    }

    @Test
    void load_mimic_warnedOnceAtItsLine() {
        List<String> warnings = new ArrayList<>();
        String joint = "<joint name='%s' type='revolute'><parent link='a'/><child link='%s'/><axis xyz='0 0 1'/>"
                + "<limit lower='-1' upper='1' effort='1' velocity='1'/>%s</joint>\n";
        String link = "<link name='%s'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/>"
                + "</inertial></link>\n";
        World w = UrdfLoader.load(new ByteArrayInputStream(("<robot name='r'>\n<link name='world'/>\n"
                + "<joint name='f' type='fixed'><parent link='world'/><child link='a'/></joint>\n"
                + String.format(java.util.Locale.ROOT, link, "a") + String.format(java.util.Locale.ROOT, link, "b")
                + String.format(java.util.Locale.ROOT, link, "c")
                + String.format(java.util.Locale.ROOT, joint, "j1", "b", "")
                + String.format(java.util.Locale.ROOT, joint, "j2", "c", "<mimic joint='j1'/>")
                + "</robot>").getBytes(StandardCharsets.UTF_8)), "r.urdf", warnings::add);
        assertThat(w.models().get(0).joints()).hasSize(3);
        assertThat(warnings).hasSize(1).allMatch(s -> s.startsWith("r.urdf:8: <mimic>"));
    }

    /** physics-wave2.md 3.3, 10: a mimic naming no joint, or a joint that mimics in turn, is refused at its line. */
    @Test
    void load_badMimic_refusedAtItsLineNamingTheFix() {
        String head = "<robot name='r'>\n<link name='world'/>\n"
                + "<joint name='f' type='fixed'><parent link='world'/><child link='a'/></joint>\n";
        String link = "<link name='%s'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/>"
                + "</inertial></link>\n";
        String joint = "<joint name='%s' type='revolute'><parent link='a'/><child link='%s'/><axis xyz='0 0 1'/>"
                + "<limit lower='-1' upper='1' effort='1' velocity='1'/>%s</joint>\n";
        String links = String.format(java.util.Locale.ROOT, link, "a") + String.format(java.util.Locale.ROOT, link, "b")
                + String.format(java.util.Locale.ROOT, link, "c") + String.format(java.util.Locale.ROOT, link, "d");
        String missing = head + links + String.format(java.util.Locale.ROOT, joint, "j1", "b", "")
                + String.format(java.util.Locale.ROOT, joint, "j2", "c", "\n<mimic joint='jx'/>")
                + String.format(java.util.Locale.ROOT, joint, "j3", "d", "") + "</robot>";
        assertThatThrownBy(() -> load(missing)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith("r.urdf:10: joint 'j2' mimics 'jx', which is no joint of this robot (joints: f, j1, j2, j3)");
        String chain = head + links + String.format(java.util.Locale.ROOT, joint, "j1", "b", "")
                + String.format(java.util.Locale.ROOT, joint, "j2", "c", "\n<mimic joint='j1'/>")
                + String.format(java.util.Locale.ROOT, joint, "j3", "d", "\n<mimic joint='j2' multiplier='-1'/>") + "</robot>";
        assertThatThrownBy(() -> load(chain)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith("r.urdf:12: joint 'j3' mimics 'j2', which mimics 'j1' in turn: a chain of mimics");
    }

    /** physics-wave2.md 3.3, 8: a mesh more than 10 m across on a link is warned as probably in millimetres. */
    @Test
    void load_meshInMillimetres_warnedWithTheScaleToGive(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        StringBuilder obj = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            obj.append(String.format(java.util.Locale.ROOT, "v %d %d %d%n", (i & 1) * 120, (i & 2) * 40, (i & 4) * 20));
        }
        obj.append("f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n");
        Files.writeString(dir.resolve("part.obj"), obj);
        String urdf = "<robot name='r'>\n<link name='a'><inertial><mass value='1'/>"
                + "<inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial>\n"
                + "<collision><geometry><mesh filename='part.obj'/></geometry></collision>\n"
                + "<visual><geometry><mesh filename='part.obj' scale='0.001 0.001 0.001'/></geometry></visual></link>\n</robot>";
        Path file = dir.resolve("r.urdf");
        Files.writeString(file, urdf);
        List<String> warnings = new ArrayList<>();
        World w = io.tandem.world.urdf.UrdfLoader.load(file, warnings::add);
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).startsWith(file + ":3: mesh 'part.obj' spans 120 m").contains("scale=\"0.001 0.001 0.001\"");
        Geometry.Mesh visual = (Geometry.Mesh) w.models().get(0).links().get(0).visuals().get(0).geometry();
        assertThat(visual.mesh().max(0)).isCloseTo(0.12, within(1e-12));
    }
}
