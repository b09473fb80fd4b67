package io.tandem.net.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting helpers for tests: poll a condition with a deadline (never sleep). */
final class TestSupport {
    private TestSupport() {
    }

    /** Polls every 0.2 ms until the condition holds; fails after {@code timeoutMs} with the diagnostic. */
    static void awaitTrue(long timeoutMs, BooleanSupplier condition, Supplier<String> diagnostic) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("condition not met within " + timeoutMs + " ms: " + diagnostic.get());
            }
            LockSupport.parkNanos(200_000);
        }
    }
}
