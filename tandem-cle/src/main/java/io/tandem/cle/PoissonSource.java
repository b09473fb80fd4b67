package io.tandem.cle;

/**
 * The NRP's {@code poisson} device: a NEST {@code poisson_generator} whose rate transfer functions
 * set. A command device: a rate set in loop step k acts from the engine's next sync on.
 */
public final class PoissonSource extends Device {
    private final double initialRateHz;
    private double rateHz;
    private boolean changed;

    /**
     * @param name          device name
     * @param engine        the owning engine's name
     * @param initialRateHz the generator's rate at time 0, Hz
     */
    public PoissonSource(String name, String engine, double initialRateHz) {
        super(name, engine, Side.BRAIN, true);
        this.initialRateHz = initialRateHz;
        this.rateHz = initialRateHz;
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
        rateHz = hz;
        changed = true;
    }

    /** @return the rate at time 0, Hz (a remote engine's mirror device is built with it) */
    double initialRateHz() {
        return initialRateHz;
    }

    /** @return the last rate set, Hz */
    public double rate() {
        return rateHz;
    }

    /**
     * Engine side: whether a rate was set since the last call, clearing the flag (loop thread, at
     * the engine's sync).
     *
     * @return true when {@link #rate()} should be applied
     */
    public boolean takeChanged() {
        boolean c = changed;
        changed = false;
        return c;
    }

    @Override
    void swap() {
    }

    @Override
    void clear() {
        rateHz = initialRateHz;
        changed = false;
    }
}
