package io.tandem.cle;

import io.tandem.cle.device.Device;
import io.tandem.cle.device.DeviceBinder;
import io.tandem.cle.device.ModelPose;
import io.tandem.cle.device.Multimeter;
import io.tandem.cle.device.SpikeRecorder;
import io.tandem.cle.internal.SystemNanoClock;
import io.tandem.cle.record.MultimeterTraces;
import io.tandem.cle.record.SpikeTrains;
import io.tandem.cle.record.Trajectory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * The data flow (the same in both modes, so they give bitwise the same results):
 *   loop step k covers [t_k, t_k + loopStep). For every engine e that syncs at t_k (t_k a
 *   multiple of its sync step; every engine syncs at 0):
 *     1. e.applyInputs(): the commands the transfer functions wrote before step k;
 *     2. latch e's devices: the outputs e published after its last advance (at t_k) become what
 *        transfer functions read;
 *     3. e advances by its sync step, then publishes into its devices' back buffers.
 *   The transfer functions of step k linked to a syncing engine (or to none) run on the loop
 *   thread, reading the latched t_k data; their commands reach their engine at its next sync.
 * PARALLEL: 3 runs on one worker thread per engine (EngineWorker) while the transfer functions run;
 * the loop waits for the engines that sync at t_k+1 at the end of step k. SERIAL: 3 runs on the
 * loop thread for each syncing engine in registration order, then the transfer functions. Nothing
 * an engine's thread touches is touched by the loop thread while it advances (the back buffers
 * are the engine's, the front buffers and the commands the loop's), and the handoffs are
 * happens-before edges, so no data race can make the modes differ.
 *
 * Mixed sync steps are NRP-core's FTI loop (nrp.md 2.4): an engine syncs only at multiples of its
 * sync step and advances a whole sync step at once; a transfer function runs only in the loop
 * steps where the engine it commands syncs; data of an engine that did not sync is the last it
 * published (NRP-core's "not updated" DataPacks). The one-step delay is the CLE's (nrp.md 1.3).
 */

/**
 * The closed loop engine: engines stepped for a fixed loop step, transfer functions between them,
 * in {@link SyncMode#PARALLEL} or {@link SyncMode#SERIAL} synchronization (the NRP CLE, NRP-core's
 * FTI loop). Build one with {@link #builder()}; {@link #run(long, ProgressHandler)} it.
 *
 * <p>Semantics: in loop step k the engines advance from t_k to t_k+1 with the commands written
 * before step k, and the transfer functions of step k read the engines' outputs at t_k; their
 * commands act from step k+1 on (a one-step delay). Both modes give bitwise the same results;
 * only the wall time differs.
 *
 * <p>Threads: use a loop from one thread (the loop thread). In PARALLEL mode it owns one thread
 * per engine; {@link #close()} it. A run's steps allocate nothing beyond what engines, transfer
 * functions and the progress handler do (recorded spikes and samples grow their buffers by doubling).
 */
public final class ClosedLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClosedLoop.class);
    /** the NRP CLE's default loop step: 20 ms */
    public static final long DEFAULT_LOOP_STEP_NS = 20_000_000L;

    private final Engine[] engines;
    private final long[] syncStepNs;
    private final long[] nextSyncNs;
    private final boolean[] syncing;
    /** per engine: the step index (within the run) its advance in flight started in, -1 if none */
    private final int[] startedStep;
    /** per engine: the devices handed out, latched at its syncs */
    private final Device[][] devices;
    private final TransferFunction[] tfs;
    /** per transfer function (sorted): the engine it is linked to, -1 for none */
    private final int[] tfEngine;
    private final SyncMode mode;
    private final long loopStepNs;
    private final long timeoutNs;
    private final LongSupplier clock;
    private final EngineWorker[] workers;
    private final Trajectory trajectory;
    private final ModelPose trajectoryPose;
    private final Map<String, ModelPose> tracked;
    private final SpikeTrains[] spikes; // per recorded spike recorder, in recordSpikes order
    private final SpikeRecorder[] spikeDevices;
    private final int[] spikeEngines;
    private final MultimeterTraces[] traces; // per recorded multimeter, in recordSamples order
    private final Multimeter[] meterDevices;
    private final int[] meterEngines;
    private long timeNs;
    private long iteration;
    private boolean initialized;
    private boolean failed;
    private boolean closed;

    private ClosedLoop(Builder b, List<TransferFunction> sorted, int[] tfEngine, Device[][] devices,
            ModelPose trajectoryPose, Map<String, ModelPose> tracked, SpikeRecorder[] spikeDevices, int[] spikeEngines,
            Multimeter[] meterDevices, int[] meterEngines) {
        int n = b.engines.size();
        this.engines = b.engines.toArray(new Engine[0]);
        this.syncStepNs = new long[n];
        for (int i = 0; i < n; i++) {
            Long s = b.syncSteps.get(i);
            syncStepNs[i] = s == null ? b.loopStepNs : s;
        }
        this.nextSyncNs = new long[n];
        this.syncing = new boolean[n];
        this.startedStep = new int[n];
        Arrays.fill(startedStep, -1);
        this.devices = devices;
        this.tfs = sorted.toArray(new TransferFunction[0]);
        this.tfEngine = tfEngine;
        this.mode = b.mode;
        this.loopStepNs = b.loopStepNs;
        this.timeoutNs = b.timeoutNs;
        this.clock = b.clock;
        this.trajectoryPose = trajectoryPose;
        this.trajectory = trajectoryPose == null ? null : new Trajectory(trajectoryPose.name());
        this.tracked = tracked;
        this.spikeDevices = spikeDevices;
        this.spikeEngines = spikeEngines;
        this.spikes = new SpikeTrains[spikeDevices.length];
        for (int i = 0; i < spikes.length; i++) {
            spikes[i] = new SpikeTrains(spikeDevices[i].name());
        }
        this.meterDevices = meterDevices;
        this.meterEngines = meterEngines;
        this.traces = new MultimeterTraces[meterDevices.length];
        for (int i = 0; i < traces.length; i++) {
            traces[i] = new MultimeterTraces(meterDevices[i].name(), meterDevices[i].recordFrom());
        }
        this.workers = new EngineWorker[mode == SyncMode.PARALLEL ? n : 0];
    }

    /** @return a new builder (loop step 20 ms, PARALLEL, no timeout) */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the synchronization mode */
    public SyncMode mode() {
        return mode;
    }

    /** @return the loop step, ns */
    public long loopStepNs() {
        return loopStepNs;
    }

    /** @return the simulation timeout, ns of simulated time (0: none) */
    public long timeoutNs() {
        return timeoutNs;
    }

    /** @return the loop's simulated time, ns (the start of the next loop step) */
    public long timeNs() {
        return timeNs;
    }

    /** @return the loop steps run since time 0 */
    public long iteration() {
        return iteration;
    }

    /** @return the engines, in registration order */
    public List<Engine> engines() {
        return List.of(engines);
    }

    /**
     * @param name an engine's name
     * @return its sync step, ns
     */
    public long syncStepNs(String name) {
        for (int i = 0; i < engines.length; i++) {
            if (engines[i].name().equals(name)) {
                return syncStepNs[i];
            }
        }
        throw new IllegalArgumentException("no engine '" + name + "' in the loop");
    }

    /** @return the transfer functions in the order they run (priority, then registration) */
    public List<TransferFunction> transferFunctions() {
        return List.of(tfs);
    }

    /** @return the recorded trajectory, or null when none was asked for ({@link Builder#recordTrajectory}) */
    public Trajectory trajectory() {
        return trajectory;
    }

    /**
     * @return the spikes of the first recorder asked for, or null when none were
     *         ({@link Builder#recordSpikes})
     */
    public SpikeTrains spikeTrains() {
        return spikes.length == 0 ? null : spikes[0];
    }

    /** @return the recorded spikes of every recorder asked for, in {@link Builder#recordSpikes} order (immutable) */
    public List<SpikeTrains> allSpikeTrains() {
        return List.of(spikes);
    }

    /** @return the recorded samples of every multimeter asked for, in {@link Builder#recordSamples} order (immutable) */
    public List<MultimeterTraces> multimeterTraces() {
        return List.of(traces);
    }

    /**
     * @param model a model named in {@link Builder#trackModel} or {@link Builder#recordTrajectory}
     * @return its pose device: the pose at the loop's current time
     */
    public ModelPose trackedPose(String model) {
        ModelPose p = tracked.get(model);
        if (p == null) {
            throw new IllegalArgumentException("model '" + model + "' is not tracked; tracked: " + tracked.keySet()
                    + " (add it with trackModel)");
        }
        return p;
    }

    /**
     * @param modelA a tracked model
     * @param modelB another tracked model
     * @return the horizontal (x, y) distance between their model frames now, m
     */
    public double planarDistance(String modelA, String modelB) {
        ModelPose a = trackedPose(modelA);
        ModelPose b = trackedPose(modelB);
        return Math.hypot(a.x() - b.x(), a.y() - b.y());
    }

    /**
     * Initializes the engines and publishes their time-0 outputs (loop thread). {@link #run} does
     * it when needed; call it to inspect devices before the first step. Idempotent.
     */
    public void initialize() {
        checkUsable();
        if (initialized) {
            return;
        }
        for (Engine e : engines) {
            e.initialize();
            e.publishOutputs();
        }
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new EngineWorker(engines[i], clock);
        }
        initialized = true;
        Arrays.fill(syncing, true);
        latchSyncing();
        LOG.info("closed loop initialized: {} engines {}, {} transfer functions, loop step {} ms, {}",
                engines.length, engineSummary(), tfs.length, loopStepNs / 1e6, mode.name().toLowerCase(Locale.ROOT));
    }

    private String engineSummary() {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < engines.length; i++) {
            b.append(i == 0 ? "" : ", ").append(engines[i].name()).append(" sync ").append(syncStepNs[i] / 1e6).append(" ms");
        }
        return b.append(']').toString();
    }

    /**
     * Runs until the timeout ({@link Builder#timeoutNs}).
     *
     * @param progress told after each step (may stop the run)
     * @return the run's timings
     * @throws IllegalStateException without a timeout
     */
    public StepTimings run(ProgressHandler progress) {
        if (timeoutNs <= 0) {
            throw new IllegalStateException("run(progress) runs until the timeout, but the loop has none: give"
                    + " timeoutNs to the builder or call run(durationNs, progress)");
        }
        return run(Math.max(0, timeoutNs - timeNs), progress);
    }

    /**
     * Runs loop steps for {@code durationNs} of simulated time, or until the progress handler says
     * stop or the timeout is reached (loop thread; blocking).
     *
     * @param durationNs a non-negative multiple of the loop step
     * @param progress   told after each step; {@link ProgressHandler#NONE} for none
     * @return the run's timings, one entry per step run
     * @throws IllegalArgumentException if the duration is not a multiple of the loop step
     * @throws ClosedLoopException      if an engine or transfer function failed (the loop is then unusable until reset)
     */
    public StepTimings run(long durationNs, ProgressHandler progress) {
        if (durationNs < 0 || durationNs % loopStepNs != 0) {
            throw new IllegalArgumentException("run duration " + durationNs + " ns must be a non-negative multiple of the loop step "
                    + loopStepNs + " ns");
        }
        if (progress == null) {
            throw new IllegalArgumentException("progress must not be null (use ProgressHandler.NONE)");
        }
        initialize();
        long steps = durationNs / loopStepNs;
        if (timeoutNs > 0) {
            steps = Math.min(steps, Math.max(0, (timeoutNs - timeNs) / loopStepNs));
        }
        if (steps > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("at most " + (Integer.MAX_VALUE - 1) + " loop steps per run, got " + steps);
        }
        int n = (int) steps;
        List<String> names = new ArrayList<>();
        for (Engine e : engines) {
            names.add(e.name());
        }
        StepTimings timings = new StepTimings(names, n);
        if (trajectory != null) {
            trajectory.ensureCapacity(trajectory.size() + n + 1);
        }
        try {
            for (int s = 0; s < n; s++) {
                step(s, timings);
                if (!progress.onStep(iteration - 1, timeNs)) {
                    break;
                }
            }
            finishRun(timings);
        } catch (RuntimeException | Error e) {
            failed = true;
            awaitAllQuietly();
            if (e instanceof ClosedLoopException) {
                throw e;
            }
            throw new ClosedLoopException("closed loop failed at t = " + timeNs + " ns: " + e.getMessage(), e);
        }
        return timings;
    }

    private void step(int s, StepTimings timings) {
        long wall0 = clock.getAsLong();
        long now = timeNs;
        for (int e = 0; e < engines.length; e++) {
            syncing[e] = nextSyncNs[e] == now;
        }
        latchSyncing();
        if (trajectory != null) {
            trajectory.record(now, trajectoryPose);
        }
        for (int e = 0; e < engines.length; e++) {
            if (syncing[e]) {
                engines[e].applyInputs();
                nextSyncNs[e] += syncStepNs[e];
            }
        }
        if (mode == SyncMode.PARALLEL) {
            for (int e = 0; e < engines.length; e++) {
                if (syncing[e]) {
                    workers[e].start(syncStepNs[e]);
                    startedStep[e] = s;
                }
            }
        } else {
            for (int e = 0; e < engines.length; e++) {
                if (syncing[e]) {
                    long t0 = clock.getAsLong();
                    advanceInline(e);
                    timings.recordEngine(e, s, clock.getAsLong() - t0);
                }
            }
        }
        long tf0 = clock.getAsLong();
        for (int i = 0; i < tfs.length; i++) {
            int linked = tfEngine[i];
            if (linked < 0 || syncing[linked]) {
                tfs[i].run(now, iteration);
            }
        }
        long tfNs = clock.getAsLong() - tf0;
        long end = now + loopStepNs;
        if (mode == SyncMode.PARALLEL) {
            for (int e = 0; e < engines.length; e++) {
                if (startedStep[e] >= 0 && nextSyncNs[e] == end) {
                    timings.recordEngine(e, startedStep[e], workers[e].await());
                    startedStep[e] = -1;
                }
            }
        }
        timeNs = end;
        iteration++;
        timings.record(s, clock.getAsLong() - wall0, tfNs);
    }

    private void advanceInline(int e) {
        try {
            engines[e].advance(syncStepNs[e]);
            engines[e].publishOutputs();
        } catch (RuntimeException | Error x) {
            throw new ClosedLoopException("engine '" + engines[e].name() + "' failed while advancing: " + x.getMessage(), x);
        }
    }

    /** At the end of a run: every engine idle; those at a sync point show their data at the loop's time. */
    private void finishRun(StepTimings timings) {
        for (int e = 0; e < workers.length; e++) {
            if (startedStep[e] >= 0) {
                timings.recordEngine(e, startedStep[e], workers[e].await());
                startedStep[e] = -1;
            }
        }
        for (int e = 0; e < engines.length; e++) {
            syncing[e] = nextSyncNs[e] == timeNs;
        }
        latchSyncing();
        if (trajectory != null) {
            trajectory.record(timeNs, trajectoryPose);
        }
    }

    /** Latches the devices of the engines flagged in {@link #syncing}, and collects their spikes and samples. */
    private void latchSyncing() {
        for (int e = 0; e < engines.length; e++) {
            if (!syncing[e]) {
                continue;
            }
            for (int i = 0; i < spikeDevices.length; i++) {
                if (spikeEngines[i] == e && spikeDevices[i].latch()) {
                    spikes[i].append(spikeDevices[i]);
                }
            }
            for (int i = 0; i < meterDevices.length; i++) {
                if (meterEngines[i] == e && meterDevices[i].latch()) {
                    traces[i].append(meterDevices[i]);
                }
            }
            Device[] d = devices[e];
            for (int i = 0; i < d.length; i++) {
                d[i].latch();
            }
        }
    }

    private void awaitAllQuietly() {
        for (int e = 0; e < workers.length; e++) {
            if (workers[e] != null && startedStep[e] >= 0) {
                try {
                    workers[e].await();
                } catch (RuntimeException x) {
                    // the first failure is the one reported
                }
                startedStep[e] = -1;
            }
        }
    }

    /**
     * Returns to time 0: engines reset and republish, devices cleared, transfer functions reset,
     * recordings emptied (loop thread; allocates). A failed loop becomes usable again.
     */
    public void reset() {
        if (closed) {
            throw new IllegalStateException("the closed loop is closed");
        }
        awaitAllQuietly();
        for (Engine e : engines) {
            e.reset();
        }
        for (Device[] ds : devices) {
            for (Device d : ds) {
                d.clear();
            }
        }
        for (TransferFunction tf : tfs) {
            tf.reset();
        }
        Arrays.fill(nextSyncNs, 0);
        timeNs = 0;
        iteration = 0;
        if (trajectory != null) {
            trajectory.clear();
        }
        for (SpikeTrains t : spikes) {
            t.clear();
        }
        for (MultimeterTraces t : traces) {
            t.clear();
        }
        failed = false;
        if (initialized) {
            for (Engine e : engines) {
                e.publishOutputs();
            }
            Arrays.fill(syncing, true);
            latchSyncing();
        }
    }

    private void checkUsable() {
        if (closed) {
            throw new IllegalStateException("the closed loop is closed");
        }
        if (failed) {
            throw new IllegalStateException("the closed loop failed in an earlier run; reset() it first");
        }
    }

    /** Stops the engine threads and closes the engines (loop thread). Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        awaitAllQuietly();
        for (EngineWorker w : workers) {
            if (w != null) {
                w.close();
            }
        }
        for (Engine e : engines) {
            e.close();
        }
    }

    /**
     * Collects the engines, transfer functions and options; {@link #build()} validates everything
     * eagerly with messages that say what to change, and binds the transfer functions' devices.
     * Not thread-safe.
     */
    public static final class Builder {
        private final List<Engine> engines = new ArrayList<>();
        private final List<Long> syncSteps = new ArrayList<>();
        private final List<TransferFunction> tfs = new ArrayList<>();
        private final List<Integer> priorities = new ArrayList<>();
        private final List<String> trackedModels = new ArrayList<>();
        private long loopStepNs = DEFAULT_LOOP_STEP_NS;
        private SyncMode mode = SyncMode.PARALLEL;
        private long timeoutNs;
        private LongSupplier clock = SystemNanoClock.MONOTONIC_NS;
        private String trajectoryModel;
        private final List<String> spikeRecorders = new ArrayList<>();
        private final List<String> multimeters = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds an engine that syncs every loop step.
         *
         * @param engine the engine (the loop owns it from now: closing the loop closes it)
         * @return this
         */
        public Builder engine(Engine engine) {
            return add(engine, null);
        }

        /**
         * Adds an engine with its own sync step (NRP-core's {@code EngineTimestep}): it syncs and
         * exchanges data only at multiples of it, advancing a whole sync step at once.
         *
         * @param engine     the engine
         * @param syncStepNs a positive multiple of the loop step and of the engine's timestep
         * @return this
         */
        public Builder engine(Engine engine, long syncStepNs) {
            return add(engine, syncStepNs);
        }

        private Builder add(Engine engine, Long syncStep) {
            if (engine == null) {
                throw new IllegalArgumentException("engine must not be null");
            }
            for (Engine e : engines) {
                if (e == engine) {
                    throw new IllegalArgumentException("engine '" + engine.name() + "' is added twice");
                }
                if (e.name().equals(engine.name())) {
                    throw new IllegalArgumentException("two engines are named '" + engine.name() + "': engine names must be unique");
                }
            }
            if (syncStep != null && syncStep <= 0) {
                throw new IllegalArgumentException("engine '" + engine.name() + "': sync step must be > 0 ns, got " + syncStep);
            }
            engines.add(engine);
            syncSteps.add(syncStep);
            return this;
        }

        /**
         * Adds a transfer function with its own priority.
         *
         * @param tf the transfer function
         * @return this
         */
        public Builder transferFunction(TransferFunction tf) {
            if (tf == null) {
                throw new IllegalArgumentException("transfer function must not be null");
            }
            return transferFunction(tf, tf.priority());
        }

        /**
         * Adds a transfer function with a priority that overrides its own (an experiment file's {@code priority}).
         *
         * @param tf       the transfer function
         * @param priority higher runs first
         * @return this
         */
        public Builder transferFunction(TransferFunction tf, int priority) {
            if (tf == null) {
                throw new IllegalArgumentException("transfer function must not be null");
            }
            if (tf.kind() == null) {
                throw new IllegalArgumentException("transfer function '" + tf.name() + "' has no kind: return ROBOT_TO_NEURON"
                        + " or NEURON_TO_ROBOT from kind()");
            }
            for (TransferFunction t : tfs) {
                if (t == tf) {
                    throw new IllegalArgumentException("transfer function '" + tf.name() + "' is added twice");
                }
            }
            tfs.add(tf);
            priorities.add(priority);
            return this;
        }

        /**
         * @param ns the loop step, ns (default 20 ms, the NRP CLE's): every engine's sync step and timestep must divide it
         * @return this
         */
        public Builder loopStepNs(long ns) {
            if (ns <= 0) {
                throw new IllegalArgumentException("loop step must be > 0 ns, got " + ns);
            }
            loopStepNs = ns;
            return this;
        }

        /**
         * @param m PARALLEL (default) or SERIAL
         * @return this
         */
        public Builder mode(SyncMode m) {
            if (m == null) {
                throw new IllegalArgumentException("mode must not be null");
            }
            mode = m;
            return this;
        }

        /**
         * @param ns simulated time at which runs stop (NRP-core's {@code SimulationTimeout}); 0 for none
         * @return this
         */
        public Builder timeoutNs(long ns) {
            if (ns < 0) {
                throw new IllegalArgumentException("timeout must be >= 0 ns (0: none), got " + ns);
            }
            timeoutNs = ns;
            return this;
        }

        /**
         * @param wallClockNs a monotonic wall clock, ns, for the timing figures only (default
         *                    {@code System::nanoTime}); called from the loop and engine threads
         * @return this
         */
        public Builder wallClock(LongSupplier wallClockNs) {
            if (wallClockNs == null) {
                throw new IllegalArgumentException("clock must not be null");
            }
            clock = wallClockNs;
            return this;
        }

        /**
         * Records a model's pose every loop step ({@link ClosedLoop#trajectory()}); it is tracked too.
         *
         * @param model the model (a {@link ModelPose} device of an engine)
         * @return this
         */
        public Builder recordTrajectory(String model) {
            trajectoryModel = model;
            return trackModel(model);
        }

        /**
         * Tracks models' poses ({@link ClosedLoop#trackedPose}, {@link ClosedLoop#planarDistance}).
         *
         * @param models the models (each a {@link ModelPose} device of an engine)
         * @return this
         */
        public Builder trackModel(String... models) {
            for (String m : models) {
                if (!trackedModels.contains(m)) {
                    trackedModels.add(m);
                }
            }
            return this;
        }

        /**
         * Accumulates the spikes of a {@link SpikeRecorder} device ({@link ClosedLoop#allSpikeTrains()};
         * the first one asked for is {@link ClosedLoop#spikeTrains()}). Call it once per recorder.
         *
         * @param recorder the device's name
         * @return this
         */
        public Builder recordSpikes(String recorder) {
            if (!spikeRecorders.contains(recorder)) {
                spikeRecorders.add(recorder);
            }
            return this;
        }

        /**
         * Accumulates the samples of a {@link Multimeter} device ({@link ClosedLoop#multimeterTraces()}).
         * Call it once per multimeter.
         *
         * @param multimeter the device's name
         * @return this
         */
        public Builder recordSamples(String multimeter) {
            if (!multimeters.contains(multimeter)) {
                multimeters.add(multimeter);
            }
            return this;
        }

        /**
         * Validates, binds the transfer functions' devices and builds the loop (engine threads
         * start at the first run).
         *
         * @return the loop
         * @throws IllegalArgumentException naming what is wrong: no engines, a loop step or sync
         *                                  step that is not a multiple of an engine's timestep, a
         *                                  sync step that is not a multiple of the loop step, a
         *                                  device that no engine has, a transfer function that
         *                                  commands the wrong side or two engines
         */
        public ClosedLoop build() {
            if (engines.isEmpty()) {
                throw new IllegalArgumentException("a closed loop needs at least one engine (a brain and a world engine, typically)");
            }
            for (int i = 0; i < engines.size(); i++) {
                Engine e = engines.get(i);
                long ts = e.timestepNs();
                if (ts <= 0) {
                    throw new IllegalArgumentException("engine '" + e.name() + "' reports timestep " + ts + " ns; it must be > 0");
                }
                Long sync = syncSteps.get(i);
                if (sync == null) {
                    if (loopStepNs % ts != 0) {
                        throw new IllegalArgumentException("loop step " + ms(loopStepNs) + " is not a multiple of engine '" + e.name()
                                + "''s timestep " + ms(ts) + ": choose a loop step that is (e.g. " + ms(roundUp(loopStepNs, ts))
                                + ") or give the engine a sync step that is");
                    }
                } else {
                    if (sync % ts != 0) {
                        throw new IllegalArgumentException("engine '" + e.name() + "': sync step " + ms(sync) + " is not a multiple of"
                                + " its timestep " + ms(ts));
                    }
                    if (sync % loopStepNs != 0) {
                        throw new IllegalArgumentException("engine '" + e.name() + "': sync step " + ms(sync) + " is not a multiple of"
                                + " the loop step " + ms(loopStepNs) + " (engines sync only at loop step boundaries)");
                    }
                }
            }
            Binder binder = new Binder(engines);
            // sort by descending priority, stable (registration order among equals)
            Integer[] order = new Integer[tfs.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.comparingInt((Integer i) -> -priorities.get(i)));
            List<TransferFunction> sorted = new ArrayList<>();
            int[] tfEngine = new int[order.length];
            for (int k = 0; k < order.length; k++) {
                TransferFunction tf = tfs.get(order[k]);
                binder.begin(tf);
                try {
                    tf.bind(binder);
                } catch (IllegalArgumentException x) {
                    throw new IllegalArgumentException("transfer function '" + tf.name() + "': " + x.getMessage(), x);
                }
                tfEngine[k] = binder.linkedEngine();
                sorted.add(priorities.get(order[k]) == tf.priority() ? tf : new PrioritizedTransferFunction(tf, priorities.get(order[k])));
            }
            binder.begin(null);
            ModelPose trajectoryPose = null;
            Map<String, ModelPose> tracked = new LinkedHashMap<>();
            for (String m : trackedModels) {
                try {
                    tracked.put(m, binder.device(m, ModelPose.class));
                } catch (IllegalArgumentException x) {
                    throw new IllegalArgumentException("cannot track model '" + m + "': " + x.getMessage(), x);
                }
            }
            if (trajectoryModel != null) {
                trajectoryPose = tracked.get(trajectoryModel);
            }
            SpikeRecorder[] spikeDevices = new SpikeRecorder[spikeRecorders.size()];
            int[] spikeEngines = new int[spikeDevices.length];
            for (int i = 0; i < spikeDevices.length; i++) {
                String r = spikeRecorders.get(i);
                try {
                    spikeDevices[i] = binder.device(r, SpikeRecorder.class);
                } catch (IllegalArgumentException x) {
                    throw new IllegalArgumentException("cannot record spikes of '" + r + "': " + x.getMessage(), x);
                }
                spikeEngines[i] = binder.engineOf(spikeDevices[i]);
            }
            Multimeter[] meterDevices = new Multimeter[multimeters.size()];
            int[] meterEngines = new int[meterDevices.length];
            for (int i = 0; i < meterDevices.length; i++) {
                String m = multimeters.get(i);
                try {
                    meterDevices[i] = binder.device(m, Multimeter.class);
                } catch (IllegalArgumentException x) {
                    throw new IllegalArgumentException("cannot record samples of '" + m + "': " + x.getMessage(), x);
                }
                meterEngines[i] = binder.engineOf(meterDevices[i]);
            }
            return new ClosedLoop(this, sorted, tfEngine, binder.devicesPerEngine(), trajectoryPose, tracked, spikeDevices,
                    spikeEngines, meterDevices, meterEngines);
        }

        private static long roundUp(long v, long m) {
            return (v + m - 1) / m * m;
        }

        private static String ms(long ns) {
            return (ns % 1_000_000 == 0 ? Long.toString(ns / 1_000_000) : Double.toString(ns / 1e6)) + " ms";
        }
    }

    /** A transfer function whose priority the loop's registration overrides. */
    private static final class PrioritizedTransferFunction implements TransferFunction {
        private final TransferFunction tf;
        private final int priority;

        PrioritizedTransferFunction(TransferFunction tf, int priority) {
            this.tf = tf;
            this.priority = priority;
        }

        @Override
        public TransferFunctionKind kind() {
            return tf.kind();
        }

        @Override
        public int priority() {
            return priority;
        }

        @Override
        public String name() {
            return tf.name();
        }

        @Override
        public void bind(DeviceBinder devices) {
            tf.bind(devices);
        }

        @Override
        public void run(long timeNs, long iteration) {
            tf.run(timeNs, iteration);
        }

        @Override
        public void reset() {
            tf.reset();
        }
    }

    /** Looks devices up among the engines, remembers them per engine, and links transfer functions. */
    private static final class Binder implements DeviceBinder {
        private final List<Engine> engines;
        private final List<List<Device>> perEngine = new ArrayList<>();
        private final Set<Device> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        private TransferFunction current;
        private int linked;
        private String linkedBy;

        Binder(List<Engine> engines) {
            this.engines = engines;
            for (int i = 0; i < engines.size(); i++) {
                perEngine.add(new ArrayList<>());
            }
        }

        void begin(TransferFunction tf) {
            current = tf;
            linked = -1;
            linkedBy = null;
        }

        int linkedEngine() {
            return linked;
        }

        @Override
        public <D extends Device> D device(String name, Class<D> type) {
            if (name == null || type == null) {
                throw new IllegalArgumentException("a device lookup needs a name and a type");
            }
            D found = null;
            int foundIn = -1;
            List<String> wrongType = new ArrayList<>();
            for (int i = 0; i < engines.size(); i++) {
                D d;
                try {
                    d = engines.get(i).device(name, type);
                } catch (IllegalArgumentException x) {
                    wrongType.add("engine '" + engines.get(i).name() + "': " + x.getMessage());
                    continue;
                }
                if (d == null) {
                    continue;
                }
                if (found != null) {
                    throw new IllegalArgumentException("device '" + name + "' exists in engines '" + engines.get(foundIn).name()
                            + "' and '" + engines.get(i).name() + "': rename one");
                }
                found = d;
                foundIn = i;
            }
            if (found == null) {
                if (!wrongType.isEmpty()) {
                    throw new IllegalArgumentException("no " + type.getSimpleName() + " '" + name + "': " + String.join("; ", wrongType));
                }
                StringBuilder b = new StringBuilder("no engine has a " + type.getSimpleName() + " device named '" + name + "'; they have:");
                for (Engine e : engines) {
                    b.append(" engine '").append(e.name()).append("' ").append(e.deviceNames()).append(';');
                }
                throw new IllegalArgumentException(b.toString());
            }
            if (seen.add(found)) {
                perEngine.get(foundIn).add(found);
            }
            if (current != null && found.isCommand()) {
                Device.Side side = current.kind().commandSide();
                if (found.side() != side) {
                    throw new IllegalArgumentException("a " + current.kind() + " transfer function commands " + side.name()
                            .toLowerCase(Locale.ROOT) + " devices, but " + found + " is a " + found.side().name().toLowerCase(Locale.ROOT)
                            + " device (declare the other kind, or read it instead)");
                }
                if (linked >= 0 && linked != foundIn) {
                    throw new IllegalArgumentException("it commands " + linkedBy + " and " + found + ": a transfer function commands"
                            + " one engine (it runs when that engine syncs); split it in two");
                }
                linked = foundIn;
                linkedBy = found.toString();
            }
            return found;
        }

        int engineOf(Device d) {
            for (int i = 0; i < perEngine.size(); i++) {
                for (Device x : perEngine.get(i)) {
                    if (x == d) {
                        return i;
                    }
                }
            }
            throw new AssertionError(d);
        }

        Device[][] devicesPerEngine() {
            Device[][] r = new Device[perEngine.size()][];
            for (int i = 0; i < r.length; i++) {
                r[i] = perEngine.get(i).toArray(new Device[0]);
            }
            return r;
        }
    }
}
