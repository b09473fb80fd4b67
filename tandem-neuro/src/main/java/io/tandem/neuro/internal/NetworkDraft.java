package io.tandem.neuro.internal;

import io.tandem.neuro.NodeModel;
import java.util.ArrayList;
import java.util.List;

/**
 * The growing description of a network while it is being built: nodes, groups, connections in
 * creation order. The public builder validates and then records here; {@link #compile} turns it
 * into an immutable {@link CompiledNetwork}. Indices: neurons and devices are numbered densely
 * in their own spaces; node ids are shared.
 *
 * <p>Not thread-safe.
 */
public final class NetworkDraft {
    final List<NodeModel> nodeModels = new ArrayList<>();
    final GrowableArrays.Ints nodeLocal = new GrowableArrays.Ints();
    final GrowableArrays.Ints neuronNode = new GrowableArrays.Ints();
    final List<NodeModel> groupModel = new ArrayList<>();
    final GrowableArrays.Ints groupFirst = new GrowableArrays.Ints();
    final GrowableArrays.Ints groupCount = new GrowableArrays.Ints();
    final List<double[]> groupParams = new ArrayList<>();
    final GrowableArrays.Ints deviceNode = new GrowableArrays.Ints();
    final List<NodeModel> deviceModel = new ArrayList<>();
    final GrowableArrays.Doubles deviceValue = new GrowableArrays.Doubles();
    final GrowableArrays.Doubles deviceWindow = new GrowableArrays.Doubles(); // (devices x 3) start, stop, origin (ms)
    final List<long[]> spikeEmitSteps = new ArrayList<>();
    final GrowableArrays.Ints recorderNode = new GrowableArrays.Ints();
    final GrowableArrays.Doubles recorderWindow = new GrowableArrays.Doubles(); // (recorders x 3) start, stop, origin (ms)

    final GrowableArrays.Ints synSrc = new GrowableArrays.Ints();
    final GrowableArrays.Ints synTgt = new GrowableArrays.Ints();
    final GrowableArrays.Doubles synW = new GrowableArrays.Doubles();
    final GrowableArrays.Ints synD = new GrowableArrays.Ints();
    final GrowableArrays.Ints synSpec = new GrowableArrays.Ints();
    final List<double[]> tsodyksSpecs = new ArrayList<>();

    final GrowableArrays.Ints devConnDev = new GrowableArrays.Ints();
    final GrowableArrays.Ints devConnTgt = new GrowableArrays.Ints();
    final GrowableArrays.Doubles devConnW = new GrowableArrays.Doubles();
    final GrowableArrays.Ints devConnD = new GrowableArrays.Ints();

    final GrowableArrays.Ints recNeuron = new GrowableArrays.Ints();
    final GrowableArrays.Ints recRecorder = new GrowableArrays.Ints();

    final GrowableArrays.Ints meterNode = new GrowableArrays.Ints();
    final GrowableArrays.Doubles meterInterval = new GrowableArrays.Doubles(); // ms
    final GrowableArrays.Doubles meterOffset = new GrowableArrays.Doubles(); // ms, the first sample time
    final GrowableArrays.Doubles meterWindow = new GrowableArrays.Doubles(); // (meters x 3) start, stop, origin (ms)
    final List<String[]> meterVars = new ArrayList<>(); // record_from, null until set
    final GrowableArrays.Ints meterConnections = new GrowableArrays.Ints(); // per meter
    final GrowableArrays.Ints sampleMeter = new GrowableArrays.Ints();
    final GrowableArrays.Ints sampleNeuron = new GrowableArrays.Ints();

    /** @return the number of nodes so far */
    public int nodeCount() {
        return nodeModels.size();
    }

    /** @return the model of node {@code id} */
    public NodeModel model(int id) {
        return nodeModels.get(id);
    }

    /** @return the neuron, device or recorder index of node {@code id} */
    public int local(int id) {
        return nodeLocal.a[id];
    }

    /** @return the number of neuron-to-neuron synapses so far */
    public int synapseCount() {
        return synSrc.size;
    }

    /**
     * Adds {@code n} neurons of one parameter set.
     *
     * @param params values in {@link NodeModel#parameterNames()} order. Not modified.
     * @return the first node id
     */
    public int addNeurons(NodeModel model, int n, double[] params) {
        int firstNode = nodeModels.size();
        groupModel.add(model);
        groupFirst.add(neuronNode.size);
        groupCount.add(n);
        groupParams.add(params.clone());
        for (int i = 0; i < n; i++) {
            nodeLocal.add(neuronNode.size);
            neuronNode.add(nodeModels.size());
            nodeModels.add(model);
        }
        return firstNode;
    }

