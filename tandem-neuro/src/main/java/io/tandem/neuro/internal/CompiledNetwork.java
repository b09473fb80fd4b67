package io.tandem.neuro.internal;

import io.tandem.neuro.NodeModel;

/**
 * The immutable model of a network, compiled by {@link NetworkDraft#compile}: nodes, neuron
 * groups and their parameters, devices, and the synapse tables in compressed rows by source
 * neuron, each row split into one segment per partition (the neurons one thread updates), in
 * connection order within a segment.
 *
 * <p>Shape conventions: {@code N} neurons, {@code P} partitions; the static synapses of source
 * {@code s} onto partition {@code p} are {@code [hPtr[s*P+p], hPtr[s*P+p+1])} when they share
 * one weight and delay (stored once per segment in {@code hW}, {@code hD}), else
 * {@code [sPtr[s*P+p], sPtr[s*P+p+1])}. Delays are in
 * steps (>= 1). Device connections are grouped by the partition of their target:
 * {@code [poissonPtr[p], poissonPtr[p+1])}.
 *
 * <p>Immutable after construction (arrays are never written); thread-safe.
 */
public final class CompiledNetwork {
    final long resolutionNs;
    final double h;
    final long seed;
    final int partitions;

    // nodes
    final NodeModel[] nodeModel; // (nodes)
    final int[] nodeLocal; // (nodes): neuron, device or recorder index

    // neurons and groups
    final int neuronCount;
    final int[] neuronNode; // (N)
    final NodeModel[] groupModel;
    final int[] groupFirst; // first neuron of each group
    final int[] groupCount;
    final double[][] groupParams;
    final int[] partitionStart; // (P + 1) neuron boundaries

    // stimulators
    final int deviceCount;
    final NodeModel[] deviceModel;
    final int[] deviceNode;
    final double[] deviceInitial; // rate (Hz) or amplitude (pA)
    final double[] deviceWindowInitial; // (devices x 3) start, stop, origin (ms)
    final long[][] spikeEmitSteps; // per device: sorted emission steps relative to the origin (spike_generator), else null

    // device connections by kind, grouped by target partition
    final int[] poissonPtr;
    final int[] poissonDev;
    final int[] poissonTgt;
    final double[] poissonW;
    final int[] poissonD;
    final long[] poissonSeed; // initial random state per connection
    final int[] spikeGenPtr;
    final int[] spikeGenDev;
    final int[] spikeGenTgt;
    final double[] spikeGenW;
    final int[] spikeGenD;
    final int[] dcPtr;
    final int[] dcDev;
    final int[] dcTgt;
    final double[] dcW;
    final int[] dcD;

    // neuron-to-neuron synapses; static segments whose synapses share weight and delay store targets only
    final int[] hPtr; // (N * P + 1)
    final int[] hTgt;
    final double[] hW; // (N * P) weight of each homogeneous segment
    final int[] hD; // (N * P) delay of each homogeneous segment
    final int[] sPtr; // (N * P + 1) the other static segments
    final int[] sTgt;
    final double[] sW; // pA or nS, signed
    final int[] sD; // steps
    final int[] tPtr; // (N * P + 1)
    final int[] tTgt;
    final double[] tW;
    final int[] tD;
    final int[] tSpec; // index into tsodyksSpecs
    final double[][] tsodyksSpecs; // {U, tau_psc, tau_rec, tau_fac, x0, y0, u0}

    // recorders
    final int recorderCount;
    final int[] recorderNode;
    final double[] recorderWindowInitial; // (R x 3) start, stop, origin (ms)
    final int[] recPtr; // (N + 1)
    final int[] recIdx;

    // multimeters: each samples its targets (connection order) at offset + k * interval
    final int meterCount;
    final int[] meterNode; // (M)
    final long[] meterIntervalSteps; // (M)
    final long[] meterOffsetSteps; // (M) the first sample time (steps; 0: the first multiple of the interval)
    final double[] meterWindowInitial; // (M x 3) start, stop, origin (ms)
    final String[][] meterVarNames; // (M) record_from
    final int[][] meterVarCodes; // (M) Recordables codes
    final int[][] meterTargets; // (M) neuron indices, connection order
    final int[] meterSegPtr; // (M * P + 1) the targets of meter m in partition p: [meterSegPtr[m*P+p], meterSegPtr[m*P+p+1])
    final int[] meterSegCol; // position in meterTargets[m]
    final int[] meterSegNeuron; // neuron index

