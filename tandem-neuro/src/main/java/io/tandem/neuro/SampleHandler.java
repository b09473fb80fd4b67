package io.tandem.neuro;

/**
 * Receives multimeter samples from {@link SpikingNetwork#drainSamples}: primitives and a
 * flyweight view of the network's own buffer, so draining allocates nothing. Called on the
 * thread that drains.
 */
@FunctionalInterface
public interface SampleHandler {
    /**
     * One row: the sampled neuron's values at one time.
     *
     * @param sender the node id of the sampled neuron
     * @param timeNs the sample time in ns (the end of a step, offset + k interval)
     * @param values the values at {@code [offset, offset + count)} in {@code record_from} order, in
     *               NEST units: mV ({@code V_m}), pA ({@code I_syn_ex}, {@code I_syn_in}), nS
     *               ({@code g_ex}, {@code g_in}). Valid only during the call. Not modified.
     * @param offset the row's first value
     * @param count  the number of values (the multimeter's variables)
     */
    void onSample(int sender, long timeNs, double[] values, int offset, int count);
}
