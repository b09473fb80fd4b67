package io.tandem.neuro;

import java.util.Arrays;
import java.util.List;

/**
 * A copy of the rows a {@code multimeter} holds (NEST's {@code events} dictionary): one row per
 * (time, sender), in time order and, within a time, in connection order. Times are in ms, senders
 * are node ids, and every recorded variable is a flat array with one value per row, in NEST
 * units: mV ({@code V_m}), pA ({@code I_syn_ex}, {@code I_syn_in}), nS ({@code g_ex},
 * {@code g_in}).
 *
 * <p>Immutable and thread-safe; every accessor returns a new copy.
 */
public final class MultimeterSamples {
    private final List<String> recordFrom;
    private final double[] timesMs;
    private final int[] senders;
    private final double[][] values; // (variables x rows)

    MultimeterSamples(List<String> recordFrom, double[] timesMs, int[] senders, double[][] values) {
        this.recordFrom = List.copyOf(recordFrom);
        this.timesMs = timesMs;
        this.senders = senders;
        this.values = values;
    }

    /** @return the number of rows */
    public int size() {
        return timesMs.length;
    }

    /** @return the recorded variables, in {@code record_from} order (immutable) */
    public List<String> recordFrom() {
        return recordFrom;
    }

    /** @return the sample time of each row, ms */
    public double[] timesMs() {
        return timesMs.clone();
    }

    /** @return the node id of each row's neuron */
    public int[] senders() {
        return senders.clone();
    }

    /**
     * @param variable a variable of {@link #recordFrom()}
     * @return its value in each row (mV, pA or nS)
     * @throws IllegalArgumentException naming the recorded variables
     */
    public double[] values(String variable) {
        int i = recordFrom.indexOf(variable);
        if (i < 0) {
            throw new IllegalArgumentException("the multimeter does not record '" + variable + "'; it records " + recordFrom);
        }
        return values[i].clone();
    }

    @Override
    public String toString() {
        return "MultimeterSamples" + recordFrom + "[" + size() + " rows" + (size() == 0 ? "" : ", "
                + timesMs[0] + ".." + timesMs[size() - 1] + " ms") + "]";
    }

    /** Builds a snapshot from row-major values. */
    static MultimeterSamples of(String[] vars, long[] timesNs, int[] senders, double[] rowMajor) {
        int rows = timesNs.length;
        double[] t = new double[rows];
        for (int i = 0; i < rows; i++) {
            t[i] = timesNs[i] / 1e6;
        }
        double[][] v = new double[vars.length][rows];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < vars.length; j++) {
                v[j][i] = rowMajor[i * vars.length + j];
            }
        }
        return new MultimeterSamples(Arrays.asList(vars), t, senders, v);
    }
}