    /**
     * Adds {@code n} stimulating devices with an initial rate (Hz) or amplitude (pA) and an
     * activity window (ms, checked by the builder).
     *
     * @return the first node id
     */
    public int addDevices(NodeModel model, int n, double value, double start, double stop, double origin) {
        int firstNode = nodeModels.size();
        for (int i = 0; i < n; i++) {
            nodeLocal.add(deviceNode.size);
            deviceNode.add(nodeModels.size());
            deviceModel.add(model);
            deviceValue.add(value);
            deviceWindow.add(start);
            deviceWindow.add(stop);
            deviceWindow.add(origin);
            spikeEmitSteps.add(model == NodeModel.SPIKE_GENERATOR ? new long[0] : null);
            nodeModels.add(model);
        }
        return firstNode;
    }

    /**
     * Adds {@code n} spike recorders with an activity window (ms, checked by the builder).
     *
     * @return the first node id
     */
    public int addRecorders(int n, double start, double stop, double origin) {
        int firstNode = nodeModels.size();
        for (int i = 0; i < n; i++) {
            nodeLocal.add(recorderNode.size);
            recorderNode.add(nodeModels.size());
            recorderWindow.add(start);
            recorderWindow.add(stop);
            recorderWindow.add(origin);
            nodeModels.add(NodeModel.SPIKE_RECORDER);
        }
        return firstNode;
    }

    /**
     * Adds {@code n} multimeters with a sampling interval, the time of the first sample (NEST 3's
     * offset) and an activity window (ms, checked by the builder); their variables are set with
     * {@link #setRecordFrom}.
     *
     * @return the first node id
     */
    public int addMultimeters(int n, double interval, double offset, double start, double stop, double origin) {
        int firstNode = nodeModels.size();
        for (int i = 0; i < n; i++) {
            nodeLocal.add(meterNode.size);
            meterNode.add(nodeModels.size());
            meterInterval.add(interval);
            meterOffset.add(offset);
            meterWindow.add(start);
            meterWindow.add(stop);
            meterWindow.add(origin);
            meterVars.add(null);
            meterConnections.add(0);
            nodeModels.add(NodeModel.MULTIMETER);
        }
        return firstNode;
    }

    /**
     * Sets what a multimeter records (NEST names, checked by the builder).
     *
     * @param vars the variables. Not modified.
     */
    public void setRecordFrom(int node, String[] vars) {
        meterVars.set(nodeLocal.a[node], vars.clone());
    }

    /** @return the variables multimeter {@code node} records, or null before they are set */
    public String[] recordFrom(int node) {
        String[] v = meterVars.get(nodeLocal.a[node]);
        return v == null ? null : v.clone();
    }

    /** @return the neurons multimeter {@code node} is connected to so far */
    public int meterConnections(int node) {
        return meterConnections.a[nodeLocal.a[node]];
    }

    /** Connects a multimeter to a neuron (NEST's {@code Connect(multimeter, neuron)}). */
    public void addSampling(int meterNodeId, int neuronNodeId) {
        int m = nodeLocal.a[meterNodeId];
        sampleMeter.add(m);
        sampleNeuron.add(nodeLocal.a[neuronNodeId]);
        meterConnections.a[m]++;
    }

    /**
     * Sets the spikes of a spike generator.
     *
     * @param emitSteps sorted steps in which the spikes are emitted, relative to the generator's
     *                  origin (a spike at time t ms has stamp t / h and is emitted in step
     *                  stamp - 1). Not modified.
     */
    public void setSpikeEmitSteps(int node, long[] emitSteps) {
        spikeEmitSteps.set(nodeLocal.a[node], emitSteps.clone());
    }

    /** Registers a tsodyks_synapse parameter set {U, tau_psc, tau_rec, tau_fac, x, y, u}; returns its index. */
    public int addTsodyksSpec(double[] spec) {
        tsodyksSpecs.add(spec.clone());
        return tsodyksSpecs.size() - 1;
    }

    /**
     * Adds a neuron-to-neuron synapse.
     *
     * @param tsodyksSpec a tsodyks parameter set index, or -1 for a static synapse
     */
    public void addSynapse(int srcNode, int tgtNode, double weight, int delaySteps, int tsodyksSpec) {
        synSrc.add(nodeLocal.a[srcNode]);
        synTgt.add(nodeLocal.a[tgtNode]);
        synW.add(weight);
        synD.add(delaySteps);
        synSpec.add(tsodyksSpec);
    }

    /** Connects a stimulating device to a neuron. */
    public void addDeviceConnection(int devNode, int tgtNode, double weight, int delaySteps) {
        devConnDev.add(nodeLocal.a[devNode]);
        devConnTgt.add(nodeLocal.a[tgtNode]);
        devConnW.add(weight);
        devConnD.add(delaySteps);
    }

    /** Records the spikes of a neuron in a recorder. */
    public void addRecording(int neuronNode, int recorderNode) {
        recNeuron.add(nodeLocal.a[neuronNode]);
        recRecorder.add(nodeLocal.a[recorderNode]);
    }

    /** @return the immutable network */
    public CompiledNetwork compile(long resolutionNs, long seed, int partitions) {
        return new CompiledNetwork(this, resolutionNs, seed, partitions);
    }
}
