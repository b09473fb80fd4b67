package io.tandem.neuro.internal;

/** Where a neuron kernel reports a spike in the current step. Implementations must not allocate. */
interface SpikeSink {
    /** Neuron {@code neuron} (global neuron index) spiked in the current step. */
    void spike(int neuron);
}
