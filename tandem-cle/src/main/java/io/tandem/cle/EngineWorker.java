package io.tandem.cle;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/*
 * Implementation notes.
 *
 * One daemon thread per engine in PARALLEL mode. Handoff without allocation or locks: the loop
 * thread writes the job's duration, then increments the volatile `requested` (publishing the
 * duration and everything the loop thread did before, e.g. applyInputs); the worker, seeing a new
 * `requested`, advances and publishes, writes the elapsed time, then sets the volatile `completed`
 * (publishing the engine's state and the devices' back buffers to the loop thread). Both sides
 * wait by spinning briefly, then parking; the other side unparks them.
 *
 * Why no yielding phase: a yielding waiter stays runnable, so on 2 cores it takes CPU time from
 * the engine it waits for whenever a third thread (another process, the JIT) wants a core. With
 * a busy loop of another process beside the Husky experiment (bench cle, 500 steps, 3 runs, three
 * times each), yielding up to 20,000 times gave wall / slowest engine 1.51 to 1.81 and parking
 * after the spins 1.18 to 1.24; on an idle machine both gave 1.03 to 1.10. (Running the slowest
 * engine on the loop thread instead of a worker, to take the wake-up off the critical path, gave
 * the same on an idle machine, 1.06 to 1.12, and 1.19 to 1.29 beside the busy loop: the transfer
 * functions then run after it rather than beside it. Spinning instead of parking near the
 * expected end of a job and for 200 us before the next one, to take the wake-ups off the critical
 * path, was worse: 1.14 to 1.19 against 1.09 to 1.12 in alternating runs, the physics' own step
 * growing from 2.05 to 2.6 ms beside the spinning thread (the guest sees 2 cores; how the host
 * places them is not visible).)
 */

/** Runs one engine's advance-and-publish jobs on its own thread (PARALLEL mode). */
final class EngineWorker {
    /** busy spins before parking */
    private static final int SPINS = 200;

    private final Engine engine;
    private final LongSupplier clock;
    private final Thread thread;
    private volatile Thread waiter;
    private volatile long requested;
    private volatile long completed;
    private volatile boolean closing;
    private long durationNs;
    private long elapsedNs;
    private Throwable failure;

    EngineWorker(Engine engine, LongSupplier clock) {
        this.engine = engine;
        this.clock = clock;
        this.thread = new Thread(this::work, "tandem-cle-" + engine.name());
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts an advance of {@code durationNs} (loop thread, worker idle). */
    void start(long durationNs) {
        this.durationNs = durationNs;
        this.waiter = Thread.currentThread();
        requested = requested + 1;
        LockSupport.unpark(thread);
    }

    /** @return whether a job is in flight */
    boolean busy() {
        return completed != requested;
    }

    /**
     * Waits for the job in flight (loop thread).
     *
     * @return the job's wall time, ns (advance and publish)
     * @throws ClosedLoopException if the engine failed
     */
    long await() {
        long target = requested;
        int rounds = 0;
        while (completed != target) {
            idle(rounds++);
        }
        if (failure != null) {
            Throwable f = failure;
            failure = null;
            throw new ClosedLoopException("engine '" + engine.name() + "' failed while advancing: " + f.getMessage(), f);
        }
        return elapsedNs;
    }

    private void work() {
        long seen = 0;
        while (true) {
            int rounds = 0;
            while (requested == seen && !closing) {
                idle(rounds++);
            }
            if (requested == seen) {
                return;
            }
            seen = requested;
            long t0 = clock.getAsLong();
            try {
                engine.advance(durationNs);
                engine.publishOutputs();
            } catch (Throwable t) {
                failure = t;
            }
            elapsedNs = clock.getAsLong() - t0;
            completed = seen;
            LockSupport.unpark(waiter);
        }
    }

    /** One round of waiting: spin, then park (unpark or a spurious wake-up ends it). */
    private void idle(int round) {
        if (round < SPINS) {
            Thread.onSpinWait();
        } else {
            LockSupport.park(this);
        }
    }

    /** Stops the thread after the job in flight (loop thread). */
    void close() {
        closing = true;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
