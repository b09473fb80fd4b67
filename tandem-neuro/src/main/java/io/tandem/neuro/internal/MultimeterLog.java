package io.tandem.neuro.internal;

import java.util.Arrays;

/**
 * The samples of one multimeter since it was last drained: one row per (time, sender), rows in
 * time order and, within a time, in connection order; {@code width} values per row in
 * record_from order. Grows by doubling when full (the only allocation while stepping, amortised;
 * drain regularly to keep it at its high-water mark). Not thread-safe: written by partition 0's
 * thread, read and drained by the caller between runs.
 */
final class MultimeterLog {
    final int width;
    long[] stamps = new long[256]; // (rows) sample time in steps
    int[] senders = new int[256]; // (rows) node id
    double[] values; // (rows x width) mV, pA or nS
    int size;
    long total;

    MultimeterLog(int width) {
        this.width = width;
        this.values = new double[256 * Math.max(1, width)];
    }

    /**
     * Appends a row.
     *
     * @param src the row's values at {@code [off, off + width)}. Not modified.
     */
    void add(long stamp, int sender, double[] src, int off) {
        if (size == stamps.length) {
            stamps = Arrays.copyOf(stamps, size * 2);
            senders = Arrays.copyOf(senders, size * 2);
            values = Arrays.copyOf(values, size * 2 * Math.max(1, width));
        }
        stamps[size] = stamp;
        senders[size] = sender;
        System.arraycopy(src, off, values, size * width, width);
        size++;
        total++;
    }

    void clear() {
        size = 0;
        total = 0;
    }
}
