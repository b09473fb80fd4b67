package io.tandem.world;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.physics.SolverKind;
import io.tandem.physics.SolverSettings;
import io.tandem.world.sdf.SdfLoader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Differential test of the world runner's rebuilds (the standalone half of issue 5's
 * "Equivalence"): performer A's models (a ball, a stack of crates in its level, a two-link
 * pendulum) share no contact or joint with performer B, which is teleported in and out of its
 * own level, so the physics model is rebuilt again and again (B's level models load and unload).
 * A's trajectory must be bitwise the one of a run where B never moves and nothing is rebuilt.
 */
class LevelRebuildEquivalenceTest {
    private static final String LINK = """
            <inertial><mass>%s</mass><inertia><ixx>%s</ixx><iyy>%s</iyy><izz>%s</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>
            """;

    private static String box(String name, double x, double y, double z, double yaw, double size, boolean isStatic) {
        double m = 1;
        double i = m * size * size / 6;
        return String.format(java.util.Locale.ROOT, """
                <model name="%s"><static>%s</static><pose>%s %s %s 0 0 %s</pose>
                  <link name="body">%s<collision name="c"><geometry><box><size>%s %s %s</size></box></geometry></collision></link>
                </model>
                """, name, isStatic, x, y, z, yaw, String.format(java.util.Locale.ROOT, LINK, m, i, i, i), size, size, size);
    }

    private static String ball(String name, double x, double y, double z) {
        return String.format(java.util.Locale.ROOT, """
                <model name="%s"><pose>%s %s %s 0 0 0</pose>
                  <link name="body">%s<collision name="c"><geometry><sphere><radius>0.2</radius></sphere></geometry></collision></link>
                </model>
                """, name, x, y, z, String.format(java.util.Locale.ROOT, LINK, 1, 0.016, 0.016, 0.016));
    }

    /** Two links, revolute to the world and to each other, starting horizontal above the crates. */
    private static String pendulum(String name, double x, double y, double z) {
        String link = String.format(java.util.Locale.ROOT, LINK, 0.5, 0.001, 0.01, 0.01);
        return String.format(java.util.Locale.ROOT, """
                <model name="%s"><pose>%s %s %s 0 0 0</pose>
                  <link name="l1"><pose>0.25 0 0 0 0 0</pose>%s<collision name="c"><geometry><box><size>0.5 0.05 0.05</size></box></geometry></collision></link>
                  <link name="l2"><pose>0.75 0 0 0 0 0</pose>%s<collision name="c"><geometry><box><size>0.5 0.05 0.05</size></box></geometry></collision></link>
                  <joint name="j1" type="revolute"><pose>-0.25 0 0 0 0 0</pose><parent>world</parent><child>l1</child><axis><xyz>0 1 0</xyz></axis></joint>
                  <joint name="j2" type="revolute"><pose>-0.25 0 0 0 0 0</pose><parent>l1</parent><child>l2</child><axis><xyz>0 1 0</xyz></axis></joint>
                </model>
                """, name, x, y, z, link, link);
    }

    private static final String WORLD = "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\"><world name=\"rebuilds\">"
            + "<physics><max_step_size>0.004</max_step_size></physics>"
            + """
            <model name="ground"><static>true</static>
              <link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link>
            </model>
            """
            // performer B and its level's models first: B's ids come before A's in the world order
            + ball("ball_b", 40, 0, 0.25)
            + box("crate_b", 60, 3, 0.6, 0.3, 0.5, false)
            + box("post_b", 60, -3, 1, 0, 2, true)
            + ball("ball_a", 0, 0, 0.3)
            + box("crate_a1", 2, 0, 0.3, 0, 0.5, false)
            + box("crate_a2", 2.05, 0.02, 0.85, 0.4, 0.5, false)
            + box("crate_a3", 1.95, 0, 1.4, 0.8, 0.5, false)
            + pendulum("arm_a", 1.2, 1, 1.2)
            + """
            <plugin name="gz::sim" filename="dummy">
              <performer name="perf_a"><ref>ball_a</ref><geometry><box><size>2 2 2</size></box></geometry></performer>
              <performer name="perf_b"><ref>ball_b</ref><geometry><box><size>2 2 2</size></box></geometry></performer>
              <level name="level_a"><pose>0 0 0 0 0 0</pose><geometry><box><size>20 20 10</size></box></geometry>
                <buffer>2</buffer><ref>crate_a1</ref><ref>crate_a2</ref><ref>crate_a3</ref></level>
              <level name="level_b"><pose>60 0 0 0 0 0</pose><geometry><box><size>20 20 10</size></box></geometry>
                <buffer>2</buffer><ref>crate_b</ref><ref>post_b</ref></level>
            </plugin>
            </world></sdf>
            """;

    private static final List<String> A = List.of("ball_a", "crate_a1", "crate_a2", "crate_a3", "arm_a");

    /** A's model poses after every iteration, as raw bits; B teleported through its level if {@code moveB}. */
    private static List<List<Long>> run(SolverSettings solver, boolean moveB, int[] rebuilds) {
        World w = SdfLoader.load(new ByteArrayInputStream(WORLD.getBytes(StandardCharsets.UTF_8)), "rebuilds.sdf", x -> { });
        List<List<Long>> trace = new ArrayList<>();
        try (WorldRunner r = new WorldRunner(w, solver, true)) {
            assertThat(r.loadedModels()).containsAll(A);
            for (int it = 1; it <= 400; it++) {
                if (moveB && it % 40 == 0) {
                    // in and out of level_b (beyond its buffer) every 40 iterations
                    boolean in = it % 80 == 0;
                    r.setModelPose("ball_b", Pose.translation(in ? 60 : 40, 0, 0.25));
                }
                r.step();
                List<Long> row = new ArrayList<>();
                for (String m : A) {
                    Pose p = r.modelPose(m);
                    for (double d : new double[] {p.x(), p.y(), p.z(), p.qw(), p.qx(), p.qy(), p.qz()}) {
                        row.add(Double.doubleToRawLongBits(d));
                    }
                }
                trace.add(row);
            }
            rebuilds[0] = r.rebuilds();
            // A really moved: the pendulum swung down
            assertThat(r.modelPose("arm_a").qw()).isLessThan(0.99);
        }
        return trace;
    }

    @Test
    void step_otherPerformersLevelChanges_performerTrajectoryBitwiseUnchanged() {
        for (SolverSettings st : new SolverSettings[] {SolverSettings.subAdmm(10), SolverSettings.pgs(10),
                SolverSettings.projectedJacobi(60), // 10 Jacobi iterations let the pendulum diverge
                new SolverSettings(SolverKind.SUB_ADMM, 30, SolverSettings.DEFAULT_KAPPA, 1e-4, 1)}) {
            int[] moved = new int[1];
            int[] still = new int[1];
            List<List<Long>> withRebuilds = run(st, true, moved);
            List<List<Long>> without = run(st, false, still);
            assertThat(moved[0]).as("%s: rebuilds caused by B", st.kind()).isGreaterThanOrEqualTo(8);
            assertThat(still[0]).isZero();
            for (int it = 0; it < without.size(); it++) {
                assertThat(withRebuilds.get(it)).as("%s: A's poses (bits) after iteration %d", st, it + 1)
                        .isEqualTo(without.get(it));
            }
        }
    }
}
