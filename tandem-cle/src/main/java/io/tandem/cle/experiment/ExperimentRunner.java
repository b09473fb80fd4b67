package io.tandem.cle.experiment;

import io.tandem.cle.ClosedLoop;
import io.tandem.cle.Engine;
import io.tandem.cle.ProgressHandler;
import io.tandem.cle.StepTimings;
import io.tandem.cle.SyncMode;
import io.tandem.cle.TransferFunctions;
import io.tandem.cle.engine.BrainEngine;
import io.tandem.cle.engine.WorldEngine;
import io.tandem.cle.record.MultimeterTraces;
import io.tandem.cle.record.SpikeTrains;
import io.tandem.cle.record.Trajectory;
import io.tandem.cle.remote.EngineLauncher;
import io.tandem.cle.remote.RemoteEngine;
import io.tandem.neuro.Population;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Runs an {@link ExperimentFile}: builds its brain engine (the brain, with one device per
 * device the file declares), its world engine (the world, its colour overrides and the robot's
 * drive), its transfer functions (by class name, with their params) and the {@link ClosedLoop};
 * runs it to the file's timeout; writes the robot's trajectory, the spike trains of every spike
 * recorder and the samples of every multimeter; and sums the run up in one {@link Result}.
 *
 * <p>Device names: a file device that is one node keeps its name ({@code lpg}); a per-target
 * device (a leaky integrator of several targets) is one device per target, {@code name[i]}
 * ({@code actors[0]}, {@code actors[1]}). The builtin braitenberg brain has the same devices as
 * {@code examples/experiments/husky-braitenberg.json}; the builtin brunel brain its
 * {@code noise} generator and, when recorded, its {@code spikes} recorder.
 *
 * <p>Not thread-safe: one thread builds, runs and closes it. Building allocates; the run's steps
 * allocate what the engines do (see {@link ClosedLoop}).
 */
public final class ExperimentRunner implements AutoCloseable {
    /** the brain engine's name */
    public static final String BRAIN = "brain";
    /** the world engine's name */
    public static final String WORLD = "world";

    private final ExperimentFile file;
    private final ClosedLoop loop;
    private StepTimings timings;

    private ExperimentRunner(ExperimentFile file, ClosedLoop loop) {
        this.file = file;
        this.loop = loop;
    }

    /**
     * Builds the experiment's closed loop (engines, devices, transfer functions).
     *
     * @param file      the experiment
     * @param wallClock the clock of the step timings (ns); null for System.nanoTime
     * @param loader    loads the transfer function classes
     * @return the runner; close it to release the engines
     * @throws IllegalArgumentException naming the part that cannot be built (a transfer function
     *                                  class, a device a transfer function names, a wheel joint...)
     */
    public static ExperimentRunner build(ExperimentFile file, LongSupplier wallClock, ClassLoader loader) {
        return build(file, wallClock, loader, Map.of(), List.of(), null);
    }

