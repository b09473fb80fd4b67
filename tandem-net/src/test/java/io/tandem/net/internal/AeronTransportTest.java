package io.tandem.net.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cosim.ParticipantNameTakenException;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.msg.BarrierRequest;
import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.msg.StatusUpdate;
import io.tandem.cosim.spi.TransportListener;
import io.tandem.net.NetConfig;
import io.tandem.net.ProtocolVersionException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transport below the participant layer: registry errors, version refusal, the newcomer
 * guarantee, ordering across send/broadcast/NextSimTask, and allocation-free NextSimTask.
 */
@SuppressForbidden // per-thread allocation counters live in com.sun.management
class AeronTransportTest {
    private static final int V = WireFormat.VERSION;
    private final List<AutoCloseable> open = new ArrayList<>();

    @TempDir
    Path dir;

    private NetConfig config() {
        return NetConfig.builder().registryDirectory(dir).registryTimeoutMs(5_000).build();
    }

    private NetRegistry registry() {
        NetRegistry r = NetRegistry.start(URI.create("tandem://127.0.0.1:0"), config(), V);
        open.add(r);
        return r;
    }

    private NetSession join(NetRegistry r, String sim, String name, TransportListener l) {
        NetSession s = NetSession.join(URI.create(r.uri()), sim, name, l, config(), V);
        open.add(0, s);
        return s;
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void join_noRegistry_failsWithinTheBoundNamingTheUri() throws Exception {
        String uri = "tandem://127.0.0.1:" + freePort();
        NetConfig quick = NetConfig.builder().registryDirectory(dir).registryTimeoutMs(500).build();
        long start = System.nanoTime();
        assertThatThrownBy(() -> NetSession.join(URI.create(uri), "sim", "p", new RecordingListener(), quick, V))
                .isInstanceOf(TandemException.class)
                .hasMessageContaining("no registry answered at " + uri)
                .hasMessageContaining("500 ms");
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the failure").isLessThan(5_000);
    }

    @Test
    void join_otherProtocolVersion_refusedNamingBothVersions() {
        NetRegistry r = registry();
        assertThatThrownBy(() -> NetSession.join(URI.create(r.uri()), "sim", "p", new RecordingListener(), config(), V + 1))
                .isInstanceOf(ProtocolVersionException.class)
                .hasMessageContaining("registry " + r.uri())
                .hasMessageContaining("version " + V)
                .hasMessageContaining("version " + (V + 1));
        // the registry keeps serving participants of its own version
        assertThat(join(r, "sim", "p", new RecordingListener()).peerId()).isPositive();
    }

    @Test
    void join_duplicateName_refused() {
        NetRegistry r = registry();
        join(r, "sim", "alice", new RecordingListener());
        assertThatThrownBy(() -> join(r, "sim", "alice", new RecordingListener()))
                .isInstanceOf(ParticipantNameTakenException.class).hasMessageContaining("'alice'")
                .hasMessageContaining("'sim'").hasMessageContaining(r.uri());
    }

    @Test
    void startRegistry_portInUse_failsNamingTheUri() {
        NetRegistry r = registry();
        assertThatThrownBy(() -> NetRegistry.start(URI.create(r.uri()), config(), V))
                .isInstanceOf(TandemException.class).hasMessageContaining("cannot start a registry at " + r.uri());
    }

    @Test
    void registryUri_malformed_rejected() {
        for (String bad : List.of("tandem://127.0.0.1", "tandem:///x", "tandem://127.0.0.1:99999", "tandem://127.0.0.1:8500/path",
                "tandem://no-such-host.invalid:8500")) {
            assertThatThrownBy(() -> NetRegistry.start(URI.create(bad), config(), V)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad);
        }
    }

    @Test
    void registryDirectory_leftByACrashedRun_isCleanedOnStartAndRemovedOnClose() throws Exception {
        int port = freePort();
        Path driverDir = NetRegistry.driverDirectory(config(), "127.0.0.1", port);
        Files.createDirectories(driverDir);
        Files.writeString(driverDir.resolve("stale-file"), "left by a crash");
        NetRegistry r = NetRegistry.start(URI.create("tandem://127.0.0.1:" + port), config(), V);
        assertThat(r.aeronDirectory()).isEqualTo(driverDir.toString());
        assertThat(driverDir.resolve("stale-file")).doesNotExist();
        assertThat(driverDir).isDirectory();
        r.close();
        assertThat(driverDir).doesNotExist();
    }

    /**
     * A member of a registry on another host bound to InetAddress.getLocalHost(), which on
     * Debian-style hosts (the host name on 127.0.1.1 or 127.0.0.1, as on this machine) is
     * loopback: multi-host runs never started. Now it binds to the source address of the route to
     * the registry: for a registry at one of this host's own non-loopback addresses, that address.
     */
    @Test
    void bindAddress_registryOnANonLoopbackAddress_theRoutesSourceAddressNotLoopback() throws Exception {
        List<java.net.InetAddress> own = new ArrayList<>();
        for (java.net.NetworkInterface ni : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
            if (ni.isUp() && !ni.isLoopback()) {
                for (java.net.InetAddress a : java.util.Collections.list(ni.getInetAddresses())) {
                    if (a instanceof java.net.Inet4Address) {
                        own.add(a);
                    }
                }
            }
        }
        org.junit.jupiter.api.Assumptions.assumeFalse(own.isEmpty(), "this host has a non-loopback IPv4 address");
        NetConfig plain = NetConfig.builder().build();
        for (java.net.InetAddress a : own) {
            assertThat(NetSession.bindAddressFor(plain, new java.net.InetSocketAddress(a, 8500))).as("registry at %s", a)
                    .isEqualTo(a);
        }
        java.net.InetAddress loop = java.net.InetAddress.getLoopbackAddress();
        assertThat(NetSession.bindAddressFor(plain, new java.net.InetSocketAddress(loop, 8500))).isEqualTo(loop);
        assertThat(NetSession.bindAddressFor(NetConfig.builder().bindAddress("127.0.0.1").build(),
                new java.net.InetSocketAddress(own.get(0), 8500))).isEqualTo(java.net.InetAddress.getByName("127.0.0.1"));
    }

    /**
     * kill -9 of a registry on a random port left its media-driver directory (about 48 MB of
     * /dev/shm) under a name no later registry reuses; the next registry now deletes the
     * directories whose driver process no longer runs, and keeps those of running ones.
     */
    @Test
    void registryStart_directoryOfAKilledRegistry_deletedThatOfARunningOneKept() throws Exception {
        Path orphan = leftDriverDirectory("registry-127.0.0.1-1", 999_999_999L);
        Path running = leftDriverDirectory("registry-127.0.0.1-2", ProcessHandle.current().pid());
        registry();
        assertThat(orphan).doesNotExist();
        assertThat(running).isDirectory();
    }

    /** A media driver's directory as a driver leaves it when its process dies, with that process id in its cnc.dat. */
    private Path leftDriverDirectory(String name, long pid) {
        Path d = dir.resolve(name);
        io.aeron.driver.MediaDriver.Context ctx = new io.aeron.driver.MediaDriver.Context().aeronDirectoryName(d.toString())
                .dirDeleteOnStart(true).dirDeleteOnShutdown(false).threadingMode(io.aeron.driver.ThreadingMode.SHARED)
                .termBufferSparseFile(true);
        io.aeron.driver.MediaDriver.launch(ctx).close();
        java.nio.MappedByteBuffer cnc = org.agrona.IoUtil.mapExistingFile(d.resolve("cnc.dat").toFile(), "cnc");
        try {
            new org.agrona.concurrent.UnsafeBuffer(cnc).putLong(io.aeron.CncFileDescriptor.pidOffset(0), pid);
        } finally {
            org.agrona.IoUtil.unmap(cnc);
        }
        return d;
    }

    @Test
    void newcomer_receivesWhatMembersSendFromTheirJoinCallback() throws Exception {
        NetRegistry r = registry();
        // every member greets each newcomer from inside onPeerJoined: nothing may be lost
        List<NetSession> members = new ArrayList<>();
        List<RecordingListener> listeners = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            NetSession[] self = new NetSession[1];
            RecordingListener l = new RecordingListener() {
                @Override
                public void onPeerJoined(int peerId, String participantName) {
                    super.onPeerJoined(peerId, participantName);
                    if (self[0] != null) {
                        self[0].send(peerId, new BarrierRequest(self[0].peerId()));
                    }
                }
            };
            self[0] = join(r, "sim", "m" + i, l);
            members.add(self[0]);
            listeners.add(l);
        }
        // member i was greeted by each earlier member j, after learning of it
        for (int i = 0; i < 5; i++) {
            List<String> got = new ArrayList<>();
            RecordingListener l = listeners.get(i);
            List<String> expected = new ArrayList<>();
            for (int j = 0; j < i; j++) {
                int id = members.get(j).peerId();
                expected.add("+" + id + " m" + j);
                expected.add(id + ": " + new BarrierRequest(id));
            }
            while (!got.containsAll(expected)) {
                got.add(l.next());
            }
            for (int j = 0; j < i; j++) {
                int id = members.get(j).peerId();
                assertThat(got.indexOf("+" + id + " m" + j)).as("m%d's events %s", i, got)
                        .isLessThan(got.indexOf(id + ": " + new BarrierRequest(id)));
            }
        }
    }

