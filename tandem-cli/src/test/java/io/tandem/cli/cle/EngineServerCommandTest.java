package io.tandem.cli.cle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cle.experiment.ExperimentFile;
import io.tandem.cle.experiment.ExperimentRunner;
import io.tandem.cle.remote.RemoteEngine;
import io.tandem.cli.TandemCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tandem engine-server}, as {@code tandem cle --separate} launches it: an experiment's
 * brain served from a child JVM gives the in-process run's spikes, samples and trajectory; the
 * command is hidden from {@code tandem --help} and refuses a wrong engine.
 */
class EngineServerCommandTest {
    private static final Path HUSKY = Path.of("../examples/experiments/husky-braitenberg.json").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    /** The example with a second spike recorder and two multimeters after its devices (node ids of the rest unchanged). */
    private Path recordingExample() throws IOException {
        String text = Files.readString(HUSKY, StandardCharsets.UTF_8)
                .replace("{\"name\": \"spikes\", \"type\": \"spike_recorder\", \"targets\": \"record\"}",
                        "{\"name\": \"spikes\", \"type\": \"spike_recorder\", \"targets\": \"record\"},\n"
                        + "      {\"name\": \"go_on_spikes\", \"type\": \"spike_recorder\", \"targets\": \"go_on\"},\n"
                        + "      {\"name\": \"actor_vm\", \"type\": \"multimeter\", \"targets\": \"actor_neurons\","
                        + " \"record_from\": [\"V_m\", \"g_ex\"], \"params\": {\"interval\": 5.0}}")
                .replace("husky_braitenberg/world.sdf",
                        HUSKY.getParent().resolve("husky_braitenberg/world.sdf").toString().replace("\\", "/"));
        Path file = dir.resolve("rec.json");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void build_recordingBrainServedByTandemEngineServer_sameSpikesSamplesAndTrajectoryAsInProcess() throws IOException {
        ExperimentFile f = ExperimentFile.load(recordingExample());
        try (ExperimentRunner r = ExperimentRunner.build(f, null, getClass().getClassLoader())) {
            r.run((k, t) -> k + 1 < 25);
            r.writeOutputs(dir.resolve("local"));
        }
        try (ExperimentRunner r = ExperimentRunner.build(f, null, getClass().getClassLoader(),
                Map.of(ExperimentRunner.BRAIN, true), List.of(), EngineServerCommand.LAUNCHER)) {
            assertThat(r.loop().engines().get(0)).isInstanceOf(RemoteEngine.class);
            assertThat(((RemoteEngine) r.loop().engines().get(0)).serverPid()).isNotEqualTo(ProcessHandle.current().pid());
            r.run((k, t) -> k + 1 < 25);
            r.writeOutputs(dir.resolve("remote"));
        }
        for (String name : List.of("spikes.csv", "multimeter.csv", "trajectory.csv")) {
            List<String> local = Files.readAllLines(dir.resolve("local").resolve(name), StandardCharsets.UTF_8);
            assertThat(local).hasSizeGreaterThan(10);
            assertThat(Files.readAllLines(dir.resolve("remote").resolve(name), StandardCharsets.UTF_8)).as(name)
                    .isEqualTo(local);
        }
    }

    @Test
    void engineServer_hiddenFromHelp_wrongEngineIsAUsageError() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(TandemCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "--help")).isZero();
        assertThat(out.toString()).contains("cle").doesNotContain("engine-server");
        assertThat(TandemCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "engine-server", "--registry",
                "tandem://127.0.0.1:1", "--simulation", "s", "--name", "n", "--engine", "brain", "--experiment",
                HUSKY.toString(), "cerebellum")).isEqualTo(2);
        assertThat(err.toString()).contains("ENGINE must be brain or world, got 'cerebellum'");
    }
}
