package io.tandem.physics;

import java.util.Arrays;

/*
 * Implementation notes.
 *
 * Why a sorted run and not a hash table (the earlier version): the contact blocks of a step come
 * in canonical pair order (ContactAssembly: colliders ranked by body id, then shape index; pairs
 * sorted by the lower rank, then the higher), and that order is exactly the order of the keys'
 * pair part (body id A, shape A, body id B, shape B). So the step's impulses, written in block
 * order, are already a sorted run: storing them is a parallel copy (the hash table's inserts were
 * serial, 3 % of a 2-thread stir step), and the next step's lookups walk that run forward from
 * one pair to the next, a gallop of a few entries over memory read in order, where a hash probe
 * missed the cache (about 4 % of a stir step). Entries added through PhysicsState's warm-start
 * methods go to the end and mark the run unordered; order() sorts it (allocating, outside the
 * stepping loop) before the next lookup, the last one added winning among equal keys.
 */

/**
 * Warm-start impulses of contact points keyed by global identity: (body id of side A, body id of
 * side B, packed = shape index of A (15 bits) | shape index of B (15 bits) | feature (32 bits)),
 * with 3 doubles each (normal, tangent 1, tangent 2, N s). Side A is the collider of the lower
 * (body id, shape index). The keys hold no model index, so a table stays valid for any model that
 * holds the same bodies with the same ids.
 *
 * <p>A run of entries sorted by their pair (body id A, shape A, body id B, shape B); within a
 * pair, in any order. Lookups ({@link #seek}, {@link #match}) need the run ordered ({@link #order}).
 * Allocation-free once grown, except {@link #order} of an unordered run and {@link #retain}'s
 * callers. Not thread-safe, except concurrent lookups and concurrent {@link #set} of distinct
 * entries.
 */
final class ContactCache {
    private long[] bodyA = new long[0];
    private long[] bodyB = new long[0];
    private long[] packed = new long[0];
    /** (entries x 3): normal, tangent 1, tangent 2 */
    private double[] values = new double[0];
    private int size;
    /** the entries are sorted by pair (see the class note) */
    private boolean ordered = true;

    static long packed(int shapeA, int shapeB, int feature) {
        return ((long) shapeA << 47) | ((long) shapeB << 32) | (feature & 0xFFFFFFFFL);
    }

    /** @return entries held */
    int size() {
        return size;
    }

    long bodyA(int i) {
        return bodyA[i];
    }

    long bodyB(int i) {
        return bodyB[i];
    }

    long packed(int i) {
        return packed[i];
    }

    double value(int i, int k) {
        return values[3 * i + k];
    }

    /**
     * Empties the table and makes room for {@code n} entries, each to be written by {@link #set}
     * in pair order; allocates only when it grows.
     */
    void startRun(int n) {
        if (bodyA.length < n) {
            int cap = Math.max(n, 2 * bodyA.length);
            bodyA = new long[cap];
            bodyB = new long[cap];
            packed = new long[cap];
            values = new double[3 * cap];
        }
        size = n;
        ordered = true;
    }

    /** Writes entry i of a run begun by {@link #startRun}. */
    void set(int i, long a, long b, long p, double n, double t1, double t2) {
        bodyA[i] = a;
        bodyB[i] = b;
        packed[i] = p;
        values[3 * i] = n;
        values[3 * i + 1] = t1;
        values[3 * i + 2] = t2;
    }

    /** Marks the run unordered (its writer found two entries out of pair order). */
    void markUnordered() {
        ordered = false;
    }

    /** Adds an entry at the end (replacing an equal key at the next {@link #order}); allocates while it grows. */
    void add(long a, long b, long p, double n, double t1, double t2) {
        if (size == bodyA.length) {
            int cap = Math.max(16, 2 * size);
            bodyA = Arrays.copyOf(bodyA, cap);
            bodyB = Arrays.copyOf(bodyB, cap);
            packed = Arrays.copyOf(packed, cap);
            values = Arrays.copyOf(values, 3 * cap);
        }
        set(size++, a, b, p, n, t1, t2);
        ordered = false;
    }

