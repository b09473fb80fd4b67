package io.tandem.cle;

/**
 * A command device holding one number (see {@link Device}): the last value a transfer function
 * set, and whether one was set since the engine last took it. The shared part of
 * {@link PoissonSource} and {@link DcSource}; allocates nothing.
 */
abstract class ScalarCommand extends Device {
    private final double initial;
    private double value;
    private boolean changed;

    ScalarCommand(String name, String engine, Side side, double initial) {
        super(name, engine, side, true);
        this.initial = initial;
        this.value = initial;
    }

    /** Sets the value from the engine's next sync on (loop thread). */
    final void set(double v) {
        value = v;
        changed = true;
    }

    /** @return the last value set (the initial one before any) */
    final double value() {
        return value;
    }

    /** @return the value at time 0 (a remote engine's mirror device is built with it) */
    final double initial() {
        return initial;
    }

    /**
     * Engine side: whether a value was set since the last call, clearing the flag (loop thread, at
     * the engine's sync).
     *
     * @return true when the value should be applied
     */
    public final boolean takeChanged() {
        boolean c = changed;
        changed = false;
        return c;
    }

    @Override
    final void swap() {
    }

    @Override
    final void clear() {
        value = initial;
        changed = false;
    }
}
