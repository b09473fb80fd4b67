package io.tandem.neuro.internal;

import java.util.Arrays;

/**
 * Delayed input of every neuron: {@code slots} time slots of {@code neurons} values each, slot
 * {@code s % slots} holding what arrives in step {@code s}. Index {@code slot * neurons + neuron}.
 * Inhibitory input (negative weights) goes to {@link #in} with its sign.
 *
 * <p>Not thread-safe by itself: each neuron's values are written and read only by the thread
 * that owns the neuron.
 */
public final class RingBuffers {
    /** Number of time slots: the longest delay in steps plus one. */
    public final int slots;
    /** Neurons per slot. */
    public final int neurons;
    /** Excitatory spike input ((slots x neurons), pA or nS). */
    public final double[] ex;
    /** Inhibitory spike input ((slots x neurons), negative). */
    public final double[] in;
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
        ex = new double[(int) size];
        in = new double[(int) size];
        current = new double[(int) size];
    }

    void clear() {
        Arrays.fill(ex, 0);
        Arrays.fill(in, 0);
        Arrays.fill(current, 0);
    }
}
