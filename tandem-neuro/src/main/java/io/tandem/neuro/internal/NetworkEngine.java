package io.tandem.neuro.internal;

import io.tandem.neuro.NodeModel;
import io.tandem.neuro.SampleHandler;
import io.tandem.neuro.SpikeHandler;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/*
 * Implementation notes.
 *
 * Time is a grid of steps of h = resolution. Step s advances every neuron from s h to (s + 1) h;
 * a spike emitted in step s has the stamp s + 1 (it happened at (s + 1) h, as in NEST). A spike
 * with delay d steps is written to the target's ring buffer slot (s + d) mod L and read in step
 * s + d, where the kernels add it to the synaptic state at the end of the step: its effect starts
 * at time stamp h + d h exactly. Generators emit in step s as if they were neurons; currents
 * from dc generators are read the same way and act from the following step (NEST's I_stim).
 *
 * Steps run in slices of at most min_delay steps (the shortest delay of any connection, capped
 * at MAX_SLICE), NEST's communication interval [1]: nothing emitted within a slice can reach a
 * neuron within the same slice, so each thread first updates its own neurons for the whole slice,
 * then, after one barrier, delivers the slice's input to its own targets, step by step: first
 * the devices' output of that step (Poisson draws, spike generators, dc currents), then every
 * thread's spikes of that step. The spike lists are double-buffered by slice parity, so no second
 * barrier is needed: a thread can only overwrite the buffer of slice k + 2 after every thread
 * has passed the barrier of slice k + 1, i.e. finished delivering slice k.
 *
 * Determinism: every addition into a target's buffer happens on the target's thread in the
 * order (step, device connection, then source neuron and synapse in connection order), whatever
 * the slicing; Poisson streams are per connection and seeded from (seed, device id, connection
 * ordinal). The results are therefore bitwise identical for any thread count and any split of a
 * run into simulate() calls.
 *
 * Activity windows (NEST's start, stop, origin [4]; t_min = origin + start, t_max = origin + stop in
 * steps, t_max = infinity by default) are evaluated per step on the device side, whatever the
 * connection delay:
 *   - poisson_generator: the step s, i.e. (s h, (s + 1) h], whose spikes carry the stamp s + 1,
 *     draws only when t_min <= s and s + 1 <= t_max, so its spikes have times in (t_min, t_max]:
 *     NEST's documented rule for spike-emitting devices. (NEST's poisson_generator::update tests
 *     is_active on the step's start, which would move the window one step later and drop the
 *     first step of a generator with start 0; we follow the documentation, as spike_generator
 *     does, and a default window keeps every draw of a generator without one.) An inactive step
 *     draws nothing, so the per-connection streams stay independent of other connections.
 *   - dc_generator: NEST's StimulationDevice::is_active for current generators, t_min < s + 2 <=
 *     t_max on the emitting step s: the step (t, t + h] the current is delivered in with the
 *     one-step minimum delay satisfies origin + start <= t and t + h <= origin + stop.
 *   - spike_generator: a spike at time t_s (relative to origin) has the stamp origin + t_s / h and
 *     is emitted when t_min < stamp <= t_max (NEST's spike_generator::update).
 * A window changed between runs applies from the next step on; the engine keeps t_min and t_max
 * per device, so the step costs two comparisons.
 *
 * A spike_recorder [4] records a spike with stamp s + 1 only when t_min < s + 1 <= t_max (NEST's
 * RecordingDevice::is_active: the window (start, stop] relative to origin); the check is two
 * comparisons per (spike, recorder) on partition 0's thread, so a window changed between runs
 * applies from the next step as for generators. Spikes outside the window are not logged and
 * not counted as recorded.
 *
 * A multimeter [5] samples its targets at the end of every step whose end time (s + 1) h is
 * offset + j interval for some j >= 0 (NEST 3's offset; with offset 0, a multiple of the
 * interval, the first after time 0) and lies in (t_min, t_max] (NEST's recording-device window),
 * one row per (time, target) in connection order. Each thread writes the values of its own targets into
 * a per-slice buffer at fixed positions (double-buffered by slice parity like the spike lists);
 * after the slice barrier partition 0's thread appends the slice's rows to the multimeter's log in
 * time order, so the log does not depend on the thread count either.
 *
 * Static synapses of one source onto one partition that share weight and delay (a Brunel
 * network's rows) are stored as bare targets and delivered by a branch-free loop over one
 * buffer row: 4 bytes per synapse instead of 16.
 *
 * Tsodyks synapses follow NEST's tsodyks_synapse [2, 3]: at each presynaptic spike the state
 * (x, y, u) is propagated exactly from the last spike (Puu, Pyy, Pzz, Pxy, Pxz), then u jumps by
 * U (1 - u), the released fraction u x moves from x to y and the target receives weight * u * x.
 *
 * [1] A. Morrison, C. Mehring, T. Geisel, A. Aertsen, M. Diesmann (2005), Advancing the boundaries
 *     of high-connectivity network simulation with distributed computing. Neural Comput. 17:1776.
 * [2] M. Tsodyks, A. Uziel, H. Markram (2000), Synchrony generation in recurrent networks with
 *     frequency-dependent synapses. J. Neurosci. 20:RC50.
 * [3] NEST tsodyks_synapse model documentation.
 * [4] NEST nestkernel/stimulation_device.h, stimulation_device.cpp (is_active), device.cpp, and the
 *     "Stimulation and recording devices" documentation.
 * [5] NEST multimeter documentation and nestkernel/universal_data_logger.h.
 */

