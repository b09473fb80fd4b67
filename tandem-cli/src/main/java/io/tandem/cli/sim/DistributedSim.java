package io.tandem.cli.sim;

import io.tandem.cli.TandemCli;
import io.tandem.cli.internal.CliSupport;
import io.tandem.cli.internal.StopSignal;
import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.ParticipantStatus;
import io.tandem.cosim.ParticipantNameTakenException;
import io.tandem.cosim.Registry;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.process.ChildJvm;
import io.tandem.physics.SolverSettings;
import io.tandem.world.PoseRecorder;
import io.tandem.world.World;
import io.tandem.world.distributed.DistributedPrimary;
import io.tandem.world.distributed.DistributedRunException;
import io.tandem.world.distributed.DistributedSecondary;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import io.tandem.cli.view.LiveViewer;
import io.tandem.cli.view.ViewerException;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/*
 * Implementation notes.
 *
 * Every process of a run joins the simulation "tandem-world" on one registry, in the partition
 * given by --partition (participants of other partitions never meet). Without --registry the
 * primary hosts the registry itself: on a free loopback port when all its secondaries are local,
 * else on the default URI, where remote secondaries find it. Secondaries retry connecting until
 * their start timeout, so the processes may start in any order, as in Gazebo.
 *
 * --local-secondaries N: the primary starts N child JVMs (`tandem sim WORLD --network-role
 * secondary --name secondary-i ...`), forwards their output prefixed with their name, and ends
 * them when the run ends (they exit by themselves on the primary's stop; stragglers are killed).
 */

/** Runs {@code tandem sim} as a primary or a secondary. Blocks the calling thread. */
final class DistributedSim {
    /** the simulation every process of a distributed world joins */
    static final String SIMULATION = "tandem-world";
    private static final long S = 1_000_000_000L;
    /** how long a local secondary gets to exit after the run before it is killed, ms */
    private static final long SECONDARY_EXIT_GRACE_MS = 3_000;
    /** how long a process that stopped its lifecycle waits for Shutdown before it closes its participant */
    private static final long LIFECYCLE_SHUTDOWN_WAIT_MS = 1_000;

    private DistributedSim() {
    }

    /** The options of a distributed run. */
    record Options(Path worldFile, World world, SolverSettings solver, String registry, String partition,
                   int secondaries, int localSecondaries, long ackTimeoutMs, long startTimeoutS, long iterations,
                   double rtf, String solverName, Integer solverIterations, int threads, long sceneEvery,
                   SimCommand.ViewerOptions view) {
    }

    /**
     * The longest park of the transport's polling thread in a distributed world's processes, ns,
     * unless tandem.net.idle.max.park.ns says otherwise. Between its steps each process idles
     * for about one step of the others; with the transport's default (1 ms, for processes that are
     * mostly idle) a step or an ack waited that long in a park. Measured on 2 cores with relay.sdf,
     * a primary and 2 local secondaries, second half of 20,000 iterations: 1 ms gave 205 us of
     * lockstep overhead per iteration, 50 us 45 us, 20 us 34 us, 10 us 187 us (too many wake-ups
     * for two cores).
     */
    static final long IDLE_MAX_PARK_NS = 20_000;

    /** Sets the distributed default of the transport's longest park (see IDLE_MAX_PARK_NS) unless given. */
    static void tuneTransport() {
        if (System.getProperty(io.tandem.net.NetConfig.IDLE_MAX_PARK_PROP_NAME) == null) {
            System.setProperty(io.tandem.net.NetConfig.IDLE_MAX_PARK_PROP_NAME, Long.toString(IDLE_MAX_PARK_NS));
        }
    }

    static String withPartition(String registry, String partition) {
        return partition == null ? registry : registry + "?partition=" + partition;
    }