    final int maxDelaySteps;
    final int minDelaySteps; // over synapses and device connections; Integer.MAX_VALUE without any

    CompiledNetwork(NetworkDraft d, long resolutionNs, long seed, int partitions) {
        this.resolutionNs = resolutionNs;
        this.h = resolutionNs / 1e6;
        this.seed = seed;
        this.partitions = partitions;
        this.nodeModel = d.nodeModels.toArray(new NodeModel[0]);
        this.nodeLocal = d.nodeLocal.toArray();
        this.neuronCount = d.neuronNode.size;
        this.neuronNode = d.neuronNode.toArray();
        int groups = d.groupModel.size();
        this.groupModel = d.groupModel.toArray(new NodeModel[0]);
        this.groupFirst = d.groupFirst.toArray();
        this.groupCount = d.groupCount.toArray();
        this.groupParams = d.groupParams.toArray(new double[groups][]);
        int n = neuronCount;
        int p = partitions;
        this.partitionStart = new int[p + 1];
        for (int i = 0; i <= p; i++) {
            partitionStart[i] = (int) ((long) i * n / p);
        }
        int[] part = new int[n];
        for (int i = 0; i < p; i++) {
            for (int k = partitionStart[i]; k < partitionStart[i + 1]; k++) {
                part[k] = i;
            }
        }
        this.deviceCount = d.deviceNode.size;
        this.deviceModel = d.deviceModel.toArray(new NodeModel[0]);
        this.deviceNode = d.deviceNode.toArray();
        this.deviceInitial = d.deviceValue.toArray();
        this.deviceWindowInitial = d.deviceWindow.toArray();
        this.spikeEmitSteps = d.spikeEmitSteps.toArray(new long[0][]);

        // device connections: split by kind, stable-sorted by target partition
        GrowableArrays.Ints dev = d.devConnDev;
        int[] perDevOrdinal = new int[deviceCount];
        long[] connSeed = new long[dev.size];
        int[] count = new int[3];
        int[] kindOf = new int[dev.size];
        for (int j = 0; j < dev.size; j++) {
            int dv = dev.a[j];
            NodeModel m = deviceModel[dv];
            kindOf[j] = m == NodeModel.POISSON_GENERATOR ? 0 : m == NodeModel.SPIKE_GENERATOR ? 1 : 2;
            count[kindOf[j]]++;
            connSeed[j] = RandomOps.streamState(seed, deviceNode[dv], perDevOrdinal[dv]++);
        }
        int[][] sel = new int[3][];
        for (int kind = 0; kind < 3; kind++) {
            int[] idx = new int[count[kind]];
            int c = 0;
            for (int j = 0; j < dev.size; j++) {
                if (kindOf[j] == kind) {
                    idx[c++] = j;
                }
            }
            sel[kind] = sortByPartition(idx, d.devConnTgt.a, part, p);
        }
        this.poissonPtr = partitionPtr(sel[0], d.devConnTgt.a, part, p);
        this.poissonDev = pick(d.devConnDev.a, sel[0]);
        this.poissonTgt = pick(d.devConnTgt.a, sel[0]);
        this.poissonW = pick(d.devConnW.a, sel[0]);
        this.poissonD = pick(d.devConnD.a, sel[0]);
        this.poissonSeed = new long[sel[0].length];
        for (int i = 0; i < sel[0].length; i++) {
            poissonSeed[i] = connSeed[sel[0][i]];
        }
        this.spikeGenPtr = partitionPtr(sel[1], d.devConnTgt.a, part, p);
        this.spikeGenDev = pick(d.devConnDev.a, sel[1]);
        this.spikeGenTgt = pick(d.devConnTgt.a, sel[1]);
        this.spikeGenW = pick(d.devConnW.a, sel[1]);
        this.spikeGenD = pick(d.devConnD.a, sel[1]);
        this.dcPtr = partitionPtr(sel[2], d.devConnTgt.a, part, p);
        this.dcDev = pick(d.devConnDev.a, sel[2]);
        this.dcTgt = pick(d.devConnTgt.a, sel[2]);
        this.dcW = pick(d.devConnW.a, sel[2]);
        this.dcD = pick(d.devConnD.a, sel[2]);

        // synapses: counting sort by (source, target partition), stable in connection order
        int synapses = d.synSrc.size;
        int keys = n * p;
        int[] keyOf = new int[synapses];
        int[] staticCount = new int[keys];
        int[] tsoCount = new int[keys];
        // a static segment is homogeneous while all its synapses share the first one's weight and delay
        boolean[] het = new boolean[keys];
        double[] firstW = new double[keys];
        int[] firstD = new int[keys];
        int maxD = 1;
        int minD = Integer.MAX_VALUE;
        for (int j = 0; j < synapses; j++) {
            int key = d.synSrc.a[j] * p + part[d.synTgt.a[j]];
            keyOf[j] = key;
            int dl = d.synD.a[j];
            maxD = Math.max(maxD, dl);
            minD = Math.min(minD, dl);
            if (d.synSpec.a[j] >= 0) {
                tsoCount[key]++;
                continue;
            }
            if (staticCount[key]++ == 0) {
                firstW[key] = d.synW.a[j];
                firstD[key] = dl;
            } else if (firstW[key] != d.synW.a[j] || firstD[key] != dl) {
                het[key] = true;
            }
        }
        this.hPtr = new int[keys + 1];
        this.sPtr = new int[keys + 1];
        this.tPtr = new int[keys + 1];
        this.hW = new double[keys];
        this.hD = new int[keys];
        for (int k = 0; k < keys; k++) {
            boolean hom = !het[k] && staticCount[k] > 0;
            hPtr[k + 1] = hPtr[k] + (hom ? staticCount[k] : 0);
            sPtr[k + 1] = sPtr[k] + (hom ? 0 : staticCount[k]);
            tPtr[k + 1] = tPtr[k] + tsoCount[k];
            if (hom) {
                hW[k] = firstW[k];
                hD[k] = firstD[k];
            }
        }
        this.hTgt = new int[hPtr[keys]];
        this.sTgt = new int[sPtr[keys]];
        this.sW = new double[sPtr[keys]];
        this.sD = new int[sPtr[keys]];
        this.tTgt = new int[tPtr[keys]];
        this.tW = new double[tPtr[keys]];
        this.tD = new int[tPtr[keys]];
        this.tSpec = new int[tPtr[keys]];
        int[] hFill = java.util.Arrays.copyOf(hPtr, keys);
        int[] sFill = java.util.Arrays.copyOf(sPtr, keys);
        int[] tFill = java.util.Arrays.copyOf(tPtr, keys);
        for (int j = 0; j < synapses; j++) {
            int key = keyOf[j];
            int tg = d.synTgt.a[j];
            if (d.synSpec.a[j] >= 0) {
                int at = tFill[key]++;
                tTgt[at] = tg;
                tW[at] = d.synW.a[j];
                tD[at] = d.synD.a[j];
                tSpec[at] = d.synSpec.a[j];
            } else if (het[key]) {
                int at = sFill[key]++;
                sTgt[at] = tg;
                sW[at] = d.synW.a[j];
                sD[at] = d.synD.a[j];
            } else {
                hTgt[hFill[key]++] = tg;
            }
        }
        for (int j = 0; j < dev.size; j++) {
            maxD = Math.max(maxD, d.devConnD.a[j]);
            minD = Math.min(minD, d.devConnD.a[j]);
        }
        this.maxDelaySteps = maxD;
        this.minDelaySteps = minD;
        this.tsodyksSpecs = d.tsodyksSpecs.toArray(new double[0][]);

        // recorders
        this.recorderCount = d.recorderNode.size;
        this.recorderNode = d.recorderNode.toArray();
        this.recorderWindowInitial = d.recorderWindow.toArray();
        this.recPtr = new int[n + 1];
        for (int j = 0; j < d.recNeuron.size; j++) {
            recPtr[d.recNeuron.a[j] + 1]++;
        }
        for (int k = 0; k < n; k++) {
            recPtr[k + 1] += recPtr[k];
        }
        this.recIdx = new int[d.recNeuron.size];
        int[] rFill = java.util.Arrays.copyOf(recPtr, n);
        for (int j = 0; j < d.recNeuron.size; j++) {
            recIdx[rFill[d.recNeuron.a[j]]++] = d.recRecorder.a[j];
        }

        // multimeters
        int meters = d.meterNode.size;
        this.meterCount = meters;
        this.meterNode = d.meterNode.toArray();
        this.meterIntervalSteps = new long[meters];
        this.meterOffsetSteps = new long[meters];
        this.meterWindowInitial = d.meterWindow.toArray();
        this.meterVarNames = new String[meters][];
        this.meterVarCodes = new int[meters][];
        this.meterTargets = new int[meters][];
        for (int mm = 0; mm < meters; mm++) {
            meterIntervalSteps[mm] = Math.round(d.meterInterval.a[mm] / h);
            meterOffsetSteps[mm] = Math.round(d.meterOffset.a[mm] / h);
            String[] vars = d.meterVars.get(mm);
            meterVarNames[mm] = vars == null ? new String[0] : vars.clone();
            meterVarCodes[mm] = new int[meterVarNames[mm].length];
            for (int v = 0; v < meterVarNames[mm].length; v++) {
                meterVarCodes[mm][v] = Recordables.code(meterVarNames[mm][v]);
            }
            meterTargets[mm] = new int[d.meterConnections.a[mm]];
        }
        int[] tFillMeter = new int[meters];
        for (int j = 0; j < d.sampleMeter.size; j++) {
            int mm = d.sampleMeter.a[j];
            meterTargets[mm][tFillMeter[mm]++] = d.sampleNeuron.a[j];
        }
        this.meterSegPtr = new int[meters * p + 1];
        int segs = d.sampleMeter.size;
        this.meterSegCol = new int[segs];
        this.meterSegNeuron = new int[segs];
        int at = 0;
        for (int mm = 0; mm < meters; mm++) {
            for (int q = 0; q < p; q++) {
                meterSegPtr[mm * p + q] = at;
                for (int col = 0; col < meterTargets[mm].length; col++) {
                    int nr = meterTargets[mm][col];
                    if (part[nr] == q) {
                        meterSegCol[at] = col;
                        meterSegNeuron[at] = nr;
                        at++;
                    }
                }
            }
        }
        meterSegPtr[meters * p] = at;
    }

