package io.tandem.bench;

import io.tandem.bench.cosim.TimeSyncCommand;
import io.tandem.bench.internal.ChildProcesses;
import io.tandem.cli.TandemCli;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/*
 * Implementation notes.
 *
 * Two long runs, each sampled every --sample-ms from /proc (Linux): resident memory (VmRSS),
 * threads and open file descriptors of every process of the run.
 *   - world: `tandem sim` of the light world (examples' relay.sdf) with --network-role primary and
 *     2 local secondaries, recording every pose, in a child JVM; its secondaries are its children.
 *     Then the same world standalone; the two records must be byte for byte the same.
 *   - cosim: N coordinated participants of the in-process transport stepping in lockstep (the
 *     timesync scenario), sampled in this JVM.
 * Flat means: between the sample at half the run (after the JIT's warm-up and the heap's growth
 * to its working size, which take a JVM tens of seconds and well over 100 MB) and the last one, no
 * process gained a thread or an open file, and none grew its resident memory by more than 10 %
 * plus 32 MB. A short run mostly measures that warm-up: judge the long one. The command exits with 1 when a
 * run is not flat or the records differ.
 */

/** {@code tandem bench soak}: memory, threads and open files over a long distributed run and a long co-simulation. */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"Resident memory, threads and open files over time: the light world distributed (a primary and 2"
                + " local secondaries) for --iterations, its record against the standalone one, and --participants"
                + " coordinated participants for --steps; exits 1 unless all stay flat and the records are equal.",
            "Example: tandem bench soak (10^6 of each, about an hour); tandem bench soak --iterations 20000 --steps 100000"})
