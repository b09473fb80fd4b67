package io.tandem.cli.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.Registry;
import io.tandem.cosim.SystemMonitor;
import io.tandem.cosim.TimeSyncService;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reliability of tandem:// across processes: a million timestamped messages between two JVMs, a
 * kill -9 of a stepping participant, a crashed and restarted registry. Every JVM a test starts is
 * killed after it; participants and registries of the test JVM are closed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NetReliabilityTest {
    private static final Logger LOG = LoggerFactory.getLogger(NetReliabilityTest.class);
    private static final long MS = 1_000_000;

    @TempDir
    Path dir;
    private final List<TestChild> children = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (TestChild c : children) {
            c.close();
        }
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closeLater(T c) {
        closeables.add(c);
        return c;
    }

    private TestChild child(TestChild c) {
        children.add(c);
        return c;
    }

    private TestChild demoParticipant(String uri, String simulation, String name, String stepSizes) throws IOException {
        // long enough that the test, not the end time, ends it
        return child(TestChild.tandem(name, "demo", "cosim", "--registry", uri, "--simulation", simulation,
                "--participant", name, "--step-sizes-ms", stepSizes, "--duration-ms", "100000000"));
    }

    /** Runs {@code tandem controller} in this JVM on its own thread. */
    private static Controller controller(String uri, String simulation, String... names) {
        List<String> args = new ArrayList<>(List.of("controller", "--registry", uri, "--simulation", simulation));
        args.addAll(List.of(names));
        return tool(simulation, args);
    }

    /** Runs a {@code tandem} command in this JVM on its own thread. */
    private static Controller tool(String simulation, List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> code = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                code.complete(TandemCli.execute(new PrintWriter(out), new PrintWriter(err), args.toArray(new String[0])));
            } catch (Throwable e) {
                code.completeExceptionally(e);
            }
        }, args.get(0) + "-" + simulation);
        t.setDaemon(true);
        t.start();
        return new Controller(code, out, err);
    }

    /** Polls (every 10 ms, up to the timeout) until a tool has printed the text. */
    private static void awaitText(StringWriter w, String text, long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!w.toString().contains(text)) {
            assertThat(System.nanoTime() - deadline).as("'%s' within %d ms; printed so far:%n%s", text, timeoutMs, w)
                    .isNegative();
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
        }
    }

    private record Controller(CompletableFuture<Integer> exitCode, StringWriter out, StringWriter err) {
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A fresh coordinated run of two time-synced participants in this JVM; @return their final states */
    private static List<ParticipantState> quickRun(String uri, String simulation) throws Exception {
        try (Participant ctl = Participant.connect(uri, simulation, "controller");
                Participant a = Participant.connect(uri, simulation, "a");
                Participant b = Participant.connect(uri, simulation, "b")) {
            ctl.createSystemController().setWorkflowConfiguration(List.of("a", "b"));
            LifecycleService la = a.createLifecycleService(OperationMode.COORDINATED);
            la.createTimeSyncService().setSimulationStepHandler((now, d) -> {
                if (now >= 10 * MS) {
                    la.stop("done");
                }
            }, MS);
            LifecycleService lb = b.createLifecycleService(OperationMode.COORDINATED);
            lb.createTimeSyncService().setSimulationStepHandler((now, d) -> { }, 2 * MS);
            CompletableFuture<ParticipantState> ea = la.startLifecycle();
            CompletableFuture<ParticipantState> eb = lb.startLifecycle();
            return List.of(ea.get(30, TimeUnit.SECONDS), eb.get(30, TimeUnit.SECONDS));
        }
    }

    /** Checks what the receiver gets; runs on the receiver's thread, read after its lifecycle ended. */
    private static final class SequenceCheck {
        final int perStep;
        long next;
        long lastStampNs = Long.MIN_VALUE;
        long count;
        long firstNs;
        long lastNs;
        long problems;
        final List<String> examples = new ArrayList<>();

        SequenceCheck(int perStep) {
            this.perStep = perStep;
        }

        void accept(byte[] data, long timestampNs, long receiverNowNs) {
            long wallNs = System.nanoTime();
            if (count == 0) {
                firstNs = wallNs;
            }
            lastNs = wallNs;
            count++;
            ByteBuffer b = ByteBuffer.wrap(data);
            long seq = b.getLong();
            long stampNs = b.getLong();
            if (seq != next) {
                problem((seq > next ? "lost " : "duplicated or reordered: ") + "expected #" + next + ", got #" + seq);
            }
            if (stampNs != timestampNs || stampNs != (seq / perStep) * MS) {
                problem("#" + seq + " sent at " + stampNs + " ns is stamped " + timestampNs + " ns");
            }
            if (stampNs < lastStampNs) {
                problem("#" + seq + " stamped " + stampNs + " ns after one stamped " + lastStampNs + " ns");
            }
            if (stampNs < receiverNowNs) {
                problem("#" + seq + " stamped " + stampNs + " ns arrived late, in the receiver's step at " + receiverNowNs);
            }
            next = Math.max(next, seq + 1);
            lastStampNs = stampNs;
        }

        private void problem(String what) {
            if (problems++ < 10) {
                examples.add(what);
            }
        }
    }

    @Test
    void publish_millionTimestampedMessagesToAnotherProcess_noneLostDuplicatedOrReordered() throws Exception {
        int steps = 1000;
        int perStep = 1000;
        Registry registry = closeLater(Registry.start("tandem://127.0.0.1:0"));
        Participant ctl = closeLater(Participant.connect(registry.uri(), "seq", "controller"));
        ctl.createSystemController().setWorkflowConfiguration(List.of("sender", "receiver"));
        Participant rx = closeLater(Participant.connect(registry.uri(), "seq", "receiver"));
        LifecycleService lc = rx.createLifecycleService(OperationMode.COORDINATED);
        TimeSyncService ts = lc.createTimeSyncService();
        SequenceCheck check = new SequenceCheck(perStep);
        rx.createDataSubscriber("in", PubSubSpec.of(TimestampedSenderMain.TOPIC, ""),
                e -> check.accept(e.data(), e.timestampNs(), ts.now()));
        ts.setSimulationStepHandler((now, d) -> { }, MS);
        TestChild sender = child(TestChild.start("sender", TimestampedSenderMain.class.getName(), registry.uri(), "seq",
                "sender", Integer.toString(steps), Integer.toString(perStep)));

        ParticipantState end = lc.startLifecycle().get(90, TimeUnit.SECONDS);

        assertThat(end).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(sender.awaitExit(30_000)).as("sender's exit code; its output:%n%s", sender.output()).isZero();
        assertThat(check.examples).as("%d problems", check.problems).isEmpty();
        assertThat(check.count).isEqualTo((long) steps * perStep);
        assertThat(check.next).isEqualTo((long) steps * perStep);
        double seconds = (check.lastNs - check.firstNs) / 1e9;
        LOG.info("{} timestamped messages from another process in {} s: {} msg/s", check.count,
                String.format("%.2f", seconds), String.format("%.0f", check.count / seconds));
    }

    @Test
    void killMinus9_ofSteppingParticipant_othersReportItWithinOneSecondAndEndInError() throws Exception {
        Registry registry = closeLater(Registry.start("tandem://127.0.0.1:0"));
        String uri = registry.uri();
        Controller controller = controller(uri, "s1", "p1", "p2", "p3");
        Participant observer = closeLater(Participant.connect(uri, "s1", "observer"));
        CompletableFuture<Long> lostAtNs = new CompletableFuture<>();
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        SystemMonitor monitor = observer.createSystemMonitor();
        monitor.addParticipantStatusHandler(s -> seen.add(s.participantName() + " " + s.state() + " " + s.reason()));
        monitor.addSystemStateHandler(s -> seen.add("system " + s));
        observer.addParticipantDisconnectedHandler(n -> {
            if (n.equals("p2")) {
                lostAtNs.complete(System.nanoTime());
            }
        });
        AtomicLong p1Steps = new AtomicLong();
        CompletableFuture<Void> stepping = new CompletableFuture<>();
        observer.createDataSubscriber("p1", PubSubSpec.of("demo/p1", ""), e -> {
            if (p1Steps.incrementAndGet() == 500) {
                stepping.complete(null);
            }
        });
        TestChild p1 = demoParticipant(uri, "s1", "p1", "1,2,5");
        TestChild p2 = demoParticipant(uri, "s1", "p2", "1,2,5");
        TestChild p3 = demoParticipant(uri, "s1", "p3", "1,2,5");
        try {
            stepping.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            // say where the start stalled: the children's and the controller's output, what the observer saw
            throw new AssertionError("p1 did not reach 500 steps in 60 s (" + p1Steps.get() + " seen); observer saw " + seen
                    + "\nchild p1:\n" + p1.output() + "\nchild p2:\n" + p2.output() + "\nchild p3:\n"
                    + p3.output() + "\ncontroller:\n" + controller.out() + controller.err(), e);
        }

        long killedAtNs = System.nanoTime();
        p2.process.destroyForcibly(); // SIGKILL

        long detectedMs = (lostAtNs.get(10, TimeUnit.SECONDS) - killedAtNs) / 1_000_000;
        assertThat(detectedMs).as("ms from SIGKILL to the disconnect").isLessThan(1_000);
        // before the disconnect: a synthetic Error; the system goes into Error (p2 is required), through
        // that status or, when another participant noticed first, through that one's Error naming p2
        assertThat(seen).contains("p2 ERROR Connection Lost", "system ERROR");
        assertThat(seen).filteredOn(l -> l.matches("(p1|p3|controller) ERROR .*"))
                .allSatisfy(l -> assertThat(l).contains("participant 'p2' lost its connection"));
        // the coordinated ones stop, naming the lost participant, and exit: none hangs
        for (TestChild p : List.of(p1, p3)) {
            assertThat(p.awaitExit(20_000)).as("%s's exit code; its output:%n%s", p.name, p.output()).isEqualTo(1);
            assertThat(p.output()).contains(p.name + " stopped: participant 'p2' lost its connection")
                    .contains(p.name + " final state SHUTDOWN");
        }
        long endedMs = (System.nanoTime() - killedAtNs) / 1_000_000;
        assertThat(controller.exitCode().get(20, TimeUnit.SECONDS)).as("controller; its output:%n%s%s",
                controller.out(), controller.err()).isEqualTo(1);
        assertThat(controller.err().toString()).contains("participant 'p2' lost its connection");
        LOG.info("SIGKILL of p2 under load (p1 at {} steps): observer saw it lost after {} ms; p1 and p3 had"
                + " exited after {} ms", p1Steps.get(), detectedMs, endedMs);
        // the registry keeps serving: a new simulation runs
        assertThat(quickRun(uri, "s2")).containsOnly(ParticipantState.SHUTDOWN);
    }

    @Test
    void monitorAndController_registryKilled_exit1NamingTheRegistry() throws Exception {
        int port = freePort();
        String uri = "tandem://127.0.0.1:" + port;
        TestChild registry = child(TestChild.tandem("registry", "registry", "--listen", uri, "--dir", dir.toString()));
        registry.awaitLine(l -> l.contains("listening on " + uri), 30_000);
        Controller monitor = tool("s1", List.of("monitor", "--registry", uri, "--simulation", "s1"));
        // the controller waits for a participant that never comes
        Controller controller = controller(uri, "s1", "absent");
        // both are connected once an observer sees them
        try (Participant observer = Participant.connect(uri, "s1", "observer")) {
            CompletableFuture<Void> both = new CompletableFuture<>();
            observer.createSystemMonitor().addParticipantConnectedHandler(n -> {
                if (observer.isParticipantConnected("monitor") && observer.isParticipantConnected("controller")) {
                    both.complete(null);
                }
            });
            if (observer.isParticipantConnected("monitor") && observer.isParticipantConnected("controller")) {
                both.complete(null);
            }
            both.get(30, TimeUnit.SECONDS);
            // the others see a member before its own connect returns: wait for the tools' first lines
            awaitText(monitor.out(), "tandem monitor: watching", 30_000);
            awaitText(controller.out(), "tandem controller: waiting for", 30_000);
            CompletableFuture<String> observerLost = new CompletableFuture<>();
            observer.addConnectionLostHandler(observerLost::complete);

            registry.process.destroyForcibly(); // SIGKILL

            assertThat(observerLost.get(20, TimeUnit.SECONDS)).contains(uri);
            assertThat(observer.isConnected()).isFalse();
        }
        for (Controller tool : List.of(monitor, controller)) {
            assertThat(tool.exitCode().get(20, TimeUnit.SECONDS)).as("its output:%n%s%s", tool.out(), tool.err())
                    .isEqualTo(1);
            assertThat(tool.err().toString()).contains("lost its connection to the registry at " + uri)
                    .contains("tandem registry --listen " + uri);
        }
    }

    @Test
    void registryRestart_afterCrash_oldRunFailsCleanlyAndNewRunStarts() throws Exception {
        int port = freePort();
        String uri = "tandem://127.0.0.1:" + port;
        TestChild r1 = child(TestChild.tandem("registry-1", "registry", "--listen", uri, "--dir", dir.toString()));
        r1.awaitLine(l -> l.contains("listening on " + uri), 30_000);
        Path driverDir = dir.resolve("registry-127.0.0.1-" + port);
        assertThat(driverDir).isDirectory();
        Controller controller = controller(uri, "s1", "p1", "p2");
        TestChild p1 = demoParticipant(uri, "s1", "p1", "1,2");
        TestChild p2 = demoParticipant(uri, "s1", "p2", "1,2");
        CompletableFuture<Void> stepping = new CompletableFuture<>();
        AtomicLong p2Steps = new AtomicLong();
        try (Participant observer = Participant.connect(uri, "s1", "observer")) {
            observer.createDataSubscriber("p2", PubSubSpec.of("demo/p2", ""), e -> {
                if (p2Steps.incrementAndGet() == 200) {
                    stepping.complete(null);
                }
            });
            stepping.get(60, TimeUnit.SECONDS);

            long killedAtNs = System.nanoTime();
            r1.process.destroyForcibly(); // SIGKILL: the driver directory stays behind
            for (TestChild p : List.of(p1, p2)) {
                assertThat(p.awaitExit(30_000)).as("%s's exit code; its output:%n%s", p.name, p.output()).isEqualTo(1);
                assertThat(p.output()).contains(p.name + " stopped: participant '").contains("lost its connection");
            }
            LOG.info("registry SIGKILLed: its participants had exited after {} ms", (System.nanoTime() - killedAtNs) / 1_000_000);
            assertThat(controller.exitCode().get(30, TimeUnit.SECONDS)).as("controller; its output:%n%s%s",
                    controller.out(), controller.err()).isEqualTo(1);
        }
        assertThat(driverDir).as("left by the crashed registry").isDirectory();
        Files.writeString(driverDir.resolve("left-by-the-crash"), "stale");

        TestChild r2 = child(TestChild.tandem("registry-2", "registry", "--listen", uri, "--dir", dir.toString()));
        r2.awaitLine(l -> l.contains("listening on " + uri), 30_000);
        assertThat(driverDir.resolve("left-by-the-crash")).as("cleaned by the new registry").doesNotExist();
        assertThat(quickRun(uri, "s1")).containsOnly(ParticipantState.SHUTDOWN);

        r2.process.toHandle().destroy(); // SIGTERM, as Ctrl-C (Process.destroy() would also close its output)
        assertThat(r2.awaitExit(20_000)).as("registry-2; its output:%n%s", r2.output()).isEqualTo(143);
        assertThat(r2.output()).as("registry-2 exit %d", r2.process.exitValue()).contains("closing " + uri);
        assertThat(driverDir).as("removed when the registry stops").doesNotExist();
    }
}
