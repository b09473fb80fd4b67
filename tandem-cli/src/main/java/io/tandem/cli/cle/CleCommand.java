package io.tandem.cli.cle;

import io.tandem.cle.ClosedLoopException;
import io.tandem.cle.SyncMode;
import io.tandem.cle.device.ModelPose;
import io.tandem.cle.experiment.ExperimentFile;
import io.tandem.cle.experiment.ExperimentFileException;
import io.tandem.cle.experiment.ExperimentOverrides;
import io.tandem.cle.experiment.ExperimentRunner;
import io.tandem.cle.record.SpikeTrains;
import io.tandem.cle.record.Trajectory;
import io.tandem.cli.internal.StopSignal;
import io.tandem.cli.plot.Figures;
import java.io.IOException;
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
 * stay), then exits with 130. With {@code --plot FILE.png} a run that ends also draws its spike
 * raster beside the robot's path into that file (a stopped run draws nothing). Runs on the calling
 * thread.
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

    @Option(names = "--plot", paramLabel = "FILE.png", description = "When the run ends, also draw it into this PNG"
            + " file: the spike raster (each recorded neuron's spikes against simulated time, s) beside the robot's path"
            + " in the plane (x and y in m, its start and end, and the target).")
    Path plot;

    @Option(names = "--record", paramLabel = "FILE.mcap", description = "Record the run as MCAP (written when it ends):"
            + " the world as tandem sim --record records it (/tf and joints 60 times a simulated second, the viewer's scene and"
            + " every iteration's frame), plus /tandem/spikes"
            + " (each loop step's new spikes) and /tandem/signals (the plotted signals, see --view-plot); replay it with"
            + " tandem view FILE.mcap.")
    Path record;

    /** --view, --view-bind, --follow, --paused, --view-linger-s */
    @picocli.CommandLine.Mixin
    io.tandem.cli.view.ViewOptions view;

    @Option(names = "--view-plot", paramLabel = "SIGNAL", description = "With --view: a rolling 10 s plot of MODEL::JOINT"
            + " (position), MODEL::JOINT/velocity or MODEL/x, /y, /z (repeatable). Default: the experiment file's"
            + " view.plots, else the robot's x and y.")
    List<String> viewPlots = new ArrayList<>();

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
        if (plot != null) {
            try {
                Figures.requirePng(plot);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        view.check(spec, "--view-plot");
        if (record != null && !record.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".mcap")) {
            throw new ParameterException(spec.commandLine(), "--record writes MCAP: give a file ending in .mcap, got '"
                    + record + "' (the CSV outputs go to --out)");
        }
        if ((view.on() || record != null) && separate.contains(ExperimentRunner.WORLD)) {
            throw new ParameterException(spec.commandLine(), (view.on() ? "--view" : "--record") + " needs the world in"
                    + " this process: it cannot be used with --separate world");
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
        io.tandem.cli.view.LiveViewer viewer = null;
        io.tandem.world.OutputFile recordFile = null;
        io.tandem.world.PoseRecorder recorder = null;
        try (ExperimentRunner r = runner; StopSignal stop = StopSignal.onShutdown()) {
            CleViewer cleViewer = null;
            CleSignals signals = null;
            int[] channels = new int[2];
            if (view.on() || record != null) {
                io.tandem.world.WorldRunner world = worldOf(r);
                try {
                    if (world == null) {
                        throw new IllegalArgumentException(experiment + ": experiment '" + f.name() + "' has no world to "
                                + (view.on() ? "view" : "record"));
                    }
                    signals = new CleSignals(world, r.loop().allSpikeTrains(), plots(f, robot));
                    if (view.on()) {
                        cleViewer = startViewer(r, world, signals, f, total, robot, stdout);
                        viewer = cleViewer.viewer();
                    }
                } catch (io.tandem.cli.view.ViewerException | IllegalArgumentException e) {
                    err.println("tandem cle: " + e.getMessage());
                    return 2;
                }
                if (record != null) {
                    try {
                        recordFile = io.tandem.world.OutputFile.start(record);
                        recorder = io.tandem.world.PoseRecorder.open(recordFile.temp(), io.tandem.world.PoseRecorder.Format.MCAP)
                                .jsonEvery(1_000_000_000L / 60);
                        channels[0] = recorder.jsonChannel("/tandem/spikes", java.util.Map.of("recorders",
                                String.join(",", signals.recorders()), "fields", "[time_s, recorder index, node]"));
                        channels[1] = recorder.jsonChannel("/tandem/signals", java.util.Map.of());
                    } catch (IOException e) {
                        err.println("tandem cle: cannot record to " + record + ": " + e.getMessage());
                        return 1;
                    }
                    world.addListener(recorder);
                }
            }
            CleViewer cv = cleViewer;
            CleSignals sig = signals;
            io.tandem.world.PoseRecorder rec = recorder;
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
                if (cv != null) {
                    r.loop().initialize();
                    cv.started(stop::isRequested);
                }
                result = r.run((k, t) -> {
                    if (sig != null) {
                        sig.afterStep(t);
                    }
                    if (rec != null) {
                        String spikes = sig.spikesMessage(t);
                        if (spikes != null) {
                            rec.message(channels[0], t, spikes);
                        }
                        String values = sig.signalsMessage(t);
                        if (values != null) {
                            rec.message(channels[1], t, values);
                        }
                    }
                    if (cv != null) {
                        cv.afterStep(k, t, stop::isRequested);
                    }
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
                if (cv != null) {
                    // the page says why the run stopped, naming a lost separate engine, and stays up as after a run
                    err.flush();
                    cv.ended("failed: " + e.getMessage());
                    viewer.linger(view.lingerS(), stop::isRequested, stdout);
                }
                return 1;
            }
            List<Path> written;
            try {
                // a stopped run's outputs are marked .partial: an earlier complete run's stay
                written = new ArrayList<>(r.writeOutputs(dir, stop.isRequested()));
            } catch (UncheckedIOException e) {
                err.println("tandem cle: " + e.getMessage());
                return 1;
            }
            if (plot != null && !stop.isRequested()) {
                try {
                    draw(r, f.name(), target, plot);
                } catch (IOException e) {
                    err.println("tandem cle: cannot write the figure " + plot + ": " + e.getMessage());
                    return 1;
                }
                written.add(plot);
            }
            if (json) {
                stdout.println(result.toJson());
            } else {
                stdout.println(summary(result, stop.isRequested()));
                for (Path p : written) {
                    stdout.println("wrote " + p);
                }
            }
            if (recorder != null) {
                try {
                    recorder.close();
                    recorder = null;
                    if (!stop.isRequested()) {
                        recordFile.commit();
                        stdout.println("record: " + record);
                    } else {
                        err.println("tandem cle: stopped: no record written (" + record + " is as it was)");
                    }
                } catch (IOException e) {
                    err.println("tandem cle: cannot write the record " + record + ": " + e.getMessage());
                    return 1;
                }
            }
            stdout.flush();
            if (cv != null) {
                cv.ended(stop.isRequested() ? "stopped after " + result.steps() + " loop steps" : "finished after "
                        + result.steps() + " loop steps");
                viewer.linger(view.lingerS(), stop::isRequested, stdout);
            }
            return stop.isRequested() ? 130 : 0;
        } finally {
            if (viewer != null) {
                viewer.close();
            }
            if (recorder != null) {
                try {
                    recorder.close();
                } catch (IOException e) {
                    // the run failed already: its temporary record is deleted below
                }
            }
            if (recordFile != null) {
                try {
                    recordFile.close();
                } catch (IOException e) {
                    err.println("tandem cle: cannot delete the temporary record of " + record + ": " + e.getMessage());
                }
            }
        }
    }

    /** @return the world engine's runner in this process, or null */
    private static io.tandem.world.WorldRunner worldOf(ExperimentRunner r) {
        for (io.tandem.cle.Engine e : r.loop().engines()) {
            if (e instanceof io.tandem.cle.engine.WorldEngine we) {
                return we.runner();
            }
        }
        return null;
    }

    /** @return the signals plotted and recorded: the command line's, else the experiment file's, else the robot's x and y */
    private List<String> plots(ExperimentFile f, String robot) {
        List<String> plots = new ArrayList<>(!viewPlots.isEmpty() ? viewPlots : f.view().plots());
        if (plots.isEmpty() && robot != null) {
            plots.add(robot + "/x");
            plots.add(robot + "/y");
        }
        return plots;
    }

    /** Starts the closed loop's viewer on the world engine of this process. */
    private CleViewer startViewer(ExperimentRunner r, io.tandem.world.WorldRunner world, CleSignals signals,
                                  ExperimentFile f, long total, String robot, PrintWriter stdout) {
        // the command line, else the experiment file's view section, else the robot
        String follow = view.follow();
        String followed = follow != null ? follow : f.view().follow().orElse(robot);
        if (followed != null && (follow != null || f.view().follow().isPresent())) {
            String refused = io.tandem.cli.view.LiveViewer.followRefusal(world.world(), followed);
            if (refused != null) {
                throw new IllegalArgumentException(follow != null ? refused
                        : f.source() + ": view.follow '" + followed + "': " + refused.substring(refused.indexOf(':') + 2));
            }
        }
        CleViewer[] holder = new CleViewer[1];
        io.tandem.cli.view.LiveViewer v = io.tandem.cli.view.LiveViewer.start(world.world(), "closed loop", view.bind(), view.port(),
                io.tandem.cli.view.LiveViewer.DEFAULT_PERIOD_NS, (op, value) -> holder[0].apply(op, value),
                java.util.Map::of, followed);
        // the HUD counts the world's iterations
        long worldIterations = total * r.loop().loopStepNs() / world.world().stepSizeNs();
        holder[0] = new CleViewer(v, world, signals, worldIterations, view.paused(), r.loop().engines());
        world.addListener(v.feed());
        stdout.println("viewer: " + v.url());
        stdout.flush();
        return holder[0];
    }

    /** Draws the run's spike raster and the robot's path, as recorded, into file. */
    private static void draw(ExperimentRunner r, String experiment, String target, Path file) throws IOException {
        List<Figures.Spikes> spikes = new ArrayList<>();
        for (SpikeTrains t : r.loop().allSpikeTrains()) {
            double[] timeS = new double[t.size()];
            double[] node = new double[t.size()];
            for (int i = 0; i < timeS.length; i++) {
                timeS[i] = t.timeNs(i) / 1e9;
                node[i] = t.sender(i);
            }
            spikes.add(new Figures.Spikes(t.recorder(), timeS, node));
        }
        Trajectory path = r.loop().trajectory();
        String robot = path == null ? null : path.model();
        int n = path == null ? 0 : path.size();
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = path.x(i);
            y[i] = path.y(i);
        }
        double tx = Double.NaN;
        double ty = Double.NaN;
        if (robot != null && target != null) {
            ModelPose p = r.loop().trackedPose(target);
            tx = p.x();
            ty = p.y();
        }
        Figures.closedLoop(file, experiment, spikes, robot, x, y, robot == null ? null : target, tx, ty);
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