    @Test
    void mixedSendBroadcastAndNextSimTask_arriveInOfferOrder() throws Exception {
        NetRegistry r = registry();
        List<String> order = new CopyOnWriteArrayList<>();
        RecordingListener rec = new RecordingListener() {
            @Override
            public void onMessage(int fromPeerId, CosimMessage message) {
                order.add(((StatusUpdate) message).reason());
            }

            @Override
            public void onNextSimTask(int fromPeerId, long timePointNs, long durationNs) {
                order.add("t" + timePointNs);
            }
        };
        NetSession receiver = join(r, "sim", "receiver", rec);
        NetSession other = join(r, "sim", "other", new RecordingListener());
        NetSession sender = join(r, "sim", "sender", new RecordingListener());
        TestSupport.awaitTrue(10_000, () -> rec.events.stream().filter(e -> e.startsWith("+")).count() == 2,
                () -> rec.events.toString());
        List<String> expected = new ArrayList<>();
        byte[] big = new byte[300_000]; // chunked: above the 128 KiB max message of a 1 MiB term
        for (int i = 0; i < 3000; i++) {
            switch (i % 4) {
                case 0 -> sender.broadcast(new StatusUpdate(io.tandem.cosim.ParticipantState.RUNNING, "b" + i));
                case 1 -> sender.send(receiver.peerId(), new StatusUpdate(io.tandem.cosim.ParticipantState.RUNNING, "s" + i));
                case 2 -> sender.send(other.peerId(), new StatusUpdate(io.tandem.cosim.ParticipantState.RUNNING, "x" + i));
                default -> sender.broadcastNextSimTask(i, 1);
            }
            switch (i % 4) {
                case 0 -> expected.add("b" + i);
                case 1 -> expected.add("s" + i);
                case 2 -> { }
                default -> expected.add("t" + i);
            }
            if (i % 1000 == 999) {
                sender.send(receiver.peerId(), new StatusUpdate(io.tandem.cosim.ParticipantState.RUNNING,
                        "big" + i + new String(big, java.nio.charset.StandardCharsets.ISO_8859_1)));
                expected.add("big" + i + new String(big, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        TestSupport.awaitTrue(20_000, () -> order.size() >= expected.size(), () -> order.size() + " of " + expected.size());
        assertThat(order).isEqualTo(expected);
    }

    @Test
    void broadcastNextSimTask_steadyState_allocatesNothingOnSenderOrReceiver() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        NetRegistry r = registry();
        RecordingListener rec = new RecordingListener();
        join(r, "sim", "receiver", rec);
        NetSession sender = join(r, "sim", "sender", new RecordingListener());
        long receiverThread = threadId("tandem-net-sim/receiver");
        int n = 50_000;
        for (int i = 0; i < n; i++) { // warm-up
            sender.broadcastNextSimTask(i, 1);
        }
        TestSupport.awaitTrue(10_000, () -> rec.lastNextSimTaskNs == n - 1, () -> "at " + rec.lastNextSimTaskNs);
        long senderBefore = mx.getCurrentThreadAllocatedBytes();
        long receiverBefore = mx.getThreadAllocatedBytes(receiverThread);
        for (int i = n; i < 3 * n; i++) {
            sender.broadcastNextSimTask(i, 1);
        }
        long senderBytes = mx.getCurrentThreadAllocatedBytes() - senderBefore;
        TestSupport.awaitTrue(10_000, () -> rec.lastNextSimTaskNs == 3L * n - 1, () -> "at " + rec.lastNextSimTaskNs);
        long receiverBytes = mx.getThreadAllocatedBytes(receiverThread) - receiverBefore;
        assertThat(senderBytes).as("bytes allocated by the sender over %d NextSimTasks", 2 * n).isLessThan(2_000);
        assertThat(receiverBytes).as("bytes allocated by the receiving agent over %d NextSimTasks", 2 * n).isLessThan(20_000);
    }

    private static long threadId(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                return t.getId();
            }
        }
        throw new AssertionError("no thread named " + name);
    }
}
