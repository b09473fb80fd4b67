package io.tandem.bench.cosim;

import io.tandem.bench.internal.ChildProcesses;
import io.tandem.bench.internal.ProcessCpu;
import io.tandem.bench.internal.Statistics;
import io.tandem.cosim.Participant;
import io.tandem.cosim.Registry;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.spi.RegistryEndpoint;
import io.tandem.net.NetConfig;
import java.io.IOException;
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
 * {@code tandem bench pubsub}: publish/subscribe round trips between two participants, in two
 * processes over {@code tandem://} ({@code --transport aeron}) or in this process. Prints a table,
 * or with {@code --json} one JSON object per run. Exit code 0, or 1 if a run fails or times out.
 */
@Command(
        name = "pubsub",
        mixinStandardHelpOptions = true,
        description = {
            "Publish/subscribe round trip between two participants.",
            "A pinger publishes a message on topic ping, an echo participant publishes it back on topic pong, and"
                + " the pinger's handler times the round trip and sends the next: one message in flight, no"
                + " lifecycle. With --transport aeron the echo runs in its own JVM (Aeron IPC through the registry's"
                + " media driver; with --registries 2 the two are on different registries and talk over Aeron UDP);"
                + " with inproc both are in this process.",
            "Reports the median, 90th and 99th percentile and maximum round trip in microseconds, and the CPU use"
                + " of both processes. SIL Kit 5.0.8: 18-40 us; goal over Aeron IPC: <= 10 us."
        })
public final class PubSubCommand implements Callable<Integer> {
    private static final AtomicInteger RUNS = new AtomicInteger();

    @Spec
    private CommandSpec spec;

    @Option(names = "--transport", paramLabel = "T", defaultValue = "aeron",
            description = "aeron (echo in its own JVM over tandem://) or inproc (default: ${DEFAULT-VALUE}).")
    String transport;

    @Option(names = "--messages", paramLabel = "M", defaultValue = "20000",
            description = "Round trips per run (default: ${DEFAULT-VALUE}).")
    int messages;

    @Option(names = "--payload-bytes", paramLabel = "B", defaultValue = "8",
            description = "Payload per message, at least 8 (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3",
            description = "Measured runs (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup-runs", paramLabel = "W", defaultValue = "2",
            description = "Unreported warm-up runs before them (default: ${DEFAULT-VALUE}).")
    int warmupRuns;

    @picocli.CommandLine.Mixin
    HostsOption hosts;

    @Option(names = "--registries", paramLabel = "R", defaultValue = "1",
            description = "aeron: 1 (Aeron IPC) or 2 (pinger and echo on different registries: Aeron UDP)"
                + " (default: ${DEFAULT-VALUE}).")
    int registries;

    @Option(names = "--idle", paramLabel = "STRATEGY", defaultValue = "backoff",
            description = "aeron: how the polling threads idle: backoff, yielding or busy-spin (default: ${DEFAULT-VALUE}).")
    String idle;

    @Option(names = "--timeout-s", paramLabel = "SECONDS", defaultValue = "120",
            description = "Wall time one run may take (default: ${DEFAULT-VALUE}).")
    long timeoutS;

    @Option(names = "--json",
            description = "Print one JSON object per run and nothing else: {\"transport\":\"aeron\",\"processes\":2,"
                + "\"messages\":M,\"rtt_median_us\":X,\"rtt_p99_us\":Y,\"run\":R,...}.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
        boolean aeron;
        NetConfig.Idle idleStrategy;
        try {
            aeron = switch (transport.toLowerCase(Locale.ROOT)) {
                case "inproc" -> false;
                case "aeron", "tandem" -> true;
                default -> throw new IllegalArgumentException("--transport must be inproc or aeron, got '" + transport + "'");
            };
            idleStrategy = TimeSyncCommand.parseIdle(idle);
            if (messages < 1 || runs < 1 || warmupRuns < 0 || payloadBytes < 8 || timeoutS < 1) {
                throw new IllegalArgumentException("--messages, --runs and --timeout-s must be >= 1, --warmup-runs >= 0,"
                        + " --payload-bytes >= 8");
            }
            if (registries < 1 || registries > 2 || (!aeron && registries != 1)) {
                throw new IllegalArgumentException("--registries must be 1 or 2 (1 in-process), got " + registries);
            }
            hosts.check();
            if (hosts.external() && (!aeron || hosts.registryUris.size() > 2)) {
                throw new IllegalArgumentException("--registry-uri takes one or two registries (the pinger's, the"
                        + " echo's) and needs --transport aeron");
            }
            if (hosts.external()) {
                registries = hosts.registryUris.size();
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (!json) {
            out.printf(Locale.ROOT, "tandem bench pubsub: %s, %d round trips of %d bytes per run, %d run(s) after %d"
                    + " warm-up run(s)%n", aeron ? "two processes over tandem:// (" + (registries == 1 ? "Aeron IPC"
                    : "two registries, Aeron UDP") + ", idle " + AeronTimeSyncScenario.idleName(idleStrategy) + ")"
                    : "in-process", messages, payloadBytes, runs, warmupRuns);
            out.flush();
        }
        List<RegistryEndpoint> endpoints = new ArrayList<>();
        Registry inproc = null;
        Participant inprocEcho = null;
        ChildProcesses children = null;
        Participant pinger = null;
        try {
            String sim = "pubsub";
            ChildProcesses.Child echo = null;
            if (aeron) {
                AeronTimeSyncScenario.setBenchmarkDefaults(idleStrategy);
                NetConfig config = NetConfig.fromSystemProperties();
                List<String> uris = new ArrayList<>(hosts.registryUris);
                children = new ChildProcesses("tandem-bench-pubsub");
                if (!hosts.external()) {
                    endpoints.addAll(AeronTimeSyncScenario.startRegistries(config, registries));
                    for (RegistryEndpoint r : endpoints) {
                        children.closeOnExit(r);
                        uris.add(r.uri());
                    }
                }
                echo = children.start("echo", PubSubEchoMain.class, AeronTimeSyncScenario.childProperties(config),
                        List.of(uris.get(registries - 1), sim), hosts.launcher(registries - 1));
                String ready = echo.next(2 * config.registryTimeoutMs() + 30_000);
                if (!ready.equals("READY")) {
                    throw new IllegalStateException("the echo answered '" + ready + "'" + echo.logTail());
                }
                pinger = Participant.connect(uris.get(0), sim, "pinger");
            } else {
                inproc = Registry.start("tandem+inproc://tandem-bench-pubsub-" + RUNS.incrementAndGet());
                inprocEcho = Participant.connect(inproc.uri(), sim, "echo");
                PubSubScenario.echo(inprocEcho);
                pinger = Participant.connect(inproc.uri(), sim, "pinger");
            }
            PubSubScenario.Pinger ping = new PubSubScenario.Pinger(pinger, payloadBytes);
            long timeoutMs = Math.multiplyExact(timeoutS, 1000L);
            for (int w = 0; w < warmupRuns; w++) {
                ping.run(messages, timeoutMs);
            }
            List<Double> medians = new ArrayList<>();
            List<Double> p99s = new ArrayList<>();
            for (int run = 1; run <= runs; run++) {
                long echoCpu0 = echo == null ? 0 : echoCpuNs(echo);
                long cpu0 = ProcessCpu.nowNs();
                long t0 = System.nanoTime();
                long[] rtt = ping.run(messages, timeoutMs);
                long wallNs = System.nanoTime() - t0;
                double cpu = (ProcessCpu.nowNs() - cpu0) / (double) wallNs;
                double echoCpu = echo == null ? Double.NaN : (echoCpuNs(echo) - echoCpu0) / (double) wallNs;
                double med = PubSubScenario.quantile(rtt, 0.5) / 1e3;
                double p90 = PubSubScenario.quantile(rtt, 0.9) / 1e3;
                double p99 = PubSubScenario.quantile(rtt, 0.99) / 1e3;
                double max = rtt[rtt.length - 1] / 1e3;
                medians.add(med);
                p99s.add(p99);
                if (json) {
                    out.println(String.format(Locale.ROOT, "{\"transport\":\"%s\",\"processes\":%d,\"registries\":%d,"
                            + "\"idle\":\"%s\",\"messages\":%d,\"payload_bytes\":%d,\"run\":%d,\"rtt_median_us\":%.2f,"
                            + "\"rtt_p90_us\":%.2f,\"rtt_p99_us\":%.2f,\"rtt_max_us\":%.1f,\"run_s\":%.6f,"
                            + "\"pinger_cpu_per_s\":%.3f,\"echo_cpu_per_s\":%s}",
                            aeron ? "aeron" : "inproc", aeron ? 2 : 1, aeron ? registries : 1,
                            aeron ? AeronTimeSyncScenario.idleName(idleStrategy) : "-", messages, payloadBytes, run, med,
                            p90, p99, max, wallNs / 1e9, cpu, Double.isNaN(echoCpu) ? "null"
                                    : String.format(Locale.ROOT, "%.3f", echoCpu)));
                } else {
                    out.printf(Locale.ROOT, "  run %d/%d  round trip median %8.2f us  p90 %8.2f us  p99 %8.2f us  max %9.1f us"
                            + "  (cpu/s pinger %.2f%s)%n", run, runs, med, p90, p99, max, cpu,
                            Double.isNaN(echoCpu) ? "" : String.format(Locale.ROOT, ", echo %.2f", echoCpu));
                }
                out.flush();
            }
            if (!json) {
                out.printf(Locale.ROOT, "%nmedian of the runs: round trip median %.2f us, p99 %.2f us; SIL Kit 5.0.8:"
                        + " 18-40 us; goal over Aeron IPC: <= 10 us%n", Statistics.median(toArray(medians)),
                        Statistics.median(toArray(p99s)));
                out.flush();
            }
            return 0;
        } catch (TimeoutException | IllegalStateException | IOException | TandemException e) {
            out.flush();
            spec.commandLine().getErr().println("tandem bench pubsub: failed: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return 1;
        } finally {
            if (pinger != null) {
                pinger.close();
            }
            if (inprocEcho != null) {
                inprocEcho.close();
            }
            if (children != null) {
                children.close();
            }
            for (RegistryEndpoint r : endpoints) {
                r.close();
            }
            if (inproc != null) {
                inproc.close();
            }
        }
    }

    private static long echoCpuNs(ChildProcesses.Child echo) throws IOException, TimeoutException, InterruptedException {
        echo.send("CPU");
        String line = echo.next(10_000);
        if (!line.startsWith("CPU ")) {
            throw new IllegalStateException("the echo answered '" + line + "'" + echo.logTail());
        }
        return Long.parseLong(line.substring(4));
    }

    private static double[] toArray(List<Double> values) {
        double[] out = new double[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i);
        }
        return out;
    }
}
