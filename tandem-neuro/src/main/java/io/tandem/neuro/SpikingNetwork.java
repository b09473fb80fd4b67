package io.tandem.neuro;

import io.tandem.neuro.internal.CompiledNetwork;
import io.tandem.neuro.internal.NetworkEngine;

/**
 * A built spiking network and its state: advance it in whole resolution steps, read membrane
 * potentials and recorded spikes, set stimulator rates and amplitudes between runs, reset it.
 * Virtual time is {@code long} nanoseconds; model quantities stay in NEST units (mV, pA, nS, Hz).
 *
 * <p>Semantics follow NEST: a spike emitted in the step ending at t has time t and reaches a
 * target at t + delay; a rate or amplitude set between runs applies from the next run on;
 * neurons and devices share 0-based node ids.
 *
 * <p>Thread-safety: not thread-safe; call from one thread at a time. {@link #simulate} and the
 * getters and setters allocate nothing (a recorder's buffer grows, by doubling, only when more
 * spikes are pending than ever before; drain it regularly). With {@code threads > 1} the network
 * owns worker threads: {@link #close()} it when done.
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
     * {@code refractory_steps}) or parameter, a generator's {@code rate} or {@code amplitude}.
     *
     * @throws IllegalArgumentException naming what the node has
     */
    public double get(int id, String name) {
        checkNode(id);
        NodeModel m = model.model(id);
        switch (m.kind()) {
            case NEURON:
                return engine.neuronState(id, name);
            case STIMULATOR:
                if (m.parameterNames().contains(name)) {
                    return engine.deviceValue(id);
                }
                throw new IllegalArgumentException(m + " node " + id + " has no '" + name + "'; it has " + m.parameterNames());
            case RECORDER:
                if ("n_events".equals(name)) {
                    return engine.pending(id);
                }
                throw new IllegalArgumentException(m + " node " + id + " has no '" + name + "'; it has [n_events]");
        }
        throw new AssertionError(m);
    }

    /**
     * NEST's {@code SetStatus} for one value between runs: a neuron's {@code V_m}, a
     * {@code poisson_generator}'s {@code rate}, a {@code dc_generator}'s {@code amplitude}.
     */
    public void set(int id, String name, double value) {
        checkNode(id);
        NodeModel m = model.model(id);
        if (m.kind() == NodeModel.Kind.NEURON && "V_m".equals(name)) {
            setVm(id, value);
        } else if (m == NodeModel.POISSON_GENERATOR && "rate".equals(name)) {
            setRate(id, value);
        } else if (m == NodeModel.DC_GENERATOR && "amplitude".equals(name)) {
            setAmplitude(id, value);
        } else {
            throw new IllegalArgumentException("cannot set '" + name + "' of " + m + " node " + id
                    + ": settable are V_m (neurons), rate (poisson_generator), amplitude (dc_generator)");
        }
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
