package io.tandem.bench;

import io.tandem.bench.internal.Statistics;
import io.tandem.cle.ClosedLoop;
import io.tandem.cle.ProgressHandler;
import io.tandem.cle.StepTimings;
import io.tandem.cle.SyncMode;
import io.tandem.cle.experiment.ExperimentFile;
import io.tandem.cle.experiment.ExperimentFileException;
import io.tandem.cle.experiment.ExperimentRunner;
import io.tandem.cli.spi.JsonLinesOption;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/*
 * Implementation notes.
 *
 * Before the timed runs of an experiment, one untimed run in each mode warms the JVM up (in a
 * cold JVM the first parallel run measured twice the wall time of later ones). Each run builds
 * the experiment afresh (ExperimentRunner), runs --warmup-steps loop steps, then times --steps loop steps with the
 * loop's own per-step timings (ClosedLoop's StepTimings: wall time of the step, each engine's
 * advance, the transfer functions). The goal is a parallel-mode wall time per loop step
 * of at most 1.1 x max(brain, physics): wall_over_max_engine is the mean wall time over the mean
 * per-step maximum of the two engines' times. Medians over --runs.
 */

/** {@code tandem bench cle}: wall time per loop step of closed-loop experiments, both modes, with the engines' times. */
@Command(name = "cle", mixinStandardHelpOptions = true,
        description = {"Wall time per closed-loop step of experiment files in parallel and serial mode, with the brain's,"
                + " the physics' and the transfer functions' times per step (default: the Husky Braitenberg experiment"
                + " and its 10^4-neuron variant).",
            "Example: tandem bench cle --runs 3 --json"})
final class CleBenchCommand implements Callable<Integer> {
    private static final List<String> DEFAULT_FILES = List.of("examples/experiments/husky-braitenberg.json",
            "examples/experiments/husky-braitenberg-heavy.json");

    @Spec
    private CommandSpec spec;

    @Option(names = "--experiment", paramLabel = "FILE", description = "An experiment file (repeatable; default: the"
            + " Husky Braitenberg experiment and its heavy-brain variant).")
    List<Path> experiments = new ArrayList<>();

    @Option(names = "--modes", split = ",", defaultValue = "parallel,serial", description = "Modes to time (default:"
            + " ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--steps", defaultValue = "250", description = "Timed loop steps per run (default: ${DEFAULT-VALUE}).")
    long steps;

    @Option(names = "--warmup-steps", defaultValue = "100", description = "Loop steps run before timing (default:"
            + " ${DEFAULT-VALUE}).")
    long warmupSteps;

    @Option(names = "--runs", defaultValue = "3", description = "Runs per experiment and mode; medians are reported"
            + " (default: ${DEFAULT-VALUE}).")
    int runs;

    @Mixin
    JsonLinesOption output;

    @Override
    public Integer call() {
        if (steps < 1 || warmupSteps < 0 || runs < 1) {
            throw new ParameterException(spec.commandLine(), "--steps and --runs must be >= 1, --warmup-steps >= 0");
        }
        List<SyncMode> syncModes = new ArrayList<>();
        for (String m : modes) {
            try {
                syncModes.add(SyncMode.parse(m));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--modes: " + e.getMessage());
            }
        }
        List<Path> files = experiments.isEmpty() ? defaults() : experiments;
        PrintWriter out = spec.commandLine().getOut();
        for (Path p : files) {
            ExperimentFile file;
            try {
                file = ExperimentFile.load(p);
            } catch (ExperimentFileException e) {
                spec.commandLine().getErr().println("tandem bench cle: " + e.getMessage());
                return 1;
            }
            long needed = (warmupSteps + steps) * file.engines().loopStepNs();
            if (needed > file.timeoutNs()) {
                throw new ParameterException(spec.commandLine(), p + " runs " + file.loopSteps() + " loop steps (timeout_s);"
                        + " --warmup-steps + --steps is " + (warmupSteps + steps) + ": lower them");
            }
            // the JVM's warm-up: one untimed run in each mode (a first run in a cold JVM is up to twice as slow)
            for (SyncMode mode : syncModes) {
                try (ExperimentRunner runner = ExperimentRunner.build(file.withMode(mode), null,
                        CleBenchCommand.class.getClassLoader())) {
                    runner.loop().run((warmupSteps + steps) * file.engines().loopStepNs(), ProgressHandler.NONE);
                }
            }
            for (SyncMode mode : syncModes) {
                double[][] r = new double[5][runs];
                for (int i = 0; i < runs; i++) {
                    try (ExperimentRunner runner = ExperimentRunner.build(file.withMode(mode), null,
                            CleBenchCommand.class.getClassLoader())) {
                        ClosedLoop loop = runner.loop();
                        loop.run(warmupSteps * file.engines().loopStepNs(), ProgressHandler.NONE);
                        StepTimings t = loop.run(steps * file.engines().loopStepNs(), ProgressHandler.NONE);
                        r[0][i] = t.meanWallNs() / 1e6;
                        r[1][i] = t.meanEngineNs(ExperimentRunner.BRAIN) / 1e6;
                        r[2][i] = t.meanEngineNs(ExperimentRunner.WORLD) / 1e6;
                        r[3][i] = t.meanTfNs() / 1e6;
                        r[4][i] = t.meanWallNs() / t.meanMaxEngineNs();
                    }
                }
                double wall = Statistics.median(r[0]);
                double brain = Statistics.median(r[1]);
                double physics = Statistics.median(r[2]);
                double tf = Statistics.median(r[3]);
                double ratio = Statistics.median(r[4]);
                String m = mode.name().toLowerCase(Locale.ROOT);
                if (output.json()) {
                    out.printf(Locale.ROOT, "{\"bench\":\"cle\",\"experiment\":\"%s\",\"mode\":\"%s\",\"runs\":%d,\"steps\":%d,"
                                    + "\"wall_ms_per_step\":%.4f,\"brain_ms_per_step\":%.4f,\"physics_ms_per_step\":%.4f,"
                                    + "\"tf_ms_per_step\":%.4f,\"wall_over_max_engine\":%.4f}%n",
                            file.name().replace("\"", "\\\""), m, runs, steps, wall, brain, physics, tf, ratio);
                } else {
                    out.printf(Locale.ROOT, "%s, %s: %.3f ms per loop step (brain %.3f, physics %.3f, transfer functions %.3f);"
                                    + " %.3f x the slower engine (median of %d runs of %d steps)%n",
                            file.name(), m, wall, brain, physics, tf, ratio, runs, steps);
                }
                out.flush();
            }
        }
        return 0;
    }

    private List<Path> defaults() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve(DEFAULT_FILES.get(0)))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new ParameterException(spec.commandLine(), "no " + DEFAULT_FILES.get(0) + " in this folder or above:"
                    + " give --experiment FILE");
        }
        List<Path> out = new ArrayList<>();
        for (String f : DEFAULT_FILES) {
            out.add(dir.resolve(f));
        }
        return out;
    }

}
