package io.tandem.cle.experiment;

import static io.tandem.cle.experiment.ExperimentFileTestSupport.errors;
import static io.tandem.cle.experiment.ExperimentFileTestSupport.load;
import static io.tandem.cle.experiment.ExperimentFileTestSupport.minimal;
import static io.tandem.cle.experiment.ExperimentFileTestSupport.replace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cle.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parameters and overrides, colours, paths, engines, transfer functions, robot and outputs. */
class ExperimentFileTest {
    @TempDir
    Path dir;

    private static String withParameters(String parameters, String worldExtra) {
        String text = replace(minimal(), "\"name\": \"t\",", "\"name\": \"t\",\n  \"parameters\": " + parameters + ",");
        return replace(text, "{\"file\": \"world.sdf\"}", "{\"file\": \"world.sdf\"" + worldExtra + "}");
    }

    private static final String SCREEN = withParameters("{\"screen_color\": \"red\"}",
            ", \"visual_colors\": {\"red_screen\": \"${screen_color}\"}");

    @Test
    void load_minimal_appliesTheDocumentedDefaults() {
        ExperimentFile e = load(dir, minimal());
        assertThat(e.name()).isEqualTo("t");
        assertThat(e.description()).isEmpty();
        assertThat(e.parameters()).isEmpty();
        assertThat(e.engines().loopStepNs()).isEqualTo(20_000_000L);
        assertThat(e.engines().physicsTimestepNs()).as("the world's max_step_size").isEqualTo(2_000_000L);
        assertThat(e.engines().brainTimestepNs()).as("the loop step").isEqualTo(20_000_000L);
        assertThat(e.engines().mode()).isEqualTo(SyncMode.PARALLEL);
        assertThat(e.engines().physicsStepsPerLoop()).isEqualTo(10);
        assertThat(e.engines().brainStepsPerLoop()).isEqualTo(1);
        assertThat(e.timeoutNs()).isEqualTo(1_000_000_000L);
        assertThat(e.loopSteps()).isEqualTo(50);
        assertThat(e.transferFunctions()).isEmpty();
        assertThat(e.robot()).isEmpty();
        assertThat(e.outputs()).isEqualTo(new ExperimentFile.Outputs("spikes.csv", "trajectory.csv"));
        assertThat(e.brain()).isInstanceOf(BrainSpec.Builtin.class);
        assertThat(e.brain().seed()).isEqualTo(1);
        assertThat(e.world().sdf().model("husky")).isPresent();
        assertThat(e.withMode(SyncMode.SERIAL).engines().mode()).isEqualTo(SyncMode.SERIAL);
    }

    @Test
    void load_relativeWorldPath_resolvedAgainstTheExperimentFilesFolder() throws IOException {
        Path sub = Files.createDirectories(dir.resolve("exp/sub"));
        Files.createDirectories(dir.resolve("worlds"));
        Path world = ExperimentFileTestSupport.examples().resolve("husky_braitenberg/world.sdf");
        Files.copy(world, dir.resolve("worlds/husky.sdf"));
        Path f = sub.resolve("e.json");
        Files.writeString(f, replace(minimal(), "\"world.sdf\"", "\"../../worlds/husky.sdf\""));
        // a relative experiment path too: resolution does not depend on the working directory
        ExperimentFile e = ExperimentFile.load(f);
        assertThat(e.world().file()).isEqualTo(dir.resolve("worlds/husky.sdf").toAbsolutePath().normalize());
        assertThat(e.world().file().isAbsolute()).isTrue();
        assertThat(e.source()).isEqualTo(f);
    }

    @Test
    void parse_textNotOnDisk_resolvesPathsAgainstTheGivenFile() {
        ExperimentFileTestSupport.write(dir, minimal());
        Path pretend = dir.resolve("never-written.json");
        ExperimentFile e = ExperimentFile.parse(minimal(), pretend, ExperimentOverrides.none());
        assertThat(e.source()).isEqualTo(pretend);
        assertThat(e.world().file()).isEqualTo(dir.resolve("world.sdf").toAbsolutePath().normalize());
        assertThatThrownBy(() -> ExperimentFile.parse("{", pretend, ExperimentOverrides.none()))
                .hasMessage(pretend + ":1:2: unexpected end of file in the object opened at 1:1: add the missing '}'");
    }

