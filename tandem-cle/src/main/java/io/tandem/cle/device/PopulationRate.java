package io.tandem.cle.device;

/**
 * The NRP's {@code population_rate} device: the mean firing rate of a population, low-pass
 * filtered by a rise (10 ms) and fall (20 ms) kernel of unit area, read as the membrane potential
 * of an extra non-spiking cell (built by {@link io.tandem.cle.engine.BrainDevices#addPopulationRate}). A reading device.
 */
public final class PopulationRate extends ScalarReading {
    /**
     * @param name   device name
     * @param engine the owning engine's name
     */
    public PopulationRate(String name, String engine) {
        super(name, engine, Side.BRAIN);
    }

    /** @return the filtered mean rate per neuron, Hz, at the start of the loop step (loop thread) */
    public double rateHz() {
        return front();
    }

    /**
     * Engine side: the rate after an advance (the engine's thread).
     *
     * @param hz filtered mean rate, Hz
     */
    public void publish(double hz) {
        store(hz);
    }
}
