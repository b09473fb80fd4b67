package io.tandem.neuro.internal;

import java.util.Arrays;

/**
 * Delayed input of every neuron: {@code slots} time slots of {@code neurons} values each, slot
 * {@code s % slots} holding what arrives in step {@code s}. Index {@code slot * neurons + neuron}.
 * Spikes from neurons and from devices go to separate arrays and are summed when read, so the
 * order of additions into one value never depends on when a slice is delivered (or on threads).
 * Inhibitory input (negative weights) goes to the {@code *In} arrays with its sign.
 *
 * <p>Not thread-safe by itself: each neuron's values are written and read only by the thread
 * that owns the neuron.
 */
public final class RingBuffers {
    /** Number of time slots: the longest delay in steps plus one. */
    public final int slots;
    /** Neurons per slot. */
    public final int neurons;
    /** Excitatory spike input from neurons ((slots x neurons), pA or nS). */
    public final double[] netEx;
    /** Inhibitory spike input from neurons ((slots x neurons), negative). */
    public final double[] netIn;
    /** Excitatory spike input from devices ((slots x neurons)). */
    public final double[] devEx;
    /** Inhibitory spike input from devices ((slots x neurons), negative). */
    public final double[] devIn;
    /** Current input from devices ((slots x neurons), pA). */
    public final double[] current;

    RingBuffers(int slots, int neurons) {
        this.slots = slots;
        this.neurons = neurons;
        long size = (long) slots * neurons;
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("ring buffers of " + slots + " slots x " + neurons
                    + " neurons exceed an array: shorten the longest delay or use fewer neurons");
        }
        netEx = new double[(int) size];
        netIn = new double[(int) size];
        devEx = new double[(int) size];
        devIn = new double[(int) size];
        current = new double[(int) size];
    }

    void clear() {
        Arrays.fill(netEx, 0);
        Arrays.fill(netIn, 0);
        Arrays.fill(devEx, 0);
        Arrays.fill(devIn, 0);
        Arrays.fill(current, 0);
    }
}
