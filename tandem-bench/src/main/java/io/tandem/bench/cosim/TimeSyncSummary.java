package io.tandem.bench.cosim;

import io.tandem.bench.internal.Statistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The human-readable table of {@code bench timesync}: per participant count, the median, min and
 * max steps/s over the runs, beside SIL Kit 5.0.8's numbers and the goal (in-process 5x; separate
 * processes, issue 4: 2x at N = 2, 5x at N = 8), and for separate processes the median CPU use.
 * Not thread-safe.
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

    /** @return the table, one entry per line */
    List<String> lines() {
        List<String> out = new ArrayList<>();
        boolean processes = !bySize.isEmpty() && bySize.get(0).get(0).processes() != null;
        out.add(String.format(Locale.ROOT, "%12s %5s %8s %14s %14s %14s %9s   %-17s %-17s %s",
                "participants", "runs", "steps", "median steps/s", "min steps/s", "max steps/s", "setup ms",
                "SIL Kit 5.0.8", processes ? "goal (issue 4)" : "goal (5x)", "median vs SIL Kit")
                + (processes ? "   cpu/s run  cpu/s idle (per participant, median of means)" : ""));
        for (List<TimeSyncResult> runs : bySize) {
            double[] sps = new double[runs.size()];
            double[] setupMs = new double[runs.size()];
            for (int i = 0; i < runs.size(); i++) {
                sps[i] = runs.get(i).stepsPerSecond();
                setupMs[i] = runs.get(i).setupNs() / 1e6;
            }
            double med = Statistics.median(sps);
            int n = runs.get(0).participants();
            double factor = goalFactor(n, processes);
            Optional<SilKitReference> ref = SilKitReference.forParticipants(n);
            String silkit = ref.map(r -> range(r.lowStepsPerS(), r.highStepsPerS())).orElse("-");
            String goal = factor <= 0 ? "-" : ref.map(r -> range(r.lowStepsPerS() * factor,
                    r.highStepsPerS() * factor)).orElse("-");
            String vs = ref.map(r -> verdict(med, r, factor)).orElse("-");
            String line = String.format(Locale.ROOT, "%12d %5d %8d %14s %14s %14s %9.1f   %-17s %-17s %s",
                    n, runs.size(), runs.get(0).steps(), grouped(med), grouped(Arrays.stream(sps).min().orElseThrow()),
                    grouped(Arrays.stream(sps).max().orElseThrow()), Statistics.median(setupMs), silkit, goal, vs);
            if (processes) {
                double[] cpu = new double[runs.size()];
                double[] idle = new double[runs.size()];
                for (int i = 0; i < runs.size(); i++) {
                    cpu[i] = runs.get(i).processes().cpuPerSecondMean();
                    idle[i] = runs.get(i).processes().idleCpuPerSecondMean();
                }
                line += String.format(Locale.ROOT, "   %10.2f  %10.3f", Statistics.median(cpu), Statistics.median(idle));
            }
            out.add(line);
        }
        return out;
    }

    /** @return the goal as a multiple of SIL Kit, or 0 where none is set */
    static double goalFactor(int participants, boolean processes) {
        if (!processes) {
            return SilKitReference.GOAL_FACTOR;
        }
        return participants == 2 ? 2.0 : participants == 8 ? 5.0 : 0;
    }

    private static String verdict(double median, SilKitReference r, double goalFactor) {
        String factor = String.format(Locale.ROOT, "%.1fx-%.1fx", median / r.highStepsPerS(), median / r.lowStepsPerS());
        if (goalFactor <= 0) {
            return factor;
        }
        double goalHigh = r.highStepsPerS() * goalFactor;
        double goalLow = r.lowStepsPerS() * goalFactor;
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
