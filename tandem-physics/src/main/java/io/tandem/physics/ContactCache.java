package io.tandem.physics;

import java.util.Arrays;

/**
 * Warm-start impulses of contact points keyed by (collider A, collider B, feature id): an
 * open-addressing table of long keys and 3 doubles each (normal, tangent 1, tangent 2). Two of
 * them alternate between steps. Allocation-free once grown; lookups only, never iterated.
 */
final class ContactCache {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys = new long[0];
    private double[] values = new double[0];
    private int size;
    private int mask;

    /** Empties the table, sized for at least {@code expected} entries. */
    void clear(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        if (keys.length < cap) {
            keys = new long[cap];
            values = new double[3 * cap];
        }
        Arrays.fill(keys, EMPTY);
        mask = keys.length - 1;
        size = 0;
    }

    static long key(int colliderA, int colliderB, int feature) {
        return ((long) colliderA << 44) ^ ((long) colliderB << 24) ^ (feature & 0xFFFFFFL) ^ ((long) (feature >>> 24) << 60);
    }

    /** Stores three values; the table must have been cleared for enough entries. */
    void put(long key, double n, double t1, double t2) {
        int i = slot(key);
        if (keys[i] == EMPTY) {
            keys[i] = key;
            size++;
        }
        values[3 * i] = n;
        values[3 * i + 1] = t1;
        values[3 * i + 2] = t2;
    }

    /** @return the slot of the key, or -1 if absent */
    int find(long key) {
        if (size == 0) {
            return -1;
        }
        int i = slot(key);
        return keys[i] == key ? i : -1;
    }

    double value(int slot, int k) {
        return values[3 * slot + k];
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        int i = (int) (h >>> 40) & mask;
        while (keys[i] != EMPTY && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }
}