    @Test
    void load_missingWorldFile_saysWhereItLooked() {
        String text = replace(minimal(), "\"world.sdf\"", "\"worlds/none.sdf\"");
        assertThat(errors(dir, text)).endsWith("exp.json:3:13: world file \"worlds/none.sdf\" not found: "
                + dir.toAbsolutePath().resolve("worlds/none.sdf") + " does not exist (a relative path is resolved"
                + " against the experiment file's folder)");
    }

    /** A URDF robot is a world too (its own, as tandem sim runs it): 1 ms steps; a broken one names its line. */
    @Test
    void load_urdfRobotAsTheWorld_loadsWithItsStepOrNamesTheRobotsLine() throws Exception {
        java.nio.file.Files.copy(Path.of("../examples/robots/pendulum/pendulum.urdf"), dir.resolve("robot.urdf"));
        ExperimentFile e = load(dir, replace(minimal(), "\"world.sdf\"", "\"robot.urdf\""));
        assertThat(e.world().file()).isEqualTo(dir.resolve("robot.urdf").toAbsolutePath().normalize());
        assertThat(e.engines().physicsTimestepNs()).isEqualTo(1_000_000L);
        java.nio.file.Files.writeString(dir.resolve("broken.urdf"), "<robot name='r'>\n<link name='a'/>\n"
                + "<joint name='j' type='prismatic'><parent link='a'/><child link='b'/></joint>\n<link name='b'/>\n</robot>\n");
        assertThat(errors(dir, replace(minimal(), "\"world.sdf\"", "\"broken.urdf\""))).contains(
                "the world file does not load: ", "broken.urdf:3: joint 'j' is of type prismatic but gives no <limit>");
    }