    /**
     * @return the exit code: 0 when the run finished, 1 on a failure (the message printed)
     */
    static int primary(Options o, PoseRecorder recorder, PrintWriter out, PrintWriter err, StopSignal stop) {
        tuneTransport();
        Registry hosted = null;
        List<ChildJvm> children = new ArrayList<>();
        String registry = o.registry();
        LiveViewer viewer = null;
        PageStatus page = null;
        // every process runs an autonomous SIL Kit lifecycle; the primary's monitor sees the secondaries' states
        Map<String, String> lifecycles = new ConcurrentHashMap<>();
        AtomicReference<PageStatus> pageRef = new AtomicReference<>();
        try {
            if (registry == null) {
                hosted = Registry.start(o.localSecondaries() == o.secondaries() ? "tandem://127.0.0.1:0"
                        : io.tandem.cli.internal.RegistryUris.DEFAULT);
                registry = hosted.uri();
                err.println("registry: " + registry + (o.partition() == null ? "" : ", partition " + o.partition()));
            }
            String uri = withPartition(registry, o.partition());
            try (Participant p = connect(uri, DistributedPrimary.NAME, "the primary", o)) {
                p.createSystemMonitor().addParticipantStatusHandler(st -> {
                    if (st.participantName().equals(DistributedPrimary.NAME)) {
                        return;
                    }
                    String label = lifecycleLabel(st);
                    lifecycles.put(st.participantName(), label);
                    PageStatus ps = pageRef.get();
                    if (ps != null) {
                        ps.lifecycle(st.participantName(), label);
                    }
                });
                LifecycleService lifecycle = p.createLifecycleService(OperationMode.AUTONOMOUS);
                CompletableFuture<ParticipantState> lifecycleEnd = lifecycle.startLifecycle();
                DistributedPrimary primary = new DistributedPrimary(o.world(), p, o.secondaries(), o.ackTimeoutMs() * 1_000_000L,
                        System::nanoTime);
                if (recorder != null) {
                    primary.addListener(recorder);
                }
                // without a record only the performers' poses are used (levels): the secondaries report just those
                primary.reportAllStates(recorder != null || o.view() != null);
                primary.publishSceneEvery(o.sceneEvery());
                int[] levelEvents = new int[1];
                primary.addListener((v, it, c) -> {
                    levelEvents[0] += c.loadedLevels().size() + c.unloadedLevels().size();
                    for (String performer : c.newPerformers()) {
                        out.println("runtime performer " + performer + " created at iteration " + it + ", on "
                                + primary.assignment().get(performer));
                    }
                });
                for (int i = 1; i <= o.localSecondaries(); i++) {
                    children.add(startSecondary("secondary-" + i, o, registry, err));
                }
                // a local secondary that exits before it joins, or a Ctrl-C, ends the wait at once
                List<String> names = primary.awaitSecondaries(o.startTimeoutS() * S, () -> {
                    if (stop.isRequested()) {
                        return "stopped before the run started: " + stop.requested().join();
                    }
                    if (!p.isConnected()) {
                        return "the primary lost the registry at " + uri + " before the run started";
                    }
                    for (ChildJvm c : children) {
                        if (!c.process().isAlive()) {
                            return "local secondary '" + c.name() + "' exited with code " + c.process().exitValue()
                                    + " before it joined (its output above, prefixed [" + c.name() + "])";
                        }
                    }
                    return null;
                });
                err.println("secondaries: " + names);
                if (o.view() != null) {
                    viewer = startViewer(o, primary, out);
                    if (o.view().paused()) {
                        primary.pause();
                    }
                    page = new PageStatus(viewer, o.iterations(), names);
                    pageRef.set(page);
                    lifecycles.forEach(page::lifecycle);
                    page.show(o.view().paused(), null);
                }
                long shownPaused = -1;
                long start = System.nanoTime();
                long lastProgress = start;
                // the second half of the run, after the JIT warm-up of every process
                long half = o.iterations() / 2;
                long halfNs = -1;
                long halfSimNs = 0;
                while (primary.iteration() < o.iterations() && !stop.isRequested()) {
                    if (viewer != null) {
                        boolean paused = primary.isPaused();
                        if (paused && shownPaused != primary.iteration()) {
                            // the page shows the exact iteration the run holds at
                            shownPaused = primary.iteration();
                            viewer.feed().flush(primary);
                            page.show(true, null);
                        } else if (!paused && shownPaused >= 0) {
                            shownPaused = -1;
                            page.show(false, null);
                        }
                    }
                    if (o.rtf() > 0 || primary.isPaused()) {
                        primary.advance();
                    } else {
                        // free run, with a page or not: the lockstep runs on the participant's thread (no hand-off
                        // per iteration), in slices of 100 ms; the viewer's feed, a listener, is called there
                        // and rate-limits itself; a pause from the page ends the slice at once
                        primary.runUntil(halfNs < 0 ? Math.max(1, half) : o.iterations(), 100_000_000L);
                    }
                    long now = System.nanoTime();
                    if (halfNs < 0 && primary.iteration() >= half) {
                        halfNs = now;
                        halfSimNs = primary.simTimeNs();
                        primary.resetOverhead();
                    }
                    if (o.rtf() > 0) {
                        long due = start + (long) (primary.simTimeNs() / o.rtf());
                        while ((now = System.nanoTime()) < due) {
                            LockSupport.parkNanos(due - now);
                        }
                    }
                    if (now - lastProgress > S) {
                        lastProgress = now;
                        err.printf(Locale.ROOT, "iteration %d / %d, sim time %.3f s, real-time factor %.2f, %d handovers%n",
                                primary.iteration(), o.iterations(), primary.simTimeNs() / 1e9,
                                primary.simTimeNs() / (double) (now - start), primary.handovers());
                    }
                }
                long end = System.nanoTime();
                double wallS = (end - start) / 1e9;
                String why = stop.isRequested() ? "stopped: " + stop.requested().join()
                        : "finished after " + primary.iteration() + " iterations";
                primary.finish(why);
                lifecycle.stop(why);
                if (viewer != null) {
                    viewer.feed().flush(primary);
                    page.peers(name -> "stopped");
                    page.show(true, why);
                }
                double secondHalf = halfNs < 0 || end == halfNs ? 0 : (primary.simTimeNs() - halfSimNs) / (double) (end - halfNs);
                out.printf(Locale.ROOT, "world %s (distributed, %d secondaries %s): %d iterations of %.4g s, sim time %.3f s in"
                                + " %.3f s wall, real-time factor %.4g (second half %.4g), %d handovers, lockstep overhead %.1f us"
                                + " per iteration (second half; the slowest secondary's step took %.1f us), %d level loads/unloads%n",
                        o.world().name(), names.size(), names, primary.iteration(), o.world().stepSizeNs() / 1e9,
                        primary.simTimeNs() / 1e9, wallS, primary.simTimeNs() / 1e9 / wallS, secondHalf, primary.handovers(),
                        primary.meanOverheadNs() / 1e3, primary.meanSlowestStepNs() / 1e3, levelEvents[0]);
                // on Ctrl-C the JVM exits as soon as the stop signal is closed: print now
                out.flush();
                if (viewer != null) {
                    viewer.linger(o.view().lingerS(), stop::isRequested, out);
                }
                awaitShutdown(lifecycleEnd);
                return stop.isRequested() ? 130 : 0;
            }
        } catch (DistributedRunException e) {
            err.println("tandem sim: " + CliSupport.oneLine(e.getMessage()));
            err.flush();
            if (page != null) {
                // the page names the peer that was lost, and why
                page.peers(name -> e.getMessage().contains("'" + name + "'") ? "lost" : "stopped");
                page.show(true, CliSupport.oneLine(e.getMessage()));
                viewer.linger(o.view().lingerS(), stop::isRequested, out);
            }
            return 1;
        } catch (ViewerException e) {
            err.println("tandem sim: " + e.getMessage());
            return 2;
        } finally {
            if (viewer != null) {
                viewer.close();
            }
            for (ChildJvm c : children) {
                // it exits by itself on the primary's stop: a little wait, then a kill
                c.end(SECONDARY_EXIT_GRACE_MS);
            }
            if (hosted != null) {
                hosted.close();
            }
        }
    }

