package io.tandem.physics.internal.parallel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
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
 * and Rayon's spinning workers): the calling thread and threads - 1 workers each own a contiguous,
 * equal range of the chunks and run it front to back, then take what is left of the others' ranges
 * (stealing). A range's cursor is an AtomicLong slot holding (generation << 32 | next chunk),
 * claimed by compare-and-set, so a worker still leaving an earlier loop can never claim a chunk of
 * the next one (run closes every range before it sets the loop's fields). Contiguous ranges keep
 * a thread on the same bodies and contacts from one loop to the next (contacts come in body order),
 * and the cursors are padded apart, so the threads rarely share a cache line. Workers spin
 * (onSpinWait) for SPINS rounds after a loop before they park, so the back-to-back loops of a solver
 * iteration reach them in well under a microsecond; a step's serial parts longer than the spin
 * park them. Why not a ForkJoinPool (the earlier version): the caller blocked in invoke() and every
 * loop woke the pool, about 40-75 us per loop on the 2-core development machine (a loop of 256
 * trivial items took 57 us on 2 threads against 32 us serially; now 16 us), and a SubADMM step runs
 * 50 or more loops. Measured alternatives: one shared ticket claimed a chunk at a time (7 % slower
 * on stir with 4000 spheres, 2 threads: the shared line moves between the cores at every claim);
 * a guided schedule on one ticket (within the noise of this scheme on 2 cores).
 * Memory visibility: the loop's fields are written before the cursors and the generation
 * (volatile), read by a worker after its successful compare-and-set; the chunks' outputs are
 * published by the done counter the caller waits on. A failure in a chunk is rethrown by run on the
 * calling thread.
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
    /**
     * per participant p at [PAD p]: (generation << 32) | the next unclaimed chunk of its range
     * [rangeStart(p), rangeStart(p + 1)); padded so that no two cursors share a cache line
     */
    private final AtomicLongArray cursors;
    /** longs between two cursors (128 bytes) */
    private static final int PAD = 16;
    /** a cursor position past every range: the range is closed to claims */
    private static final int CLOSED = Integer.MAX_VALUE;
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile int generation;
    private volatile boolean closed;

    private ParallelLoop(int threads) {
        this.threads = threads;
        this.workers = new Worker[threads - 1];
        this.cursors = new AtomicLongArray(PAD * (threads + 1));
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Worker(i + 1);
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
        int g = generation + 1;
        // first close every range to claims (a worker still leaving the last loop must not claim
        // a chunk of this one before its fields are set), then set the fields, then open the ranges
        for (int p = 0; p < threads; p++) {
            cursors.set(PAD * p, ((long) g << 32) | CLOSED);
        }
        this.body = body;
        this.items = n;
        this.chunkCount = chunks;
        done.set(0);
        for (int p = 0; p < threads; p++) {
            cursors.set(PAD * p, ((long) g << 32) | rangeStart(chunks, p));
        }
        generation = g;
        for (Worker w : workers) {
            if (w.parked) {
                LockSupport.unpark(w.thread);
            }
        }
        work(g, 0);
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

    /** First chunk of participant p's range (the caller is 0): contiguous, equal shares. */
    private int rangeStart(int chunks, int p) {
        return (int) ((long) chunks * p / threads);
    }

    /**
     * Runs the chunks of loop generation g for participant p: its own range first, front to back,
     * then whatever is left of the others' ranges (stealing, in participant order), claiming one
     * chunk at a time from the range's own cursor; the chunks it ran are counted done at the end.
     */
    private void work(int g, int p) {
        int count = 0;
        for (int i = 0; i < threads; i++) {
            int q = p + i < threads ? p + i : p + i - threads;
            int at = PAD * q;
            while (true) {
                long t = cursors.get(at);
                if ((int) (t >>> 32) != g) {
                    // a later loop has begun: this one is done
                    i = threads;
                    break;
                }
                int k = (int) t;
                if (k >= rangeStart(chunkCount, q + 1) || !cursors.compareAndSet(at, t, t + 1)) {
                    if (k >= rangeStart(chunkCount, q + 1)) {
                        break;
                    }
                    continue;
                }
                // chunk k of generation g is ours: the loop's fields stay until it is counted done
                try {
                    body.run(k * CHUNK, Math.min(items, (k + 1) * CHUNK), k);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
                count++;
            }
        }
        if (count > 0) {
            done.addAndGet(count);
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
        /** participant number (the caller is 0) */
        final int participant;
        Thread thread;
        volatile boolean parked;

        Worker(int participant) {
            this.participant = participant;
        }

        @Override
        public void run() {
            int seen = 0;
            while (!closed) {
                int g = generation;
                if (g != seen) {
                    seen = g;
                    work(g, participant);
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
