package io.tandem.cle.device;

/**
 * The NRP's {@code poisson} device: a NEST {@code poisson_generator} whose rate transfer functions
 * set, and its activity window ({@link #setWindowMs}). A command device: a rate or window set in
 * loop step k acts from the engine's next sync on.
 */
public final class PoissonSource extends ScalarCommand {
    /**
     * @param name   device name
     * @param engine the owning engine's name
     * @param initialRateHz the generator's rate at time 0, Hz
     */
    public PoissonSource(String name, String engine, double initialRateHz) {
        this(name, engine, initialRateHz, Double.NaN, 0.0, Double.POSITIVE_INFINITY, 0.0);
    }

    /**
     * @param name          device name
     * @param engine        the owning engine's name
     * @param initialRateHz the generator's rate at time 0, Hz
     * @param resolutionMs  the network's resolution, ms, that {@link #setWindowMs} checks against
     *                      (NaN: not checked here)
     * @param startMs       the generator's start at time 0, ms
     * @param stopMs        its stop at time 0, ms (+infinity: never)
     * @param originMs      its origin at time 0, ms
     */
    public PoissonSource(String name, String engine, double initialRateHz, double resolutionMs, double startMs,
            double stopMs, double originMs) {
        super(name, engine, Side.BRAIN, initialRateHz, resolutionMs, startMs, stopMs, originMs);
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

    /**
     * Sets the generator's activity window (NEST's {@code start}, {@code stop}, {@code origin}, ms)
     * from the engine's next sync on, as one change (loop thread; allocates nothing): the
     * generator is then active for times in (origin + start, origin + stop], from the next step
     * on; a stop at or before the current time silences it.
     *
     * @param startMs  start, finite and at least 0, a multiple of the resolution
     * @param stopMs   stop, at least start, a multiple of the resolution or {@code Double.POSITIVE_INFINITY}
     * @param originMs origin, finite and at least 0, a multiple of the resolution
     * @throws IllegalArgumentException naming the device and the rule it breaks
     */
    public void setWindowMs(double startMs, double stopMs, double originMs) {
        setWindow(startMs, stopMs, originMs);
    }

    /** @return the window's start last set, ms */
    public double startMs() {
        return start();
    }

    /** @return the window's stop last set, ms (+infinity: never) */
    public double stopMs() {
        return stop();
    }

    /** @return the window's origin last set, ms */
    public double originMs() {
        return origin();
    }
}
