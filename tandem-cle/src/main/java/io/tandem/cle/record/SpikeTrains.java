package io.tandem.cle.record;

import io.tandem.cle.device.SpikeRecorder;
import java.util.Arrays;

/**
 * The spikes a {@link SpikeRecorder} device delivered, accumulated over the loop's runs (the NRP's
 * spike monitor): sender node id and time per spike, in delivery order. Storage grows by doubling
 * (the only allocation). Loop thread only.
 */
public final class SpikeTrains {
    private final String recorder;
    private int[] senders = new int[1024];
    private long[] timesNs = new long[1024];
    private int size;

    /** @param recorder the spike recorder recorded; the loop creates one per recorder */
    public SpikeTrains(String recorder) {
        this.recorder = recorder;
    }

    /** @return the recorder device's name */
    public String recorder() {
        return recorder;
    }

    /**
     * Loop side: appends the spikes {@code r} latched (not modified).
     * @param r the recorder
     */
    public void append(SpikeRecorder r) {
        int n = r.count();
        if (size + n > senders.length) {
            int c = Math.max(size + n, 2 * senders.length);
            senders = Arrays.copyOf(senders, c);
            timesNs = Arrays.copyOf(timesNs, c);
        }
        for (int i = 0; i < n; i++) {
            senders[size] = r.sender(i);
            timesNs[size] = r.timeNs(i);
            size++;
        }
    }

    /** Loop side: forgets every spike (the loop's reset). */
    public void clear() {
        size = 0;
    }

    /** @return spikes recorded */
    public int size() {
        return size;
    }

    /** @return the node id of spike {@code i}'s neuron */
    public int sender(int i) {
        return senders[check(i)];
    }

    /** @return the time of spike {@code i}, ns */
    public long timeNs(int i) {
        return timesNs[check(i)];
    }

    /**
     * @param sender a neuron's node id
     * @return its spikes recorded
     */
    public int count(int sender) {
        int c = 0;
        for (int i = 0; i < size; i++) {
            if (senders[i] == sender) {
                c++;
            }
        }
        return c;
    }

    private int check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("spike " + i + " of " + size);
        }
        return i;
    }
}