    /**
     * Builds the experiment's closed loop, some engines served by processes of their own.
     *
     * @param file      the experiment
     * @param wallClock the clock of the step timings (ns); null for System.nanoTime
     * @param loader    loads the transfer function classes
     * @param separate  engine name ({@link #BRAIN}, {@link #WORLD}) to true for an engine in a
     *                  separate process ({@link RemoteEngine}, launched here, serving the same
     *                  engine from the same file); missing means in this process
     * @param overrides the {@code NAME=VALUE} parameters the file was loaded with (the engine
     *                  processes load it with them too)
     * @param launcher  starts the separate engines' servers with the arguments of
     *                  {@link #serverArgs}; may be null when no engine is separate
     * @return the runner; close it to release the engines (and end their processes)
     * @throws IllegalArgumentException naming the part that cannot be built
     */
    public static ExperimentRunner build(ExperimentFile file, LongSupplier wallClock, ClassLoader loader,
                                         Map<String, Boolean> separate, List<String> overrides, EngineLauncher launcher) {
        for (Map.Entry<String, Boolean> e : separate.entrySet()) {
            if (!e.getKey().equals(BRAIN) && !e.getKey().equals(WORLD)) {
                throw new IllegalArgumentException("no engine named '" + e.getKey() + "': the engines are " + BRAIN + " and "
                        + WORLD);
            }
            if (e.getValue() && launcher == null) {
                throw new IllegalArgumentException("engine '" + e.getKey() + "' in a separate process needs a launcher");
            }
        }
        List<AutoCloseable> built = new ArrayList<>();
        try {
            Engine brainEngine;
            List<String> recorders = recorders(file, "spike_recorder");
            List<String> multimeters = recorders(file, "multimeter");
            if (separate.getOrDefault(BRAIN, false)) {
                brainEngine = remote(BRAIN, launcher, serverArgs(BRAIN, file.source(), overrides), wallClock);
            } else {
                brainEngine = brainEngine(file, BRAIN).engine();
            }
            built.add(brainEngine);
            Engine worldEngine = separate.getOrDefault(WORLD, false)
                    ? remote(WORLD, launcher, serverArgs(WORLD, file.source(), overrides), wallClock)
                    : worldEngine(file, WORLD);
            built.add(worldEngine);
            ClosedLoop.Builder lb = ClosedLoop.builder()
                    .engine(brainEngine, file.engines().brainSyncStepNs())
                    .engine(worldEngine, file.engines().physicsSyncStepNs())
                    .loopStepNs(file.engines().loopStepNs())
                    .mode(file.engines().mode())
                    .timeoutNs(file.timeoutNs());
            for (ExperimentFile.TransferFunctionEntry tf : file.transferFunctions()) {
                if (tf.active()) {
                    try {
                        lb.transferFunction(TransferFunctions.instantiate(tf.className(), tf.params(), loader), tf.priority());
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(tf.location() + ": transfer function " + tf.name() + ": "
                                + e.getMessage(), e);
                    }
                }
            }
            if (file.robot().isPresent()) {
                ExperimentFile.Robot r = file.robot().get();
                lb.recordTrajectory(r.model());
                r.target().ifPresent(lb::trackModel);
            }
            for (String r : recorders) {
                lb.recordSpikes(r);
            }
            for (String m : multimeters) {
                lb.recordSamples(m);
            }
            if (wallClock != null) {
                lb.wallClock(wallClock);
            }
            return new ExperimentRunner(file, lb.build());
        } catch (RuntimeException e) {
            for (int i = built.size() - 1; i >= 0; i--) {
                try {
                    built.get(i).close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private static Engine remote(String name, EngineLauncher launcher, List<String> args, LongSupplier wallClock) {
        RemoteEngine.Builder b = RemoteEngine.builder(name).launch(launcher, args);
        if (wallClock != null) {
            b.wallClock(wallClock);
        }
        return b.connect();
    }

    /**
     * A brain engine and the names of its recording devices.
     *
     * @param recorders   its spike_recorder devices, in file order (immutable)
     * @param multimeters its multimeter devices, in file order (immutable)
     */
    record BrainAndRecorders(BrainEngine engine, List<String> recorders, List<String> multimeters) {
        BrainAndRecorders {
            recorders = List.copyOf(recorders);
            multimeters = List.copyOf(multimeters);
        }
    }

    /**
     * What an experiment's engine server is given to serve: {@code --experiment FILE}, a
     * {@code --set NAME=VALUE} per override, then the engine ({@link #BRAIN} or {@link #WORLD}),
     * the arguments of {@code tandem engine-server} after its connection options.
     *
     * @param engine     {@link #BRAIN} or {@link #WORLD}
     * @param experiment the experiment file
     * @param overrides  the {@code NAME=VALUE} parameters the file was loaded with
     * @return the arguments (immutable)
     */
    public static List<String> serverArgs(String engine, Path experiment, List<String> overrides) {
        List<String> a = new ArrayList<>(List.of("--experiment", experiment.toAbsolutePath().toString()));
        for (String o : overrides) {
            a.add("--set");
            a.add(o);
        }
        a.add(engine);
        return List.copyOf(a);
    }

    /**
     * The engine an experiment's engine server serves: the brain or the world, built exactly as
     * {@link #build} builds it in process (server side).
     *
     * @param file       the experiment (loaded with the client's overrides)
     * @param engine     {@link #BRAIN} or {@link #WORLD}
     * @param engineName the engine's name (the client's)
     * @return the engine
     * @throws IllegalArgumentException for another engine, or one that cannot be built
     */
    public static Engine serverEngine(ExperimentFile file, String engine, String engineName) {
        if (engine.equals(BRAIN)) {
            return brainEngine(file, engineName).engine();
        }
        if (engine.equals(WORLD)) {
            return worldEngine(file, engineName);
        }
        throw new IllegalArgumentException("no engine named '" + engine + "': the engines are " + BRAIN + " and " + WORLD);
    }

    /**
     * The experiment's brain as an engine, with one device per file device (see the class notes).
     *
     * @param file the experiment
     * @param name the engine's name
     * @return the engine (it owns the network) and its recording devices' names
     */
    static BrainAndRecorders brainEngine(ExperimentFile file, String name) {
        BrainSpec.Built brain = file.brain().build();
        try {
            BrainEngine.Builder bb = BrainEngine.builder(name, brain.network());
            List<String> recorders = new ArrayList<>();
            List<String> multimeters = new ArrayList<>();
            for (DeviceDecl d : devices(file.brain(), brain)) {
                switch (d.type()) {
                    case "poisson" -> bb.poissonSource(d.name(), d.node());
                    case "dc_source" -> bb.dcSource(d.name(), d.node());
                    case "leaky_integrator_alpha", "leaky_integrator_exp" -> bb.leakyIntegrator(d.name(), d.node());
                    case "spike_recorder" -> {
                        bb.spikeRecorder(d.name(), d.node());
                        recorders.add(d.name());
                    }
                    case "multimeter" -> {
                        bb.multimeter(d.name(), d.node());
                        multimeters.add(d.name());
                    }
                    default -> throw new IllegalArgumentException("device '" + d.name() + "' of type " + d.type()
                            + " has no closed-loop device");
                }
            }
            return new BrainAndRecorders(bb.build(), recorders, multimeters);
        } catch (RuntimeException e) {
            brain.close();
            throw e;
        }
    }

    /**
     * @param type {@code spike_recorder} or {@code multimeter}
     * @return the names of the experiment brain's devices of that type, in file order (without
     *         building the brain)
     */
    static List<String> recorders(ExperimentFile file, String type) {
        List<String> out = new ArrayList<>();
        if (file.brain() instanceof BrainSpec.Nest nest) {
            for (BrainSpec.DeviceSpec d : nest.devices()) {
                if (d.type().equals(type)) {
                    out.add(d.name());
                }
            }
            return out;
        }
        BrainSpec.Builtin b = (BrainSpec.Builtin) file.brain();
        if (type.equals("spike_recorder") && ("braitenberg".equals(b.name()) || b.recordSpikes())) {
            out.add("spikes");
        }
        return out;
    }

    /**
     * The experiment's world as an engine: its colour overrides and the robot's drive.
     *
     * @param file the experiment
     * @param name the engine's name
     * @return the engine
     */
    static WorldEngine worldEngine(ExperimentFile file, String name) {
        WorldEngine.Builder wb = WorldEngine.builder(name, file.world().sdf());
        for (ExperimentFile.VisualColor c : file.world().visualColors()) {
            wb.visualColor(c.model(), c.r(), c.g(), c.b());
        }
        if (file.robot().isPresent() && file.robot().get().drive().isPresent()) {
            ExperimentFile.Drive d = file.robot().get().drive().get();
            wb.skidSteer(file.robot().get().model(), d.leftWheels().toArray(new String[0]),
                    d.rightWheels().toArray(new String[0]), d.halfTrackM(), d.wheelGain());
        }
        return wb.build();
    }

    /** A closed-loop device of the brain: its name, file type and node. */
    record DeviceDecl(String name, String type, int node) {
    }

    /** @return the brain's closed-loop devices, in node order */
    static List<DeviceDecl> devices(BrainSpec spec, BrainSpec.Built brain) {
        List<DeviceDecl> out = new ArrayList<>();
        if (spec instanceof BrainSpec.Nest nest) {
            for (BrainSpec.DeviceSpec d : nest.devices()) {
                add(out, d.name(), d.type(), brain.node(d.name()));
            }
        } else {
            BrainSpec.Builtin b = (BrainSpec.Builtin) spec;
            Map<String, Population> nodes = brain.nodes();
            if ("braitenberg".equals(b.name())) {
                add(out, "lpg", "poisson", nodes.get("lpg"));
                add(out, "rpg", "poisson", nodes.get("rpg"));
                add(out, "gpg", "poisson", nodes.get("gpg"));
                add(out, "actors", "leaky_integrator_alpha", nodes.get("actors"));
                add(out, "spikes", "spike_recorder", nodes.get("spikes"));
            } else {
                add(out, "noise", "poisson", nodes.get("noise"));
                if (nodes.containsKey("spikes")) {
                    add(out, "spikes", "spike_recorder", nodes.get("spikes"));
                }
            }
        }
        return out;
    }

    private static void add(List<DeviceDecl> out, String name, String type, Population nodes) {
        if (nodes.size() == 1) {
            out.add(new DeviceDecl(name, type, nodes.id(0)));
        } else {
            for (int i = 0; i < nodes.size(); i++) {
                out.add(new DeviceDecl(name + "[" + i + "]", type, nodes.id(i)));
            }
        }
    }

    /** @return the experiment */
    public ExperimentFile file() {
        return file;
    }

    /** @return the closed loop */
    public ClosedLoop loop() {
        return loop;
    }

    /**
     * Runs the loop to the experiment's timeout (or until progress says stop).
     *
     * @param progress told after each loop step
     * @return the run's summary
     * @throws io.tandem.cle.ClosedLoopException if an engine or a transfer function failed
     */
    public Result run(ProgressHandler progress) {
        timings = loop.run(progress);
        return result();
    }

    /** @return the summary of the run so far (after {@link #run}) */
    public Result result() {
        if (timings == null) {
            throw new IllegalStateException("run the experiment first");
        }
        ExperimentFile.Robot robot = file.robot().orElse(null);
        String target = robot == null ? null : robot.target().orElse(null);
        double distance = target == null ? Double.NaN : loop.planarDistance(robot.model(), target);
        Trajectory t = loop.trajectory();
        return new Result(file.name(), loop.mode(), loop.timeNs() / 1e9, timings.steps(), timings.meanWallNs() / 1e6,
                timings.meanEngineNs(BRAIN) / 1e6, timings.meanEngineNs(WORLD) / 1e6, timings.meanTfNs() / 1e6,
                timings.meanMaxEngineNs() / 1e6, target, distance, t == null ? "" : t.sha256());
    }

    /**
     * Writes the robot's trajectory (CSV {@code time_s,x,y,z,yaw}), the spike trains of every spike
     * recorder (CSV {@code time_ms,recorder,node}: rows in time order, recorders in file order
     * within a time, each recorder's spikes in its own order) and, when the brain has multimeters,
     * their samples (CSV {@code time_ms,multimeter,node,} then one column per variable any
     * multimeter records, in first-seen order; a multimeter's row leaves the variables it does not
     * record empty; rows in time order, multimeters in file order within a time) to the files the
     * experiment names in {@code dir}. Times are ms, values NEST's units (mV, pA, nS). Each file is
     * written to a temporary file beside it and moved into place, so a failure leaves no
     * half-written file.
     *
     * @param dir the output folder (created if missing)
     * @return the files written
     * @throws UncheckedIOException when a file cannot be written
     */
    public List<Path> writeOutputs(Path dir) {
        return writeOutputs(dir, false);
    }

    /**
     * {@link #writeOutputs(Path)}; with {@code partial} (a run stopped before its end), each file
     * under its name marked {@code .partial} ({@code trajectory.partial.csv}), so that the outputs
     * of an earlier complete run stay as they were.
     *
     * @param dir     the output folder (created if missing)
     * @param partial whether the run stopped early
     * @return the files written
     * @throws UncheckedIOException when a file cannot be written
     */
    public List<Path> writeOutputs(Path dir, boolean partial) {
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            Trajectory t = loop.trajectory();
            if (t != null) {
                Path f = marked(file.outputs().trajectoryIn(dir), partial);
                writeAtomically(f, w -> {
                    w.write("time_s,x,y,z,yaw\n");
                    for (int i = 0; i < t.size(); i++) {
                        w.write(t.timeNs(i) / 1e9 + "," + t.x(i) + "," + t.y(i) + "," + t.z(i) + "," + t.yaw(i) + "\n");
                    }
                });
                written.add(f);
            }
            List<SpikeTrains> trains = loop.allSpikeTrains();
            if (!trains.isEmpty()) {
                Path f = marked(file.outputs().spikesIn(dir), partial);
                writeAtomically(f, w -> writeSpikes(w, trains));
                written.add(f);
            }
            List<MultimeterTraces> traces = loop.multimeterTraces();
            if (!traces.isEmpty()) {
                Path f = marked(file.outputs().multimeterIn(dir), partial);
                writeAtomically(f, w -> writeSamples(w, traces));
                written.add(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the experiment's outputs to " + dir + ": " + e.getMessage(), e);
        }
        return written;
    }

    /** Merges the recorders' spikes by time (ties: recorder order, then each recorder's order). */
    private static void writeSpikes(BufferedWriter w, List<SpikeTrains> trains) throws IOException {
        w.write("time_ms,recorder,node\n");
        int[] at = new int[trains.size()];
        while (true) {
            int next = -1;
            for (int r = 0; r < at.length; r++) {
                SpikeTrains t = trains.get(r);
                if (at[r] < t.size() && (next < 0 || t.timeNs(at[r]) < trains.get(next).timeNs(at[next]))) {
                    next = r;
                }
            }
            if (next < 0) {
                return;
            }
            SpikeTrains t = trains.get(next);
            int i = at[next]++;
            w.write(t.timeNs(i) / 1e6 + "," + t.recorder() + "," + t.sender(i) + "\n");
        }
    }

    /** Merges the multimeters' rows by time (ties: multimeter order, then each one's row order), one column per variable. */
    private static void writeSamples(BufferedWriter w, List<MultimeterTraces> traces) throws IOException {
        List<String> columns = new ArrayList<>();
        for (MultimeterTraces t : traces) {
            for (String v : t.recordFrom()) {
                if (!columns.contains(v)) {
                    columns.add(v);
                }
            }
        }
        w.write("time_ms,multimeter,node");
        for (String c : columns) {
            w.write("," + c);
        }
        w.write("\n");
        int[][] columnOf = new int[traces.size()][];
        for (int m = 0; m < traces.size(); m++) {
            columnOf[m] = new int[columns.size()];
            for (int c = 0; c < columns.size(); c++) {
                columnOf[m][c] = traces.get(m).recordFrom().indexOf(columns.get(c));
            }
        }
        int[] at = new int[traces.size()];
        StringBuilder line = new StringBuilder(128);
        while (true) {
            int next = -1;
            for (int m = 0; m < at.length; m++) {
                MultimeterTraces t = traces.get(m);
                if (at[m] < t.size() && (next < 0 || t.timeNs(at[m]) < traces.get(next).timeNs(at[next]))) {
                    next = m;
                }
            }
            if (next < 0) {
                return;
            }
            MultimeterTraces t = traces.get(next);
            int i = at[next]++;
            line.setLength(0);
            line.append(t.timeNs(i) / 1e6).append(',').append(t.multimeter()).append(',').append(t.sender(i));
            for (int c = 0; c < columns.size(); c++) {
                line.append(',');
                int v = columnOf[next][c];
                if (v >= 0) {
                    line.append(t.value(i, v));
                }
            }
            w.write(line.append('\n').toString());
        }
    }

    /** {@code name.ext} as {@code name.partial.ext} when partial. */
    static Path marked(Path f, boolean partial) {
        if (!partial) {
            return f;
        }
        String n = f.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return f.resolveSibling(dot > 0 ? n.substring(0, dot) + ".partial" + n.substring(dot) : n + ".partial");
    }

    private interface Body {
        void write(BufferedWriter w) throws IOException;
    }

    private static void writeAtomically(Path f, Body body) throws IOException {
        try (io.tandem.world.OutputFile out = io.tandem.world.OutputFile.start(f)) {
            try (BufferedWriter w = Files.newBufferedWriter(out.temp(), StandardCharsets.UTF_8)) {
                body.write(w);
            }
            out.commit();
        }
    }

    @Override
    public void close() {
        loop.close();
    }

    /**
     * A run's summary.
     *
     * @param experiment       the experiment's name
     * @param mode             the synchronization mode
     * @param simTimeS         simulated time reached, s
     * @param steps            loop steps run
     * @param wallMsPerStep    mean wall time per loop step, ms
     * @param brainMsPerStep   mean brain engine time per loop step, ms
     * @param physicsMsPerStep mean world engine time per loop step, ms
     * @param tfMsPerStep      mean transfer function time per loop step, ms
     * @param maxEngineMsPerStep mean over steps of the slower engine's time, ms (the parallel mode's floor)
     * @param target           the model the distance is measured to, or null
     * @param finalDistanceM   the robot's final horizontal distance to the target, m (NaN without one)
     * @param trajectorySha256 the SHA-256 of the robot's recorded poses (empty without a robot)
     */
    public record Result(String experiment, SyncMode mode, double simTimeS, long steps, double wallMsPerStep,
                         double brainMsPerStep, double physicsMsPerStep, double tfMsPerStep, double maxEngineMsPerStep,
                         String target, double finalDistanceM, String trajectorySha256) {
        /**
         * @return the one-line JSON object of {@code tandem cle --json}; the distance field is named
         *         after the target with a trailing {@code _screen} dropped
         *         ({@code final_distance_to_red_m} for {@code red_screen})
         */
        public String toJson() {
            StringBuilder b = new StringBuilder(256);
            b.append("{\"experiment\":").append(quote(experiment))
                    .append(",\"mode\":").append(quote(mode.name().toLowerCase(Locale.ROOT)))
                    .append(",\"sim_time_s\":").append(num(simTimeS))
                    .append(",\"steps\":").append(steps)
                    .append(",\"wall_ms_per_step\":").append(num(wallMsPerStep))
                    .append(",\"brain_ms_per_step\":").append(num(brainMsPerStep))
                    .append(",\"physics_ms_per_step\":").append(num(physicsMsPerStep))
                    .append(",\"tf_ms_per_step\":").append(num(tfMsPerStep))
                    .append(",\"wall_over_max_engine\":").append(num(wallMsPerStep / maxEngineMsPerStep));
            if (target != null) {
                b.append(",\"final_distance_to_").append(distanceLabel(target)).append("_m\":").append(num(finalDistanceM));
            }
            b.append(",\"trajectory_sha256\":").append(quote(trajectorySha256)).append('}');
            return b.toString();
        }

        static String distanceLabel(String target) {
            return target.endsWith("_screen") ? target.substring(0, target.length() - "_screen".length()) : target;
        }

        private static String num(double v) {
            return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null";
        }

        private static String quote(String s) {
            StringBuilder b = new StringBuilder(s.length() + 2).append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    b.append('\\').append(c);
                } else if (c < 0x20) {
                    b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
            return b.append('"').toString();
        }
    }
}
