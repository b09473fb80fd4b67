package io.tandem.physics.internal.parallel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/*
 * Implementation notes.
 *
 * Work is cut into fixed chunks of CHUNK items, independent of the thread count, and each chunk
 * writes only its own outputs; so any reduction the caller does over per-chunk results happens
 * in chunk order on the calling thread and results are bitwise identical for 1 and N threads,
 * whichever thread runs which chunk.
 *
 * Dispatch (the model: the job systems of game physics engines, e.g. Jolt's JobSystemThreadPool,
 * and Rayon's spinning workers): the calling thread and threads - 1 workers claim chunks from one
 * ticket, an AtomicLong holding (generation << 32 | next chunk), by compare-and-set, so a worker
 * still leaving an earlier loop can never claim a chunk of the next one. Workers spin (onSpinWait)
 * for SPINS rounds after a loop before they park, so the back-to-back loops of a solver iteration
 * reach them in well under a microsecond; a step's serial parts longer than the spin park them.
 * Why not a ForkJoinPool (the earlier version): the caller blocked in invoke() and every loop woke
 * the pool, about 40-75 us per loop on the 2-core development machine (a loop of 256 trivial items
 * took 57 us on 2 threads against 32 us serially), and a SubADMM step runs 50 or more loops.
 * Memory visibility: the job's fields are written before the ticket and the generation (volatile),
 * read by a worker after its successful compare-and-set; the chunk's outputs are published by the
 * done counter the caller waits on. A failure in a chunk is rethrown by run on the calling thread.
 * Allocation-free per loop.
 */

/**
 * Runs a range body over [0, n) in fixed chunks, serially or on the calling thread plus a few
 * spinning worker threads. One calling thread at a time (not thread-safe); allocation-free per
 * loop.
 */
public final class ParallelLoop implements AutoCloseable {
    /** items per chunk */
    public static final int CHUNK = 64;
    /** onSpinWait rounds a worker waits for the next loop before it parks (about 0.25 ms on the development machine) */
    static final int SPINS = 1 << 13;

    /** A loop body over one chunk. */
    @FunctionalInterface
    public interface RangeBody {
        /**
         * @param lo    first index
         * @param hi    one past the last index
         * @param chunk chunk number (lo / CHUNK)
         */
        void run(int lo, int hi, int chunk);
    }

    private final int threads;
    private final Worker[] workers;
    // the current loop: written by the caller before the ticket, stable until done reaches chunks
    private RangeBody body;
    private int items;
    private int chunkCount;
    /** (generation << 32) | next unclaimed chunk */
    private final AtomicLong ticket = new AtomicLong();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile int generation;
    private volatile boolean closed;

    private ParallelLoop(int threads) {
        this.threads = threads;
        this.workers = new Worker[threads - 1];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Worker();
            Thread t = new Thread(workers[i], "tandem-physics-" + (i + 1));
            t.setDaemon(true);
            workers[i].thread = t;
            t.start();
        }
    }

    /** @return a loop that runs on the calling thread */
    public static ParallelLoop serial() {
        return new ParallelLoop(1);
    }

    /**
     * @param threads threads working on a loop, the calling thread included, at least 1
     * @return a loop over that many threads (serial for 1)
     */
    public static ParallelLoop withThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        return new ParallelLoop(threads);
    }

    /** @return the number of threads */
    public int threads() {
        return threads;
    }

    /** @return chunks covering n items */
    public int chunks(int n) {
        return (n + CHUNK - 1) / CHUNK;
    }

    /** Runs {@code body} over [0, n); a chunk's failure is rethrown here. */
    public void run(int n, RangeBody body) {
        int chunks = chunks(n);
        if (workers.length == 0 || chunks <= 1) {
            for (int k = 0; k < chunks; k++) {
                body.run(k * CHUNK, Math.min(n, (k + 1) * CHUNK), k);
            }
            return;
        }
        if (closed) {
            throw new IllegalStateException("parallel loop is closed");
        }
        this.body = body;
        this.items = n;
        this.chunkCount = chunks;
        done.set(0);
        int g = generation + 1;
        ticket.set((long) g << 32);
        generation = g;
        for (Worker w : workers) {
            if (w.parked) {
                LockSupport.unpark(w.thread);
            }
        }
        work(g);
        while (done.get() < chunks) {
            Thread.onSpinWait();
        }
        this.body = null;
        Throwable t = failure.getAndSet(null);
        if (t != null) {
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException(t);
        }
    }

    /** Claims and runs chunks of loop generation g until none is left. */
    private void work(int g) {
        while (true) {
            long t = ticket.get();
            if ((int) (t >>> 32) != g) {
                return;
            }
            int k = (int) t;
            if (k >= chunkCount) {
                return;
            }
            if (!ticket.compareAndSet(t, t + 1)) {
                continue;
            }
            // chunk k of generation g is ours: the loop's fields stay until it is counted done
            try {
                body.run(k * CHUNK, Math.min(items, (k + 1) * CHUNK), k);
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
            done.incrementAndGet();
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
    }

    private final class Worker implements Runnable {
        Thread thread;
        volatile boolean parked;

        @Override
        public void run() {
            int seen = 0;
            while (!closed) {
                int g = generation;
                if (g != seen) {
                    seen = g;
                    work(g);
                    continue;
                }
                for (int i = 0; i < SPINS && generation == seen && !closed; i++) {
                    Thread.onSpinWait();
                }
                if (generation == seen && !closed) {
                    parked = true;
                    if (generation == seen && !closed) {
                        LockSupport.park(this);
                    }
                    parked = false;
                }
            }
        }
    }
}
