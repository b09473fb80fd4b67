package io.tandem.neuro;

/**
 * Receives recorded spikes from {@link SpikingNetwork#drainSpikes}: primitives only, so
 * draining allocates nothing. Called on the thread that drains.
 */
@FunctionalInterface
public interface SpikeHandler {
    /**
     * One spike.
     *
     * @param sender the node id of the neuron that spiked
     * @param timeNs the spike time in ns (a multiple of the resolution)
     */
    void onSpike(int sender, long timeNs);
}
