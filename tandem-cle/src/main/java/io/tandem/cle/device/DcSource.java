package io.tandem.cle.device;

/**
 * The NRP's {@code dc_source} device: a NEST {@code dc_generator} whose amplitude transfer
 * functions set, and its activity window ({@link #setWindowMs}). A command device: an amplitude
 * or window set in loop step k acts from the engine's next sync on.
 */
public final class DcSource extends ScalarCommand {
    /**
     * @param name   device name
     * @param engine the owning engine's name
     * @param initialAmplitudePa the generator's amplitude at time 0, pA
     */
    public DcSource(String name, String engine, double initialAmplitudePa) {
        this(name, engine, initialAmplitudePa, Double.NaN, 0.0, Double.POSITIVE_INFINITY, 0.0);
    }

    /**
     * @param name               device name
     * @param engine             the owning engine's name
     * @param initialAmplitudePa the generator's amplitude at time 0, pA
     * @param resolutionMs       the network's resolution, ms, that {@link #setWindowMs} checks
     *                           against (NaN: not checked here)
     * @param startMs            the generator's start at time 0, ms
     * @param stopMs             its stop at time 0, ms (+infinity: never)
     * @param originMs           its origin at time 0, ms
     */
    public DcSource(String name, String engine, double initialAmplitudePa, double resolutionMs, double startMs,
            double stopMs, double originMs) {
        super(name, engine, Side.BRAIN, initialAmplitudePa, resolutionMs, startMs, stopMs, originMs);
    }

    /**
     * Sets the current from the engine's next sync on (loop thread; allocates nothing).
     *
     * @param pA amplitude, finite
     * @throws IllegalArgumentException for NaN or infinity
     */
    public void setAmplitude(double pA) {
        if (!Double.isFinite(pA)) {
            throw new IllegalArgumentException("dc source '" + name() + "': amplitude must be finite, got " + pA);
        }
        set(pA);
    }

    /** @return the last amplitude set, pA */
    public double amplitude() {
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
