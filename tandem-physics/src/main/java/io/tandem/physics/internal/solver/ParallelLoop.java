package io.tandem.physics.internal.solver;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/*
 * Implementation notes.
 *
 * Work is cut into fixed chunks of CHUNK items, independent of the thread count, and each chunk
 * writes only its own outputs; so any reduction the caller does over per-chunk results happens
 * in chunk order on the calling thread and results are bitwise identical for 1 and N threads.
 * Tasks are preallocated and reinitialized, so a parallel step allocates nothing once the task
 * array has grown.
 */

/** Runs a range body over [0, n) in fixed chunks, serially or on a fork/join pool. Not thread-safe. */
public final class ParallelLoop implements AutoCloseable {
    /** items per chunk */
    static final int CHUNK = 64;

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

    private final ForkJoinPool pool;
    private final int threads;
    private ChunkTask[] tasks = new ChunkTask[0];
    private final Root root = new Root();

    private ParallelLoop(int threads) {
        this.threads = threads;
        this.pool = threads > 1 ? new ForkJoinPool(threads) : null;
    }

    /** @return a loop that runs on the calling thread */
    public static ParallelLoop serial() {
        return new ParallelLoop(1);
    }

    /**
     * @param threads worker threads, at least 1
     * @return a loop over a pool of that many threads (serial for 1)
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

    /** Runs {@code body} over [0, n). */
    public void run(int n, RangeBody body) {
        int chunks = chunks(n);
        if (pool == null || chunks <= 1) {
            for (int k = 0; k < chunks; k++) {
                body.run(k * CHUNK, Math.min(n, (k + 1) * CHUNK), k);
            }
            return;
        }
        if (tasks.length < chunks) {
            ChunkTask[] grown = new ChunkTask[Math.max(chunks, 2 * tasks.length)];
            System.arraycopy(tasks, 0, grown, 0, tasks.length);
            for (int i = tasks.length; i < grown.length; i++) {
                grown[i] = new ChunkTask();
            }
            tasks = grown;
        }
        for (int k = 0; k < chunks; k++) {
            ChunkTask t = tasks[k];
            t.reinitialize();
            t.body = body;
            t.lo = k * CHUNK;
            t.hi = Math.min(n, (k + 1) * CHUNK);
            t.chunk = k;
        }
        root.reinitialize();
        root.count = chunks;
        pool.invoke(root);
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdown();
        }
    }

    private final class Root extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        int count;

        @Override
        protected void compute() {
            for (int i = count - 1; i >= 1; i--) {
                tasks[i].fork();
            }
            tasks[0].compute();
            for (int i = 1; i < count; i++) {
                tasks[i].join();
            }
        }
    }

    private static final class ChunkTask extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        RangeBody body;
        int lo;
        int hi;
        int chunk;

        @Override
        protected void compute() {
            body.run(lo, hi, chunk);
        }
    }
}
