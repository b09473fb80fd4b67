package io.tandem.bench.cosim;

import io.tandem.bench.internal.ChildProcesses;
import io.tandem.bench.internal.ProcessCpu;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.spi.RegistryEndpoint;
import io.tandem.net.AeronTransport;
import io.tandem.net.NetConfig;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/*
 * Implementation notes.
 *
 * The multi-process form of TimeSyncScenario: this process hosts the registries (each with its
 * media driver) and the system controller participant; every time-synchronized participant runs in
 * its own JVM (TimeSyncWorkerMain). The JVMs live across runs, so warm-up runs warm their JIT;
 * each run is a new simulation on the same registries.
 *
 * Timing: every child reports System.nanoTime around its startLifecycle().get(); on Linux that is
 * CLOCK_MONOTONIC, one clock for every process of the host, so the run is the span from the
 * earliest start to the latest end, as in-process. Before the start every child idles, connected,
 * for idleMs: its CPU time over that window is the idle participant's CPU use.
 *
 * With two or more registries, participant i joins registry i mod R: participants of different
 * registries reach each other over Aeron UDP (loopback), those of one registry over Aeron IPC.
 */

/**
 * Runs {@code bench timesync --transport aeron}: N participant processes on this host, coordinated
 * and time-synchronized over the {@code tandem://} transport. Not thread-safe; the children are
 * destroyed on {@link #close()}, on failure of the start and on JVM exit.
 */
final class AeronTimeSyncScenario implements AutoCloseable {
    private final int processes;
    private final NetConfig config;
    private final long idleMs;
    private final List<RegistryEndpoint> registries = new ArrayList<>();
    /** the registries' URIs: the started ones', or the running ones given */
    private final List<String> uris = new ArrayList<>();
    private final ChildProcesses children;
    private int runs;

    /**
     * Starts the registries and the participant JVMs.
     *
     * @param processes  participant processes, at least 1
     * @param registries registries to spread them over, at least 1
     * @param config     the transport configuration of this process and, through system
     *                   properties, of the children (idle strategy)
     * @param idleMs     how long every participant idles, connected, before each run starts
     */
    AeronTimeSyncScenario(int processes, int registries, NetConfig config, long idleMs) throws IOException {
        this(processes, registries, config, idleMs, new HostsOption());
    }

