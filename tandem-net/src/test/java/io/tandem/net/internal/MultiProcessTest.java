package io.tandem.net.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.Registry;
import io.tandem.cosim.TimeSyncService;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Participants in separate JVMs (started with {@link ProcessBuilder}, killed after each test):
 * time-synchronized exchange across processes, a kill -9 seen as a lost connection within 1 s,
 * and a stopped (silent) process excluded by heartbeat timeout.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MultiProcessTest {
    private static final long MS = 1_000_000;

    @TempDir
    Path dir;
    private Registry registry;
    private final List<Participant> participants = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    @BeforeEach
    void startRegistry() {
        registry = Registry.start("tandem://127.0.0.1:0");
    }

    @AfterEach
    void stopEverything() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        for (Participant p : participants) {
            p.close();
        }
        registry.close();
    }

    private Participant connect(String name) {
        Participant p = Participant.connect(registry.uri(), "sim", name);
        participants.add(p);
        return p;
    }

    private Process spawn(String... args) throws IOException {
        Process p = TestSupport.spawnParticipant(dir.resolve("child-" + processes.size() + ".log"), args);
        processes.add(p);
        return p;
    }

    private String childLog(int i) throws IOException {
        Path log = dir.resolve("child-" + i + ".log");
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }

    static byte[] longs(long v) {
        byte[] out = new byte[8];
        for (int b = 0; b < 8; b++) {
            out[b] = (byte) (v >>> (56 - 8 * b));
        }
        return out;
    }

    static long longAt(byte[] data) {
        long v = 0;
        for (int b = 0; b < 8; b++) {
            v = (v << 8) | (data[b] & 0xff);
        }
        return v;
    }

    @Test
    void twoProcesses_timeSynced_exchangeTimestampedMessagesInOrder() throws Exception {
        Participant ctl = connect("controller");
        ctl.createSystemController().setWorkflowConfiguration(List.of("local", "remote"));
        Participant local = connect("local");
        Process remote = spawn("timesync", registry.uri(), "sim", "remote", "local");
        DataPublisher pub = local.createDataPublisher("out", PubSubSpec.of("local", "application/x-longs"), 0);
        LifecycleService lc = local.createLifecycleService(OperationMode.COORDINATED);
        TimeSyncService ts = lc.createTimeSyncService();
        List<Long> got = new CopyOnWriteArrayList<>();
        List<String> bad = new CopyOnWriteArrayList<>();
        local.createDataSubscriber("in", PubSubSpec.of("remote", ""), e -> {
            long stamp = longAt(e.data());
            if (stamp != e.timestampNs() || (!got.isEmpty() && stamp != got.get(got.size() - 1) + MS) || stamp < ts.now()) {
                // a message stamped before our current step arrived too late
                bad.add("stamp " + stamp + " ts " + e.timestampNs() + " now " + ts.now());
            }
            got.add(stamp);
        });
        int steps = 500;
        ts.setSimulationStepHandler((now, d) -> {
            pub.publish(longs(now));
            if (now == steps * MS) {
                lc.stop("done");
            }
        }, MS);
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        assertThat(done.get(60, TimeUnit.SECONDS)).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(remote.waitFor(30, TimeUnit.SECONDS)).as("remote exits").isTrue();
        assertThat(remote.exitValue()).as("remote's exit code; its log:%n%s", childLog(0)).isZero();
        assertThat(bad).isEmpty();
        assertThat(got).hasSizeGreaterThanOrEqualTo(steps - 2).startsWith(0L, MS, 2 * MS);
    }

    @Test
    void killedProcess_reportedLostWithinOneSecond() throws Exception {
        // below the participant layer too: the transport reports connectionLost
        NetSession[] self = new NetSession[1];
        RecordingListener watcher = new RecordingListener() {
            @Override
            public void onMessage(int fromPeerId, io.tandem.cosim.msg.CosimMessage message) {
                // participants connecting after us wait for every peer's barrier reply
                if (message instanceof io.tandem.cosim.msg.BarrierRequest b) {
                    self[0].send(fromPeerId, new io.tandem.cosim.msg.BarrierReply(b.barrierId()));
                }
            }
        };
        NetSession session = self[0] = NetSession.join(java.net.URI.create(registry.uri()), "sim", "watcher", watcher,
                io.tandem.net.NetConfig.fromSystemProperties(), WireFormat.VERSION);
        try {
            long detectedMs = victimLostAfterMs(false);
            assertThat(detectedMs).as("ms from SIGKILL to the disconnect").isLessThan(1_000);
            String event;
            do {
                event = watcher.next();
            } while (!event.startsWith("-") || !event.contains("victim"));
            assertThat(event).endsWith(" victim lost");
        } finally {
            session.close();
        }
    }

    @Test
    void silentProcess_reportedLostByHeartbeatTimeout() throws Exception {
        // SIGSTOP keeps the sockets open: only FD_ALL3's heartbeats (700 ms) and VERIFY_SUSPECT2 (100 ms) notice
        long detectedMs = victimLostAfterMs(true);
        assertThat(detectedMs).as("ms from SIGSTOP to the disconnect").isBetween(500L, 2_000L);
    }

    private long victimLostAfterMs(boolean stop) throws Exception {
        Participant observer = connect("observer");
        CompletableFuture<Long> lostAtNs = new CompletableFuture<>();
        observer.addParticipantDisconnectedHandler(n -> {
            if (n.equals("victim")) {
                lostAtNs.complete(System.nanoTime());
            }
        });
        Process victim = spawn("idle", registry.uri(), "sim", "victim");
        TestSupport.awaitTrue(30_000, () -> observer.isParticipantConnected("victim"), () -> {
            try {
                return "victim never connected; its log:\n" + childLog(0);
            } catch (IOException e) {
                return e.toString();
            }
        });
        long startNs = System.nanoTime();
        if (stop) {
            new ProcessBuilder("kill", "-STOP", Long.toString(victim.pid())).start().waitFor();
        } else {
            victim.destroyForcibly(); // SIGKILL
        }
        long detectedMs = (lostAtNs.get(10, TimeUnit.SECONDS) - startNs) / 1_000_000;
        org.slf4j.LoggerFactory.getLogger(MultiProcessTest.class).info("{} detected after {} ms",
                stop ? "SIGSTOP" : "SIGKILL", detectedMs);
        assertThat(observer.isParticipantConnected("victim")).isFalse();
        // the registry keeps serving: a new participant can take the name
        assertThat(connect("victim").name()).isEqualTo("victim");
        return detectedMs;
    }
}