    /** A world too large for the heap is refused before it is read, naming the heap it needs and the -Xmx. */
    @Test
    void load_worldFileTooLargeForTheHeap_refusedBeforeLoadingNamingTheXmx() throws Exception {
        Path huge = dir.resolve("huge.sdf");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(64L << 30); // sparse: nothing is written, and nothing must be read
        }
        String text = replace(minimal(), "\"world.sdf\"", "\"huge.sdf\"");
        assertThat(errors(dir, text)).contains("exp.json:3:13: ", "huge.sdf is 68.7 GB of SDF", "of heap", "-Xmx");
    }

    @Test
    void load_parameterDefault_substitutedIntoTheColour() {
        ExperimentFile e = load(dir, SCREEN);
        assertThat(e.parameters()).containsExactly(Map.entry("screen_color", "red"));
        assertThat(e.world().visualColors()).hasSize(1);
        ExperimentFile.VisualColor c = e.world().visualColors().get(0);
        assertThat(c.model()).isEqualTo("red_screen");
        assertThat(c.rgb()).containsExactly(1.0, 0.0, 0.0);
        assertThat(c.location().line()).isEqualTo(4);
    }

    @Test
    void load_setOverride_recoloursTheScreen() {
        ExperimentFile e = load(dir, SCREEN, Map.of("screen_color", "blue"));
        assertThat(e.parameters()).containsEntry("screen_color", "blue");
        assertThat(e.world().visualColors().get(0).rgb()).containsExactly(0.0, 0.0, 1.0);
        ExperimentFile rgb = load(dir, SCREEN, Map.of("screen_color", "0.2 0.4 1"));
        assertThat(rgb.world().visualColors().get(0).rgb()).containsExactly(0.2, 0.4, 1.0);
    }

    @Test
    void load_unknownOverride_namesTheDeclaredParameters() {
        assertThat(errors(dir, SCREEN, Map.of("screen_colour", "blue"))).endsWith("exp.json:3:3: --set"
                + " screen_colour=blue: unknown parameter \"screen_colour\"; declared: screen_color (did you mean"
                + " \"screen_color\"?)");
        assertThat(errors(dir, minimal(), Map.of("x", "1"))).isEqualTo(dir.resolve("exp.json") + ": --set x=1:"
                + " unknown parameter \"x\"; the experiment declares no parameters (add it to \"parameters\")");
    }

    @Test
    void load_overrideOfBadColour_namesTheParameterAndTheOverride() {
        assertThat(errors(dir, SCREEN, Map.of("screen_color", "purple"))).endsWith("exp.json:4:52: colour \"purple\""
                + " (from ${screen_color}, set by --set screen_color=purple) is not a colour: use a name (red, green,"
                + " blue, white, black, gray, grey, yellow, cyan, magenta, orange) or \"r g b\" with each in 0..1, like"
                + " \"1 0.5 0\"");
    }

    @Test
    void load_typedParameters_keepTheirTypeInWholeStringsAndOverrides() {
        String text = withParameters("{\"seed\": 7, \"fast\": true, \"tag\": \"x\"}", "");
        text = replace(text, "{\"builtin\": \"braitenberg\"}", "{\"builtin\": \"braitenberg\", \"seed\": \"${seed}\"}");
        text = replace(text, "\"t\",", "\"t-${tag}-${seed}-$${literal}\",");
        ExperimentFile e = load(dir, text);
        assertThat(e.brain().seed()).isEqualTo(7);
        assertThat(e.name()).isEqualTo("t-x-7-${literal}");
        assertThat(e.parameters()).containsExactly(Map.entry("seed", 7.0), Map.entry("fast", true), Map.entry("tag", "x"));
        ExperimentFile o = load(dir, text, Map.of("seed", "42", "fast", "false"));
        assertThat(o.brain().seed()).isEqualTo(42);
        assertThat(o.name()).isEqualTo("t-x-42-${literal}");
        assertThat(o.parameters()).containsEntry("fast", false);
        assertThat(errors(dir, text, Map.of("seed", "many"))).endsWith("exp.json:3:3: --set seed=many: \"seed\" is a"
                + " number (default 7): give a number, e.g. --set seed=7");
        assertThat(errors(dir, text, Map.of("fast", "yes"))).endsWith("--set fast=yes: \"fast\" is true or false"
                + " (default true)");
        assertThat(errors(dir, text, Map.of("seed", "-1"))).endsWith("exp.json:5:39: \"seed\" must be an integer >= 0,"
                + " got -1 (from ${seed}, set by --set seed=-1)");
    }

    @Test
    void load_unknownParameterReference_namesTheDeclaredOnes() {
        String text = replace(SCREEN, "${screen_color}", "${screen_colour}");
        assertThat(errors(dir, text)).endsWith("exp.json:4:67: unknown parameter ${screen_colour}; declared:"
                + " screen_color (did you mean ${screen_color}?)");
        String unterminated = replace(SCREEN, "${screen_color}", "${screen_color");
        assertThat(errors(dir, unterminated)).contains("unterminated ${ in \"${screen_color\"");
    }

    @Test
    void load_colourForms_resolvedToRgb() {
        String text = replace(minimal(), "{\"file\": \"world.sdf\"}", "{\"file\": \"world.sdf\", \"visual_colors\": {"
                + "\"red_screen\": \" Yellow \", \"blue_screen\": [0, 0.5, 1], \"room\": \"0.1, 0.2, 0.3\","
                + " \"ground_plane\": \"grey\"}}");
        List<ExperimentFile.VisualColor> c = load(dir, text).world().visualColors();
        assertThat(c).extracting(ExperimentFile.VisualColor::model)
                .containsExactly("red_screen", "blue_screen", "room", "ground_plane");
        assertThat(c.get(0).rgb()).containsExactly(1.0, 1.0, 0.0);
        assertThat(c.get(1).rgb()).containsExactly(0.0, 0.5, 1.0);
        assertThat(c.get(2).rgb()).containsExactly(0.1, 0.2, 0.3);
        assertThat(c.get(3).rgb()).containsExactly(0.5, 0.5, 0.5);
    }

    @Test
    void load_badColours_explainTheForms() {
        String base = "{\"file\": \"world.sdf\", \"visual_colors\": {\"red_screen\": X}}";
        assertThat(errors(dir, replace(minimal(), "{\"file\": \"world.sdf\"}", base.replace("X", "\"255 0 0\""))))
                .endsWith("colour \"255 0 0\": components must be in 0..1 (divide 0..255 values by 255)");
        assertThat(errors(dir, replace(minimal(), "{\"file\": \"world.sdf\"}", base.replace("X", "\"bleu\""))))
                .contains("colour \"bleu\" is not a colour (did you mean \"blue\"?)");
        assertThat(errors(dir, replace(minimal(), "{\"file\": \"world.sdf\"}", base.replace("X", "[1, 0]"))))
                .endsWith("exp.json:3:52: \"red_screen\" needs at least 3 items, got 2");
        assertThat(errors(dir, replace(minimal(), "{\"file\": \"world.sdf\"}", base.replace("X", "\"1 0\""))))
                .contains("colour \"1 0\" is not a colour");
    }

    @Test
    void load_unknownModel_namesTheWorldsModels() {
        String text = replace(minimal(), "{\"file\": \"world.sdf\"}",
                "{\"file\": \"world.sdf\", \"visual_colors\": {\"red_scren\": \"blue\"}}");
        assertThat(errors(dir, text)).endsWith("exp.json:3:52: \"visual_colors\": the world world.sdf has no model"
                + " \"red_scren\"; did you mean \"red_screen\"? (models: ground_plane, room, red_screen, blue_screen,"
                + " husky)");
        String robot = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"robot\": {\"model\": \"husky\","
                + " \"target\": \"husky\"}");
        assertThat(errors(dir, robot)).endsWith("exp.json:6:31: the target \"husky\" is the robot itself: name another"
                + " model (e.g. red_screen)");
    }

    @Test
    void load_engines_timestepsInNanosecondsAndMultiplesChecked() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 0.5,\n  \"engines\": {\"loop_step_ms\": 10,"
                + " \"mode\": \"serial\", \"physics\": {\"timestep_ms\": 2}, \"brain\": {\"timestep_ms\": 5}}");
        ExperimentFile e = load(dir, text);
        assertThat(e.engines()).isEqualTo(new ExperimentFile.Engines(2_000_000L, 5_000_000L, 10_000_000L, SyncMode.SERIAL));
        // the physics engine steps at the world's step: another one is refused with the fix
        String physics = replace(text, "\"timestep_ms\": 2}", "\"timestep_ms\": 1}");
        assertThat(errors(dir, physics)).contains("the physics engine steps at the world's max_step_size, 2 ms in world.sdf,"
                + " not 1 ms: set timestep_ms to 2 or leave it out");
        assertThat(e.timeoutNs()).isEqualTo(500_000_000L);
        String off = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"engines\": {\"loop_step_ms\": 15}");
        assertThat(errors(dir, off)).endsWith("exp.json:6:15: the loop step 15 ms is not a whole multiple of the world's"
                + " physics step 2 ms (max_step_size in world.sdf) (the NRP's \"dt is not multiple of the physics time"
                + " step\"): make loop_step_ms 14 ms or 16 ms");
        String brain = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"engines\": {\"brain\":"
                + " {\"timestep_ms\": 0.25}}");
        assertThat(errors(dir, brain)).endsWith("exp.json:6:25: the brain's timestep 0.25 ms is not a whole multiple"
                + " of its resolution 0.1 ms: use 0.2 ms or 0.3 ms");
        String brainOff = replace(brain, "0.25", "0.3");
        assertThat(errors(dir, brainOff)).endsWith("exp.json:6:25: the loop step 20 ms is not a whole multiple of the"
                + " brain timestep_ms 0.3 ms: make loop_step_ms 19.8 ms or 20.1 ms");
        String ns = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"engines\": {\"loop_step_ms\": 1e-7}");
        assertThat(errors(dir, ns)).contains("\"loop_step_ms\" must be a whole number of nanoseconds > 0, got 1e-7 ms");
    }

    @Test
    void load_transferFunctions_keepClassPriorityAndTypedParams() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"transfer_functions\": [\n"
                + "    {\"class\": \"io.tandem.cle.tf.EyeSensorTransmit\", \"priority\": 10, \"params\": {\"camera\": \"c\","
                + " \"rate\": 2000, \"on\": true, \"joints\": [\"a\", \"b\"], \"gains\": {\"k\": 1.5}}},\n"
                + "    {\"class\": \"x.Y\", \"name\": \"second\", \"active\": false}\n  ]");
        List<ExperimentFile.TransferFunctionEntry> tfs = load(dir, text).transferFunctions();
        assertThat(tfs).hasSize(2);
        ExperimentFile.TransferFunctionEntry eye = tfs.get(0);
        assertThat(eye.className()).isEqualTo("io.tandem.cle.tf.EyeSensorTransmit");
        assertThat(eye.name()).isEqualTo("EyeSensorTransmit");
        assertThat(eye.priority()).isEqualTo(10);
        assertThat(eye.active()).isTrue();
        assertThat(eye.params()).containsExactly(Map.entry("camera", "c"), Map.entry("rate", 2000.0),
                Map.entry("on", true), Map.entry("joints", List.of("a", "b")), Map.entry("gains", Map.of("k", 1.5)));
        assertThat(eye.stringParam("camera")).isEqualTo("c");
        assertThat(eye.numberParam("rate")).isEqualTo(2000.0);
        assertThat(eye.numberParam("missing", 3.0)).isEqualTo(3.0);
        assertThatThrownBy(() -> eye.numberParam("camera")).isInstanceOf(ExperimentFileException.class)
                .hasMessageEndingWith("exp.json:7:5: EyeSensorTransmit: parameter \"camera\" must be a number, got c");
        assertThatThrownBy(() -> eye.stringParam("nope")).hasMessageContaining("needs the parameter \"nope\"");
        assertThat(eye.location().line()).isEqualTo(7);
        assertThat(tfs.get(1).name()).isEqualTo("second");
        assertThat(tfs.get(1).active()).isFalse();
        assertThat(tfs.get(1).priority()).isZero();
    }

    @Test
    void load_badTransferFunctions_rejectedWithTheirLines() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"transfer_functions\": [\n"
                + "    {\"class\": \"eye_sensor_transmit.py\"},\n"
                + "    {\"class\": \"a.B\"},\n    {\"class\": \"c.B\"}\n  ]");
        ExperimentFileException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> load(dir, text), ExperimentFileException.class);
        assertThat(e.errors()).hasSize(2);
        assertThat(e.errors().get(0)).endsWith(":7:6: \"class\" \"eye_sensor_transmit.py\" is not a Java class name"
                + " (NRP's Python files do not run here: name the Java class, e.g. io.tandem.cle.tf.EyeSensorTransmit)");
        assertThat(e.errors().get(1)).endsWith(":9:6: transfer function name \"B\" is used twice (first at 8:6): give"
                + " each a distinct \"name\"");
    }

    @Test
    void load_robotAndOutputs_read() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"robot\": {\"model\": \"husky\","
                + " \"target\": \"red_screen\"},\n  \"outputs\": {\"spikes\": \"out/s.csv\"}");
        ExperimentFile e = load(dir, text);
        assertThat(e.robot()).contains(new ExperimentFile.Robot("husky", Optional.of("red_screen")));
        assertThat(e.outputs()).isEqualTo(new ExperimentFile.Outputs("out/s.csv", "trajectory.csv"));
        assertThat(e.outputs().spikesIn(dir)).isEqualTo(dir.resolve("out/s.csv"));
        String bad = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"outputs\": {\"spikes\": \"../s.csv\","
                + " \"trajectory\": \"../s.csv\"}");
        assertThat(errors(dir, bad)).contains("exp.json:6:15: \"spikes\" must be a file name relative to the output"
                + " folder (no absolute path, no \"..\"), got \"../s.csv\"");
    }
}
