package io.tandem.cle.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cle.ClosedLoop;
import io.tandem.cle.HuskyBraitenberg;
import io.tandem.cle.ProgressHandler;
import io.tandem.cle.SyncMode;
import io.tandem.cle.engine.BrainEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The experiment file run end to end, against the same experiment assembled in code. */
class ExperimentRunnerTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long STEPS_5_S = 250;

    @TempDir
    Path dir;

    static Path example() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("examples/experiments/husky-braitenberg.json"))) {
            p = p.getParent();
        }
        assertThat(p).as("examples/experiments above the working directory").isNotNull();
        return p.resolve("examples/experiments/husky-braitenberg.json");
    }

    /** Runs the first steps of an experiment file. */
    static ExperimentRunner.Result runFile(ExperimentFile f, long steps) {
        try (ExperimentRunner r = ExperimentRunner.build(f, null, ExperimentRunnerTest.class.getClassLoader())) {
            return r.run((k, t) -> k + 1 < steps);
        }
    }

    @Test
    void run_huskyFile_sameTrajectoryAsTheExperimentAssembledInCode_bothModes() {
        ExperimentFile f = ExperimentFile.load(example());
        String coded;
        try (ClosedLoop loop = HuskyBraitenberg.builder().seed(1).build()) {
            loop.run(5 * SECOND, ProgressHandler.NONE);
            coded = loop.trajectory().sha256();
        }
        ExperimentRunner.Result parallel = runFile(f.withMode(SyncMode.PARALLEL), STEPS_5_S);
        ExperimentRunner.Result serial = runFile(f.withMode(SyncMode.SERIAL), STEPS_5_S);
        assertThat(parallel.steps()).isEqualTo(STEPS_5_S);
        assertThat(parallel.simTimeS()).isEqualTo(5.0);
        // the file's NEST-style brain, devices, TFs by class name and drive are the coded experiment
        assertThat(parallel.trajectorySha256()).isEqualTo(coded);
        assertThat(serial.trajectorySha256()).isEqualTo(coded);
        assertThat(serial.mode()).isEqualTo(SyncMode.SERIAL);
    }

    @Test
    void run_huskyFileBlueScreen_keepsTurningFarFromTheScreen() {
        ExperimentFile red = ExperimentFile.load(example());
        ExperimentFile blue = ExperimentFile.load(example(), ExperimentOverrides.parse(List.of("screen_color=blue")));
        ExperimentRunner.Result r = runFile(red, 400);
        ExperimentRunner.Result b = runFile(blue, 400);
        assertThat(r.finalDistanceM()).as("red: reached within 1 m after 8 s").isLessThan(1.0);
        assertThat(b.finalDistanceM()).as("blue: still near the start, 4 m away").isGreaterThan(3.5);
        assertThat(b.trajectorySha256()).isNotEqualTo(r.trajectorySha256());
    }

    @Test
    void toJson_huskyResult_oneObjectWithTheIssuesFields() {
        ExperimentRunner.Result r = runFile(ExperimentFile.load(example()), 10);
        String json = r.toJson();
        assertThat(json).startsWith("{\"experiment\":\"Husky Braitenberg experiment\",\"mode\":\"parallel\",")
                .contains("\"sim_time_s\":0.200000,\"steps\":10,", "\"wall_ms_per_step\":", "\"brain_ms_per_step\":",
                        "\"physics_ms_per_step\":", "\"final_distance_to_red_m\":",
                        "\"trajectory_sha256\":\"" + r.trajectorySha256() + "\"")
                .endsWith("}").doesNotContain("\n");
        assertThat(r.trajectorySha256()).hasSize(64);
    }

    @Test
    void writeOutputs_afterARun_trajectoryAndSpikesCsv() throws IOException {
        ExperimentFile f = ExperimentFile.load(example());
        try (ExperimentRunner r = ExperimentRunner.build(f, null, getClass().getClassLoader())) {
            r.run((k, t) -> k + 1 < 50);
            List<Path> written = r.writeOutputs(dir.resolve("out"));
            assertThat(written).containsExactly(dir.resolve("out/trajectory.csv"), dir.resolve("out/spikes.csv"));
            List<String> t = Files.readAllLines(dir.resolve("out/trajectory.csv"), StandardCharsets.UTF_8);
            assertThat(t.get(0)).isEqualTo("time_s,x,y,z,yaw");
            assertThat(t).hasSize(1 + r.loop().trajectory().size());
            List<String> s = Files.readAllLines(dir.resolve("out/spikes.csv"), StandardCharsets.UTF_8);
            assertThat(s.get(0)).isEqualTo("time_ms,recorder,node");
            // the go-on neuron (5) fires on its own every 57 ms
            assertThat(s).anyMatch(l -> l.endsWith(",spikes,5"));
            try (var files = Files.list(dir.resolve("out"))) {
                assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("trajectory.csv", "spikes.csv");
            }
        }
    }

    /** Ctrl-C on tandem cle overwrote an earlier complete run's outputs with partial ones. */
    @Test
    void writeOutputs_partialRun_markedPartialEarlierOutputsKept() throws IOException {
        ExperimentFile f = ExperimentFile.load(example());
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Files.writeString(out.resolve("trajectory.csv"), "complete\n");
        Files.writeString(out.resolve("spikes.csv"), "complete\n");
        try (ExperimentRunner r = ExperimentRunner.build(f, null, getClass().getClassLoader())) {
            r.run((k, t) -> k + 1 < 20);
            List<Path> written = r.writeOutputs(out, true);
            assertThat(written).containsExactly(out.resolve("trajectory.partial.csv"), out.resolve("spikes.partial.csv"));
            assertThat(Files.readAllLines(out.resolve("trajectory.partial.csv"), StandardCharsets.UTF_8))
                    .hasSize(1 + r.loop().trajectory().size());
        }
        assertThat(Files.readString(out.resolve("trajectory.csv"))).isEqualTo("complete\n");
        assertThat(Files.readString(out.resolve("spikes.csv"))).isEqualTo("complete\n");
        try (var files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("trajectory.csv", "spikes.csv",
                    "trajectory.partial.csv", "spikes.partial.csv");
        }
    }

    @Test
    void build_unknownTransferFunctionClass_failsNamingTheFileLineAndClass() throws IOException {
        String text = Files.readString(example(), StandardCharsets.UTF_8).replace("io.tandem.cle.tf.LinearTwist",
                "io.tandem.cle.LinearTwirl").replace("husky_braitenberg/world.sdf",
                example().getParent().resolve("husky_braitenberg/world.sdf").toString().replace("\\", "/"));
        Path file = dir.resolve("bad.json");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        ExperimentFile f = ExperimentFile.load(file);
        assertThatThrownBy(() -> ExperimentRunner.build(f, null, getClass().getClassLoader()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad.json:")
                .hasMessageContaining("io.tandem.cle.LinearTwirl");
    }

    @Test
    void distanceLabel_screenTargets_shortName() {
        assertThat(ExperimentRunner.Result.distanceLabel("red_screen")).isEqualTo("red");
        assertThat(ExperimentRunner.Result.distanceLabel("dock")).isEqualTo("dock");
    }

    @Test
    void build_brainSyncStep_theLoopSyncsTheBrainEveryOtherStepAndTheRobotStillFindsRed() throws IOException {
        Path file = dir.resolve("fti.json");
        String text = Files.readString(example(), StandardCharsets.UTF_8)
                .replace("\"brain\": {\"timestep_ms\": 20}", "\"brain\": {\"timestep_ms\": 20, \"sync_step_ms\": 40}")
                .replace("husky_braitenberg/world.sdf",
                        example().getParent().resolve("husky_braitenberg/world.sdf").toString().replace("\\", "/"));
        Files.writeString(file, text, StandardCharsets.UTF_8);
        ExperimentFile f = ExperimentFile.load(file);
        assertThat(f.engines().brainSyncStepNs()).isEqualTo(40_000_000L);
        assertThat(f.engines().physicsSyncStepNs()).isEqualTo(20_000_000L);
        try (ExperimentRunner r = ExperimentRunner.build(f, null, getClass().getClassLoader())) {
            assertThat(r.loop().syncStepNs(ExperimentRunner.BRAIN)).isEqualTo(40_000_000L);
            assertThat(r.loop().syncStepNs(ExperimentRunner.WORLD)).isEqualTo(20_000_000L);
            ExperimentRunner.Result res = r.run((k, t) -> k + 1 < 400);
            assertThat(res.finalDistanceM()).isLessThan(1.5);
            assertThat(res.trajectorySha256()).isNotEqualTo(runFile(ExperimentFile.load(example()), 400).trajectorySha256());
        }
        Files.writeString(file, text.replace("\"sync_step_ms\": 40", "\"sync_step_ms\": 30"), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ExperimentFile.load(file)).isInstanceOf(ExperimentFileException.class)
                .hasMessageContaining("fti.json:").hasMessageContaining("sync_step_ms 30 ms is not a whole multiple of the"
                        + " loop step 20 ms: use 20 ms or 40 ms");
    }

    @Test
    void build_unknownSeparateEngine_failsNamingTheEngines() {
        ExperimentFile f = ExperimentFile.load(example());
        assertThatThrownBy(() -> ExperimentRunner.build(f, null, getClass().getClassLoader(),
                java.util.Map.of("cerebellum", true), List.of(), null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no engine named 'cerebellum'");
    }

    @Test
    void build_separateEngineWithoutALauncher_refused() {
        ExperimentFile f = ExperimentFile.load(example());
        assertThatThrownBy(() -> ExperimentRunner.build(f, null, getClass().getClassLoader(),
                java.util.Map.of(ExperimentRunner.BRAIN, true), List.of(), null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("engine 'brain' in a separate process needs a launcher");
    }

    /** The example with a second spike recorder and two multimeters after its devices (node ids of the rest unchanged). */
    private Path recordingExample(String name) throws IOException {
        String text = Files.readString(example(), StandardCharsets.UTF_8)
                .replace("{\"name\": \"spikes\", \"type\": \"spike_recorder\", \"targets\": \"record\"}",
                        "{\"name\": \"spikes\", \"type\": \"spike_recorder\", \"targets\": \"record\"},\n"
                        + "      {\"name\": \"go_on_spikes\", \"type\": \"spike_recorder\", \"targets\": \"go_on\"},\n"
                        + "      {\"name\": \"actor_vm\", \"type\": \"multimeter\", \"targets\": \"actor_neurons\","
                        + " \"record_from\": [\"V_m\", \"g_ex\"], \"params\": {\"interval\": 5.0}},\n"
                        + "      {\"name\": \"integrator_vm\", \"type\": \"multimeter\", \"targets\": \"actors\","
                        + " \"record_from\": [\"V_m\", \"I_syn_ex\"], \"params\": {\"interval\": 20.0, \"start\": 100.0}}")
                .replace("husky_braitenberg/world.sdf",
                        example().getParent().resolve("husky_braitenberg/world.sdf").toString().replace("\\", "/"));
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void writeOutputs_twoRecordersAndTwoMultimeters_everySpikeAndSampleWrittenTrajectoryUnchanged() throws IOException {
        ExperimentFile f = ExperimentFile.load(recordingExample("rec.json"));
        assertThat(f.outputs().multimeter()).isEqualTo("multimeter.csv");
        String plain;
        List<String> plainSpikes;
        try (ExperimentRunner r = ExperimentRunner.build(ExperimentFile.load(example()), null, getClass().getClassLoader())) {
            plain = r.run((k, t) -> k + 1 < 50).trajectorySha256();
            r.writeOutputs(dir.resolve("plain"));
            plainSpikes = Files.readAllLines(dir.resolve("plain/spikes.csv"), StandardCharsets.UTF_8);
        }
        try (ExperimentRunner r = ExperimentRunner.build(f, null, getClass().getClassLoader())) {
            // recorders observe: the robot drives exactly as without them
            assertThat(r.run((k, t) -> k + 1 < 50).trajectorySha256()).isEqualTo(plain);
            List<Path> written = r.writeOutputs(dir.resolve("out"));
            assertThat(written).containsExactly(dir.resolve("out/trajectory.csv"), dir.resolve("out/spikes.csv"),
                    dir.resolve("out/multimeter.csv"));

            // spikes: both recorders, time-ordered; the first recorder's rows are the single-recorder file's
            List<String> s = Files.readAllLines(dir.resolve("out/spikes.csv"), StandardCharsets.UTF_8);
            assertThat(s.get(0)).isEqualTo("time_ms,recorder,node");
            List<String> ofSpikes = s.stream().filter(l -> l.contains(",spikes,")).toList();
            assertThat(ofSpikes).isEqualTo(plainSpikes.subList(1, plainSpikes.size()));
            List<String> goOn = s.stream().filter(l -> l.contains(",go_on_spikes,")).toList();
            assertThat(goOn).isNotEmpty().allMatch(l -> l.endsWith(",go_on_spikes,5"));
            assertThat(goOn).hasSameSizeAs(ofSpikes.stream().filter(l -> l.endsWith(",5")).toList());
            assertThat(s).hasSize(1 + ofSpikes.size() + goOn.size());
            double last = 0;
            for (String l : s.subList(1, s.size())) {
                double t = Double.parseDouble(l.substring(0, l.indexOf(',')));
                assertThat(t).isGreaterThanOrEqualTo(last);
                last = t;
            }

            // samples: the union of the variables, empty where a multimeter does not record one
            List<String> m = Files.readAllLines(dir.resolve("out/multimeter.csv"), StandardCharsets.UTF_8);
            assertThat(m.get(0)).isEqualTo("time_ms,multimeter,node,V_m,g_ex,I_syn_ex");
            List<String> actor = m.stream().filter(l -> l.contains(",actor_vm,")).toList();
            List<String> integrator = m.stream().filter(l -> l.contains(",integrator_vm,")).toList();
            // 1 s run: actors every 5 ms (200 times), integrators every 20 ms after 100 ms (45 times), two nodes each
            assertThat(actor).hasSize(2 * 200);
            assertThat(integrator).hasSize(2 * 45);
            assertThat(m).hasSize(1 + actor.size() + integrator.size());
            assertThat(actor.get(0)).startsWith("5.0,actor_vm,6,").endsWith(",");
            assertThat(actor.get(1)).startsWith("5.0,actor_vm,7,");
            assertThat(integrator.get(0)).matches("120\\.0,integrator_vm,11,[-0-9.E]+,,[-0-9.E]+");
            // the last samples are the network's state at the end of the run
            var net = ((BrainEngine) r.loop().engines().get(0)).network();
            String[] a7 = actor.get(actor.size() - 1).split(",", -1);
            assertThat(a7[0]).isEqualTo("1000.0");
            assertThat(a7[2]).isEqualTo("7");
            assertThat(Double.parseDouble(a7[3])).isEqualTo(net.vm(7));
            assertThat(Double.parseDouble(a7[4])).isEqualTo(net.get(7, "g_ex"));
            String[] i12 = integrator.get(integrator.size() - 1).split(",", -1);
            assertThat(i12[2]).isEqualTo("12");
            assertThat(Double.parseDouble(i12[3])).isEqualTo(net.vm(12));
            assertThat(Double.parseDouble(i12[5])).isEqualTo(net.get(12, "I_syn_ex"));
        }
    }
}