/**
 * The mutable state of a {@link CompiledNetwork} and its stepping loop: neuron kernels, ring
 * buffers, synapse and device state, recorders, worker threads.
 *
 * <p>Thread-safety: one caller thread at a time. {@link #run} allocates nothing except when a
 * recorder's log grows; with more than one partition it drives worker threads of its own and
 * returns only when they are idle again.
 */
public final class NetworkEngine implements AutoCloseable {
    /** The longest slice (steps between thread barriers). */
    static final int MAX_SLICE = 64;
    /** Entries of a Poisson part's cdf table (mean <= 10: the tail beyond 63 is below 1e-25). */
    static final int CDF_LENGTH = 64;
    /**
     * Entries of a guide table: the search then takes about one comparison (measured on the
     * 10^4-neuron bench: 4.7 s down to 2.7 s wall per simulated second).
     */
    static final int GUIDES = 64;

    private final CompiledNetwork m;
    private final NeuronKernel[] kernels;
    private final int[] kernelOf; // (N): kernel index of each neuron
    private final RingBuffers buf;
    private final Partition[] parts;
    private final int slice;
    private final int slots;

    // device state
    private final double[] deviceValue; // rate (Hz) or amplitude (pA)
    private final int[] poissonParts; // per device, set at the start of a run
    private final double[] poissonCdf; // (devices x CDF_LENGTH) cdf of one part's count
    private final int[] poissonGuide; // (devices x GUIDES) where the search for u starts
    private final long[] poissonRng; // per poisson connection
    private final int[] spikeGenCursor; // per spike generator connection
    private final double[] deviceWindow; // (devices x 3) start, stop, origin (ms)
    private final long[] deviceTMin; // (devices) origin + start, steps
    private final long[] deviceTMax; // (devices) origin + stop, steps (Long.MAX_VALUE: never stops)
    private final long[] deviceOrigin; // (devices) origin, steps

    // multimeter state
    private final double[] meterWindow; // (M x 3) start, stop, origin (ms)
    private final long[] meterTMin; // (M) steps
    private final long[] meterTMax; // (M) steps
    private final double[][][] meterSlice; // (M x 2 parities x (samples per slice x targets x variables))
    private final MultimeterLog[] meterLogs;

    // tsodyks synapse state
    private final double[] tx;
    private final double[] ty;
    private final double[] tu;
    private final long[] tLast; // stamp (steps) of the last spike

    private final SpikeLog[] logs;
    private final double[] recorderWindow; // (R x 3) start, stop, origin (ms)
    private final long[] recTMin; // (R) origin + start, steps
    private final long[] recTMax; // (R) origin + stop, steps (Long.MAX_VALUE: never stops)
    private long step;
    private long sliceCounter;
    private long totalSpikes;

    // workers
    private final SpinBarrier barrier;
    private final Thread[] workers;
    private volatile long runGeneration;
    private volatile boolean closed;
    private long runStart;
    private long runSteps;
    private long runSliceBase;

