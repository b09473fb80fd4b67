package io.tandem.neuro;

import io.tandem.neuro.internal.CompiledNetwork;
import io.tandem.neuro.internal.NetworkEngine;

/**
 * A built spiking network and its state: advance it in whole resolution steps, read membrane
 * potentials and recorded spikes, set stimulator rates and amplitudes between runs, reset it.
 * Virtual time is {@code long} nanoseconds; model quantities stay in NEST units (mV, pA, nS, Hz).
 *
 * <p>Semantics follow NEST: a spike emitted in the step ending at t has time t and reaches a
 * target at t + delay; a rate, amplitude or activity window ({@code start}, {@code stop},
 * {@code origin}) set between runs applies from the next run on; a multimeter samples at the end
 * of every step whose end time is {@code offset + k * interval} (k = 0, 1, ...; with the default
 * offset 0, the multiples of its interval); neurons and devices share 0-based node ids.
 *
 * <p>Activity windows, with t_min = origin + start and t_max = origin + stop (ms): a
 * {@code poisson_generator} or {@code spike_generator} emits only spikes with times in
 * (t_min, t_max] (spike generator times are relative to origin); a {@code dc_generator} is on in
 * the steps NEST's {@code is_active} allows for current generators, so with delay d its current
 * acts on the target over (t_min + d, t_max + d] (from d + h when t_min is 0, as without a
 * window); a {@code spike_recorder} records only spikes with times in (t_min, t_max] (a spike at
 * t_min is not recorded, one at t_max is), and a {@code multimeter} samples only at times in
 * (t_min, t_max].
 *
 * <p>Thread-safety: not thread-safe; call from one thread at a time. {@link #simulate} and the
 * getters and setters allocate nothing (a recorder's or multimeter's buffer grows, by doubling,
 * only when more spikes or samples are pending than ever before; drain it regularly). With
 * {@code threads > 1} the network owns worker threads: {@link #close()} it when done.
 */
public final class SpikingNetwork implements AutoCloseable {
    private final CompiledNetwork model;
    private final NetworkEngine engine;
    private final long resolutionNs;

    SpikingNetwork(CompiledNetwork model) {
        this.model = model;
        this.engine = new NetworkEngine(model);
        this.resolutionNs = model.resolutionNs();
    }

    /** @return a new builder with NEST's defaults (resolution 0.1 ms, seed 1, one thread) */
    public static NetworkBuilder builder() {
        return new NetworkBuilder();
    }

    /** @return the resolution (step) in ns */
    public long resolutionNs() {
        return resolutionNs;
    }

    /** @return the resolution (step) in ms */
    public double resolutionMs() {
        return resolutionNs / 1e6;
    }

    /** @return the current virtual time in ns (steps times resolution) */
    public long timeNs() {
        return engine.step() * resolutionNs;
    }

    /** @return the steps simulated since time 0 */
    public long stepCount() {
        return engine.step();
    }

    /**
     * Advances the network by {@code durationNs} (NEST's {@code Simulate}), a whole number of
     * resolution steps. Allocation-free (see the class notes on recorders).
     *
     * @throws IllegalArgumentException if the duration is negative or not a multiple of the resolution
     */
    public void simulate(long durationNs) {
        if (durationNs < 0 || durationNs % resolutionNs != 0) {
            throw new IllegalArgumentException("duration " + durationNs + " ns must be a non-negative multiple of the resolution "
                    + resolutionNs + " ns");
        }
        engine.run(durationNs / resolutionNs);
    }

