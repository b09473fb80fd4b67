package io.tandem.bench.internal;

import java.util.Arrays;

/** Summary statistics of benchmark runs. Stateless; each call allocates a sorted copy. */
public final class Statistics {
    private Statistics() {
    }

    /**
     * @param values at least one value; not modified
     * @return the median (mean of the two middle values for an even count)
     */
    public static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }
}