    /** Builds the state of {@code model} at time 0; starts {@code model.partitions() - 1} worker threads. */
    public NetworkEngine(CompiledNetwork model) {
        this.m = model;
        int groups = m.groupModel.length;
        kernels = new NeuronKernel[groups];
        kernelOf = new int[m.neuronCount];
        for (int g = 0; g < groups; g++) {
            kernels[g] = newKernel(m.groupModel[g], m.groupFirst[g], m.groupCount[g], m.groupParams[g], m.h);
            Arrays.fill(kernelOf, m.groupFirst[g], m.groupFirst[g] + m.groupCount[g], g);
        }
        slots = m.maxDelaySteps + 1;
        buf = new RingBuffers(slots, m.neuronCount);
        slice = Math.min(MAX_SLICE, m.minDelaySteps);
        parts = new Partition[m.partitions];
        for (int p = 0; p < m.partitions; p++) {
            parts[p] = new Partition(p, m.partitionStart[p], m.partitionStart[p + 1], slice, kernels);
        }
        deviceValue = new double[m.deviceCount];
        poissonParts = new int[m.deviceCount];
        poissonCdf = new double[m.deviceCount * CDF_LENGTH];
        poissonGuide = new int[m.deviceCount * GUIDES];
        poissonRng = new long[m.poissonSeed.length];
        spikeGenCursor = new int[m.spikeGenDev.length];
        deviceWindow = new double[m.deviceCount * 3];
        deviceTMin = new long[m.deviceCount];
        deviceTMax = new long[m.deviceCount];
        deviceOrigin = new long[m.deviceCount];
        meterWindow = new double[m.meterCount * 3];
        meterTMin = new long[m.meterCount];
        meterTMax = new long[m.meterCount];
        meterSlice = new double[m.meterCount][2][];
        meterLogs = new MultimeterLog[m.meterCount];
        for (int mm = 0; mm < m.meterCount; mm++) {
            long k = m.meterIntervalSteps[mm];
            // at most ceil(slice / k) sample times fall into a slice
            int samples = (int) ((slice + k - 1) / k);
            int size = samples * m.meterTargets[mm].length * m.meterVarCodes[mm].length;
            meterSlice[mm][0] = new double[size];
            meterSlice[mm][1] = new double[size];
            meterLogs[mm] = new MultimeterLog(m.meterVarCodes[mm].length);
        }
        tx = new double[m.tTgt.length];
        ty = new double[m.tTgt.length];
        tu = new double[m.tTgt.length];
        tLast = new long[m.tTgt.length];
        logs = new SpikeLog[m.recorderCount];
        recorderWindow = new double[m.recorderCount * 3];
        recTMin = new long[m.recorderCount];
        recTMax = new long[m.recorderCount];
        for (int r = 0; r < logs.length; r++) {
            logs[r] = new SpikeLog();
        }
        reset();
        if (m.partitions > 1) {
            barrier = new SpinBarrier(m.partitions);
            workers = new Thread[m.partitions - 1];
            for (int w = 0; w < workers.length; w++) {
                int p = w + 1;
                workers[w] = new Thread(() -> workerLoop(p), "tandem-neuro-worker-" + p);
                workers[w].setDaemon(true);
                workers[w].start();
            }
        } else {
            barrier = null;
            workers = null;
        }
    }

    private static NeuronKernel newKernel(NodeModel model, int first, int count, double[] params, double h) {
        switch (model) {
            case IAF_PSC_ALPHA:
                return new IafPscAlphaKernel(first, count, params, h);
            case IAF_PSC_EXP:
                return new IafPscExpKernel(first, count, params, h);
            case IAF_COND_ALPHA:
                return new IafCondAlphaKernel(first, count, params, h);
            case POISSON_GENERATOR:
            case DC_GENERATOR:
            case SPIKE_GENERATOR:
            case SPIKE_RECORDER:
            case MULTIMETER:
                throw new IllegalArgumentException(model + " is not a neuron model");
        }
        throw new AssertionError(model);
    }

