package io.tandem.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The physics benches run end to end on tiny scenes and print the JSON fields the issue names. */
@Timeout(120)
class PhysicsBenchCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return BenchCli.run(out, err, args);
    }

    private String[] lines() {
        return out.toString().trim().split("\\R");
    }

    @Test
    void pile_json_oneObjectPerRunWithIssueFields() {
        assertThat(run("bench", "pile", "--per-side", "2", "--steps", "5", "--runs", "2", "--json")).isZero();
        assertThat(lines()).hasSize(2).allSatisfy(l -> assertThat(l)
                .matches(Pattern.compile("\\{\"scenario\":\"pile\",\"solver\":\"sub_admm\",.*\"threads\":1,.*\"steps\":5,"
                        + "\"cpu_ms_per_step\":[0-9.]+,\"wall_ms_per_step\":[0-9.]+,\"max_penetration_m\":[-0-9.e]+,"
                        + "\"mean_height_m\":[0-9.]+,.*}")));
    }

    @Test
    void pile_seed_changesTheJitterAndIsReported() {
        assertThat(run("bench", "pile", "--per-side", "3", "--steps", "40", "--json")).isZero();
        assertThat(run("bench", "pile", "--per-side", "3", "--steps", "40", "--seed", "7", "--json")).isZero();
        String[] l = lines();
        assertThat(l).hasSize(2);
        assertThat(l[0]).contains("\"seed\":42,");
        assertThat(l[1]).contains("\"seed\":7,");
        String height = "\"mean_height_m\":[0-9.]+";
        java.util.regex.Matcher a = Pattern.compile(height).matcher(l[0]);
        java.util.regex.Matcher b = Pattern.compile(height).matcher(l[1]);
        assertThat(a.find() && b.find()).isTrue();
        assertThat(a.group()).as("mean heights of seeds 42 and 7").isNotEqualTo(b.group());
    }

    @Test
    void chain_json_reportsTimeAndJointError() {
        assertThat(run("bench", "chain", "--links", "3", "--steps", "5", "--runs", "1", "--solver", "pgs", "--json")).isZero();
        assertThat(lines()).hasSize(1);
        assertThat(lines()[0]).contains("\"scenario\":\"chain\"").contains("\"solver\":\"pgs\"")
                .contains("\"subsystems\":\"chain\"")
                .containsPattern("\"us_per_step\":[0-9.]+").containsPattern("\"max_joint_error_m\":[-0-9.e]+");
    }

    @Test
    void chain_unknownSubsystems_errorNamesTheChoices() {
        assertThat(run("bench", "chain", "--subsystems", "tree", "--steps", "1")).isNotZero();
        assertThat(err.toString()).contains("--subsystems must be 'chain' or 'link', got 'tree'");
    }

    @Test
    void solvers_json_oneObjectPerSolverAndBudget_andMarkdownTable() {
        assertThat(run("bench", "solvers", "--spheres", "20", "--steps", "3", "--iterations", "5,10",
                "--solvers", "PGS,SUB_ADMM", "--json")).isZero();
        assertThat(lines()).hasSize(4).allSatisfy(l -> assertThat(l).contains("\"scenario\":\"stir\"")
                .containsPattern("\"at_ms\":[0-9.]+").containsPattern("\"aa\":[-0-9.e]+"));
        out.getBuffer().setLength(0);
        assertThat(run("bench", "solvers", "--spheres", "20", "--steps", "2", "--iterations", "5", "--solvers", "PGS")).isZero();
        assertThat(out.toString()).contains("| Solver | PGS |").contains("stir: AT (ms)").contains("stir: AA");
    }

    @Test
    void solvers_stirRod_theEarlierSceneStaysAvailable() {
        assertThat(run("bench", "solvers", "--scenario", "stir-rod", "--spheres", "20", "--steps", "2", "--iterations", "5",
                "--solvers", "SUB_ADMM", "--json")).isZero();
        assertThat(lines()).hasSize(1).allSatisfy(l -> assertThat(l).contains("\"scenario\":\"stir-rod\"")
                .contains("\"spheres\":20").doesNotContain("tip_error_m"));
    }

    @Test
    void solvers_stirWithThePanda_reportsTheTipsTrackingError() {
        assertThat(run("bench", "solvers", "--spheres", "20", "--steps", "3", "--iterations", "5", "--solvers",
                "SUB_ADMM", "--json")).isZero();
        assertThat(lines()).hasSize(1).allSatisfy(l -> assertThat(l).contains("\"scenario\":\"stir\"")
                .contains("\"step_s\":0.002").containsPattern("\"tip_error_m\":[0-9.]+"));
    }

    @Test
    void scaling_json_sizesAndLinearFit() {
        for (String scenario : new String[] {"stir", "stir-rod"}) {
            out.getBuffer().setLength(0);
            assertThat(run("bench", "scaling", "--scenario", scenario, "--sizes", "20,40,80", "--steps", "3", "--iterations", "5",
                    "--json")).isZero();
            String[] l = lines();
            assertThat(l).hasSize(4);
            assertThat(l[0]).contains("\"scenario\":\"" + scenario + "\"");
            assertThat(l[3]).contains("\"fit\":\"linear\"").containsPattern("\"r2\":[0-9.]+");
        }
    }

    @Test
    void robot_json_eachScenarioTimedAndItsPhysicsChecked() {
        assertThat(run("bench", "robot", "--steps", "50", "--repeats", "1", "--spheres", "20", "--json")).isZero();
        String[] l = lines();
        assertThat(l).hasSize(3);
        assertThat(l[0]).contains("\"bench\":\"robot\",\"scenario\":\"panda\"").contains("\"dofs\":7").contains("\"contacts\":0")
                .containsPattern("\"us_per_step\":[0-9.]+");
        // after the 2000 warm-up steps the held arm is still at home (its PD sags under gravity by millirad)
        java.util.regex.Matcher hold = Pattern.compile("\"hold_error_rad\":([-0-9.e]+)").matcher(l[0]);
        assertThat(hold.find()).isTrue();
        assertThat(Double.parseDouble(hold.group(1))).isLessThan(0.02);
        assertThat(l[1]).contains("\"scenario\":\"stir\"").containsPattern("\"tip_error_m\":[0-9.e-]+");
        // the mobile manipulator drives its 1 m/s, 0.5 rad/s circle without sliding sideways
        assertThat(l[2]).contains("\"scenario\":\"mobile\"").contains("\"dofs\":10");
        java.util.regex.Matcher fwd = Pattern.compile("\"forward_m_s\":([-0-9.e]+),\"lateral_m_s\":([-0-9.e]+)").matcher(l[2]);
        assertThat(fwd.find()).isTrue();
        assertThat(Double.parseDouble(fwd.group(1))).isCloseTo(1.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(Math.abs(Double.parseDouble(fwd.group(2)))).isLessThan(1e-3);
    }

    @Test
    void robot_mjcf_writesTheHeldPandaForMujoco(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("panda_hold.xml");
        assertThat(run("bench", "robot", "--mjcf", file.toString())).isZero();
        String xml = java.nio.file.Files.readString(file);
        assertThat(xml).contains("<compiler angle=\"radian\"/>").contains("timestep=\"0.002\"")
                .contains("<key name=\"test\" qpos=\"0.0 -0.785 0.0 -2.356 0.0 1.571 0.785\"/>");
        // seven hinges with their servos: Kp 4500 on joint 1, its bias Kp q_home (0) - Kp q - Kd qd
        assertThat(Pattern.compile("<joint name=\"joint[1-7]\" type=\"hinge\"").matcher(xml).results().count()).isEqualTo(7);
        assertThat(xml).contains("<general joint=\"joint1\" gainprm=\"4500.0\" biastype=\"affine\" biasprm=\"0.0 -4500.0 -450.0\"/>")
                .contains("<general joint=\"joint4\" gainprm=\"3500.0\" biastype=\"affine\" biasprm=\"-8246.0 -3500.0 -350.0\"/>");
        // the same masses as Tandem's arm: link 7 carries the hand and the stirrer (1.565522 kg)
        assertThat(xml).contains("mass=\"4.970684\"").contains("mass=\"1.565522\"");
    }

    @Test
    void robot_unknownScenario_exits2NamingTheChoices() {
        assertThat(run("bench", "robot", "--scenario", "humanoid")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown scenario 'humanoid'").contains("panda");
    }

    @Test
    void solvers_seedsAndDiscard_averagedOverSeedsAfterTheDiscardedStart() {
        assertThat(run("bench", "solvers", "--spheres", "20", "--steps", "6", "--discard", "0.004", "--seeds", "1,2",
                "--iterations", "5", "--solvers", "SUB_ADMM", "--json")).isZero();
        assertThat(lines()).hasSize(1);
        assertThat(lines()[0]).contains("\"steps\":6,\"discarded_steps\":2,\"seeds\":[1,2]").containsPattern("\"at_ms\":[0-9.]+");
        out.getBuffer().setLength(0);
        assertThat(run("bench", "solvers", "--spheres", "20", "--steps", "6", "--discard", "0.02")).isEqualTo(2);
        assertThat(err.toString()).contains("--discard 0.02 s leaves none of the 6 steps");
    }

    /** --plot: Table I's bars and the scaling line as PNG figures of their size, with something drawn; not .png is refused. */
    @Test
    void plot_solversAndScaling_pngFiguresWithTheirBarsAndLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path bars = dir.resolve("table1.png");
        assertThat(run("bench", "solvers", "--spheres", "20", "--steps", "3", "--iterations", "5,10", "--solvers", "SUB_ADMM,PGS",
                "--plot", bars.toString(), "--json")).isZero();
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(bars.toFile());
        assertThat(img.getWidth()).isEqualTo(1280);
        assertThat(img.getHeight()).isEqualTo(480);
        assertThat(colours(img)).as("colours drawn").isGreaterThan(20);
        java.nio.file.Path line = dir.resolve("scaling.png");
        assertThat(run("bench", "scaling", "--scenario", "stir-rod", "--sizes", "20,40,80", "--steps", "3", "--iterations", "5",
                "--plot", line.toString(), "--json")).isZero();
        java.awt.image.BufferedImage fit = javax.imageio.ImageIO.read(line.toFile());
        assertThat(fit.getWidth()).isEqualTo(800);
        assertThat(colours(fit)).isGreaterThan(20);
        assertThat(run("bench", "scaling", "--plot", dir.resolve("s.jpg").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--plot takes a .png file");
        assertThat(dir.resolve("s.jpg")).doesNotExist();
    }

    private static int colours(java.awt.image.BufferedImage img) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 3) {
            for (int x = 0; x < img.getWidth(); x += 3) {
                seen.add(img.getRGB(x, y));
            }
        }
        return seen.size();
    }

    @Test
    void solvers_unknownScenario_exits2NamingIt() {
        assertThat(run("bench", "solvers", "--scenario", "rope")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown scenario 'rope'").contains("stir, cable, beam");
    }

    @Test
    void solvers_beamWithEverySolver_tableWithNewtonsBudgetsAndOneObjectPerCell() {
        assertThat(run("bench", "solvers", "--scenario", "beam", "--steps", "2", "--iterations", "5,10",
                "--newton-iterations", "1,2", "--json")).isZero();
        String[] l = lines();
        assertThat(l).hasSize(10);
        assertThat(l).allSatisfy(x -> assertThat(x).contains("\"scenario\":\"beam\"").containsPattern("\"at_ms\":[0-9.]+")
                .containsPattern("\"aa\":[-0-9.e]+"));
        assertThat(String.join("\n", l)).contains("\"solver\":\"nonsmooth_newton\",\"iterations\":2")
                .contains("\"solver\":\"full_admm\",\"iterations\":10").contains("\"solver\":\"pgs\"");
        out.getBuffer().setLength(0);
        assertThat(run("bench", "solvers", "--scenario", "beam,pile", "--steps", "2", "--iterations", "5",
                "--newton-iterations", "1", "--solvers", "SUB_ADMM,NONSMOOTH_NEWTON")).isZero();
        assertThat(out.toString()).contains("| Solver | SUB_ADMM | NONSMOOTH_NEWTON |").contains("| Iterations | 5 | 1 |")
                .contains("beam: AT (ms)").contains("pile: AA");
    }

    @Test
    void solvers_cable_everySolverRunsTheTwoMobileManipulators() {
        assertThat(run("bench", "solvers", "--scenario", "cable", "--steps", "3", "--iterations", "5", "--json")).isZero();
        String[] l = lines();
        assertThat(l).hasSize(5).allSatisfy(x -> assertThat(x).contains("\"scenario\":\"cable\"")
                .containsPattern("\"at_ms\":[0-9.]+").containsPattern("\"weld_error_m\":[0-9.]+"));
    }

    @Test
    void scaling_cableDrag_segmentsAndLinearFit() {
        assertThat(run("bench", "scaling", "--scenario", "cable-drag", "--sizes", "20,40,80", "--steps", "3", "--iterations", "5",
                "--json")).isZero();
        String[] l = lines();
        assertThat(l).hasSize(4);
        assertThat(l[0]).contains("\"scenario\":\"cable-drag\"").contains("\"segments\":20");
        assertThat(l[3]).contains("\"fit\":\"linear\"").contains("us_per_segment");
    }

    @Test
    void solvers_newtonBudgets_oneForEachBudget() {
        assertThat(run("bench", "solvers", "--iterations", "30,60", "--newton-iterations", "3")).isEqualTo(2);
        assertThat(err.toString()).contains("--newton-iterations needs one budget per --iterations budget (2), got 1");
    }
}
