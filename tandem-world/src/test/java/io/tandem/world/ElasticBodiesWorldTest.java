package io.tandem.world;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverSettings;
import io.tandem.world.sdf.SdfLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SDF worlds with {@code <tandem:cable>} and {@code <tandem:deformable>} run through the {@link WorldRunner}. */
class ElasticBodiesWorldTest {
    private static final String GROUND = """
            <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane>
              <normal>0 0 1</normal><size>20 20</size></plane></geometry></collision></link></model>
            """;
    private static final String RUBBER = "<material><youngs_modulus>1e7</youngs_modulus><poisson_ratio>0.45</poisson_ratio>"
            + "<density>1200</density></material>";

    @TempDir
    Path dir;

    /** Writes the world into the test's folder and loads it. */
    private World load(String body) throws IOException {
        Path file = dir.resolve("w.sdf");
        Files.writeString(file, "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\" xmlns:tandem=\"https://tandem.io/sdf\">\n"
                + "<world name=\"w\">\n" + body + "\n</world>\n</sdf>\n");
        return SdfLoader.load(file, x -> { });
    }

    /** A 1 m rubber cable lying along x at z = 1, its start clamped to the world. */
    private static String cable(String extra) {
        return "<tandem:cable name=\"rope\"><from>0 0 1</from><to>1 0 1</to><segments>20</segments><diameter>0.02</diameter>"
                + RUBBER + "<attach end=\"start\"/>" + extra + "</tandem:cable>";
    }

    private static int body(WorldRunner r, String name) {
        PhysicsModel m = r.physicsModel();
        for (int b = 0; b < m.bodyCount(); b++) {
            if (m.bodyName(b).equals(name)) {
                return b;
            }
        }
        throw new AssertionError("no body " + name);
    }

    private static double[] position(WorldRunner r, int body) {
        PhysicsState s = r.physicsState();
        return new double[] {s.pos[3 * body], s.pos[3 * body + 1], s.pos[3 * body + 2]};
    }

    /** examples/worlds/cable_and_beam.sdf: the cable swings down from its clamp, the beam sags, the ball lands on it. */
    @Test
    void example_cableAndBeam_cableFallsBeamSagsBallLandsOnIt() {
        World w = GazeboWorlds.example("cable_and_beam.sdf");
        assertThat(w.cables()).hasSize(1);
        assertThat(w.deformables()).hasSize(1);
        try (WorldRunner r = new WorldRunner(w, false)) {
            int tip = body(r, "rope/39");
            int free = body(r, "beam/188");
            double tipZ = position(r, tip)[2];
            double freeZ = position(r, free)[2];
            for (int k = 0; k < 250; k++) {
                r.step();
            }
            assertThat(position(r, tip)[2]).as("the cable's free end falls").isLessThan(tipZ - 0.1);
            assertThat(position(r, free)[2]).as("the beam's free end sags").isLessThan(freeZ - 1e-3);
            double ball = position(r, body(r, "ball::body"))[2];
            assertThat(ball).as("the ball rests on the beam, not through it").isBetween(0.5, 0.56);
        }
    }

