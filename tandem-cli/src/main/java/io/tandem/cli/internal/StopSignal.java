package io.tandem.cli.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C and SIGTERM for a long-running command: a JVM shutdown hook completes {@link #requested()}
 * and then holds the JVM until the command calls {@link #close()} (at most {@link #GRACE_MS}), so
 * the command can stop its simulation and clean up before the JVM exits. Also completes when
 * {@link #request(String)} is called (tests, or a command stopping itself).
 *
 * <p>Thread-safe. Allocates a thread object per instance (not started unless the JVM shuts down).
 */
public final class StopSignal implements AutoCloseable {
    /** the longest the shutdown hook waits for the command to clean up, ms */
    public static final long GRACE_MS = 15_000;

    private final CompletableFuture<String> requested = new CompletableFuture<>();
    private final CountDownLatch cleanedUp = new CountDownLatch(1);
    private final Thread hook;

    private StopSignal(boolean installHook) {
        if (installHook) {
            hook = new Thread(this::awaitCleanup, "tandem-stop-signal");
            Runtime.getRuntime().addShutdownHook(hook);
        } else {
            hook = null;
        }
    }

    /** @return a signal completed by Ctrl-C or SIGTERM (a JVM shutdown hook) */
    public static StopSignal onShutdown() {
        return new StopSignal(true);
    }

    /** @return a signal completed only by {@link #request(String)} (no shutdown hook) */
    public static StopSignal manual() {
        return new StopSignal(false);
    }

    private void awaitCleanup() {
        requested.complete("interrupted (Ctrl-C or SIGTERM)");
        try {
            cleanedUp.await(GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return completes with why the command should stop */
    public CompletableFuture<String> requested() {
        return requested;
    }

    /** @return whether a stop was requested */
    public boolean isRequested() {
        return requested.isDone();
    }

    /** @param why why the command should stop */
    public void request(String why) {
        requested.complete(why);
    }

    /** The command has cleaned up: lets a pending shutdown proceed and removes the hook. Idempotent. */
    @Override
    public void close() {
        cleanedUp.countDown();
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running and now returns
            }
        }
    }
}
