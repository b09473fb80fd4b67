package io.tandem.physics.internal.collision;

import io.tandem.physics.internal.parallel.ParallelLoop;

/**
 * A growable list of collider index pairs (i, j), reused across steps: it grows (allocates) only
 * when a step produces more pairs than ever before, so in steady state it does not allocate.
 * {@link BroadPhase#findPairs} clears it and fills it with pairs i &lt; j sorted by i, then j.
 *
 * <p>Not thread-safe.
 */
public final class PairBuffer {
    private int[] pairs;
    private int size;
    private int[] scratch = new int[0];
    private int[] counts = new int[0];

    /** Creates a buffer with room for 1024 pairs. */
    public PairBuffer() {
        this(1024);
    }

    /**
     * Creates a buffer.
     *
     * @param initialCapacity pairs to make room for; non-negative
     * @throws IllegalArgumentException if negative
     */
    public PairBuffer(int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initial capacity must be non-negative, got " + initialCapacity);
        }
        pairs = new int[2 * Math.max(1, initialCapacity)];
    }

    /**
     * Number of pairs.
     *
     * @return the size
     */
    public int size() {
        return size;
    }

    /**
     * First (smaller) collider index of pair k.
     *
     * @param k pair index, 0..size-1
     * @return i
     */
    public int first(int k) {
        return pairs[2 * k];
    }

    /**
     * Second (larger) collider index of pair k.
     *
     * @param k pair index, 0..size-1
     * @return j
     */
    public int second(int k) {
        return pairs[2 * k + 1];
    }

    /**
     * Pairs the buffer can hold before it grows.
     *
     * @return the capacity in pairs
     */
    public int capacity() {
        return pairs.length / 2;
    }

    /** Removes all pairs; keeps the storage. */
    public void clear() {
        size = 0;
    }

    void add(int i, int j) {
        if (2 * size == pairs.length) {
            pairs = java.util.Arrays.copyOf(pairs, 2 * pairs.length);
        }
        pairs[2 * size] = i;
        pairs[2 * size + 1] = j;
        size++;
    }

    /** Appends every pair of another buffer, in its order. */
    void addAll(PairBuffer other) {
        int n = other.size;
        if (pairs.length < 2 * (size + n)) {
            pairs = java.util.Arrays.copyOf(pairs, Math.max(2 * (size + n), 2 * pairs.length));
        }
        System.arraycopy(other.pairs, 0, pairs, 2 * size, 2 * n);
        size += n;
    }

    /**
     * Sorts by first, then second index: one counting-sort pass by the first index (O(size + n)),
     * then each first index's pairs by the second, in parallel chunks of first indices (none for a
     * run already in order, such as a floor's pairs; insertion sort for a short run; a heap sort,
     * O(k log k) and in place, for a long one). The
     * result is the one order of distinct pairs, so it is the same for any thread count.
     */
    void sort(int n, ParallelLoop loop) {
        if (size < 2) {
            return;
        }
        if (scratch.length < 2 * size) {
            scratch = new int[Math.max(2 * size, pairs.length)];
        }
        if (counts.length < n + 1) {
            counts = new int[n + 1];
        }
        int[] c = counts;
        java.util.Arrays.fill(c, 0, n + 1, 0);
        for (int k = 0; k < size; k++) {
            c[pairs[2 * k] + 1]++;
        }
        for (int v = 0; v < n; v++) {
            c[v + 1] += c[v];
        }
        // scatter into scratch (counts then hold each run's end), then swap the two arrays
        for (int k = 0; k < size; k++) {
            int pos = c[pairs[2 * k]]++;
            scratch[2 * pos] = pairs[2 * k];
            scratch[2 * pos + 1] = pairs[2 * k + 1];
        }
        int[] t = pairs;
        pairs = scratch;
        scratch = t;
        loop.run(n, runsBody);
    }

    private final ParallelLoop.RangeBody runsBody = this::sortRuns;

    /** Sorts the runs of first indices [lo, hi) by their second index (counts hold each run's end). */
    private void sortRuns(int lo, int hi, int chunk) {
        int[] c = counts;
        int[] a = pairs;
        for (int v = lo; v < hi; v++) {
            int from = v == 0 ? 0 : c[v - 1];
            int to = c[v];
            // a run already in order (a floor's pairs come so) is left as it is
            int sorted = from + 1;
            while (sorted < to && a[2 * sorted - 1] < a[2 * sorted + 1]) {
                sorted++;
            }
            if (sorted >= to) {
                continue;
            }
            if (to - from <= 32) {
                // insertion sort of the seconds (the firsts are all v)
                for (int i = from + 1; i < to; i++) {
                    int x = a[2 * i + 1];
                    int j = i - 1;
                    while (j >= from && a[2 * j + 1] > x) {
                        a[2 * j + 3] = a[2 * j + 1];
                        j--;
                    }
                    a[2 * j + 3] = x;
                }
            } else {
                heapSortSeconds(a, from, to - from);
            }
        }
    }

    /** Heap sort of the seconds of the k pairs from pair {@code from} (in place, allocation-free). */
    private static void heapSortSeconds(int[] a, int from, int k) {
        for (int i = k / 2 - 1; i >= 0; i--) {
            siftDown(a, from, i, k);
        }
        for (int end = k - 1; end > 0; end--) {
            int x = a[2 * from + 1];
            a[2 * from + 1] = a[2 * (from + end) + 1];
            a[2 * (from + end) + 1] = x;
            siftDown(a, from, 0, end);
        }
    }

    private static void siftDown(int[] a, int from, int i, int k) {
        int x = a[2 * (from + i) + 1];
        while (true) {
            int child = 2 * i + 1;
            if (child >= k) {
                break;
            }
            if (child + 1 < k && a[2 * (from + child + 1) + 1] > a[2 * (from + child) + 1]) {
                child++;
            }
            if (a[2 * (from + child) + 1] <= x) {
                break;
            }
            a[2 * (from + i) + 1] = a[2 * (from + child) + 1];
            i = child;
        }
        a[2 * (from + i) + 1] = x;
    }
}