    /** A lifecycle state as the page shows it: SIL Kit's state, and the reason of an error. */
    static String lifecycleLabel(ParticipantStatus st) {
        return st.state() == ParticipantState.ERROR && st.reason() != null && !st.reason().isEmpty()
                ? st.state().name() + " (" + st.reason() + ")" : st.state().name();
    }

    /**
     * Waits a little for this process's lifecycle to reach Shutdown after its stop, so the other
     * participants see it shut down rather than lost; a peer that no longer answers ends the wait.
     */
    private static void awaitShutdown(CompletableFuture<ParticipantState> lifecycleEnd) {
        try {
            lifecycleEnd.get(LIFECYCLE_SHUTDOWN_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // closing the participant ends it anyway
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * What the primary's page shows of the run: paused, why it ended, and per secondary the
     * primary's view of it (running, stopped, lost) and the lifecycle state it reports. Published
     * from the run's thread and from the lifecycle monitor's (the participant's thread).
     */
    private static final class PageStatus {
        private final LiveViewer viewer;
        private final long targetIterations;
        /** name, the primary's view, the lifecycle state (null until reported) */
        private final List<String[]> peers = new ArrayList<>();
        private boolean paused;
        private String ended;

        PageStatus(LiveViewer viewer, long targetIterations, List<String> names) {
            this.viewer = viewer;
            this.targetIterations = targetIterations;
            for (String n : names) {
                peers.add(new String[] {n, "running", null});
            }
        }

        synchronized void show(boolean paused, String ended) {
            this.paused = paused;
            this.ended = ended;
            viewer.status(paused, targetIterations, ended, peers);
        }

        synchronized void peers(java.util.function.UnaryOperator<String> stateOfName) {
            for (String[] peer : peers) {
                peer[1] = stateOfName.apply(peer[0]);
            }
        }

        synchronized void lifecycle(String name, String state) {
            for (String[] peer : peers) {
                if (peer[0].equals(name) && !state.equals(peer[2])) {
                    peer[2] = state;
                    viewer.status(paused, targetIterations, ended, peers);
                }
            }
        }
    }

    /**
     * The primary's viewer: the page's controls act through the primary, as {@code tandem
     * world-control}'s do; the owners are the primary's assignment of models to secondaries.
     */
    private static LiveViewer startViewer(Options o, DistributedPrimary primary, PrintWriter out) {
        io.tandem.cli.view.ViewerControl control = (op, value) -> {
            switch (op) {
                case "play" -> primary.resume();
                case "pause" -> primary.pause();
                case "step" -> {
                    String refused = io.tandem.cli.view.ViewerControl.stepRefusal(value);
                    if (refused != null) {
                        return refused;
                    }
                    primary.pause();
                    primary.stepWhilePaused((long) value);
                }
                case "reset" -> {
                    return "reset is not available in a distributed run (the secondaries cannot rewind): restart the run";
                }
                case "seek", "speed" -> {
                    return io.tandem.cli.view.ViewerControl.recordingOnly(op);
                }
                default -> {
                    return "unknown control '" + op + "' (play, pause, step)";
                }
            }
            return null;
        };
        SimCommand.ViewerOptions v = o.view();
        LiveViewer viewer = LiveViewer.start(o.world(), "primary", v.bind(), v.port(), v.periodNs(), control,
                primary::assignment, v.follow());
        primary.addListener(viewer.feed());
        out.println("viewer: " + viewer.url());
        out.flush();
        return viewer;
    }

    /**
     * Connects, retrying while no registry answers (it may start later, or answer slowly on a
     * loaded machine) until the start timeout.
     *
     * @param who for the messages: "the primary" or "secondary 'NAME'"
     * @throws TandemException naming the URI when no registry answered in time, or when the name
     *                         is taken (with the fix)
     */
    private static Participant connect(String uri, String name, String who, Options o) {
        long deadline = System.nanoTime() + o.startTimeoutS() * S;
        TandemException last;
        do {
            try {
                CliSupport.netConfig();
                return Participant.connect(uri, SIMULATION, name);
            } catch (ParticipantNameTakenException e) {
                throw new TandemException(name.equals(DistributedPrimary.NAME)
                        ? "a primary already runs in this partition of " + uri + ": give each run its own --partition"
                        : "secondary name '" + name + "' is taken in this run: give each secondary its own --name", e);
            } catch (io.tandem.net.SharedSecretMismatchException e) {
                throw new TandemException(who + ": " + e.getMessage(), e); // retrying cannot help
            } catch (TandemException e) {
                last = e;
                LockSupport.parkNanos(200_000_000L);
            }
        } while (System.nanoTime() < deadline);
        throw new TandemException(who + " found no registry at " + uri + " within " + o.startTimeoutS() + " s ("
                + CliSupport.oneLine(last.getMessage()) + "): start the primary, or 'tandem registry', first", last);
    }

    /**
     * @param name the secondary's name, unique in the run
     * @return the exit code: 0 when the primary ended the run cleanly, 1 on a failure
     */
    static int secondary(Options o, String name, PrintWriter out, PrintWriter err) {
        tuneTransport();
        String uri = withPartition(o.registry() == null ? io.tandem.cli.internal.RegistryUris.DEFAULT : o.registry(),
                o.partition());
        Participant p;
        try {
            p = connect(uri, name, "secondary '" + name + "'", o);
        } catch (TandemException e) {
            err.println("tandem sim: " + CliSupport.oneLine(e.getMessage()));
            return 1;
        }
        try (Participant participant = p;
             DistributedSecondary s = new DistributedSecondary(o.world(), participant, o.solver(), System::nanoTime)) {
            LifecycleService lifecycle = participant.createLifecycleService(OperationMode.AUTONOMOUS);
            CompletableFuture<ParticipantState> lifecycleEnd = lifecycle.startLifecycle();
            DistributedSecondary.Result r;
            try {
                r = s.run(o.startTimeoutS() * S, o.ackTimeoutMs() * 1_000_000L);
            } catch (DistributedRunException e) {
                lifecycle.reportError(CliSupport.oneLine(e.getMessage()));
                throw e;
            }
            lifecycle.stop(r.reason());
            awaitShutdown(lifecycleEnd);
            out.printf(Locale.ROOT, "secondary %s: %d iterations, %d performers taken over, %d handed over (%s)%n", name,
                    r.iterations(), r.handoversIn(), r.handoversOut(), r.reason());
            return 0;
        } catch (DistributedRunException e) {
            err.println("tandem sim: " + CliSupport.oneLine(e.getMessage()));
            return 1;
        }
    }

    /**
     * Starts one local secondary's JVM; its output goes to the primary's error stream, prefixed
     * with its name. It does not read its standard input: it exits by itself on the primary's stop.
     */
    private static ChildJvm startSecondary(String name, Options o, String registry, PrintWriter err) {
        List<String> args = new ArrayList<>(List.of("sim", o.worldFile().toString(), "--network-role", "secondary",
                "--name", name, "--registry", registry, "--start-timeout-s", Long.toString(o.startTimeoutS()),
                "--ack-timeout-ms", Long.toString(o.ackTimeoutMs()),
                // it ends with this process, even when this one is killed outright
                "--parent-pid", Long.toString(ProcessHandle.current().pid()),
                "--solver", o.solverName(), "--threads", Integer.toString(o.threads())));
        if (o.solverIterations() != null) {
            args.addAll(List.of("--solver-iterations", Integer.toString(o.solverIterations())));
        }
        if (o.partition() != null) {
            args.addAll(List.of("--partition", o.partition()));
        }
        try {
            return ChildJvm.builder(name, TandemCli.class.getName()).jvmOptions(List.of("-XX:+UseSerialGC")).args(args)
                    .tailLines(0).onLine(line -> {
                        synchronized (err) {
                            err.println("[" + name + "] " + line);
                            err.flush();
                        }
                    }).start();
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException("cannot start the JVM of local secondary " + name, e.getCause());
        }
    }
}