    /** Restores the state at time 0: neurons, synapses, buffers, devices (initial rates, amplitudes), random streams, recorders. */
    public void reset() {
        for (NeuronKernel k : kernels) {
            k.reset();
        }
        buf.clear();
        System.arraycopy(m.deviceInitial, 0, deviceValue, 0, deviceValue.length);
        System.arraycopy(m.poissonSeed, 0, poissonRng, 0, poissonRng.length);
        Arrays.fill(spikeGenCursor, 0);
        System.arraycopy(m.deviceWindowInitial, 0, deviceWindow, 0, deviceWindow.length);
        for (int d = 0; d < m.deviceCount; d++) {
            updateDeviceWindow(d);
        }
        System.arraycopy(m.meterWindowInitial, 0, meterWindow, 0, meterWindow.length);
        for (int mm = 0; mm < m.meterCount; mm++) {
            updateMeterWindow(mm);
        }
        for (MultimeterLog l : meterLogs) {
            l.clear();
        }
        for (int j = 0; j < tx.length; j++) {
            double[] sp = m.tsodyksSpecs[m.tSpec[j]];
            tx[j] = sp[4];
            ty[j] = sp[5];
            tu[j] = sp[6];
        }
        Arrays.fill(tLast, 0);
        for (SpikeLog l : logs) {
            l.clear();
        }
        System.arraycopy(m.recorderWindowInitial, 0, recorderWindow, 0, recorderWindow.length);
        for (int r = 0; r < m.recorderCount; r++) {
            updateRecorderWindow(r);
        }
        step = 0;
        sliceCounter = 0;
        totalSpikes = 0;
    }

    private void updateDeviceWindow(int d) {
        long origin = Math.round(deviceWindow[3 * d + 2] / m.h);
        deviceOrigin[d] = origin;
        deviceTMin[d] = plus(origin, deviceWindow[3 * d]);
        deviceTMax[d] = plus(origin, deviceWindow[3 * d + 1]);
    }

    private void updateMeterWindow(int mm) {
        long origin = Math.round(meterWindow[3 * mm + 2] / m.h);
        meterTMin[mm] = plus(origin, meterWindow[3 * mm]);
        meterTMax[mm] = plus(origin, meterWindow[3 * mm + 1]);
    }

    private void updateRecorderWindow(int r) {
        long origin = Math.round(recorderWindow[3 * r + 2] / m.h);
        recTMin[r] = plus(origin, recorderWindow[3 * r]);
        recTMax[r] = plus(origin, recorderWindow[3 * r + 1]);
    }

    /** @return origin + ms in steps, saturating at Long.MAX_VALUE (infinity); both are >= 0 */
    private long plus(long origin, double ms) {
        long r = origin + Math.round(ms / m.h);
        return r < origin ? Long.MAX_VALUE : r;
    }

    /** @return steps simulated since time 0 */
    public long step() {
        return step;
    }

    /** @return spikes of all neurons since time 0 */
    public long totalSpikes() {
        return totalSpikes;
    }

    /** @return the compiled model */
    public CompiledNetwork model() {
        return m;
    }

    /** Advances {@code steps} steps. Allocation-free unless a recorder log grows. */
    public void run(long steps) {
        if (closed) {
            throw new IllegalStateException("the network is closed");
        }
        if (steps <= 0) {
            return;
        }
        prepareDevices();
        long slicesRun;
        if (workers == null) {
            slicesRun = runPartition(parts[0], step, steps, sliceCounter);
        } else {
            runStart = step;
            runSteps = steps;
            runSliceBase = sliceCounter;
            // the volatile write publishes the run parameters and every setter call before it
            runGeneration = runGeneration + 1;
            for (Thread w : workers) {
                LockSupport.unpark(w);
            }
            slicesRun = runPartition(parts[0], step, steps, sliceCounter);
            barrier.await();
        }
        step += steps;
        sliceCounter += slicesRun;
    }

