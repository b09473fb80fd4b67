package io.tandem.cosim.internal;

import java.util.function.LongSupplier;

/**
 * The only place in this module that reads wall time: a monotonic nanosecond clock, used for
 * wall-clock RPC timeouts of participants without time sync. Everything else gets it injected.
 */
@SuppressForbidden
final class WallClock {
    /** monotonic wall-clock nanoseconds ({@link System#nanoTime()}) */
    static final LongSupplier MONOTONIC_NS = System::nanoTime;

    private WallClock() {
    }
}
