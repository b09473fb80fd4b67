package io.tandem.cle.device;

import java.util.Arrays;
import java.util.List;

/**
 * A NEST {@code multimeter} as a reading device: the samples it took during the engine's last
 * advance (the interval that ended at the start of the loop step), one row per (time, sampled
 * neuron) with the values of {@link #recordFrom()} in NEST units (mV, pA, nS). The buffers grow
 * by doubling when an interval has more rows than ever before (the only allocation); otherwise
 * nothing allocates.
 */
public final class Multimeter extends Device {
    private final List<String> recordFrom;
    private final int width;
    private int[] frontSenders;
    private long[] frontTimes;
    private double[] frontValues;
    private int frontCount;
    private int[] backSenders;
    private long[] backTimes;
    private double[] backValues;
    private int backCount;
    private final double[] row; // a decoder's scratch row

    /**
     * @param name       device name
     * @param engine     the owning engine's name
     * @param recordFrom the variables of each row, in order (NEST's {@code record_from})
     * @param capacity   rows per interval to preallocate (at least 1)
     */
    public Multimeter(String name, String engine, List<String> recordFrom, int capacity) {
        super(name, engine, Side.BRAIN, false);
        this.recordFrom = List.copyOf(recordFrom);
        this.width = this.recordFrom.size();
        int c = Math.max(1, capacity);
        frontSenders = new int[c];
        frontTimes = new long[c];
        frontValues = new double[c * Math.max(1, width)];
        backSenders = new int[c];
        backTimes = new long[c];
        backValues = new double[c * Math.max(1, width)];
        row = new double[width];
    }

    /** @return a reusable row of {@code recordFrom().size()} values, for decoders */
    public double[] rowScratch() {
        return row;
    }

    /** @return the variables of each row (immutable) */
    public List<String> recordFrom() {
        return recordFrom;
    }

    /** @return rows sampled in the last interval (loop thread) */
    public int count() {
        return frontCount;
    }

    /**
     * @param i row index in [0, {@link #count()})
     * @return the node id of the sampled neuron
     */
    public int sender(int i) {
        check(i);
        return frontSenders[i];
    }

    /**
     * @param i row index in [0, {@link #count()})
     * @return the sample time, ns of simulated time
     */
    public long timeNs(int i) {
        check(i);
        return frontTimes[i];
    }

    /**
     * @param i        row index in [0, {@link #count()})
     * @param variable index into {@link #recordFrom()}
     * @return the value (mV, pA or nS)
     */
    public double value(int i, int variable) {
        check(i);
        if (variable < 0 || variable >= width) {
            throw new IndexOutOfBoundsException("variable " + variable + " of " + recordFrom + " in multimeter '" + name()
                    + "'");
        }
        return frontValues[i * width + variable];
    }

    private void check(int i) {
        if (i < 0 || i >= frontCount) {
            throw new IndexOutOfBoundsException("row " + i + " of " + frontCount + " in multimeter '" + name() + "'");
        }
    }

    /** Engine side: starts publishing an interval (empties the back buffer; the engine's thread). */
    public void beginPublish() {
        backCount = 0;
        published = true;
    }

    /**
     * Engine side: one row of the interval, in time order.
     *
     * @param sender node id of the sampled neuron
     * @param timeNs sample time, ns
     * @param values the row's values at {@code [offset, offset + recordFrom().size())}. Not modified.
     * @param offset the first value
     */
    public void publishSample(int sender, long timeNs, double[] values, int offset) {
        if (backCount == backSenders.length) {
            backSenders = Arrays.copyOf(backSenders, 2 * backCount);
            backTimes = Arrays.copyOf(backTimes, 2 * backCount);
            backValues = Arrays.copyOf(backValues, 2 * backCount * Math.max(1, width));
        }
        backSenders[backCount] = sender;
        backTimes[backCount] = timeNs;
        System.arraycopy(values, offset, backValues, backCount * width, width);
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
        double[] v = frontValues;
        frontValues = backValues;
        backValues = v;
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
