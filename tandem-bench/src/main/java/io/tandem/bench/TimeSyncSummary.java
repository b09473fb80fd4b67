package io.tandem.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The human-readable table of {@code bench timesync}: per participant count, the median, min and
 * max steps/s over the runs, beside SIL Kit 5.0.8's numbers and the 5x goal. Not thread-safe.
 */
final class TimeSyncSummary {
    private final List<List<TimeSyncResult>> bySize = new ArrayList<>();

    /**
     * Adds the runs of one participant count.
     *
     * @param runs at least one result, all with the same participant count; not modified
     */
    void add(List<TimeSyncResult> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs to summarize");
        }
        bySize.add(List.copyOf(runs));
    }

    /**
     * @param values at least one value; not modified
     * @return the median (mean of the two middle values for an even count)
     */
    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    /** @return the table, one entry per line */
    List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "%12s %5s %8s %14s %14s %14s %9s   %-17s %-17s %s",
                "participants", "runs", "steps", "median steps/s", "min steps/s", "max steps/s", "setup ms",
                "SIL Kit 5.0.8", "goal (5x)", "median vs SIL Kit"));
        for (List<TimeSyncResult> runs : bySize) {
            double[] sps = new double[runs.size()];
            double[] setupMs = new double[runs.size()];
            for (int i = 0; i < runs.size(); i++) {
                sps[i] = runs.get(i).stepsPerSecond();
                setupMs[i] = runs.get(i).setupNs() / 1e6;
            }
            double med = median(sps);
            int n = runs.get(0).participants();
            Optional<SilKitReference> ref = SilKitReference.forParticipants(n);
            String silkit = ref.map(r -> range(r.lowStepsPerS(), r.highStepsPerS())).orElse("-");
            String goal = ref.map(r -> range(r.lowStepsPerS() * SilKitReference.GOAL_FACTOR,
                    r.highStepsPerS() * SilKitReference.GOAL_FACTOR)).orElse("-");
            String vs = ref.map(r -> verdict(med, r)).orElse("-");
            out.add(String.format(Locale.ROOT, "%12d %5d %8d %14s %14s %14s %9.1f   %-17s %-17s %s",
                    n, runs.size(), runs.get(0).steps(), grouped(med), grouped(Arrays.stream(sps).min().orElseThrow()),
                    grouped(Arrays.stream(sps).max().orElseThrow()), median(setupMs), silkit, goal, vs));
        }
        return out;
    }

    private static String verdict(double median, SilKitReference r) {
        String factor = String.format(Locale.ROOT, "%.1fx-%.1fx", median / r.highStepsPerS(), median / r.lowStepsPerS());
        double goalHigh = r.highStepsPerS() * SilKitReference.GOAL_FACTOR;
        double goalLow = r.lowStepsPerS() * SilKitReference.GOAL_FACTOR;
        String met = median >= goalHigh ? "goal met" : median >= goalLow ? "goal met for the low reference" : "below goal";
        return factor + " (" + met + ")";
    }

    private static String range(double low, double high) {
        return grouped(low) + "-" + grouped(high);
    }

    private static String grouped(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }
}
