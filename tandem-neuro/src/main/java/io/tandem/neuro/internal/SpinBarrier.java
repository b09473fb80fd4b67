package io.tandem.neuro.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reusable barrier for a fixed number of threads that spins, then yields, and never
 * allocates or blocks in the kernel (the slices between barriers are short). The last thread
 * to arrive resets the count and opens the next generation; the volatile generation gives the
 * happens-before edge from every thread's writes before the barrier to every read after it.
 *
 * <p>Thread-safe.
 */
final class SpinBarrier {
    private static final int SPINS_BEFORE_YIELD = 2_000;
    private final int parties;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int generation;

    SpinBarrier(int parties) {
        this.parties = parties;
    }

    void await() {
        int g = generation;
        if (arrived.incrementAndGet() == parties) {
            arrived.set(0);
            generation = g + 1;
            return;
        }
        int spins = 0;
        while (generation == g) {
            if (++spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }
}
