package io.tandem.cle.device;

/**
 * The NRP's {@code leaky_integrator_alpha} / {@code leaky_integrator_exp} device: the membrane
 * potential of an extra non-spiking integrate cell that the observed neurons feed (built by
 * {@link io.tandem.cle.engine.BrainDevices#addLeakyIntegratorAlpha} / {@link io.tandem.cle.engine.BrainDevices#addLeakyIntegratorExp}).
 * A reading device: {@link #voltage()} is the value at the start of the loop step.
 */
public final class LeakyIntegrator extends ScalarReading {
    /**
     * @param name   device name
     * @param engine the owning engine's name
     */
    public LeakyIntegrator(String name, String engine) {
        super(name, engine, Side.BRAIN);
    }

    /** @return the integrator's V_m, mV, at the start of the loop step (loop thread) */
    public double voltage() {
        return front();
    }

    /**
     * Engine side: the integrator's V_m after an advance (the engine's thread).
     *
     * @param mV membrane potential, mV
     */
    public void publish(double mV) {
        store(mV);
    }
}
