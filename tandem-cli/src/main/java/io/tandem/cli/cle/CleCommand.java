package io.tandem.cli.cle;

import io.tandem.cle.ClosedLoopException;
import io.tandem.cle.SyncMode;
import io.tandem.cle.device.ModelPose;
import io.tandem.cle.experiment.ExperimentFile;
import io.tandem.cle.experiment.ExperimentFileException;
import io.tandem.cle.experiment.ExperimentOverrides;
import io.tandem.cle.experiment.ExperimentRunner;
import io.tandem.cli.internal.StopSignal;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tandem cle EXPERIMENT.json} (or .yaml): runs a closed-loop experiment (the NRP's CLE) to its
 * timeout, prints a progress line about once a second (standard error) and a summary, and writes
 * the robot's trajectory and the spike trains into the output folder. With {@code --json} the
 * standard output is one JSON object. Ctrl-C stops after the current loop step and still writes
 * what was simulated, under names marked {@code .partial} (the outputs of an earlier complete run
 * stay), then exits with 130. Runs on the calling thread.
 */
@Command(name = "cle", mixinStandardHelpOptions = true,
        description = {"Runs a closed-loop experiment: a brain and a world stepped together, transfer functions between"
                + " them (the Neurorobotics Platform's closed loop engine).",
            "Example: tandem cle examples/experiments/husky-braitenberg.json",
            "Example: tandem cle examples/experiments/husky-braitenberg.json --mode serial --set screen_color=blue --json"})
public final class CleCommand implements Callable<Integer> {
    /** wall time between progress lines, ns */
    private static final long PROGRESS_NS = 1_000_000_000L;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXPERIMENT", description = "The experiment file (JSON, or YAML"
            + " if it ends in .yaml or .yml; see"
            + " examples/experiments/README.md).")
    Path experiment;

    @Option(names = "--mode", paramLabel = "MODE", description = "parallel or serial; default: the file's (parallel)."
            + " Both give the same results; only the wall time differs.")
    String mode;

    @Option(names = "--set", paramLabel = "NAME=VALUE", description = "Set a parameter the file declares (repeatable),"
            + " e.g. --set screen_color=blue.")
    List<String> set = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write the trajectory and spike trains"
            + " (default: EXPERIMENT's name without .json, .yaml or .yml, plus -out, in the current folder).")
    Path out;

    @Option(names = "--json", description = "Print one JSON object (the run's summary) and nothing else on standard"
            + " output.")
    boolean json;

    @Option(names = "--separate", paramLabel = "ENGINE", split = ",", description = "Run this engine (brain, world) in a"
            + " process of its own, a tandem-cosim participant over tandem:// (NRP-core's engine servers); the results"
            + " are the same.")
    List<String> separate = new ArrayList<>();

    /** Used by picocli. */
    public CleCommand() {
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        SyncMode m = null;
        if (mode != null) {
            try {
                m = SyncMode.parse(mode);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--mode: " + e.getMessage());
            }
        }
        ExperimentOverrides overrides;
        try {
            overrides = ExperimentOverrides.parse(set);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--set: " + e.getMessage());
        }
        ExperimentFile file;
        try {
            file = ExperimentFile.load(experiment, overrides);
        } catch (ExperimentFileException e) {
            err.println("tandem cle: " + e.getMessage());
            return 1;
        }
        if (m != null) {
            file = file.withMode(m);
        }
        Path dir = out != null ? out : Path.of(stem(experiment) + "-out");
        java.util.Map<String, Boolean> processes = new java.util.LinkedHashMap<>();
        for (String engine : separate) {
            if (!engine.equals(ExperimentRunner.BRAIN) && !engine.equals(ExperimentRunner.WORLD)) {
                throw new ParameterException(spec.commandLine(), "--separate takes brain or world, got '" + engine + "'");
            }
            processes.put(engine, true);
        }
        ExperimentRunner runner;
        try {
            runner = ExperimentRunner.build(file, null, CleCommand.class.getClassLoader(), processes, set,
                    EngineServerCommand.LAUNCHER);
        } catch (io.tandem.cle.remote.RemoteEngineException e) {
            err.println("tandem cle: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println("tandem cle: " + experiment + ": " + e.getMessage());
            return 1;
        }
        ExperimentFile f = file;
        String robot = f.robot().map(ExperimentFile.Robot::model).orElse(null);
        String target = f.robot().flatMap(ExperimentFile.Robot::target).orElse(null);
        long total = f.loopSteps();
        try (ExperimentRunner r = runner; StopSignal stop = StopSignal.onShutdown()) {
            if (!json) {
                stdout.println("experiment " + f.name() + ": " + total + " loop steps of "
                        + fmt(f.engines().loopStepNs() / 1e6) + " ms, " + f.engines().mode().name().toLowerCase(Locale.ROOT)
                        + " mode; output in " + dir);
                stdout.flush();
            }
            long started = System.nanoTime();
            long[] nextLine = {started + PROGRESS_NS};
            ExperimentRunner.Result result;
            try {
                result = r.run((k, t) -> {
                    long now = System.nanoTime();
                    if (now >= nextLine[0]) {
                        nextLine[0] = now + PROGRESS_NS;
                        err.println(progress(r, k + 1, total, t, robot, target, (now - started) / (k + 1.0) / 1e6));
                        err.flush();
                    }
                    return !stop.isRequested();
                });
            } catch (ClosedLoopException e) {
                err.println("tandem cle: " + e.getMessage());
                return 1;
            }
            List<Path> written;
            try {
                // a stopped run's outputs are marked .partial: an earlier complete run's stay
                written = r.writeOutputs(dir, stop.isRequested());
            } catch (UncheckedIOException e) {
                err.println("tandem cle: " + e.getMessage());
                return 1;
            }
            if (json) {
                stdout.println(result.toJson());
            } else {
                stdout.println(summary(result, stop.isRequested()));
                for (Path p : written) {
                    stdout.println("wrote " + p);
                }
            }
            stdout.flush();
            return stop.isRequested() ? 130 : 0;
        }
    }

    private static String progress(ExperimentRunner r, long step, long total, long timeNs, String robot, String target,
                                   double msPerStep) {
        StringBuilder b = new StringBuilder("step ").append(step).append(" / ").append(total).append(", sim time ")
                .append(fmt(timeNs / 1e9)).append(" s, ").append(fmt(msPerStep)).append(" ms per step");
        if (robot != null) {
            ModelPose p = r.loop().trackedPose(robot);
            b.append(", ").append(robot).append(" at (").append(fmt(p.x())).append(", ").append(fmt(p.y())).append(")");
            if (target != null) {
                b.append(", ").append(fmt(r.loop().planarDistance(robot, target))).append(" m from ").append(target);
            }
        }
        return b.toString();
    }

    private static String summary(ExperimentRunner.Result s, boolean stopped) {
        StringBuilder b = new StringBuilder("experiment ").append(s.experiment()).append(stopped ? " (stopped)" : "")
                .append(": ").append(s.steps()).append(" steps, sim time ").append(fmt(s.simTimeS())).append(" s, ")
                .append(s.mode().name().toLowerCase(Locale.ROOT)).append(" mode: ").append(fmt(s.wallMsPerStep()))
                .append(" ms per step (brain ").append(fmt(s.brainMsPerStep())).append(", physics ")
                .append(fmt(s.physicsMsPerStep())).append(", transfer functions ").append(fmt(s.tfMsPerStep()))
                .append("; ").append(fmt(s.wallMsPerStep() / s.maxEngineMsPerStep())).append(" x the slower engine)");
        if (s.target() != null) {
            b.append(", final distance to ").append(s.target()).append(' ').append(fmt(s.finalDistanceM())).append(" m");
        }
        return b.append(", trajectory sha256 ").append(s.trajectorySha256()).toString();
    }

    private static String stem(Path p) {
        String n = p.getFileName().toString();
        for (String ext : new String[] {".json", ".yaml", ".yml"}) {
            if (n.endsWith(ext)) {
                return n.substring(0, n.length() - ext.length());
            }
        }
        return n;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
