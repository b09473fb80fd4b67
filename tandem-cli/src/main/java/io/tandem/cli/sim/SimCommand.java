package io.tandem.cli.sim;

import io.tandem.cli.spi.PhysicsSolverOptions;
import io.tandem.cli.view.LiveViewer;
import io.tandem.cli.view.RunControl;
import io.tandem.cli.view.ViewOptions;
import io.tandem.cli.view.ViewerException;
import io.tandem.physics.SolverSettings;
import io.tandem.world.OutputFile;
import io.tandem.world.PoseRecorder;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import io.tandem.world.WorldRunner;
import io.tandem.world.sdf.SdfLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tandem sim WORLD.sdf}: runs a world standalone, as fast as it can or paced with
 * {@code --rtf}, prints a progress line and a summary; with {@code --network-role} it is the
 * primary or a secondary of a distributed run (Gazebo's flags, see {@link DistributedSim}). The record is written to a temporary file
 * beside the target and moved into place when the run ends, so a failed run leaves no half
 * written record. Runs on the calling thread.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = {"Runs an SDF world: levels, physics, pose recording; standalone, or distributed over a primary and"
                + " secondaries (Gazebo's --network-role).",
            "Example: tandem sim world.sdf --levels --iterations 5000 --record poses.csv",
            "Example: tandem sim world.sdf --network-role primary --local-secondaries 2",
            "Example: tandem sim world.sdf --network-role primary --network-secondaries 2 (and on each secondary:"
                + " tandem sim world.sdf --network-role secondary --registry tandem://PRIMARY_HOST:8500)"})
