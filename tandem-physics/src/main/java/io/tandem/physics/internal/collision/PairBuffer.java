package io.tandem.physics.internal.collision;

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

    /** Sorts by first, then second index: two stable counting-sort passes (LSD radix), O(size + n). */
    void sort(int n) {
        if (size < 2) {
            return;
        }
        if (scratch.length < 2 * size) {
            scratch = new int[Math.max(2 * size, pairs.length)];
        }
        if (counts.length < n + 1) {
            counts = new int[n + 1];
        }
        countingPass(pairs, scratch, 1, n);
        countingPass(scratch, pairs, 0, n);
    }

    private void countingPass(int[] from, int[] to, int keyOffset, int n) {
        int[] c = counts;
        java.util.Arrays.fill(c, 0, n + 1, 0);
        for (int k = 0; k < size; k++) {
            c[from[2 * k + keyOffset] + 1]++;
        }
        for (int v = 0; v < n; v++) {
            c[v + 1] += c[v];
        }
        for (int k = 0; k < size; k++) {
            int pos = c[from[2 * k + keyOffset]]++;
            to[2 * pos] = from[2 * k];
            to[2 * pos + 1] = from[2 * k + 1];
        }
    }
}
