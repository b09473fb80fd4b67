package io.tandem.cle.record;

import io.tandem.cle.device.Multimeter;
import java.util.Arrays;
import java.util.List;

/**
 * The samples a {@link Multimeter} device delivered, accumulated over the loop's runs: per row the
 * sampled neuron's node id, the time and the values of {@link #recordFrom()} (mV, pA, nS), in
 * delivery order (time order). Storage grows by doubling (the only allocation). Loop thread only.
 */
public final class MultimeterTraces {
    private final String multimeter;
    private final List<String> recordFrom;
    private final int width;
    private int[] senders = new int[1024];
    private long[] timesNs = new long[1024];
    private double[] values;
    private int size;

    /**
     * @param multimeter the multimeter recorded
     * @param recordFrom its variables, in row order
     */
    public MultimeterTraces(String multimeter, List<String> recordFrom) {
        this.multimeter = multimeter;
        this.recordFrom = List.copyOf(recordFrom);
        this.width = this.recordFrom.size();
        this.values = new double[1024 * Math.max(1, width)];
    }

    /** @return the multimeter device's name */
    public String multimeter() {
        return multimeter;
    }

    /** @return the variables of each row (immutable) */
    public List<String> recordFrom() {
        return recordFrom;
    }

    /**
     * Loop side: appends the rows {@code m} latched (not modified).
     * @param m the multimeter
     */
    public void append(Multimeter m) {
        int n = m.count();
        if (size + n > senders.length) {
            int c = Math.max(size + n, 2 * senders.length);
            senders = Arrays.copyOf(senders, c);
            timesNs = Arrays.copyOf(timesNs, c);
            values = Arrays.copyOf(values, c * Math.max(1, width));
        }
        for (int i = 0; i < n; i++) {
            senders[size] = m.sender(i);
            timesNs[size] = m.timeNs(i);
            for (int v = 0; v < width; v++) {
                values[size * width + v] = m.value(i, v);
            }
            size++;
        }
    }

    /** Loop side: forgets every row (the loop's reset). */
    public void clear() {
        size = 0;
    }

    /** @return rows recorded */
    public int size() {
        return size;
    }

    /** @return the node id of row {@code i}'s neuron */
    public int sender(int i) {
        return senders[check(i)];
    }

    /** @return the time of row {@code i}, ns */
    public long timeNs(int i) {
        return timesNs[check(i)];
    }

    /**
     * @param i        a row
     * @param variable index into {@link #recordFrom()}
     * @return the value (mV, pA or nS)
     */
    public double value(int i, int variable) {
        check(i);
        if (variable < 0 || variable >= width) {
            throw new IndexOutOfBoundsException("variable " + variable + " of " + recordFrom);
        }
        return values[i * width + variable];
    }

    private int check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("row " + i + " of " + size);
        }
        return i;
    }
}