public final class SimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    io.tandem.cli.internal.SecretFileOption secretFile;

    @Parameters(index = "0", paramLabel = "WORLD", description = "The SDF world file, or a URDF robot (.urdf), which"
            + " runs alone in a world of its own (gravity, 1 ms steps), as 'gz sim robot.urdf' runs it.")
    Path world;

    @Option(names = "--iterations", description = "Stop after N iterations (default: ${DEFAULT-VALUE}).", defaultValue = "1000")
    long iterations;

    @Option(names = "--rtf", description = "Pace to X times real time; 0 (the default) runs as fast as it can.",
            defaultValue = "0")
    double rtf;

    @Option(names = "--levels", description = "Turn levels on (load and unload levels around performers).")
    boolean useLevels;

    @Option(names = "--record", paramLabel = "FILE", description = "Write every model's pose each iteration, and level"
            + " events, to FILE (.csv or .jsonl; .mcap adds /tf frames for Foxglove, Lichtblick and Rerun).")
    Path record;

    @Option(names = "--record-hz", paramLabel = "HZ", defaultValue = "60", description = "A .mcap record: how many times"
            + " per simulated second /tf and the JSON channels (/tandem/joints; /tandem/poses with --record-json-poses) are"
            + " written (default: ${DEFAULT-VALUE}; 0: every iteration); /tandem/frames holds every iteration's poses (single"
            + " precision) and /tandem/events every event. CSV and JSON lines records hold every iteration.")
    double recordHz;

    @Option(names = "--record-json-poses", description = "A .mcap record: also write each pose row on /tandem/poses as the"
            + " JSON lines record's object (/tf holds the same poses, the same doubles; off by default: their text is the"
            + " largest part of what a recording adds to a run's work and file).")
    boolean recordJsonPoses;

    @Option(names = "--view-hz", paramLabel = "HZ", defaultValue = "60", description = "With --view: the most pose frames"
            + " a second sent to the page (wall clock; default: ${DEFAULT-VALUE}, as Gazebo's scene broadcaster).")
    double viewHz;

    /** --view, --view-bind, --follow, --paused, --view-linger-s */
    @Mixin
    ViewOptions view;

    /** --solver and --threads */
    @Mixin
    PhysicsSolverOptions physics;

    @Option(names = "--solver-iterations", paramLabel = "N", description = "A fixed solver budget of N iterations per step"
            + " (default: SubADMM with the adaptive penalty, stopping at 1e-4 m/s, at most 20).")
    Integer solverIterations;

    @Option(names = "--seed", description = "Random seed (default: ${DEFAULT-VALUE}); the physics is deterministic, the"
            + " seed is reported for the record.", defaultValue = "0")
    long seed;

    @Option(names = "--network-role", paramLabel = "ROLE", description = "primary or secondary (case-insensitive; also"
            + " SIMULATION_PRIMARY, SIMULATION_SECONDARY): run distributed, as in Gazebo. Implies --levels.")
    String networkRole;

    @Option(names = "--network-secondaries", paramLabel = "N", description = "Primary only: the number of secondaries to"
            + " wait for (local ones included).")
    Integer networkSecondaries;

    @Option(names = "--local-secondaries", paramLabel = "N", description = "Primary only: start N secondary processes on"
            + " this machine.")
    Integer localSecondaries;

    @Option(names = "--partition", paramLabel = "NAME", description = "Keep this run apart from others on the same"
            + " registry (Gazebo's GZ_PARTITION).")
    String partition;

    @Option(names = "--registry", paramLabel = "URI", converter = io.tandem.cli.internal.RegistryUris.Connect.class,
            description = "Distributed runs: the registry to use. Default: the primary hosts one (on a free loopback port"
                + " when all its secondaries are local, else on " + io.tandem.cli.internal.RegistryUris.DEFAULT
                + "); secondaries connect to " + io.tandem.cli.internal.RegistryUris.DEFAULT + ".")
    String registry;

    @Option(names = "--name", paramLabel = "NAME", description = "Secondary only: this secondary's name, unique in the run"
            + " (default: secondary-HOST-PID).")
    String name;

    /** set by a primary for the local secondaries it starts: they end with it, even when it is killed outright */
    @Option(names = "--parent-pid", hidden = true, paramLabel = "PID")
    Long parentPid;

    @Option(names = "--ack-timeout-ms", paramLabel = "MS", defaultValue = "10000", description = "The longest a peer may"
            + " be silent in a distributed run: the primary stops the run when a secondary's step_ack is this late, a"
            + " secondary stops when no step has come from the primary for this long (default: ${DEFAULT-VALUE}, Gazebo's"
            + " 10 s; the primary passes its value to its local secondaries). A process that stops answering the"
            + " membership (killed, or stopped longer than about 1 s) is lost sooner.")
    long ackTimeoutMs;

    @Option(names = "--scene-hz", paramLabel = "HZ", defaultValue = "60", description = "Primary only: publish the"
            + " scene (every loaded model's pose, as Gazebo's scene broadcaster; read it with 'tandem world-control WORLD"
            + " watch') this many times per simulated second, at most once per iteration; 0 turns it off (default:"
            + " ${DEFAULT-VALUE}).")
    double sceneHz;

    @Option(names = "--start-timeout-s", paramLabel = "S", defaultValue = "60", description = "Distributed runs: how long"
            + " the primary waits for its secondaries and a secondary for the primary (default: ${DEFAULT-VALUE}).")
    long startTimeoutS;

    /**
     * @return every how many iterations a scene rate (per simulated second) publishes the scene:
     *         the nearest whole number of steps, at least 1; 0 for a rate of 0
     */
    static long sceneEvery(double sceneHz, long stepSizeNs) {
        if (sceneHz == 0) {
            return 0;
        }
        return Math.max(1, Math.round(1e9 / (sceneHz * stepSizeNs)));
    }

    /** @return "primary", "secondary" or null (standalone) */
    private String role() {
        if (networkRole == null) {
            if (networkSecondaries != null || localSecondaries != null || name != null) {
                throw new ParameterException(spec.commandLine(), "--network-secondaries, --local-secondaries and --name can"
                        + " only be used with --network-role");
            }
            return null;
        }
        String r = switch (networkRole.trim().toUpperCase(Locale.ROOT)) {
            case "PRIMARY", "SIMULATION_PRIMARY" -> "primary";
            case "SECONDARY", "SIMULATION_SECONDARY" -> "secondary";
            default -> throw new ParameterException(spec.commandLine(), "--network-role must be primary or secondary"
                    + " (case-insensitive; also SIMULATION_PRIMARY, SIMULATION_SECONDARY), got '" + networkRole + "'");
        };
        if (r.equals("secondary")) {
            if (networkSecondaries != null || localSecondaries != null) {
                throw new ParameterException(spec.commandLine(), "--network-secondaries and --local-secondaries can only be"
                        + " used with --network-role primary");
            }
            for (String o : new String[] {"--record", "--rtf", "--iterations", "--scene-hz", "--view"}) {
                if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                    throw new ParameterException(spec.commandLine(), o + " is the primary's: a secondary runs the steps"
                            + " the primary sends" + ("--view".equals(o) ? " (the primary holds every pose: view it there)" : ""));
                }
            }
        } else {
            if (name != null) {
                throw new ParameterException(spec.commandLine(), "--name names a secondary; the primary is always '"
                        + io.tandem.world.distributed.DistributedPrimary.NAME + "'");
            }
            int local = localSecondaries == null ? 0 : localSecondaries;
            int total = networkSecondaries == null ? local : networkSecondaries;
            if (local < 0 || total < 1 || total < local) {
                throw new ParameterException(spec.commandLine(), "--network-role primary needs --network-secondaries N"
                        + " (N >= 1) or --local-secondaries N, and N local secondaries count toward --network-secondaries;"
                        + " got --network-secondaries " + networkSecondaries + ", --local-secondaries " + localSecondaries);
            }
        }
        if (!(sceneHz >= 0) || Double.isInfinite(sceneHz)) {
            throw new ParameterException(spec.commandLine(), "--scene-hz must be a finite number >= 0 (0: off), got " + sceneHz);
        }
        if (ackTimeoutMs < 1 || startTimeoutS < 1 || ackTimeoutMs > 86_400_000L || startTimeoutS > 86_400L) {
            throw new ParameterException(spec.commandLine(), "--ack-timeout-ms and --start-timeout-s must be >= 1 and at"
                    + " most a day (86400000 ms, 86400 s), got " + ackTimeoutMs + " ms and " + startTimeoutS + " s");
        }
        if (partition != null && !partition.matches("[A-Za-z0-9._-]+")) {
            throw new ParameterException(spec.commandLine(), "--partition must be letters, digits, '.', '_' or '-', got '"
                    + partition + "'");
        }
        if (partition != null && registry != null && registry.contains("?partition=")) {
            throw new ParameterException(spec.commandLine(), "give the partition once: --partition or ?partition= in --registry");
        }
        return r;
    }

    @Override
    public Integer call() throws IOException {
        String role = role();
        if (iterations < 1) {
            throw new ParameterException(spec.commandLine(), "--iterations must be >= 1, got " + iterations);
        }
        if (!(rtf >= 0) || Double.isInfinite(rtf)) {
            throw new ParameterException(spec.commandLine(), "--rtf must be a finite number >= 0, got " + rtf);
        }
        if (physics.threads() < 1 || solverIterations != null && solverIterations < 1) {
            throw new ParameterException(spec.commandLine(), "--threads and --solver-iterations must be >= 1");
        }
        if (!(recordHz >= 0) || Double.isInfinite(recordHz)) {
            throw new ParameterException(spec.commandLine(), "--record-hz must be a finite number >= 0 (0: every iteration),"
                    + " got " + recordHz);
        }
        view.check(spec, "--view-hz");
        if (!(viewHz > 0) || Double.isInfinite(viewHz)) {
            throw new ParameterException(spec.commandLine(), "--view-hz takes a rate > 0, got " + viewHz);
        }
        PoseRecorder.Format format = null;
        if (record != null) {
            try {
                format = PoseRecorder.formatOf(record.getFileName().toString());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        if (recordJsonPoses && format != PoseRecorder.Format.MCAP) {
            throw new ParameterException(spec.commandLine(), "--record-json-poses needs an MCAP record (--record FILE.mcap);"
                    + " a .jsonl record holds every row as JSON already");
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        String tooBig = SdfLoader.heapShortfall(world, Files.isRegularFile(world) ? Files.size(world) : 0, Runtime.getRuntime().maxMemory());
        if (tooBig != null) {
            err.println("tandem sim: " + tooBig);
            return 1;
        }
        World w;
        // a line every few seconds while a big world loads and compiles (none for a quick one)
        io.tandem.cli.internal.LoadProgress progress = io.tandem.cli.internal.LoadProgress.start(world.toString(),
                Files.isRegularFile(world) ? Files.size(world) : 0, err);
        try {
            java.util.function.Consumer<String> warn = warning -> {
                synchronized (err) {
                    err.println("warning: " + warning);
                }
            };
            // a URDF robot runs on its own, as 'gz sim robot.urdf' runs it
            w = io.tandem.world.urdf.UrdfLoader.isUrdf(world)
                    ? io.tandem.world.urdf.UrdfLoader.load(world, warn)
                    : SdfLoader.load(world, warn, progress::count);
        } catch (WorldFormatException e) {
            progress.close();
            err.println("tandem sim: " + e.getMessage());
            return 2;
        }
        if (role != null) {
            progress.close(); // the distributed roles compile their part of the world as they start
            String refused = io.tandem.world.distributed.DistributedPrimary.unsupported(w);
            if (refused != null) {
                err.println("tandem sim: " + refused);
                return 2;
            }
        }
        if (view.follow() != null) {
            String refused = LiveViewer.followRefusal(w, view.follow());
            if (refused != null) {
                progress.close();
                err.println("tandem sim: " + refused);
                return 2;
            }
        }
        ViewerOptions viewing = !view.on() ? null
                : new ViewerOptions(view.bind(), view.port(), Math.round(1e9 / viewHz), view.follow(), view.paused(),
                        view.lingerS());
        SolverSettings settings = physics.settings(solverIterations);
        DistributedSim.Options options = null;
        if (role != null) {
            int local = localSecondaries == null ? 0 : localSecondaries;
            options = new DistributedSim.Options(world, w, settings, registry, partition,
                    networkSecondaries == null ? local : networkSecondaries, local, ackTimeoutMs, startTimeoutS, iterations, rtf,
                    physics.solver().name(), solverIterations, physics.threads(), sceneEvery(sceneHz, w.stepSizeNs()), viewing);
        }
        if ("secondary".equals(role)) {
            String me = name != null ? name : defaultSecondaryName();
            if (parentPid != null) {
                // a local secondary follows its primary: Ctrl-C (sent to the whole process group by a
                // terminal) stops the primary, whose stop then ends this one cleanly
                io.tandem.cli.internal.Signals.ignoreInterrupt();
                exitWithParent(parentPid, me, err);
            }
            return DistributedSim.secondary(options, me, out, err);
        }
        // the record goes to a temporary file moved into place when the run completes (OutputFile);
        // the stop signal is the outer resource, so that on Ctrl-C or SIGTERM the temporary file is
        // gone before the JVM exits
        if ("primary".equals(role)) {
            int code;
            try (io.tandem.cli.internal.StopSignal stop = io.tandem.cli.internal.StopSignal.onShutdown();
                 OutputFile rec = record == null ? null : OutputFile.start(record)) {
                try (PoseRecorder recorder = rec == null ? null
                        : recorder(rec.temp(), format)) {
                    code = DistributedSim.primary(options, recorder, out, err, stop);
                }
                if (code == 0 && rec != null) {
                    rec.commit();
                    out.println("record: " + record);
                }
            }
            return code;
        }
        try (progress; // ended once compiled; here too if anything fails before that
             io.tandem.cli.internal.StopSignal stop = io.tandem.cli.internal.StopSignal.onShutdown();
             OutputFile rec = record == null ? null : OutputFile.start(record)) {
            long done;
            LiveViewer viewer = null;
            try (PoseRecorder recorder = rec == null ? null
                        : recorder(rec.temp(), format)) {
                RunControl control = new RunControl(view.paused(), recorder == null ? null
                        : "reset is off while recording (--record): the record would run backwards; restart the run instead");
                if (view.on()) {
                    try {
                        viewer = LiveViewer.start(w, "standalone", view.bind(), view.port(), Math.round(1e9 / viewHz), control,
                                Map::of, view.follow());
                    } catch (ViewerException e) {
                        err.println("tandem sim: " + e.getMessage());
                        return 2;
                    }
                    out.println("viewer: " + viewer.url());
                    out.flush();
                }
                done = standalone(w, compile(w, settings, progress), settings, recorder, viewer, control, stop, out, err);
            } finally {
                if (viewer != null) {
                    viewer.close();
                }
            }
            if (done < iterations) {
                err.println("tandem sim: interrupted at iteration " + done + " of " + iterations
                        + (rec != null ? ": no record written (" + record + " is as it was)" : ""));
                return 130;
            }
            if (rec != null) {
                rec.commit();
                out.println("record: " + record);
            }
            return 0;
        }
    }

    /** Compiles the world for stepping, saying so in the progress lines; ends them. */
    private WorldRunner compile(World w, SolverSettings settings, io.tandem.cli.internal.LoadProgress progress) {
        try (progress) {
            progress.phase("compiling the physics of " + w.models().size() + " models");
            return new WorldRunner(w, settings, useLevels);
        }
    }

    /** The record's recorder: the format's, with --record-hz and --record-json-poses for MCAP. */
    private PoseRecorder recorder(Path file, PoseRecorder.Format format) throws IOException {
        PoseRecorder r = PoseRecorder.open(file, format).jsonEvery(recordPeriodNs());
        return format == PoseRecorder.Format.MCAP ? r.posesJson(recordJsonPoses) : r;
    }

    /** @return --record-hz as a period of simulated time, ns (0: every iteration) */
    private long recordPeriodNs() {
        return recordHz == 0 ? 0 : Math.max(1, Math.round(1e9 / recordHz));
    }

    /** The viewer's settings, as given on the command line. */
    record ViewerOptions(String bind, int port, long periodNs, String follow, boolean paused, double lingerS) {
    }

    /**
     * Steps a standalone world; closes the runner it ends with.
     *
     * @return the iterations run (fewer than asked when a stop was requested)
     */
    private long standalone(World w, WorldRunner first, SolverSettings settings, PoseRecorder recorder, LiveViewer viewer,
                            RunControl control, io.tandem.cli.internal.StopSignal stop, PrintWriter out, PrintWriter err) {
        int[] levelEvents = new int[1];
        WorldRunner runner = first;
        try {
            attach(runner, recorder, viewer, levelEvents, err);
            long start = System.nanoTime();
            long lastProgress = start;
            double stepS = w.stepSizeNs() / 1e9;
            // the second half of the run, after the JIT warm-up
            long halfNs = -1;
            long halfSimNs = 0;
            long shownPaused = -1; // the iteration the page was last shown paused at
            long pausedSinceNs = -1;
            if (viewer != null) {
                viewer.status(control.paused(), iterations, null, java.util.List.of());
            }
            while (runner.iteration() < iterations && !stop.isRequested()) {
                if (viewer != null) {
                    if (control.takeReset()) {
                        runner.close();
                        runner = new WorldRunner(w, settings, useLevels);
                        viewer.feed().reset();
                        attach(runner, recorder, viewer, levelEvents, err);
                        err.println("reset to iteration 0 from the viewer");
                        start = System.nanoTime();
                        halfNs = -1;
                        shownPaused = -1;
                        runner.step(); // the listeners get iteration 0 (and the page the initial scene) with it
                        continue;
                    }
                    if (!control.mayStep()) {
                        if (shownPaused != runner.iteration()) {
                            // the page shows the exact iteration the run holds at
                            shownPaused = runner.iteration();
                            viewer.feed().flush(runner);
                            viewer.status(true, iterations, null, java.util.List.of());
                        }
                        if (pausedSinceNs < 0) {
                            pausedSinceNs = System.nanoTime();
                        }
                        LockSupport.parkNanos(2_000_000L);
                        continue;
                    }
                    if (pausedSinceNs >= 0 && !control.paused()) {
                        // playing again: pacing and the real-time factor leave the pause out
                        start += System.nanoTime() - pausedSinceNs;
                        pausedSinceNs = -1;
                        shownPaused = -1;
                        viewer.status(false, iterations, null, java.util.List.of());
                    }
                }
                runner.step();
                long now = System.nanoTime();
                if (halfNs < 0 && runner.iteration() >= iterations / 2) {
                    halfNs = now;
                    halfSimNs = runner.simTimeNs();
                }
                if (rtf > 0) {
                    // pace: simulated time / rtf must not run ahead of wall time
                    long due = start + (long) (runner.simTimeNs() / rtf);
                    while ((now = System.nanoTime()) < due && !stop.isRequested()) {
                        LockSupport.parkNanos(Math.min(due - now, 50_000_000L));
                    }
                }
                if (now - lastProgress > 1_000_000_000L) {
                    lastProgress = now;
                    err.printf(Locale.ROOT, "iteration %d / %d, sim time %.3f s, real-time factor %.2f, %d models loaded%n",
                            runner.iteration(), iterations, runner.simTimeNs() / 1e9,
                            runner.simTimeNs() / (double) (now - start), runner.loadedModels().size());
                }
            }
            long end = System.nanoTime();
            double wallS = (end - start) / 1e9;
            double secondHalf = halfNs < 0 || end == halfNs ? 0 : (runner.simTimeNs() - halfSimNs) / (double) (end - halfNs);
            out.printf(Locale.ROOT, "world %s: %d iterations of %.4g s, sim time %.3f s in %.3f s wall, real-time factor %.4g"
                            + " (second half %.4g), %d level loads/unloads, %d models loaded at the end, seed %d%s%n",
                    w.name(), runner.iteration(), stepS, runner.simTimeNs() / 1e9, wallS,
                    runner.simTimeNs() / 1e9 / wallS, secondHalf, levelEvents[0], runner.loadedModels().size(), seed,
                    runner.iteration() < iterations ? " (interrupted)" : "");
            out.flush();
            if (viewer != null) {
                viewer.feed().flush(runner);
                viewer.status(true, iterations, runner.iteration() < iterations ? "stopped at iteration " + runner.iteration()
                        : "finished after " + runner.iteration() + " iterations", java.util.List.of());
                viewer.linger(view.lingerS(), stop::isRequested, out);
            }
            return runner.iteration();
        } finally {
            runner.close();
        }
    }

    /** The run's listeners on a (new) runner: the record, the viewer, the level lines. */
    private static void attach(WorldRunner runner, PoseRecorder recorder, LiveViewer viewer, int[] levelEvents,
                               PrintWriter err) {
        if (recorder != null) {
            runner.addListener(recorder);
        }
        if (viewer != null) {
            runner.addListener(viewer.feed());
        }
        runner.addListener((r, it, c) -> {
            for (String l : c.loadedLevels()) {
                err.println("Loaded level [" + l + "] at iteration " + it);
                levelEvents[0]++;
            }
            for (String l : c.unloadedLevels()) {
                err.println("Unloaded level [" + l + "] at iteration " + it);
                levelEvents[0]++;
            }
        });
    }

    /**
     * A local secondary ends when the primary that started it does: otherwise a primary killed
     * during the start-up (kill -9) left its secondaries waiting out their start timeout.
     */
    private static void exitWithParent(long pid, String me, PrintWriter err) {
        java.util.Optional<ProcessHandle> parent = ProcessHandle.of(pid);
        Runnable leave = () -> {
            synchronized (err) {
                err.println("tandem sim: secondary '" + me + "': the primary that started it (process " + pid
                        + ") has ended; stopping");
                err.flush();
            }
            System.exit(1);
        };
        if (parent.isEmpty()) {
            leave.run();
        } else {
            parent.get().onExit().thenRun(leave);
        }
    }

    private static String defaultSecondaryName() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "host";
        }
        return "secondary-" + host.replaceAll("[^A-Za-z0-9.-]", "") + "-" + ProcessHandle.current().pid();
    }
}