    @Test
    void record_cableAndBeam_aRowPerSegmentAndNodeAtItsBody() {
        World w = GazeboWorlds.example("cable_and_beam.sdf");
        java.io.StringWriter csv = new java.io.StringWriter();
        try (WorldRunner r = new WorldRunner(w, false)) {
            r.addListener(new PoseRecorder(csv, PoseRecorder.Format.CSV));
            for (int k = 0; k < 3; k++) {
                r.step();
            }
            // iteration 3's rows of the cable's segments and the beam's nodes (no block copies), in full precision
            int rope = 0;
            int beam = 0;
            for (String line : csv.toString().split("\n")) {
                String[] f = line.split(",", -1);
                if (!f[0].equals("3") || !(f[2].startsWith("rope::") || f[2].startsWith("beam::"))) {
                    continue;
                }
                double[] x = position(r, body(r, f[2].replace("::", "/")));
                assertThat(new double[] {Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5])})
                        .as(f[2]).containsExactly(x);
                rope += f[2].startsWith("rope::") ? 1 : 0;
                beam += f[2].startsWith("beam::") ? 1 : 0;
            }
            assertThat(rope).isEqualTo(40);
            assertThat(beam).isEqualTo(189);
        }
    }

    @Test
    void step_cableClampedAtItsStart_freeEndFallsClampedEndStays() throws IOException {
        World w = load(GROUND + cable(""));
        try (WorldRunner r = new WorldRunner(w, false)) {
            double[] first = position(r, body(r, "rope/0"));
            double[] tip = position(r, body(r, "rope/19"));
            assertThat(first[2]).isEqualTo(1.0);
            for (int k = 0; k < 400; k++) {
                r.step();
            }
            double[] firstNow = position(r, body(r, "rope/0"));
            double[] tipNow = position(r, body(r, "rope/19"));
            // the clamped segment stays where it was; the free end sags under its weight
            for (int c = 0; c < 3; c++) {
                assertThat(firstNow[c]).isCloseTo(first[c], within(1e-3));
            }
            assertThat(tipNow[2]).isLessThan(tip[2] - 0.1).isGreaterThan(-0.01);
            // the cable does not stretch: the tip stays within its length of the clamp
            double dx = tipNow[0];
            double dz = tipNow[2] - 1;
            assertThat(Math.sqrt(dx * dx + dz * dz)).isLessThan(1.0);
        }
    }

    @Test
    void step_cableEndAttachedToAModel_modelHangsOnTheCable() throws IOException {
        String weight = "<model name=\"weight\"><pose>1 0 1 0 0 0</pose><link name=\"bob\"><inertial><mass>0.2</mass><inertia>"
                + "<ixx>1e-4</ixx><iyy>1e-4</iyy><izz>1e-4</izz></inertia></inertial></link></model>";
        World w = load(weight + cable("<attach end=\"end\" model=\"weight\"/>"));
        try (WorldRunner r = new WorldRunner(w, false)) {
            int last = body(r, "rope/19");
            for (int k = 0; k < 300; k++) {
                r.step();
            }
            // the cable's end point (its last segment's +z end) is where the weight is
            PhysicsState s = r.physicsState();
            Pose seg = new Pose(s.pos[3 * last], s.pos[3 * last + 1], s.pos[3 * last + 2], s.quat[4 * last],
                    s.quat[4 * last + 1], s.quat[4 * last + 2], s.quat[4 * last + 3]);
            double[] end = seg.transform(0, 0, 0.025);
            Pose bob = r.linkPose("weight", 0);
            assertThat(bob.z()).isLessThan(0.9);
            assertThat(end[0]).isCloseTo(bob.x(), within(2e-3));
            assertThat(end[1]).isCloseTo(bob.y(), within(2e-3));
            assertThat(end[2]).isCloseTo(bob.z(), within(2e-3));
        }
    }

    /** A beam 0.3 x 0.03 x 0.03 m centred at (0, 0, 0.5), its nodes at x = -0.15 welded to {@code anchor}. */
    private static String beam(String anchor) {
        return "<tandem:deformable name=\"beam\"><pose>0 0 0.5 0 0 0</pose><box><size>0.3 0.03 0.03</size><cells>10 2 2</cells>"
                + "</box><material><youngs_modulus>1e7</youngs_modulus><poisson_ratio>0.3</poisson_ratio><density>1000</density>"
                + "</material><rayleigh alpha=\"0\" beta=\"0.001\"/><blocks>2</blocks>"
                + "<weld " + anchor + "><min>-0.151 -1 -1</min><max>-0.149 1 1</max></weld></tandem:deformable>";
    }

    @Test
    void step_deformableBeamWeldedAtOneEnd_sagsUnderGravity() throws IOException {
        World w = load(GROUND + beam(""));
        try (WorldRunner r = new WorldRunner(w, false)) {
            PhysicsModel m = r.physicsModel();
            assertThat(m.deformableCount()).isEqualTo(1);
            int n = m.deformableNodeCount(0);
            double[] start = new double[3 * n];
            for (int v = 0; v < n; v++) {
                System.arraycopy(position(r, m.deformableNode(0, v)), 0, start, 3 * v, 3);
            }
            double lowestTip = Double.MAX_VALUE;
            for (int k = 0; k < 200; k++) {
                r.step();
                for (int v = 0; v < n; v++) {
                    if (start[3 * v] > 0.149) {
                        lowestTip = Math.min(lowestTip, position(r, m.deformableNode(0, v))[2] - start[3 * v + 2]);
                    }
                }
            }
            for (int v = 0; v < n; v++) {
                double[] p = position(r, m.deformableNode(0, v));
                if (start[3 * v] < -0.149) {
                    // welded nodes stay
                    for (int c = 0; c < 3; c++) {
                        assertThat(p[c]).as("welded node %d", v).isCloseTo(start[3 * v + c], within(1e-4));
                    }
                }
            }
            // the free end dropped by millimetres, a cantilever's sag (Euler-Bernoulli, static: 13 mm; this
            // coarse mesh is stiffer), not a fall
            assertThat(lowestTip).isLessThan(-0.005).isGreaterThan(-0.03);
        }
    }

    @Test
    void step_deformableWeldedToAModelsLink_fallsWithIt() throws IOException {
        String block = "<model name=\"block\"><pose>-0.21 0 0.5 0 0 0</pose><link name=\"body\"><inertial><mass>1</mass>"
                + "<inertia><ixx>0.002</ixx><iyy>0.002</iyy><izz>0.002</izz></inertia></inertial><collision name=\"c\">"
                + "<geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision></link></model>";
        World w = load(block + beam("model=\"block\" link=\"body\""));
        try (WorldRunner r = new WorldRunner(w, false)) {
            PhysicsModel m = r.physicsModel();
            int n = m.deformableNodeCount(0);
            double[] start = new double[3 * n];
            for (int v = 0; v < n; v++) {
                System.arraycopy(position(r, m.deformableNode(0, v)), 0, start, 3 * v, 3);
            }
            for (int k = 0; k < 200; k++) {
                r.step();
            }
            // no ground: block and beam fall together, 9.8 t^2 / 2 = 0.196 m in 0.2 s
            double drop = 0.5 - r.modelPose("block").z();
            assertThat(drop).isCloseTo(0.196, within(0.005));
            for (int v = 0; v < n; v++) {
                double[] p = position(r, m.deformableNode(0, v));
                assertThat(start[3 * v + 2] - p[2]).as("node %d falls with the block", v).isCloseTo(drop, within(2e-3));
            }
        }
    }

    @Test
    void step_deformableFromATetGenFile_fallsOntoTheGroundAndRests() throws IOException {
        // a 0.1 m cube in the six tetrahedra of the Kuhn split, corners numbered x + 2y + 4z, 1-based
        StringBuilder node = new StringBuilder("# a 0.1 m cube\n8 3 0 0\n");
        for (int v = 0; v < 8; v++) {
            node.append(v + 1).append(' ').append(0.1 * (v & 1)).append(' ').append(0.1 * (v >> 1 & 1)).append(' ')
                    .append(0.1 * (v >> 2 & 1)).append('\n');
        }
        int[][] six = {{0, 1, 3, 7}, {0, 1, 7, 5}, {0, 2, 7, 3}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 7, 6}};
        StringBuilder ele = new StringBuilder("6 4 0\n");
        for (int e = 0; e < 6; e++) {
            ele.append(e + 1);
            for (int c : six[e]) {
                ele.append(' ').append(c + 1);
            }
            ele.append('\n');
        }
        Files.createDirectories(dir.resolve("meshes"));
        Files.writeString(dir.resolve("meshes/cube.node"), node);
        Files.writeString(dir.resolve("meshes/cube.ele"), ele);
        World w = load(GROUND + "<tandem:deformable name=\"cube\"><pose>0 0 0.05 0 0 0</pose><mesh><uri>meshes/cube.node</uri>"
                + "</mesh><material><youngs_modulus>1e5</youngs_modulus><poisson_ratio>0.3</poisson_ratio><density>500</density>"
                + "</material><rayleigh beta=\"0.01\"/><node_radius>0.002</node_radius></tandem:deformable>");
        try (WorldRunner r = new WorldRunner(w, false)) {
            PhysicsModel m = r.physicsModel();
            assertThat(m.deformableNodeCount(0)).isEqualTo(8);
            for (int k = 0; k < 500; k++) {
                r.step();
            }
            double lowest = Double.MAX_VALUE;
            for (int v = 0; v < 8; v++) {
                lowest = Math.min(lowest, position(r, m.deformableNode(0, v))[2]);
                assertThat(r.physicsState().linVel[3 * m.deformableNode(0, v) + 2]).as("node %d at rest", v)
                        .isCloseTo(0.0, within(1e-2));
            }
            // it fell 5 cm and rests on its bottom nodes' 2 mm spheres
            assertThat(lowest).isCloseTo(0.002, within(5e-4));
        }
    }

    /**
     * Level changes rebuild the physics model; the cable (always loaded) keeps its state through
     * them: it moves bitwise as in a run without level changes.
     */
    @Test
    void step_levelsLoadAndUnloadMidRun_cableCarriesOnAsWithoutThem() throws IOException {
        String world = GROUND + """
                <model name="ball"><pose>0 -5 0.1 0 0 0</pose><link name="b"><inertial><mass>1</mass><inertia><ixx>0.004</ixx>
                  <iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision name="c"><geometry><sphere><radius>0.1</radius>
                  </sphere></geometry></collision></link></model>
                <model name="tile"><static>true</static><pose>40 0 0 0 0 0</pose><link name="l"><collision name="c"><geometry>
                  <box><size>1 1 0.1</size></box></geometry></collision></link></model>
                <plugin name="gz::sim" filename="dummy">
                  <performer name="perf"><ref>ball</ref><geometry><box><size>2 2 2</size></box></geometry></performer>
                  <level name="far"><pose>40 0 0 0 0 0</pose><geometry><box><size>4 4 4</size></box></geometry><ref>tile</ref></level>
                </plugin>
                """ + cable("");
        World w = load(world);
        double[][] with = new double[20][];
        double[][] without = new double[20][];
        try (WorldRunner moved = new WorldRunner(w, SolverSettings.defaults(), true);
             WorldRunner still = new WorldRunner(w, SolverSettings.defaults(), true)) {
            double tipAtStart = position(moved, body(moved, "rope/19"))[2];
            for (int k = 0; k < 300; k++) {
                if (k == 100) {
                    moved.setModelPose("ball", Pose.translation(40, 0, 1));
                }
                if (k == 200) {
                    moved.setModelPose("ball", Pose.translation(0, -5, 0.1));
                }
                if (k == 101) {
                    assertThat(moved.loadedModels()).contains("tile");
                    // the cable did not restart from the file's pose
                    assertThat(position(moved, body(moved, "rope/19"))[2]).isLessThan(tipAtStart - 0.01);
                }
                moved.step();
                still.step();
            }
            assertThat(moved.rebuilds()).isEqualTo(2);
            assertThat(still.rebuilds()).isZero();
            for (int i = 0; i < 20; i++) {
                with[i] = position(moved, body(moved, "rope/" + i));
                without[i] = position(still, body(still, "rope/" + i));
            }
        }
        for (int i = 0; i < 20; i++) {
            assertThat(with[i]).as("segment %d", i).containsExactly(without[i]);
        }
    }
}
