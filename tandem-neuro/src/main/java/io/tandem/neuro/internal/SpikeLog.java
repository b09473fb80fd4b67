package io.tandem.neuro.internal;

import java.util.Arrays;

/**
 * The events of one spike recorder since it was last drained: sender node ids and spike stamps
 * (steps). Grows by doubling when full (the only allocation while stepping, amortised; drain
 * regularly to keep it at its high-water mark). Not thread-safe: written by partition 0's
 * thread, drained by the caller between runs.
 */
final class SpikeLog {
    int[] senders = new int[256];
    long[] stamps = new long[256];
    int size;
    long total;

    void add(int sender, long stamp) {
        if (size == senders.length) {
            senders = Arrays.copyOf(senders, size * 2);
            stamps = Arrays.copyOf(stamps, size * 2);
        }
        senders[size] = sender;
        stamps[size] = stamp;
        size++;
        total++;
    }

    void clear() {
        size = 0;
        total = 0;
    }
}