final class SoakCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--iterations", defaultValue = "1000000", description = "Iterations of the distributed world"
            + " (default: ${DEFAULT-VALUE}).")
    long iterations;

    @Option(names = "--steps", defaultValue = "1000000", description = "Lockstep steps of the co-simulation"
            + " (default: ${DEFAULT-VALUE}).")
    long steps;

    @Option(names = "--participants", defaultValue = "8", description = "Participants of the co-simulation"
            + " (default: ${DEFAULT-VALUE}).")
    int participants;

    @Option(names = "--sample-ms", defaultValue = "1000", description = "Time between samples, ms (default: ${DEFAULT-VALUE}).")
    long sampleMs;

    @Option(names = "--json", description = "Print one JSON object per process and run and nothing else.")
    boolean json;

    /** One process's samples: resident memory (kB), threads, open files. */
    static final class Series {
        final String name;
        final List<long[]> samples = new ArrayList<>();

        Series(String name) {
            this.name = name;
        }

        /** @return the sample at half the run (after the JIT's warm-up and the heap's growth to its working size) */
        long[] warm() {
            return samples.get(samples.size() / 2);
        }

        long[] last() {
            return samples.get(samples.size() - 1);
        }

        long maxRssKb() {
            return samples.stream().mapToLong(s -> s[0]).max().orElse(0);
        }

        boolean flat() {
            long[] w = warm();
            long[] l = last();
            return l[1] <= w[1] && l[2] <= w[2] && l[0] <= w[0] + w[0] / 10 + 32 * 1024;
        }
    }

    @Override
    public Integer call() throws Exception {
        if (iterations < 100 || steps < 100 || participants < 2 || sampleMs < 10) {
            throw new ParameterException(spec.commandLine(), "--iterations and --steps must be >= 100, --participants >= 2,"
                    + " --sample-ms >= 10");
        }
        if (!Files.isDirectory(Path.of("/proc/self/fd"))) {
            throw new ParameterException(spec.commandLine(), "bench soak samples processes through /proc: run it on Linux");
        }
        PrintWriter out = spec.commandLine().getOut();
        Path dir = Files.createTempDirectory("tandem-bench-soak");
        boolean ok = true;
        try {
            // the distributed world, sampled while it runs
            Path world = dir.resolve("relay.sdf");
            try (InputStream in = TandemCli.class.getResourceAsStream("/io/tandem/cli/worlds/relay.sdf")) {
                Files.copy(in, world);
            }
            Path dist = dir.resolve("distributed.csv");
            Map<Long, Series> series = new LinkedHashMap<>();
            int code;
            try (ChildProcesses children = new ChildProcesses("tandem-bench-soak")) {
                ChildProcesses.Child primary = children.start("primary", TandemCli.class, Map.of(), List.of("sim", world.toString(),
                        "--network-role", "primary", "--local-secondaries", "2", "--iterations", Long.toString(iterations),
                        "--record", dist.toString()));
                ProcessHandle p = primary.jvm.process().toHandle();
                while (p.isAlive()) {
                    sample(series, p, "primary");
                    p.children().forEach(c -> sample(series, c, "secondary-" + c.pid()));
                    try {
                        p.onExit().get(sampleMs, TimeUnit.MILLISECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        // still running: the next sample
                    }
                }
                code = primary.jvm.process().waitFor();
            }
            Path alone = dir.resolve("standalone.csv");
            java.io.StringWriter aloneErr = new java.io.StringWriter();
            int aloneCode = TandemCli.execute(new PrintWriter(java.io.Writer.nullWriter()), new PrintWriter(aloneErr), "sim",
                    world.toString(), "--levels", "--iterations", Long.toString(iterations), "--record", alone.toString());
            if (code != 0 || aloneCode != 0) {
                spec.commandLine().getErr().println("tandem bench soak: the distributed run ended with " + code
                        + ", the standalone one with " + aloneCode + (aloneCode != 0 ? ": " + aloneErr.toString().trim() : ""));
            }
            boolean equal = code == 0 && aloneCode == 0 && Files.mismatch(dist, alone) == -1L;
            ok &= equal & report(out, "world", series.values(), "\"iterations\":" + iterations + ",\"record_equal\":" + equal,
                    iterations + " iterations, record " + (equal ? "equal to" : "DIFFERENT from") + " the standalone one");
            // the co-simulation, sampled in this JVM while it runs on its own threads
            Map<Long, Series> mine = new LinkedHashMap<>();
            ProcessHandle self = ProcessHandle.current();
            java.util.concurrent.CompletableFuture<Void> cosim = java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    TimeSyncCommand.runInProcess(participants, steps, "soak-" + self.pid(), Math.max(60_000, steps));
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            while (!cosim.isDone()) {
                sample(mine, self, "this JVM");
                try {
                    cosim.get(sampleMs, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // next sample
                }
            }
            sample(mine, self, "this JVM");
            ok &= report(out, "cosim", mine.values(), "\"participants\":" + participants + ",\"steps\":" + steps,
                    participants + " participants, " + steps + " steps");
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        return ok ? 0 : 1;
    }

    /** Adds a sample of a process (nothing when it has just ended). */
    private static void sample(Map<Long, Series> series, ProcessHandle p, String name) {
        long[] s = read(p.pid());
        if (s != null) {
            series.computeIfAbsent(p.pid(), k -> new Series(name)).samples.add(s);
        }
    }

    /** @return resident memory (kB), threads and open files of a process, or null when it has ended */
    static long[] read(long pid) {
        try {
            long rss = -1;
            long threads = -1;
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
                } else if (line.startsWith("Threads:")) {
                    threads = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
            long fds;
            try (Stream<Path> s = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
                fds = s.count();
            }
            return rss < 0 || threads < 0 ? null : new long[] {rss, threads, fds};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private boolean report(PrintWriter out, String run, java.util.Collection<Series> all, String extra, String what) {
        boolean flat = true;
        for (Series s : all) {
            if (s.samples.size() < 4) {
                continue;
            }
            long[] f = s.samples.get(0);
            long[] w = s.warm();
            long[] l = s.last();
            flat &= s.flat();
            if (json) {
                out.printf(Locale.ROOT, "{\"bench\":\"soak\",\"run\":\"%s\",%s,\"process\":\"%s\",\"samples\":%d,"
                                + "\"rss_mb_first\":%.1f,\"rss_mb_warm\":%.1f,\"rss_mb_end\":%.1f,\"rss_mb_max\":%.1f,\"threads_warm\":%d,\"threads_end\":%d,"
                                + "\"fds_warm\":%d,\"fds_end\":%d,\"flat\":%b}%n", run, extra, s.name, s.samples.size(), f[0] / 1024.0,
                        w[0] / 1024.0,
                        l[0] / 1024.0, s.maxRssKb() / 1024.0, w[1], l[1], w[2], l[2], s.flat());
            } else {
                out.printf(Locale.ROOT, "%s, %s: %d samples; resident %.1f MB at the first sample, %.1f MB after warm-up,"
                                + " %.1f MB at the end (max %.1f);"
                                + " threads %d -> %d; open files %d -> %d: %s%n", run, s.name, s.samples.size(), f[0] / 1024.0, w[0] / 1024.0,
                        l[0] / 1024.0, s.maxRssKb() / 1024.0, w[1], l[1], w[2], l[2], s.flat() ? "flat" : "GROWS");
            }
        }
        if (!json) {
            out.printf(Locale.ROOT, "%s (%s): %s%n", run, what, flat ? "flat" : "NOT flat");
        }
        out.flush();
        return flat;
    }
}
