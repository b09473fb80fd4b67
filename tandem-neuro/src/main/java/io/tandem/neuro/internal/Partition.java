package io.tandem.neuro.internal;

/**
 * The neurons {@code [lo, hi)} that one thread updates, with that thread's scratch and its
 * double-buffered spike list: the spikes of slice {@code k} sit in buffer {@code k & 1}, the
 * spikes of the slice's step {@code i} at {@code [stepStart[b][i], stepStart[b][i + 1])}, in
 * neuron order.
 *
 * <p>Written only by its own thread; read by the others after the slice barrier.
 */
final class Partition implements SpikeSink {
    /** Scratch doubles per thread (the RKF45 stages need 72). */
    static final int SCRATCH = 128;

    final int index;
    final int lo;
    final int hi;
    final double[] scratch = new double[SCRATCH];
    final int[][] spikes;
    final int[][] stepStart;
    // the kernel segments overlapping [lo, hi)
    final NeuronKernel[] segKernel;
    final int[] segFrom;
    final int[] segTo;
    private int[] cur;
    private int count;

    Partition(int index, int lo, int hi, int maxSlice, NeuronKernel[] kernels) {
        this.index = index;
        this.lo = lo;
        this.hi = hi;
        int cap = Math.max(1, (hi - lo) * maxSlice);
        spikes = new int[][] {new int[cap], new int[cap]};
        stepStart = new int[][] {new int[maxSlice + 1], new int[maxSlice + 1]};
        int n = 0;
        for (NeuronKernel k : kernels) {
            if (k.first < hi && k.first + k.count > lo) {
                n++;
            }
        }
        segKernel = new NeuronKernel[n];
        segFrom = new int[n];
        segTo = new int[n];
        int i = 0;
        for (NeuronKernel k : kernels) {
            if (k.first < hi && k.first + k.count > lo) {
                segKernel[i] = k;
                segFrom[i] = Math.max(lo, k.first);
                segTo[i] = Math.min(hi, k.first + k.count);
                i++;
            }
        }
    }

    /** Starts filling spike buffer {@code parity}. */
    void begin(int parity) {
        cur = spikes[parity];
        count = 0;
        stepStart[parity][0] = 0;
    }

    /** Closes step {@code i} of the slice in buffer {@code parity}. */
    void endStep(int parity, int i) {
        stepStart[parity][i + 1] = count;
    }

    @Override
    public void spike(int neuron) {
        cur[count++] = neuron;
    }
}
