package io.tandem.physics;

import java.util.Arrays;

/**
 * Warm-start impulses of contact points keyed by global identity: (body id of side A, body id of
 * side B, packed = shape index of A (15 bits) | shape index of B (15 bits) | feature (32 bits)),
 * with 3 doubles each (normal, tangent 1, tangent 2, N s). Side A is the collider of the lower
 * (body id, shape index). The keys hold no model index, so a table stays valid for any model that
 * holds the same bodies with the same ids. An open-addressing table with linear probing; lookups
 * are exact (all three key words compared), so its slot layout never changes a result.
 * Allocation-free once grown. Not thread-safe.
 */
final class ContactCache {
    /** packed keys are never negative (15-bit shape indices), so -1 marks an empty slot */
    private static final long EMPTY = -1;
    /** (capacity x 3): body A, body B, packed */
    private long[] keys = new long[0];
    /** (capacity x 3): normal, tangent 1, tangent 2 */
    private double[] values = new double[0];
    private int size;
    private int mask = -1;

    ContactCache() {
        clear(16);
    }

    /** Empties the table, sized for at least {@code expected} entries. */
    void clear(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        if (keys.length < 3 * cap) {
            keys = new long[3 * cap];
            values = new double[3 * cap];
        }
        mask = keys.length / 3 - 1;
        for (int i = 0; i <= mask; i++) {
            keys[3 * i + 2] = EMPTY;
        }
        size = 0;
    }

    static long packed(int shapeA, int shapeB, int feature) {
        return ((long) shapeA << 47) | ((long) shapeB << 32) | (feature & 0xFFFFFFFFL);
    }

    /** @return entries held */
    int size() {
        return size;
    }

    /** @return slots (iterate 0..capacity-1 with {@link #used}) */
    int capacity() {
        return mask + 1;
    }

    boolean used(int slot) {
        return keys[3 * slot + 2] != EMPTY;
    }

    long bodyA(int slot) {
        return keys[3 * slot];
    }

    long bodyB(int slot) {
        return keys[3 * slot + 1];
    }

    long packed(int slot) {
        return keys[3 * slot + 2];
    }

    /** Stores three values; the table must have room (see {@link #clear}, {@link #ensureRoom}). */
    void put(long bodyA, long bodyB, long packed, double n, double t1, double t2) {
        int i = slot(bodyA, bodyB, packed);
        if (keys[3 * i + 2] == EMPTY) {
            keys[3 * i] = bodyA;
            keys[3 * i + 1] = bodyB;
            keys[3 * i + 2] = packed;
            size++;
        }
        values[3 * i] = n;
        values[3 * i + 1] = t1;
        values[3 * i + 2] = t2;
    }

    /** Grows (rehashing) so that {@code more} entries can be added; allocates only when it grows. */
    void ensureRoom(int more) {
        if (2 * (size + more) <= capacity()) {
            return;
        }
        long[] k = keys;
        double[] v = values;
        int oldCap = capacity();
        keys = new long[0];
        values = new double[0];
        clear(size + more);
        for (int i = 0; i < oldCap; i++) {
            if (k[3 * i + 2] != EMPTY) {
                put(k[3 * i], k[3 * i + 1], k[3 * i + 2], v[3 * i], v[3 * i + 1], v[3 * i + 2]);
            }
        }
    }

    /** @return the slot of the key, or -1 if absent */
    int find(long bodyA, long bodyB, long packed) {
        if (size == 0) {
            return -1;
        }
        int i = slot(bodyA, bodyB, packed);
        return keys[3 * i + 2] == EMPTY ? -1 : i;
    }

    double value(int slot, int k) {
        return values[3 * slot + k];
    }

    /** Makes this table a copy of another; allocates only when it grows. */
    void copyFrom(ContactCache other) {
        if (keys.length < other.keys.length) {
            keys = new long[other.keys.length];
            values = new double[other.values.length];
        }
        // same capacity, same slots
        int n = other.keys.length;
        System.arraycopy(other.keys, 0, keys, 0, n);
        System.arraycopy(other.values, 0, values, 0, n);
        mask = other.mask;
        size = other.size;
    }

    /** Keeps only the entries {@code keep} accepts (rehashes; allocates). */
    void retain(EntryFilter keep) {
        long[] k = Arrays.copyOf(keys, 3 * capacity());
        double[] v = Arrays.copyOf(values, 3 * capacity());
        int oldCap = capacity();
        clear(size);
        for (int i = 0; i < oldCap; i++) {
            if (k[3 * i + 2] != EMPTY && keep.accept(k[3 * i], k[3 * i + 1])) {
                put(k[3 * i], k[3 * i + 1], k[3 * i + 2], v[3 * i], v[3 * i + 1], v[3 * i + 2]);
            }
        }
    }

    /** Accepts or rejects an entry by its two body ids. */
    @FunctionalInterface
    interface EntryFilter {
        boolean accept(long bodyA, long bodyB);
    }

    private int slot(long bodyA, long bodyB, long packed) {
        long h = (bodyA * 0x9E3779B97F4A7C15L + bodyB) * 0xC2B2AE3D27D4EB4FL + packed;
        h *= 0x9E3779B97F4A7C15L;
        int i = (int) (h >>> 40) & mask;
        while (keys[3 * i + 2] != EMPTY
                && (keys[3 * i + 2] != packed || keys[3 * i] != bodyA || keys[3 * i + 1] != bodyB)) {
            i = (i + 1) & mask;
        }
        return i;
    }
}
