package io.tandem.cle.device;

import java.util.Arrays;

/**
 * The NRP's {@code spike_recorder} device: the spikes a NEST {@code spike_recorder} recorded
 * during the engine's last advance (the interval that ended at the start of the loop step), as
 * sender node ids and times. A reading device. The buffers grow by doubling when an interval has
 * more spikes than ever before (the only allocation); otherwise nothing allocates.
 */
public final class SpikeRecorder extends Device {
    private int[] frontSenders;
    private long[] frontTimes;
    private int frontCount;
    private int[] backSenders;
    private long[] backTimes;
    private int backCount;

    /**
     * @param name     device name
     * @param engine   the owning engine's name
     * @param capacity spikes per interval to preallocate (at least 1)
     */
    public SpikeRecorder(String name, String engine, int capacity) {
        super(name, engine, Side.BRAIN, false);
        int c = Math.max(1, capacity);
        frontSenders = new int[c];
        frontTimes = new long[c];
        backSenders = new int[c];
        backTimes = new long[c];
    }

    /** @return spikes recorded in the last interval (loop thread) */
    public int count() {
        return frontCount;
    }

    /**
     * @param i index in [0, {@link #count()})
     * @return the node id of the neuron that fired spike i
     */
    public int sender(int i) {
        check(i);
        return frontSenders[i];
    }

    /**
     * @param i index in [0, {@link #count()})
     * @return the time of spike i, ns of simulated time
     */
    public long timeNs(int i) {
        check(i);
        return frontTimes[i];
    }

    private void check(int i) {
        if (i < 0 || i >= frontCount) {
            throw new IndexOutOfBoundsException("spike " + i + " of " + frontCount + " in recorder '" + name() + "'");
        }
    }

    /** Engine side: starts publishing an interval (empties the back buffer; the engine's thread). */
    public void beginPublish() {
        backCount = 0;
        published = true;
    }

    /**
     * Engine side: one spike of the interval, in time order.
     *
     * @param sender node id of the neuron
     * @param timeNs spike time, ns
     */
    public void publishSpike(int sender, long timeNs) {
        if (backCount == backSenders.length) {
            backSenders = Arrays.copyOf(backSenders, 2 * backCount);
            backTimes = Arrays.copyOf(backTimes, 2 * backCount);
        }
        backSenders[backCount] = sender;
        backTimes[backCount] = timeNs;
        backCount++;
    }

    @Override
    void swap() {
        int[] s = frontSenders;
        frontSenders = backSenders;
        backSenders = s;
        long[] t = frontTimes;
        frontTimes = backTimes;
        backTimes = t;
        frontCount = backCount;
        backCount = 0;
    }

    @Override
    void clearBuffers() {
        frontCount = 0;
        backCount = 0;
        published = false;
    }
}