    /**
     * Sorts an unordered run by its full keys, keeping of equal keys the one added last; nothing
     * when already ordered. Allocates when it sorts.
     */
    void order() {
        if (ordered) {
            return;
        }
        Integer[] idx = new Integer[size];
        for (int i = 0; i < size; i++) {
            idx[i] = i;
        }
        // stable: equal keys keep the order they were added in
        Arrays.sort(idx, (x, y) -> {
            int c = comparePairs(bodyA[x], bodyB[x], packed[x], bodyA[y], bodyB[y], packed[y]);
            return c != 0 ? c : Long.compare(packed[x], packed[y]);
        });
        long[] a = new long[bodyA.length];
        long[] b = new long[bodyA.length];
        long[] p = new long[bodyA.length];
        double[] v = new double[values.length];
        int n = 0;
        for (int k = 0; k < size; k++) {
            int i = idx[k];
            if (n > 0 && a[n - 1] == bodyA[i] && b[n - 1] == bodyB[i] && p[n - 1] == packed[i]) {
                // the later one of an equal key replaces the earlier
                n--;
            }
            a[n] = bodyA[i];
            b[n] = bodyB[i];
            p[n] = packed[i];
            System.arraycopy(values, 3 * i, v, 3 * n, 3);
            n++;
        }
        bodyA = a;
        bodyB = b;
        packed = p;
        values = v;
        size = n;
        ordered = true;
    }

    /**
     * @return the first entry at or after {@code from} whose pair is not before the pair of (a, b,
     *         p), or {@link #size}; a gallop forward from {@code from}, so a walk over pairs in
     *         order costs a few entries per pair. The run must be ordered.
     */
    int seek(int from, long a, long b, long p) {
        int n = size;
        if (from >= n || comparePairs(bodyA[from], bodyB[from], packed[from], a, b, p) >= 0) {
            return from;
        }
        // entry lo is before the pair; entry hi is not (or hi == n)
        int lo = from;
        int step = 1;
        int hi = from + 1;
        while (hi < n && comparePairs(bodyA[hi], bodyB[hi], packed[hi], a, b, p) < 0) {
            lo = hi;
            step <<= 1;
            hi = from + step;
        }
        hi = Math.min(hi, n);
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (comparePairs(bodyA[mid], bodyB[mid], packed[mid], a, b, p) < 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /**
     * @param at an entry {@link #seek} returned for the pair of (a, b, p)
     * @return the last entry of that pair with exactly the key (a, b, p), or -1 (the last, as
     *         {@link #order} keeps the last of equal keys: a run exported and added back in its
     *         order gives the same lookups)
     */
    int match(int at, long a, long b, long p) {
        int found = -1;
        for (int i = at; i < size && bodyA[i] == a && bodyB[i] == b && (packed[i] >>> 32) == (p >>> 32); i++) {
            if (packed[i] == p) {
                found = i;
            }
        }
        return found;
    }

    /**
     * Orders keys by pair: body id A (signed), shape A, body id B, shape B (the canonical collider
     * order of PhysicsModel); the feature is not compared.
     *
     * @return negative, zero or positive as the first pair is before, equal to or after the second
     */
    static int comparePairs(long a1, long b1, long p1, long a2, long b2, long p2) {
        if (a1 != a2) {
            return Long.compare(a1, a2);
        }
        // shape indices are 15 bits: the packed words' top parts compare as shape A, then shape B
        long s1 = p1 >>> 47;
        long s2 = p2 >>> 47;
        if (s1 != s2) {
            return Long.compare(s1, s2);
        }
        if (b1 != b2) {
            return Long.compare(b1, b2);
        }
        return Long.compare((p1 >>> 32) & 0x7FFF, (p2 >>> 32) & 0x7FFF);
    }

    /** Makes this table a copy of another; allocates only when it grows. */
    void copyFrom(ContactCache other) {
        int n = other.size;
        if (bodyA.length < n) {
            bodyA = new long[n];
            bodyB = new long[n];
            packed = new long[n];
            values = new double[3 * n];
        }
        System.arraycopy(other.bodyA, 0, bodyA, 0, n);
        System.arraycopy(other.bodyB, 0, bodyB, 0, n);
        System.arraycopy(other.packed, 0, packed, 0, n);
        System.arraycopy(other.values, 0, values, 0, 3 * n);
        size = n;
        ordered = other.ordered;
    }

    /** Keeps only the entries {@code keep} accepts, in their order; allocates nothing. */
    void retain(EntryFilter keep) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (keep.accept(bodyA[i], bodyB[i])) {
                if (n != i) {
                    set(n, bodyA[i], bodyB[i], packed[i], values[3 * i], values[3 * i + 1], values[3 * i + 2]);
                }
                n++;
            }
        }
        size = n;
    }

    /** Accepts or rejects an entry by its two body ids. */
    @FunctionalInterface
    interface EntryFilter {
        boolean accept(long bodyA, long bodyB);
    }
}
