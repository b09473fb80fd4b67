package io.tandem.cle;

/**
 * The NRP's {@code poisson} device: a NEST {@code poisson_generator} whose rate transfer functions
 * set. A command device: a rate set in loop step k acts from the engine's next sync on.
 */
public final class PoissonSource extends ScalarCommand {
    /**
     * @param name   device name
     * @param engine the owning engine's name
     * @param initialRateHz the generator's rate at time 0, Hz
     */
    public PoissonSource(String name, String engine, double initialRateHz) {
        super(name, engine, Side.BRAIN, initialRateHz);
    }

    /**
     * Sets the rate from the engine's next sync on (loop thread; allocates nothing).
     *
     * @param hz rate, finite and at least 0
     * @throws IllegalArgumentException for a negative, NaN or infinite rate
     */
    public void setRate(double hz) {
        if (!(hz >= 0) || hz == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("poisson source '" + name() + "': rate must be finite and >= 0 Hz, got " + hz);
        }
        set(hz);
    }

    /** @return the last rate set, Hz */
    public double rate() {
        return value();
    }
}