    private void workerLoop(int p) {
        long seen = 0;
        while (true) {
            int spins = 0;
            while (runGeneration == seen && !closed) {
                if (++spins < 10_000) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.park(this);
                }
            }
            if (closed) {
                return;
            }
            seen = runGeneration;
            runPartition(parts[p], runStart, runSteps, runSliceBase);
            barrier.await();
        }
    }

    private long runPartition(Partition p, long s0, long n, long sliceBase) {
        long s = s0;
        long k = sliceBase;
        long end = s0 + n;
        while (s < end) {
            int len = (int) Math.min(slice, end - s);
            int parity = (int) (k & 1);
            updateSlice(p, s, len, parity);
            if (barrier != null) {
                barrier.await();
            }
            deliverSlice(p, s, len, parity);
            s += len;
            k++;
        }
        return k - sliceBase;
    }

    private void prepareDevices() {
        for (int d = 0; d < m.deviceCount; d++) {
            if (m.deviceModel[d] != NodeModel.POISSON_GENERATOR) {
                continue;
            }
            double mean = deviceValue[d] * m.h * 1e-3;
            if (mean <= 0) {
                poissonParts[d] = 0;
                continue;
            }
            int n = (int) Math.ceil(mean / RandomOps.MAX_INVERSION_MEAN);
            poissonParts[d] = n;
            RandomOps.poissonCdf(mean / n, poissonCdf, d * CDF_LENGTH, CDF_LENGTH);
            RandomOps.guideTable(poissonCdf, d * CDF_LENGTH, CDF_LENGTH, poissonGuide, d * GUIDES, GUIDES);
        }
    }

    private void updateSlice(Partition p, long s0, int len, int parity) {
        p.begin(parity);
        final int n = m.neuronCount;
        for (int i = 0; i < len; i++) {
            long s = s0 + i;
            int slot = (int) (s % slots);
            int base = slot * n;
            for (int g = 0; g < p.segKernel.length; g++) {
                p.segKernel[g].update(p.segFrom[g], p.segTo[g], base, buf, p, p.scratch);
            }
            p.endStep(parity, i);
            for (int mm = 0; mm < m.meterCount; mm++) {
                sample(p.index, mm, s0, s + 1, parity);
            }
        }
    }

    /** @return whether multimeter {@code mm} samples at the end time {@code stamp} (steps) */
    private boolean samples(int mm, long stamp) {
        long off = m.meterOffsetSteps[mm];
        return stamp >= off && (stamp - off) % m.meterIntervalSteps[mm] == 0 && stamp > meterTMin[mm]
                && stamp <= meterTMax[mm];
    }

    /**
     * @return the index j of multimeter {@code mm}'s first sample time offset + j interval after
     *         the stamp {@code s0} (steps), i.e. in a slice starting with step s0
     */
    private long firstSampleAfter(int mm, long s0) {
        long off = m.meterOffsetSteps[mm];
        return s0 < off ? 0 : (s0 - off) / m.meterIntervalSteps[mm] + 1;
    }

    /** Writes the values of multimeter {@code mm}'s targets in partition {@code pi} at the end of the step ending at {@code stamp}. */
    private void sample(int pi, int mm, long s0, long stamp, int parity) {
        if (!samples(mm, stamp)) {
            return;
        }
        long k = m.meterIntervalSteps[mm];
        int[] codes = m.meterVarCodes[mm];
        int nv = codes.length;
        long j = (stamp - m.meterOffsetSteps[mm]) / k;
        int row0 = (int) (j - firstSampleAfter(mm, s0)) * m.meterTargets[mm].length;
        double[] out = meterSlice[mm][parity];
        int key = mm * parts.length + pi;
        for (int e = m.meterSegPtr[key], end = m.meterSegPtr[key + 1]; e < end; e++) {
            int neuron = m.meterSegNeuron[e];
            NeuronKernel kn = kernels[kernelOf[neuron]];
            int at = (row0 + m.meterSegCol[e]) * nv;
            for (int v = 0; v < nv; v++) {
                out[at + v] = kn.recordable(neuron - kn.first, codes[v]);
            }
        }
    }

    /** Appends the rows every thread sampled in the slice {@code [s0, s0 + len)} to the multimeters' logs (partition 0). */
    private void appendSamples(long s0, int len, int parity) {
        for (int mm = 0; mm < m.meterCount; mm++) {
            long k = m.meterIntervalSteps[mm];
            int[] tgt = m.meterTargets[mm];
            int nv = m.meterVarCodes[mm].length;
            double[] in = meterSlice[mm][parity];
            MultimeterLog log = meterLogs[mm];
            long first = firstSampleAfter(mm, s0);
            long j = first;
            for (long stamp = m.meterOffsetSteps[mm] + first * k; stamp <= s0 + len; stamp += k, j++) {
                if (!samples(mm, stamp)) {
                    continue;
                }
                int row0 = (int) (j - first) * tgt.length;
                for (int col = 0; col < tgt.length; col++) {
                    log.add(stamp, m.neuronNode[tgt[col]], in, (row0 + col) * nv);
                }
            }
        }
    }

    private void emitDevices(int pi, long s, int slot) {
        final int n = m.neuronCount;
        final double[] ex = buf.ex;
        final double[] in = buf.in;
        for (int j = m.poissonPtr[pi], e = m.poissonPtr[pi + 1]; j < e; j++) {
            int dv = m.poissonDev[j];
            int np = poissonParts[dv];
            // active when the step's spikes (stamp s + 1) fall in (t_min, t_max]
            if (np == 0 || s < deviceTMin[dv] || s >= deviceTMax[dv]) {
                continue;
            }
            int count = 0;
            for (int part = 0; part < np; part++) {
                count += RandomOps.poissonFromCdf(poissonRng, j, poissonCdf, dv * CDF_LENGTH, poissonGuide, dv * GUIDES, GUIDES);
            }
            if (count == 0) {
                continue;
            }
            double w = m.poissonW[j] * count;
            int at = slot + m.poissonD[j];
            if (at >= slots) {
                at -= slots;
            }
            int idx = at * n + m.poissonTgt[j];
            if (w > 0) {
                ex[idx] += w;
            } else {
                in[idx] += w;
            }
        }
        for (int j = m.spikeGenPtr[pi], e = m.spikeGenPtr[pi + 1]; j < e; j++) {
            int dv = m.spikeGenDev[j];
            long[] times = m.spikeEmitSteps[dv];
            long origin = deviceOrigin[dv];
            int c = spikeGenCursor[j];
            while (c < times.length && times[c] + origin < s) {
                c++;
            }
            int count = 0;
            while (c < times.length && times[c] + origin == s) {
                c++;
                count++;
            }
            spikeGenCursor[j] = c;
            // emitted when the stamp s + 1 is in (t_min, t_max]
            if (count == 0 || s + 1 <= deviceTMin[dv] || s + 1 > deviceTMax[dv]) {
                continue;
            }
            double w = m.spikeGenW[j] * count;
            int at = slot + m.spikeGenD[j];
            if (at >= slots) {
                at -= slots;
            }
            int idx = at * n + m.spikeGenTgt[j];
            if (w > 0) {
                ex[idx] += w;
            } else {
                in[idx] += w;
            }
        }
        final double[] cur = buf.current;
        for (int j = m.dcPtr[pi], e = m.dcPtr[pi + 1]; j < e; j++) {
            int dv = m.dcDev[j];
            double a = deviceValue[dv];
            // NEST's is_active for current generators: t_min < s + 2 <= t_max
            if (a == 0 || s + 2 <= deviceTMin[dv] || s + 2 > deviceTMax[dv]) {
                continue;
            }
            int at = slot + m.dcD[j];
            if (at >= slots) {
                at -= slots;
            }
            cur[at * n + m.dcTgt[j]] += a * m.dcW[j];
        }
    }

    private void deliverSlice(Partition p, long s0, int len, int parity) {
        final int pi = p.index;
        final int np = parts.length;
        final int n = m.neuronCount;
        final int[] hPtr = m.hPtr;
        final int[] hTgt = m.hTgt;
        final int[] sPtr = m.sPtr;
        final int[] sTgt = m.sTgt;
        final double[] sW = m.sW;
        final int[] sD = m.sD;
        final int[] tPtr = m.tPtr;
        final double[] netEx = buf.ex;
        final double[] netIn = buf.in;
        final boolean records = pi == 0;
        for (int i = 0; i < len; i++) {
            long s = s0 + i;
            int slot = (int) (s % slots);
            long stamp = s + 1;
            emitDevices(pi, s, slot);
            for (int q = 0; q < np; q++) {
                int[] spikes = parts[q].spikes[parity];
                int[] start = parts[q].stepStart[parity];
                for (int a = start[i], ae = start[i + 1]; a < ae; a++) {
                    int src = spikes[a];
                    int key = src * np + pi;
                    int h0 = hPtr[key];
                    int h1 = hPtr[key + 1];
                    if (h0 < h1) {
                        int at = slot + m.hD[key];
                        if (at >= slots) {
                            at -= slots;
                        }
                        int base = at * n;
                        double w = m.hW[key];
                        double[] dst = w > 0 ? netEx : netIn;
                        for (int j = h0; j < h1; j++) {
                            dst[base + hTgt[j]] += w;
                        }
                    }
                    for (int j = sPtr[key], e = sPtr[key + 1]; j < e; j++) {
                        int at = slot + sD[j];
                        if (at >= slots) {
                            at -= slots;
                        }
                        int idx = at * n + sTgt[j];
                        double w = sW[j];
                        if (w > 0) {
                            netEx[idx] += w;
                        } else {
                            netIn[idx] += w;
                        }
                    }
                    for (int j = tPtr[key], e = tPtr[key + 1]; j < e; j++) {
                        double w = tsodyksWeight(j, stamp);
                        int at = slot + m.tD[j];
                        if (at >= slots) {
                            at -= slots;
                        }
                        int idx = at * n + m.tTgt[j];
                        if (w > 0) {
                            netEx[idx] += w;
                        } else {
                            netIn[idx] += w;
                        }
                    }
                    if (records) {
                        record(src, stamp);
                    }
                }
            }
        }
        if (records) {
            appendSamples(s0, len, parity);
        }
    }

    /** Propagates tsodyks synapse {@code j} to a spike at {@code stamp}; returns the weight it transmits. */
    private double tsodyksWeight(int j, long stamp) {
        double[] sp = m.tsodyksSpecs[m.tSpec[j]];
        double u0 = sp[0];
        double tauPsc = sp[1];
        double tauRec = sp[2];
        double tauFac = sp[3];
        double dt = (stamp - tLast[j]) * m.h;
        double puu = tauFac == 0.0 ? 0.0 : Math.exp(-dt / tauFac);
        double pyy = Math.exp(-dt / tauPsc);
        double pzz = Math.exp(-dt / tauRec);
        double pxy = ((pzz - 1.0) * tauRec - (pyy - 1.0) * tauPsc) / (tauPsc - tauRec);
        double pxz = 1.0 - pzz;
        double x = tx[j];
        double y = ty[j];
        double u = tu[j];
        double z = 1.0 - x - y;
        // propagate from the last spike, in this order
        u *= puu;
        x += pxy * y + pxz * z;
        y *= pyy;
        // the spike: facilitation, then release
        u += u0 * (1.0 - u);
        double released = u * x;
        x -= released;
        y += released;
        tx[j] = x;
        ty[j] = y;
        tu[j] = u;
        tLast[j] = stamp;
        return released * m.tW[j];
    }

    private void record(int src, long stamp) {
        totalSpikes++;
        for (int r = m.recPtr[src], e = m.recPtr[src + 1]; r < e; r++) {
            int ri = m.recIdx[r];
            // NEST's recording window: origin + start < t <= origin + stop
            if (stamp > recTMin[ri] && stamp <= recTMax[ri]) {
                logs[ri].add(m.neuronNode[src], stamp);
            }
        }
    }

    private NeuronKernel kernel(int neuron) {
        return kernels[kernelOf[neuron]];
    }

    /** @return V_m (mV) of neuron node {@code node} */
    public double vm(int node) {
        int k = m.nodeLocal[node];
        NeuronKernel kn = kernel(k);
        return kn.vm(k - kn.first);
    }

    /** Sets V_m (mV) of neuron node {@code node}. */
    public void setVm(int node, double mV) {
        int k = m.nodeLocal[node];
        NeuronKernel kn = kernel(k);
        kn.setVm(k - kn.first, mV);
    }

    /** @return a state variable or parameter of neuron node {@code node} */
    public double neuronState(int node, String name) {
        int k = m.nodeLocal[node];
        NeuronKernel kn = kernel(k);
        return kn.state(k - kn.first, name);
    }

    /** @return the rate (Hz) or amplitude (pA) of device node {@code node} */
    public double deviceValue(int node) {
        return deviceValue[m.nodeLocal[node]];
    }

    /** Sets the rate (Hz) or amplitude (pA) of device node {@code node}; takes effect from the next run. */
    public void setDeviceValue(int node, double value) {
        deviceValue[m.nodeLocal[node]] = value;
    }

    /**
     * @param which 0 start, 1 stop, 2 origin
     * @return that time (ms) of generator, spike recorder or multimeter node {@code node}
     */
    public double window(int node, int which) {
        int k = m.nodeLocal[node];
        NodeModel model = m.nodeModel[node];
        return model == NodeModel.MULTIMETER ? meterWindow[3 * k + which]
                : model == NodeModel.SPIKE_RECORDER ? recorderWindow[3 * k + which] : deviceWindow[3 * k + which];
    }

    /**
     * Sets a time of a generator's, spike recorder's or multimeter's activity window (validated
     * by the caller); applies from the next step.
     *
     * @param which 0 start, 1 stop, 2 origin
     */
    public void setWindow(int node, int which, double ms) {
        int k = m.nodeLocal[node];
        if (m.nodeModel[node] == NodeModel.MULTIMETER) {
            meterWindow[3 * k + which] = ms;
            updateMeterWindow(k);
        } else if (m.nodeModel[node] == NodeModel.SPIKE_RECORDER) {
            recorderWindow[3 * k + which] = ms;
            updateRecorderWindow(k);
        } else {
            deviceWindow[3 * k + which] = ms;
            updateDeviceWindow(k);
        }
    }

    /** @return the sampling interval (steps) of multimeter node {@code node} */
    public long intervalSteps(int node) {
        return m.meterIntervalSteps[m.nodeLocal[node]];
    }

    /** @return the time of the first sample (steps; NEST 3's offset) of multimeter node {@code node} */
    public long offsetSteps(int node) {
        return m.meterOffsetSteps[m.nodeLocal[node]];
    }

    /** @return the variables multimeter node {@code node} records (a copy) */
    public String[] recordFrom(int node) {
        return m.meterVarNames[m.nodeLocal[node]].clone();
    }

    /** @return the rows multimeter node {@code node} holds, not yet drained */
    public int pendingSamples(int node) {
        return meterLogs[m.nodeLocal[node]].size;
    }

    /** @return the rows multimeter node {@code node} recorded since time 0 */
    public long recordedSamples(int node) {
        return meterLogs[m.nodeLocal[node]].total;
    }

    /**
     * Copies the rows multimeter node {@code node} holds, without draining them.
     *
     * @param timesNs (rows). Modified.
     * @param senders (rows). Modified.
     * @param values  (rows x variables), row-major. Modified.
     */
    public void copySamples(int node, long[] timesNs, int[] senders, double[] values) {
        MultimeterLog log = meterLogs[m.nodeLocal[node]];
        for (int i = 0; i < log.size; i++) {
            timesNs[i] = log.stamps[i] * m.resolutionNs;
            senders[i] = log.senders[i];
        }
        System.arraycopy(log.values, 0, values, 0, log.size * log.width);
    }

    /**
     * Hands every row multimeter node {@code node} holds to {@code handler}, oldest first, and
     * forgets them. Allocation-free.
     *
     * @return the rows handed over
     */
    public int drainSamples(int node, SampleHandler handler) {
        MultimeterLog log = meterLogs[m.nodeLocal[node]];
        int n = log.size;
        int w = log.width;
        long res = m.resolutionNs;
        for (int i = 0; i < n; i++) {
            handler.onSample(log.senders[i], log.stamps[i] * res, log.values, i * w, w);
        }
        log.size = 0;
        return n;
    }

    /** @return the spikes recorder node {@code node} holds, not yet drained */
    public int pending(int node) {
        return logs[m.nodeLocal[node]].size;
    }

    /** @return the spikes recorder node {@code node} recorded since time 0 */
    public long recorded(int node) {
        return logs[m.nodeLocal[node]].total;
    }

    /**
     * Hands every spike recorder node {@code node} holds to {@code handler}, oldest first, and
     * forgets them. Allocation-free.
     *
     * @return the number of spikes handed over
     */
    public int drain(int node, SpikeHandler handler) {
        SpikeLog log = logs[m.nodeLocal[node]];
        int n = log.size;
        long res = m.resolutionNs;
        for (int i = 0; i < n; i++) {
            handler.onSpike(log.senders[i], log.stamps[i] * res);
        }
        log.size = 0;
        return n;
    }

    /** Stops the worker threads; the engine cannot run afterwards. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (workers != null) {
            for (Thread w : workers) {
                LockSupport.unpark(w);
            }
        }
    }
}
