package io.tandem.cle.internal;

import java.util.function.LongSupplier;

/**
 * The only wall-time read of this module: the default clock of the loop's timing figures. No
 * simulation decision depends on it.
 */
@SuppressForbidden
public final class SystemNanoClock {
    /** monotonic wall-clock ns ({@link System#nanoTime()}) */
    public static final LongSupplier MONOTONIC_NS = System::nanoTime;

    private SystemNanoClock() {
    }
}