    /** @param hosts running registries (then {@code registries} is ignored) and their hosts' launchers */
    AeronTimeSyncScenario(int processes, int registries, NetConfig config, long idleMs, HostsOption hosts)
            throws IOException {
        this.processes = processes;
        this.config = config;
        this.idleMs = idleMs;
        this.children = new ChildProcesses("tandem-bench-timesync");
        try {
            if (hosts.external()) {
                uris.addAll(hosts.registryUris);
            } else {
                registries(registries);
                for (RegistryEndpoint r : this.registries) {
                    children.closeOnExit(r);
                    uris.add(r.uri());
                }
            }
            Map<String, String> props = childProperties(config);
            for (int i = 0; i < processes; i++) {
                children.start("p" + i, TimeSyncWorkerMain.class, props, List.of(), hosts.launcher(i % uris.size()));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void registries(int count) {
        registries.addAll(startRegistries(config, count));
    }

    /**
     * Starts registries on loopback, each on a free port with its own media driver; the second and
     * later list the first as their peer, so they form one group and their participants talk over
     * Aeron UDP.
     *
     * @param config the transport configuration
     * @param count  how many, at least 1
     * @return the started registries, the sequencer first
     */
    static List<RegistryEndpoint> startRegistries(NetConfig config, int count) {
        List<RegistryEndpoint> out = new ArrayList<>();
        try {
            out.add(new AeronTransport(config).startRegistry(URI.create("tandem://127.0.0.1:0")));
            List<String> peers = new ArrayList<>();
            peers.add(out.get(0).uri());
            for (int r = 1; r < count; r++) {
                NetConfig withPeers = config.toBuilder().peers(peers).build();
                RegistryEndpoint e = new AeronTransport(withPeers).startRegistry(URI.create("tandem://127.0.0.1:0"));
                out.add(e);
                peers.add(e.uri());
            }
            return out;
        } catch (RuntimeException e) {
            for (RegistryEndpoint r : out) {
                r.close();
            }
            throw e;
        }
    }

    /**
     * @param config the transport configuration
     * @return the system properties of the participant JVMs: the idle strategy and its bounds
     */
    static Map<String, String> childProperties(NetConfig config) {
        return Map.of(NetConfig.IDLE_PROP_NAME, idleName(config.idle()),
                NetConfig.REGISTRY_TIMEOUT_PROP_NAME, Long.toString(config.registryTimeoutMs()),
                NetConfig.IDLE_SPINS_PROP_NAME, Integer.toString(config.idleSpins()),
                NetConfig.IDLE_YIELDS_PROP_NAME, Integer.toString(config.idleYields()),
                NetConfig.IDLE_MAX_PARK_PROP_NAME, Long.toString(config.idleMaxParkNs()),
                NetConfig.DRIVER_MAX_PARK_PROP_NAME, Long.toString(config.driverIdleMaxParkNs()));
    }

    /** the benchmarks' registry timeout unless set: 8 JVMs joining at once on 2 busy cores took more than 5 s */
    static final String DEFAULT_REGISTRY_TIMEOUT_MS = "30000";

    /** Sets this JVM's defaults for a multi-process benchmark (before any participant exists), where not set. */
    static void setBenchmarkDefaults(NetConfig.Idle idle) {
        System.setProperty(NetConfig.IDLE_PROP_NAME, idleName(idle));
        if (System.getProperty(NetConfig.REGISTRY_TIMEOUT_PROP_NAME) == null) {
            System.setProperty(NetConfig.REGISTRY_TIMEOUT_PROP_NAME, DEFAULT_REGISTRY_TIMEOUT_MS);
        }
    }

    static String idleName(NetConfig.Idle idle) {
        return idle.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * One measured (or warm-up) run on a new simulation.
     *
     * @param steps     steps of 1 ms
     * @param timeoutMs wall ms the run may take
     * @return the timings and CPU use
     * @throws TimeoutException      if a participant does not answer in time (names it, with its log)
     * @throws IllegalStateException if a participant failed or p0 did not execute exactly the steps
     */
    TimeSyncResult run(long steps, long timeoutMs) throws TimeoutException, InterruptedException, IOException {
        String sim = "bench-" + (++runs);
        long t0 = System.nanoTime();
        List<ChildProcesses.Child> ps = children.children();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < processes; i++) {
            names.add("p" + i);
        }
        long runStart = Long.MAX_VALUE;
        long runEnd = Long.MIN_VALUE;
        long p0Steps = -1;
        double cpuSum = 0;
        double cpuMax = 0;
        double idleSum = 0;
        double idleMax = 0;
        long parentCpuNs;
        long parentWallNs;
        long t1;
        try (Participant controller = Participant.connect(uris.get(0), sim, "controller")) {
            // one join at a time: eight JVMs joining the JGroups group at once on 2 busy cores timed out
            for (int i = 0; i < processes; i++) {
                ps.get(i).send("RUN " + uris.get(i % uris.size()) + " " + sim + " " + names.get(i) + " "
                        + (i == 0 ? 1 : 0) + " " + steps + " " + timeoutMs);
                expect(ps.get(i), "READY", 2 * config.registryTimeoutMs() + 30_000);
            }
            controller.createSystemController().setWorkflowConfiguration(names);
            t1 = System.nanoTime();
            if (idleMs > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(idleMs));
            }
            long parentCpu0 = ProcessCpu.nowNs();
            long parentWall0 = System.nanoTime();
            for (ChildProcesses.Child c : ps) {
                c.send("GO");
            }
            for (int i = 0; i < processes; i++) {
                String[] w = expect(ps.get(i), "DONE", timeoutMs + 10_000).split(" ");
                long start = Long.parseLong(w[1]);
                long end = Long.parseLong(w[2]);
                if (!w[4].equals(ParticipantState.SHUTDOWN.name())) {
                    throw new IllegalStateException(names.get(i) + " ended in " + w[4] + ", not SHUTDOWN");
                }
                runStart = Math.min(runStart, start);
                runEnd = Math.max(runEnd, end);
                if (i == 0) {
                    p0Steps = Long.parseLong(w[3]);
                }
                double idle = Long.parseLong(w[5]) / (double) Math.max(1, Long.parseLong(w[6]));
                double cpu = Long.parseLong(w[7]) / (double) Math.max(1, end - start);
                idleSum += idle;
                idleMax = Math.max(idleMax, idle);
                cpuSum += cpu;
                cpuMax = Math.max(cpuMax, cpu);
            }
            parentWallNs = System.nanoTime() - parentWall0;
            parentCpuNs = ProcessCpu.nowNs() - parentCpu0;
            for (ChildProcesses.Child c : ps) {
                c.send("CLOSE");
            }
            for (ChildProcesses.Child c : ps) {
                expect(c, "CLOSED", 2 * config.registryTimeoutMs() + 10_000);
            }
        }
        long t3 = System.nanoTime();
        if (p0Steps != steps) {
            throw new IllegalStateException("participant p0 executed " + p0Steps + " steps, expected " + steps);
        }
        long runNs = runEnd - runStart;
        // the idle window is not set-up: subtract it
        long setupNs = t1 - t0;
        long teardownNs = t3 - runEnd;
        TimeSyncResult.ProcessStats stats = new TimeSyncResult.ProcessStats(uris.size(), idleName(config.idle()),
                cpuSum / processes, cpuMax, idleSum / processes, idleMax, parentCpuNs / (double) parentWallNs);
        return new TimeSyncResult("aeron", processes, steps, setupNs, runNs, teardownNs, stats);
    }

    private static String expect(ChildProcesses.Child c, String answer, long timeoutMs)
            throws TimeoutException, InterruptedException {
        String line = c.next(timeoutMs);
        if (!line.startsWith(answer)) {
            throw new IllegalStateException(c.name + " answered '" + line + "' instead of " + answer + c.logTail());
        }
        return line;
    }

    @Override
    public void close() {
        children.close();
        for (RegistryEndpoint r : registries) {
            r.close();
        }
        registries.clear();
    }
}
