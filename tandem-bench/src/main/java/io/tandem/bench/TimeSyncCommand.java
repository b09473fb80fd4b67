package io.tandem.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tandem bench timesync}: lockstep throughput of N in-process, coordinated,
 * time-synchronized participants. Prints a table, or with {@code --json} one JSON object per run.
 * Exit code 0, or 1 if a run times out or miscounts its steps.
 */
@Command(
        name = "timesync",
        mixinStandardHelpOptions = true,
        description = {
            "Lockstep steps per second of N time-synchronized participants in this process.",
            "Measures virtual steps per wall second of N coordinated, time-synchronized participants in this"
                + " process (in-process transport, 1 ms steps, no payload, blocking step handlers), like SIL Kit's"
                + " SilKitDemoBenchmark. The wall time runs from the first startLifecycle until every participant"
                + " is in SHUTDOWN, so it includes the lifecycle start-up and shut-down.",
            "The table gives the median, min and max over the runs beside SIL Kit 5.0.8's numbers."
        })
final class TimeSyncCommand implements Callable<Integer> {
    private static final AtomicInteger REGISTRIES = new AtomicInteger();

    @Spec
    private CommandSpec spec;

    @Option(names = "--participants", paramLabel = "N", split = ",", defaultValue = "2,4,8",
            description = "Participant counts to measure, comma-separated (default: ${DEFAULT-VALUE}).")
    List<Integer> participants;

    @Option(names = "--steps", paramLabel = "S", defaultValue = "10000",
            description = "Steps of 1 ms per run (default: ${DEFAULT-VALUE}).")
    long steps;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3",
            description = "Measured runs per participant count (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup-runs", paramLabel = "W", defaultValue = "1",
            description = "Unreported warm-up runs before them, per participant count (default: ${DEFAULT-VALUE}).")
    int warmupRuns;

    @Option(names = "--timeout-s", paramLabel = "SECONDS", defaultValue = "300",
            description = "Wall time one run may take before it counts as hung (default: ${DEFAULT-VALUE}).")
    long timeoutS;

    @Option(names = "--json",
            description = "Print one JSON object per run and nothing else:"
                + " {\"transport\":\"inproc\",\"participants\":N,\"steps\":S,\"steps_per_s\":X,\"run\":R,...}.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
        TimeSyncConfig config;
        try {
            config = new TimeSyncConfig(participants, steps, runs, warmupRuns, Math.multiplyExact(timeoutS, 1000L));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (!json) {
            out.printf(Locale.ROOT, "tandem bench timesync: in-process, %d steps of 1 ms, %d run(s) per size after %d"
                    + " warm-up run(s)%n", config.steps(), config.runs(), config.warmupRuns());
            out.flush();
        }
        TimeSyncSummary summary = new TimeSyncSummary();
        try {
            for (int n : config.participants()) {
                for (int w = 0; w < config.warmupRuns(); w++) {
                    TimeSyncResult r = runOnce(n, config);
                    if (!json) {
                        out.printf(Locale.ROOT, "  N=%d warm-up  %,12.0f steps/s%n", n, r.stepsPerSecond());
                        out.flush();
                    }
                }
                List<TimeSyncResult> results = new ArrayList<>();
                for (int run = 1; run <= config.runs(); run++) {
                    TimeSyncResult r = runOnce(n, config);
                    results.add(r);
                    if (json) {
                        out.println(r.toJsonLine(run));
                    } else {
                        out.printf(Locale.ROOT, "  N=%d run %d/%d  %,12.0f steps/s  (run %.1f ms, setup %.1f ms)%n", n, run,
                                config.runs(), r.stepsPerSecond(), r.runNs() / 1e6, r.setupNs() / 1e6);
                    }
                    out.flush();
                }
                summary.add(results);
            }
        } catch (TimeoutException | IllegalStateException e) {
            out.flush();
            spec.commandLine().getErr().println("tandem bench timesync: failed: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return 1;
        }
        if (!json) {
            out.println();
            for (String line : summary.lines()) {
                out.println(line);
            }
            out.println();
            out.println("SIL Kit 5.0.8: in-process SilKitDemoBenchmark, time sync only, 10,000 steps, range of three"
                    + " rounds' medians on a 2-core machine (shared/specs/silkit.md 4.6). Goal: 5x.");
            out.flush();
        }
        return 0;
    }

    private static TimeSyncResult runOnce(int n, TimeSyncConfig config) throws TimeoutException, InterruptedException {
        String registry = "tandem-bench-timesync-" + REGISTRIES.incrementAndGet() + "-n" + n;
        return TimeSyncScenario.run(n, config.steps(), registry, config.timeoutMs());
    }
}
