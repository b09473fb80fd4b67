package io.tandem.cle.device;

/**
 * A command device holding one number and a generator's activity window (see {@link Device}): the
 * last value and window a transfer function set, and whether each was set since the engine last
 * took it. The shared part of {@link PoissonSource} and {@link DcSource}; allocates nothing.
 *
 * <p>The window is NEST's {@code start}, {@code stop} and {@code origin} (ms): the generator is
 * active for times in (origin + start, origin + stop]. {@link #setWindow} checks what NEST checks
 * (finite, not negative, stop may be +infinity, stop &gt;= start, multiples of the resolution when
 * the device knows it) so a bad window fails in the transfer function that sets it.
 */
public abstract class ScalarCommand extends Device {
    private final double initial;
    private final double resolutionMs; // NaN: not known here (the grid is then checked by the network)
    private final double initialStart;
    private final double initialStop;
    private final double initialOrigin;
    private double value;
    private double start;
    private double stop;
    private double origin;
    private boolean changed;
    private boolean windowChanged;

    ScalarCommand(String name, String engine, Side side, double initial, double resolutionMs, double start, double stop,
            double origin) {
        super(name, engine, side, true);
        this.initial = initial;
        this.value = initial;
        this.resolutionMs = resolutionMs;
        this.initialStart = start;
        this.initialStop = stop;
        this.initialOrigin = origin;
        this.start = start;
        this.stop = stop;
        this.origin = origin;
    }

    /** Sets the value from the engine's next sync on (loop thread). */
    final void set(double v) {
        value = v;
        changed = true;
    }

    /**
     * Sets the activity window from the engine's next sync on (loop thread; allocates only to throw).
     *
     * @throws IllegalArgumentException naming the device, the rule and the fix
     */
    final void setWindow(double startMs, double stopMs, double originMs) {
        if (!Double.isFinite(startMs) || startMs < 0 || !Double.isFinite(originMs) || originMs < 0
                || Double.isNaN(stopMs) || stopMs < startMs) {
            throw new IllegalArgumentException(this + ": a window needs start and origin finite and >= 0 ms and stop >="
                    + " start (+infinity: never stops), got start " + startMs + ", stop " + stopMs + ", origin " + originMs);
        }
        if (!onGrid(startMs) || !onGrid(originMs) || stopMs != Double.POSITIVE_INFINITY && !onGrid(stopMs)) {
            throw new IllegalArgumentException(this + ": start, stop and origin must be multiples of the resolution "
                    + resolutionMs + " ms (NEST requires device times on the grid), got start " + startMs + ", stop "
                    + stopMs + ", origin " + originMs);
        }
        if (startMs != start || stopMs != stop || originMs != origin) {
            start = startMs;
            stop = stopMs;
            origin = originMs;
            windowChanged = true;
            changed = true;
        }
    }

    private boolean onGrid(double ms) {
        if (Double.isNaN(resolutionMs)) {
            return true;
        }
        double k = Math.rint(ms / resolutionMs);
        return Math.abs(k * resolutionMs - ms) <= 1e-9 * Math.max(1.0, ms);
    }

    /** @return the last value set (the initial one before any) */
    public final double value() {
        return value;
    }

    /** @return the value at time 0 (a remote engine's mirror device is built with it) */
    public final double initial() {
        return initial;
    }

    /** @return the window's start, ms */
    public final double start() {
        return start;
    }

    /** @return the window's stop, ms (+infinity: never) */
    public final double stop() {
        return stop;
    }

    /** @return the window's origin, ms */
    public final double origin() {
        return origin;
    }

    /** @return the resolution the window is checked against, ms (NaN: not checked here) */
    public final double resolutionMs() {
        return resolutionMs;
    }

    /** @return the window at time 0: {start, stop, origin} (for a remote mirror's descriptor; allocates) */
    public final double[] initialWindow() {
        return new double[] {initialStart, initialStop, initialOrigin};
    }

    /**
     * Engine side: whether a value (or window) was set since the last call, clearing the flag
     * (loop thread, at the engine's sync).
     *
     * @return true when the value should be applied
     */
    public final boolean takeChanged() {
        boolean c = changed;
        changed = false;
        return c;
    }

    /**
     * Engine side: whether the window was changed since the last call, clearing the flag (loop
     * thread, at the engine's sync).
     *
     * @return true when the window should be applied
     */
    public final boolean takeWindowChanged() {
        boolean c = windowChanged;
        windowChanged = false;
        return c;
    }

    @Override
    final void swap() {
    }

    @Override
    final void clearBuffers() {
        value = initial;
        start = initialStart;
        stop = initialStop;
        origin = initialOrigin;
        changed = false;
        windowChanged = false;
    }
}