    /** Advances the network by {@code steps} resolution steps. */
    public void simulateSteps(long steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("steps must be >= 0, got " + steps);
        }
        engine.run(steps);
    }

    /**
     * Returns to time 0 with the state just after {@link NetworkBuilder#build()}: membrane
     * potentials, synaptic and Tsodyks state, pending spikes, the built rates and amplitudes,
     * the random streams (so a rerun repeats itself exactly) and empty recorders.
     */
    public void reset() {
        engine.reset();
    }

    /** @return the number of nodes */
    public int nodeCount() {
        return model.nodeCount();
    }

    /** @return the model of node {@code id} */
    public NodeModel model(int id) {
        checkNode(id);
        return model.model(id);
    }

    /** @return the number of neurons */
    public int neuronCount() {
        return model.neuronCount();
    }

    /** @return the number of neuron-to-neuron synapses */
    public long synapseCount() {
        return model.synapseCount();
    }

    /** @return the threads that update the network (at most the number of neurons) */
    public int threads() {
        return model.partitions();
    }

    /** @return the membrane potential V_m (mV) of neuron {@code id} */
    public double vm(int id) {
        checkKind(id, NodeModel.Kind.NEURON, "vm");
        return engine.vm(id);
    }

    /**
     * Reads V_m (mV) of every neuron of {@code neurons} into {@code out}.
     *
     * @param out at least {@code neurons.size()} long. Modified.
     */
    public void vm(Population neurons, double[] out) {
        int[] ids = neurons.idsNoCopy();
        for (int i = 0; i < ids.length; i++) {
            out[i] = vm(ids[i]);
        }
    }

    /** Sets V_m (mV) of neuron {@code id} (NEST {@code SetStatus(n, {"V_m": v})}). */
    public void setVm(int id, double mV) {
        checkKind(id, NodeModel.Kind.NEURON, "setVm");
        engine.setVm(id, mV);
    }

    /** Sets the rate (Hz) of {@code poisson_generator} {@code id}, from the next run on. */
    public void setRate(int id, double hz) {
        checkModel(id, NodeModel.POISSON_GENERATOR, "setRate");
        if (!(hz >= 0) || Double.isInfinite(hz)) {
            throw new IllegalArgumentException("rate must be a finite number >= 0 Hz, got " + hz);
        }
        engine.setDeviceValue(id, hz);
    }

    /** Sets the rate (Hz) of every {@code poisson_generator} of {@code generators}. */
    public void setRate(Population generators, double hz) {
        int[] ids = generators.idsNoCopy();
        for (int id : ids) {
            setRate(id, hz);
        }
    }

    /** @return the rate (Hz) of {@code poisson_generator} {@code id} */
    public double rate(int id) {
        checkModel(id, NodeModel.POISSON_GENERATOR, "rate");
        return engine.deviceValue(id);
    }

    /** Sets the amplitude (pA) of {@code dc_generator} {@code id}, from the next run on. */
    public void setAmplitude(int id, double pA) {
        checkModel(id, NodeModel.DC_GENERATOR, "setAmplitude");
        if (!Double.isFinite(pA)) {
            throw new IllegalArgumentException("amplitude must be finite, got " + pA);
        }
        engine.setDeviceValue(id, pA);
    }

    /** @return the amplitude (pA) of {@code dc_generator} {@code id} */
    public double amplitude(int id) {
        checkModel(id, NodeModel.DC_GENERATOR, "amplitude");
        return engine.deviceValue(id);
    }

    /**
     * NEST's {@code GetStatus} for one value: a neuron's state ({@code V_m}, {@code I_syn_ex},
     * {@code I_syn_in} for current models, {@code g_ex}, {@code g_in} for {@code iaf_cond_alpha},
     * {@code refractory_steps}) or parameter, a generator's {@code rate} or {@code amplitude}, a
     * generator's, spike recorder's or multimeter's {@code start}, {@code stop}, {@code origin}
     * (ms; stop may be infinite), a multimeter's {@code interval} and {@code offset} (ms), a
     * recorder's {@code n_events} (pending spikes or sample rows).
     *
     * @throws IllegalArgumentException naming what the node has
     */
    public double get(int id, String name) {
        checkNode(id);
        NodeModel m = model.model(id);
        int window = NodeModel.WINDOW_PARAMETERS.indexOf(name);
        switch (m.kind()) {
            case NEURON:
                return engine.neuronState(id, name);
            case STIMULATOR:
                if (window >= 0) {
                    return engine.window(id, window);
                }
                if (m.parameterNames().contains(name)) {
                    return engine.deviceValue(id);
                }
                throw new IllegalArgumentException(m + " node " + id + " has no '" + name + "'; it has " + m.parameterNames());
            case RECORDER:
                if (m == NodeModel.MULTIMETER) {
                    if (window >= 0) {
                        return engine.window(id, window);
                    }
                    if ("interval".equals(name)) {
                        return engine.intervalSteps(id) * resolutionMs();
                    }
                    if ("offset".equals(name)) {
                        return engine.offsetSteps(id) * resolutionMs();
                    }
                    if ("n_events".equals(name)) {
                        return engine.pendingSamples(id);
                    }
                    throw new IllegalArgumentException(m + " node " + id + " has no '" + name + "'; it has "
                            + m.parameterNames() + " and n_events (record_from: use recordFrom(id))");
                }
                if (window >= 0) {
                    return engine.window(id, window);
                }
                if ("n_events".equals(name)) {
                    return engine.pending(id);
                }
                throw new IllegalArgumentException(m + " node " + id + " has no '" + name + "'; it has "
                        + m.parameterNames() + " and n_events");
        }
        throw new AssertionError(m);
    }

    /**
     * NEST's {@code SetStatus} for one value between runs: a neuron's {@code V_m}, a
     * {@code poisson_generator}'s {@code rate}, a {@code dc_generator}'s {@code amplitude}, a
     * generator's, spike recorder's or multimeter's {@code start}, {@code stop} or {@code origin}
     * (ms, multiples of the resolution, stop >= start; {@code Double.POSITIVE_INFINITY} for a stop
     * that never comes). A new window applies from the next step: a generator with stop t emits
     * nothing after t, one whose start is moved later pauses until then; a spike recorder records
     * only the spikes of later steps that fall in the new window. To move a window later, set stop
     * first. A multimeter's {@code interval} and {@code offset} are fixed once built.
     *
     * @throws IllegalArgumentException naming the node, the rule and the fix
     */
    public void set(int id, String name, double value) {
        checkNode(id);
        NodeModel m = model.model(id);
        int window = NodeModel.WINDOW_PARAMETERS.indexOf(name);
        if (m.kind() == NodeModel.Kind.NEURON && "V_m".equals(name)) {
            setVm(id, value);
        } else if (m == NodeModel.POISSON_GENERATOR && "rate".equals(name)) {
            setRate(id, value);
        } else if (m == NodeModel.DC_GENERATOR && "amplitude".equals(name)) {
            setAmplitude(id, value);
        } else if (m.hasActivityWindow() && window >= 0) {
            double start = window == 0 ? value : engine.window(id, 0);
            double stop = window == 1 ? value : engine.window(id, 1);
            double origin = window == 2 ? value : engine.window(id, 2);
            ActivityWindow.check(m, id, 1, start, stop, origin, resolutionMs());
            engine.setWindow(id, window, value);
        } else if (m == NodeModel.MULTIMETER && "interval".equals(name)) {
            throw new IllegalArgumentException("cannot set 'interval' of multimeter node " + id + ": it is fixed once the"
                    + " network is built (its sample buffers are sized for it); give it to create");
        } else if (m == NodeModel.MULTIMETER && "offset".equals(name)) {
            throw new IllegalArgumentException("cannot set 'offset' of multimeter node " + id + ": it is fixed once the"
                    + " network is built (NEST refuses it after the simulation has started); give it to create");
        } else {
            throw new IllegalArgumentException("cannot set '" + name + "' of " + m + " node " + id
                    + ": settable are V_m (neurons), rate (poisson_generator), amplitude (dc_generator), start, stop and"
                    + " origin (generators, spike_recorder, multimeter)");
        }
    }

    /**
     * @param multimeterId a {@code multimeter} node
     * @return the variables it records, in sample order (NEST's {@code record_from}; immutable)
     */
    public java.util.List<String> recordFrom(int multimeterId) {
        checkModel(multimeterId, NodeModel.MULTIMETER, "recordFrom");
        return java.util.List.of(engine.recordFrom(multimeterId));
    }

    /** @return the sample rows multimeter {@code multimeterId} holds, not yet drained */
    public int pendingSamples(int multimeterId) {
        checkModel(multimeterId, NodeModel.MULTIMETER, "pendingSamples");
        return engine.pendingSamples(multimeterId);
    }

    /** @return the sample rows multimeter {@code multimeterId} recorded since time 0, drained or not */
    public long recordedSamples(int multimeterId) {
        checkModel(multimeterId, NodeModel.MULTIMETER, "recordedSamples");
        return engine.recordedSamples(multimeterId);
    }

    /**
     * A copy of the rows multimeter {@code multimeterId} holds (NEST's {@code events}), without
     * draining them: times (ms), senders (node ids) and one flat array per recorded variable (mV,
     * pA, nS). Allocates; call it between runs.
     *
     * @return the samples, in time order and, within a time, in connection order
     */
    public MultimeterSamples samples(int multimeterId) {
        checkModel(multimeterId, NodeModel.MULTIMETER, "samples");
        String[] vars = engine.recordFrom(multimeterId);
        int n = engine.pendingSamples(multimeterId);
        long[] t = new long[n];
        int[] senders = new int[n];
        double[] values = new double[n * vars.length];
        engine.copySamples(multimeterId, t, senders, values);
        return MultimeterSamples.of(vars, t, senders, values);
    }

    /**
     * Hands the rows multimeter {@code multimeterId} holds to {@code handler} (time order, then
     * connection order) and forgets them. Allocation-free.
     *
     * @return the number of rows handed over
     */
    public int drainSamples(int multimeterId, SampleHandler handler) {
        checkModel(multimeterId, NodeModel.MULTIMETER, "drainSamples");
        return engine.drainSamples(multimeterId, handler);
    }

    /**
     * Hands the spikes recorder {@code recorderId} holds to {@code handler} (oldest first,
     * sender node id and time in ns) and forgets them. Allocation-free.
     *
     * @return the number of spikes handed over
     */
    public int drainSpikes(int recorderId, SpikeHandler handler) {
        checkModel(recorderId, NodeModel.SPIKE_RECORDER, "drainSpikes");
        return engine.drain(recorderId, handler);
    }

    /** @return the spikes recorder {@code recorderId} holds, not yet drained */
    public int pendingSpikes(int recorderId) {
        checkModel(recorderId, NodeModel.SPIKE_RECORDER, "pendingSpikes");
        return engine.pending(recorderId);
    }

    /** @return the spikes recorder {@code recorderId} recorded since time 0, drained or not */
    public long recordedSpikes(int recorderId) {
        checkModel(recorderId, NodeModel.SPIKE_RECORDER, "recordedSpikes");
        return engine.recorded(recorderId);
    }

    /** @return the spikes of all neurons since time 0, recorded or not */
    public long totalSpikes() {
        return engine.totalSpikes();
    }

    /** Stops the worker threads; the network cannot run afterwards. Idempotent. */
    @Override
    public void close() {
        engine.close();
    }

    private void checkNode(int id) {
        if (id < 0 || id >= model.nodeCount()) {
            throw new IllegalArgumentException("no node " + id + " (the network has nodes 0.." + (model.nodeCount() - 1) + ")");
        }
    }

    private void checkKind(int id, NodeModel.Kind kind, String what) {
        checkNode(id);
        if (model.model(id).kind() != kind) {
            throw new IllegalArgumentException(what + ": node " + id + " is a " + model.model(id) + ", not a "
                    + kind.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    private void checkModel(int id, NodeModel m, String what) {
        checkNode(id);
        if (model.model(id) != m) {
            throw new IllegalArgumentException(what + ": node " + id + " is a " + model.model(id) + ", not a " + m);
        }
    }
}
