package io.tandem.net.internal;

import org.agrona.concurrent.NanoClock;

/**
 * The only place in this module that reads wall time: a monotonic nanosecond clock for join,
 * leave and drain deadlines. Everything else gets a {@link NanoClock} injected.
 */
@SuppressForbidden
final class NetClock {
    /** monotonic wall-clock nanoseconds ({@link System#nanoTime()}) */
    static final NanoClock MONOTONIC = System::nanoTime;

    private NetClock() {
    }
}
