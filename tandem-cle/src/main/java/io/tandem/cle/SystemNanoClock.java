package io.tandem.cle;

import java.util.function.LongSupplier;

/**
 * The only wall-time read of this module: the default clock of the loop's timing figures. No
 * simulation decision depends on it.
 */
@SuppressForbidden
final class SystemNanoClock {
    /** monotonic wall-clock ns ({@link System#nanoTime()}) */
    static final LongSupplier MONOTONIC_NS = System::nanoTime;

    private SystemNanoClock() {
    }
}