    private static int[] sortByPartition(int[] idx, int[] tgt, int[] part, int p) {
        int[] c = new int[p + 1];
        for (int j : idx) {
            c[part[tgt[j]] + 1]++;
        }
        for (int i = 0; i < p; i++) {
            c[i + 1] += c[i];
        }
        int[] out = new int[idx.length];
        for (int j : idx) {
            out[c[part[tgt[j]]]++] = j;
        }
        return out;
    }

    private static int[] partitionPtr(int[] sorted, int[] tgt, int[] part, int p) {
        int[] ptr = new int[p + 1];
        for (int j : sorted) {
            ptr[part[tgt[j]] + 1]++;
        }
        for (int i = 0; i < p; i++) {
            ptr[i + 1] += ptr[i];
        }
        return ptr;
    }

    private static int[] pick(int[] a, int[] idx) {
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = a[idx[i]];
        }
        return out;
    }

    private static double[] pick(double[] a, int[] idx) {
        double[] out = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = a[idx[i]];
        }
        return out;
    }

    /** @return the number of nodes (neurons and devices) */
    public int nodeCount() {
        return nodeModel.length;
    }

    /** @return the model of node {@code id} */
    public NodeModel model(int id) {
        return nodeModel[id];
    }

    /** @return the number of neurons */
    public int neuronCount() {
        return neuronCount;
    }

    /** @return the number of neuron-to-neuron synapses */
    public long synapseCount() {
        return (long) hTgt.length + sTgt.length + tTgt.length;
    }

    /** @return the resolution in ns */
    public long resolutionNs() {
        return resolutionNs;
    }

    /** @return the number of partitions (threads) */
    public int partitions() {
        return partitions;
    }
}
