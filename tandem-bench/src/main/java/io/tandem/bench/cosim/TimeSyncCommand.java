package io.tandem.bench.cosim;

import io.tandem.cli.plot.Figures;
import io.tandem.net.NetConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
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
 * {@code tandem bench timesync}: lockstep throughput of N coordinated, time-synchronized
 * participants, in this process ({@code --transport inproc}) or one per process over the
 * {@code tandem://} transport ({@code --transport aeron}). Prints a table, or with {@code --json}
 * one JSON object per run; with {@code --plot FILE.png} also draws steps/s against the participant
 * count beside SIL Kit's figures. Exit code 0, or 1 if a run times out, fails or miscounts its
 * steps (then no figure is drawn).
 */
@Command(
        name = "timesync",
        mixinStandardHelpOptions = true,
        description = {
            "Lockstep steps per second of N time-synchronized participants.",
            "Measures virtual steps per wall second of N coordinated, time-synchronized participants (1 ms steps,"
                + " no payload, blocking step handlers), like SIL Kit's SilKitDemoBenchmark: in this process"
                + " (--transport inproc) or each in its own JVM on this host over tandem:// (--transport aeron,"
                + " Aeron IPC through the registry's media driver; with --registries 2 over Aeron UDP between two"
                + " registries). The wall time runs from the first startLifecycle until every participant"
                + " is in SHUTDOWN, so it includes the lifecycle start-up and shut-down.",
            "The table gives the median, min and max over the runs beside SIL Kit 5.0.8's numbers; with"
                + " --transport aeron also the participants' CPU use (process CPU s per wall s) while running and"
                + " while idle."
        })
public final class TimeSyncCommand implements Callable<Integer> {
    private static final AtomicInteger REGISTRIES = new AtomicInteger();

    @Spec
    private CommandSpec spec;

    @Option(names = {"--participants", "--processes"}, paramLabel = "N", split = ",", defaultValue = "2,4,8",
            description = "Participant counts to measure, comma-separated (default: ${DEFAULT-VALUE}); with"
                + " --transport aeron each participant is a process.")
    List<Integer> participants;

    @Option(names = "--transport", paramLabel = "T", defaultValue = "inproc",
            description = "inproc (one process) or aeron (tandem://, one JVM per participant) (default: ${DEFAULT-VALUE}).")
    String transport;

    @picocli.CommandLine.Mixin
    HostsOption hosts;

    @Option(names = "--registries", paramLabel = "R", defaultValue = "1",
            description = "aeron: registries on this host to spread the participants over; 2 or more puts Aeron UDP"
                + " between the participants of different registries (default: ${DEFAULT-VALUE}).")
    int registries;

    @Option(names = "--idle", paramLabel = "STRATEGY", defaultValue = "backoff",
            description = "aeron: how the participants' polling threads idle: backoff, yielding or busy-spin"
                + " (default: ${DEFAULT-VALUE}).")
    String idle;

    @Option(names = "--idle-ms", paramLabel = "MS", defaultValue = "500",
            description = "aeron: how long the connected participants idle before each run, to measure their idle CPU"
                + " use (default: ${DEFAULT-VALUE}).")
    long idleMs;

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

    @Option(names = "--plot", paramLabel = "FILE.png",
            description = "When every run succeeded, also draw steps/s against the participant count into this PNG file"
                + " (a log axis where they span a decade): the median and each run at every count, beside SIL Kit"
                + " 5.0.8's lowest and highest published figures at 2, 4 and 8 participants.")
    Path plot;

    @Override
    public Integer call() throws InterruptedException {
        TimeSyncConfig config;
        NetConfig.Idle idleStrategy;
        boolean aeron;
        try {
            config = new TimeSyncConfig(participants, steps, runs, warmupRuns, Math.multiplyExact(timeoutS, 1000L));
            aeron = switch (transport.toLowerCase(Locale.ROOT)) {
                case "inproc" -> false;
                case "aeron", "tandem" -> true;
                default -> throw new IllegalArgumentException("--transport must be inproc or aeron, got '" + transport + "'");
            };
            idleStrategy = parseIdle(idle);
            if (registries < 1 || (!aeron && registries != 1)) {
                throw new IllegalArgumentException("--registries must be >= 1 (and 1 in-process), got " + registries);
            }
            if (idleMs < 0) {
                throw new IllegalArgumentException("--idle-ms must be >= 0, got " + idleMs);
            }
            hosts.check();
            if (hosts.external() && !aeron) {
                throw new IllegalArgumentException("--registry-uri needs --transport aeron");
            }
            if (hosts.external()) {
                registries = hosts.registryUris.size();
            }
            if (plot != null) {
                Figures.requirePng(plot);
            }
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (!json) {
            out.printf(Locale.ROOT, "tandem bench timesync: %s, %d steps of 1 ms, %d run(s) per size after %d"
                    + " warm-up run(s)%n", aeron ? "one process per participant over tandem:// (" + registries
                    + " registr" + (registries == 1 ? "y" : "ies") + ", idle " + AeronTimeSyncScenario.idleName(idleStrategy)
                    + ")" : "in-process", config.steps(), config.runs(), config.warmupRuns());
            out.flush();
        }
        TimeSyncSummary summary = new TimeSyncSummary();
        List<double[]> measured = new ArrayList<>();
        NetConfig netConfig = null;
        if (aeron) {
            // the children get it as a system property; this process's controller participant too
            AeronTimeSyncScenario.setBenchmarkDefaults(idleStrategy);
            netConfig = NetConfig.fromSystemProperties();
        }
        AeronTimeSyncScenario scenario = null;
        try {
            for (int n : config.participants()) {
                if (aeron) {
                    scenario = new AeronTimeSyncScenario(n, registries, netConfig, idleMs, hosts);
                }
                for (int w = 0; w < config.warmupRuns(); w++) {
                    TimeSyncResult r = runOnce(scenario, n, config);
                    if (!json) {
                        out.printf(Locale.ROOT, "  N=%d warm-up  %,12.0f steps/s%n", n, r.stepsPerSecond());
                        out.flush();
                    }
                }
                List<TimeSyncResult> results = new ArrayList<>();
                for (int run = 1; run <= config.runs(); run++) {
                    TimeSyncResult r = runOnce(scenario, n, config);
                    results.add(r);
                    if (json) {
                        out.println(r.toJsonLine(run));
                    } else {
                        out.printf(Locale.ROOT, "  N=%d run %d/%d  %,12.0f steps/s  (run %.1f ms, setup %.1f ms)%s%n", n,
                                run, config.runs(), r.stepsPerSecond(), r.runNs() / 1e6, r.setupNs() / 1e6, cpu(r));
                    }
                    out.flush();
                }
                summary.add(results);
                measured.add(results.stream().mapToDouble(TimeSyncResult::stepsPerSecond).toArray());
                if (scenario != null) {
                    scenario.close();
                    scenario = null;
                }
            }
        } catch (TimeoutException | IllegalStateException | IOException | io.tandem.cosim.TandemException e) {
            out.flush();
            spec.commandLine().getErr().println("tandem bench timesync: failed: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return 1;
        } finally {
            if (scenario != null) {
                scenario.close();
            }
        }
        if (plot != null) {
            try {
                plot(plot, config, measured, aeron ? "tandem://, " + registries + " registr" + (registries == 1 ? "y" : "ies")
                        + ", a JVM per participant" : "in-process");
            } catch (IOException e) {
                spec.commandLine().getErr().println("tandem bench timesync: cannot write the figure " + plot + ": "
                        + e.getMessage());
                spec.commandLine().getErr().flush();
                return 1;
            }
        }
        if (!json) {
            out.println();
            for (String line : summary.lines()) {
                out.println(line);
            }
            out.println();
            out.println("SIL Kit 5.0.8: in-process SilKitDemoBenchmark, time sync only, 10,000 steps, range of three"
                    + " rounds' medians on a 2-core machine (shared/specs/silkit.md 4.6). Goal: 5x"
                    + (aeron ? " (issue 4 for separate processes: >= 2x at N=2, >= 5x at N=8)." : "."));
            if (aeron) {
                out.println("CPU: process CPU s per wall s of each participant JVM (mean / max) while running and while"
                        + " idle (connected, lifecycle not started), and of this process (registries, controller).");
            }
            if (plot != null) {
                out.println("figure: " + plot);
            }
            out.flush();
        }
        return 0;
    }

    /** Draws the measured steps/s ([count][run], in config's order) beside SIL Kit's figures at the same counts. */
    private static void plot(Path file, TimeSyncConfig config, List<double[]> measured, String transport) throws IOException {
        int[] n = config.participants().stream().mapToInt(Integer::intValue).toArray();
        List<SilKitReference> refs = new ArrayList<>();
        for (int p : new java.util.TreeSet<>(config.participants())) {
            SilKitReference.forParticipants(p).ifPresent(refs::add);
        }
        int[] refN = new int[refs.size()];
        double[] low = new double[refs.size()];
        double[] high = new double[refs.size()];
        for (int i = 0; i < refN.length; i++) {
            refN[i] = refs.get(i).participants();
            low[i] = refs.get(i).lowStepsPerS();
            high[i] = refs.get(i).highStepsPerS();
        }
        String title = String.format(Locale.ROOT, "bench timesync: %,d steps of 1 ms, %d run(s) per count", config.steps(),
                config.runs()) + (refs.isEmpty() ? "; no SIL Kit figures at these counts" : "");
        Figures.timesync(file, title, "Tandem " + transport, n, measured.toArray(new double[0][]),
                "SIL Kit 5.0.8 in-process (published)", refN, low, high);
    }

    static NetConfig.Idle parseIdle(String name) {
        try {
            return NetConfig.Idle.valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--idle must be backoff, yielding or busy-spin, got '" + name + "'", e);
        }
    }

    private static String cpu(TimeSyncResult r) {
        TimeSyncResult.ProcessStats p = r.processes();
        if (p == null) {
            return "";
        }
        return String.format(Locale.ROOT, "  cpu/s %.2f (max %.2f), idle %.3f (max %.3f), registry %.2f",
                p.cpuPerSecondMean(), p.cpuPerSecondMax(), p.idleCpuPerSecondMean(), p.idleCpuPerSecondMax(),
                p.registryCpuPerSecond());
    }

    private static TimeSyncResult runOnce(AeronTimeSyncScenario scenario, int n, TimeSyncConfig config)
            throws TimeoutException, InterruptedException, IOException {
        if (scenario != null) {
            return scenario.run(config.steps(), config.timeoutMs());
        }
        String registry = "tandem-bench-timesync-" + REGISTRIES.incrementAndGet() + "-n" + n;
        return TimeSyncScenario.run(n, config.steps(), registry, config.timeoutMs());
    }

    /**
     * Runs {@code participants} coordinated participants of the in-process transport for
     * {@code steps} lockstep steps (the scenario of this benchmark's in-process mode), on their own
     * threads; for {@code bench soak}.
     *
     * @throws java.util.concurrent.TimeoutException if they do not finish within timeoutMs
     */
    public static void runInProcess(int participants, long steps, String registryName, long timeoutMs)
            throws java.util.concurrent.TimeoutException, InterruptedException {
        TimeSyncScenario.run(participants, steps, registryName, timeoutMs);
    }
}
