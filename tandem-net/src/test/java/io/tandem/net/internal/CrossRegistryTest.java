package io.tandem.net.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.aeron.Aeron;
import io.aeron.driver.status.SenderPos;
import io.aeron.driver.status.StreamCounter;
import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.TimeSyncService;
import io.tandem.cosim.msg.BarrierReply;
import io.tandem.cosim.msg.BarrierRequest;
import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.msg.StatusUpdate;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.net.NetConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two registries on loopback (two media drivers, as on two hosts) in one group: participants of
 * the same registry talk over Aeron IPC, participants of different registries over Aeron UDP.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrossRegistryTest {
    private static final int V = WireFormat.VERSION;
    private static final long MS = 1_000_000;

    @TempDir
    Path dir;
    private NetRegistry first;
    private NetRegistry second;
    private final List<AutoCloseable> open = new ArrayList<>();

    private NetConfig config() {
        return NetConfig.builder().registryDirectory(dir).registryTimeoutMs(10_000).build();
    }

    @BeforeEach
    void startRegistries() {
        first = NetRegistry.start(URI.create("tandem://127.0.0.1:0"), config(), V);
        second = NetRegistry.start(URI.create("tandem://127.0.0.1:0"), config().toBuilder().peers(List.of(first.uri())).build(),
                V);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        second.close();
        first.close();
    }

    private NetSession join(NetRegistry r, String name, RecordingListener l) {
        NetSession s = NetSession.join(URI.create(r.uri()), "sim", name, l, config(), V);
        open.add(0, s);
        return s;
    }

    private Participant connect(NetRegistry r, String name) {
        Participant p = Participant.connect(r.uri(), "sim", name);
        open.add(0, p);
        return p;
    }

    @Test
    void secondRegistry_hasItsOwnMediaDriver() {
        assertThat(second.aeronDirectory()).isNotEqualTo(first.aeronDirectory());
    }

    @Test
    void join_onEitherRegistry_newcomersReceiveWhatMembersSendFromTheirJoinCallback() throws Exception {
        List<NetSession> members = new ArrayList<>();
        List<RecordingListener> listeners = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
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
            self[0] = join(i % 2 == 0 ? first : second, "m" + i, l);
            members.add(self[0]);
            listeners.add(l);
        }
        for (int i = 0; i < 4; i++) {
            List<String> got = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            for (int j = 0; j < i; j++) {
                int id = members.get(j).peerId();
                expected.add("+" + id + " m" + j);
                expected.add(id + ": " + new BarrierRequest(id));
            }
            while (!got.containsAll(expected)) {
                got.add(listeners.get(i).next());
            }
            for (int j = 0; j < i; j++) {
                int id = members.get(j).peerId();
                assertThat(got.indexOf("+" + id + " m" + j)).as("m%d's events %s", i, got)
                        .isLessThan(got.indexOf(id + ": " + new BarrierRequest(id)));
            }
        }
        // m0 (first registry) reaches m1 and m3 (second) over UDP, m2 over IPC
        assertThat(members.get(0).toString()).contains("m1#" + members.get(1).peerId() + "(udp)")
                .contains("m3#" + members.get(3).peerId() + "(udp)").contains("m2#" + members.get(2).peerId() + "@");
    }

    @Test
    void remoteMemberLeaves_everythingItSentArrivesInOrderBeforeItsLeave() throws Exception {
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

            @Override
            public void onPeerLeft(int peerId, String participantName, boolean connectionLost) {
                order.add("left " + participantName + (connectionLost ? " lost" : ""));
            }
        };
        join(first, "receiver", rec);
        NetSession sender = NetSession.join(URI.create(second.uri()), "sim", "sender", new RecordingListener(), config(), V);
        TestSupport.awaitTrue(10_000, () -> rec.events.contains("+" + sender.peerId() + " sender"), () -> rec.events.toString());
        List<String> expected = new ArrayList<>();
        byte[] big = new byte[300_000]; // chunked
        for (int i = 0; i < 2000; i++) {
            if (i % 3 == 0) {
                sender.broadcastNextSimTask(i, 1);
                expected.add("t" + i);
            } else {
                String reason = i == 1000 ? new String(big, java.nio.charset.StandardCharsets.ISO_8859_1) : "m" + i;
                sender.broadcast(new StatusUpdate(ParticipantState.RUNNING, reason));
                expected.add(reason);
            }
        }
        sender.close();
        expected.add("left sender");
        TestSupport.awaitTrue(20_000, () -> order.size() >= expected.size(), () -> order.size() + " of " + expected.size());
        assertThat(order).containsExactlyElementsOf(expected);
    }

    /** Records the StatusUpdate reasons and NextSimTask time points it gets from one peer, in order (others apart). */
    private static final class OrderListener extends RecordingListener {
        final List<String> order = new CopyOnWriteArrayList<>();
        final List<String> other = new CopyOnWriteArrayList<>();
        volatile int from = -1;
        /** when it recorded the last message from {@code from}, System.nanoTime() */
        volatile long lastAtNs;
        /** answers participants' barrier requests (a participant connecting after us waits for them), or null */
        volatile NetSession self;

        @Override
        public void onMessage(int fromPeerId, CosimMessage message) {
            if (fromPeerId == from) {
                order.add(((StatusUpdate) message).reason());
                lastAtNs = System.nanoTime();
            } else {
                if (message instanceof BarrierRequest b && self != null) {
                    self.send(fromPeerId, new BarrierReply(b.barrierId()));
                }
                other.add(fromPeerId + ":" + message);
            }
        }

        @Override
        public void onNextSimTask(int fromPeerId, long timePointNs, long durationNs) {
            if (fromPeerId == from) {
                order.add("t" + timePointNs);
                lastAtNs = System.nanoTime();
            } else {
                other.add(fromPeerId + ":t" + timePointNs);
            }
        }

        @Override
        public String toString() {
            return "got " + order.size()
                    + (order.isEmpty() ? "" : " (" + order.get(0) + " .. " + order.get(order.size() - 1) + ")")
                    + " from peer " + from + ", " + other.size() + " from others"
                    + (other.isEmpty() ? "" : " (" + other.get(0) + " .. " + other.get(other.size() - 1) + ")")
                    + ", events " + events;
        }
    }

    /** Broadcasts messages {@code from} to {@code to - 1} (every third a NextSimTask); @return what receivers expect */
    private static List<String> broadcastRange(NetSession sender, int from, int to) {
        List<String> expected = new ArrayList<>();
        for (int i = from; i < to; i++) {
            if (i % 3 == 0) {
                sender.broadcastNextSimTask(i, 1);
                expected.add("t" + i);
            } else {
                sender.broadcast(new StatusUpdate(ParticipantState.RUNNING, "m" + i));
                expected.add("m" + i);
            }
        }
        return expected;
    }

    /** @return the network publications (snd-pos counters) of a session on a media driver */
    private static int networkPublications(String aeronDirectory, int sessionId) {
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDirectory))) {
            int[] n = {0};
            aeron.countersReader().forEach((counterId, typeId, key, label) -> {
                if (typeId == SenderPos.SENDER_POSITION_TYPE_ID
                        && key.getInt(StreamCounter.SESSION_ID_OFFSET) == sessionId) {
                    n[0]++;
                }
            });
            return n[0];
        }
    }

    @Test
    void broadcast_toMembersOfAnotherRegistry_isOneUdpPublicationWhoseDestinationsFollowJoinsAndLeaves() throws Exception {
        RecordingListener senderEvents = new RecordingListener();
        NetSession sender = join(first, "sender", senderEvents);
        List<OrderListener> listeners = new ArrayList<>();
        List<NetSession> receivers = new ArrayList<>();
        List<String> names = List.of("r1", "r2", "local");
        for (String name : names) {
            OrderListener l = new OrderListener();
            l.from = sender.peerId();
            listeners.add(l);
            receivers.add(join(name.equals("local") ? first : second, name, l));
        }
        FrameSender frames = sender.sender();
        // a join returns when the joiner is announced, not when every member has learned of it: what the
        // sender broadcasts before it knows a member (its Hello) never reaches that member, by design
        for (int i = 0; i < names.size(); i++) {
            String joinedEvent = "+" + receivers.get(i).peerId() + " " + names.get(i);
            TestSupport.awaitTrue(10_000, () -> senderEvents.events.contains(joinedEvent),
                    () -> senderEvents.events + "; " + sender);
        }
        assertThat(frames.remoteCount()).isEqualTo(2);
        // two members of the other registry: one UDP publication with two destinations, not two publications
        assertThat(frames.udpPublications()).isEqualTo(1);
        assertThat(networkPublications(first.aeronDirectory(), sender.peerId())).isEqualTo(1);
        List<String> expected = broadcastRange(sender, 0, 600);

        // a member of the other registry joins later: a third destination of the same publication
        OrderListener lateListener = new OrderListener();
        lateListener.from = sender.peerId();
        NetSession late = NetSession.join(URI.create(second.uri()), "sim", "late", lateListener, config(), V);
        open.add(0, late);
        TestSupport.awaitTrue(10_000, () -> senderEvents.events.contains("+" + late.peerId() + " late")
                && lateListener.events.contains("+" + sender.peerId() + " sender"), sender::toString);
        assertThat(frames.remoteCount()).isEqualTo(3);
        assertThat(networkPublications(first.aeronDirectory(), sender.peerId())).isEqualTo(1);
        List<String> whileLate = broadcastRange(sender, 600, 1200);
        expected.addAll(whileLate);
        TestSupport.awaitTrue(20_000, () -> lateListener.order.size() >= whileLate.size(),
                () -> lateListener.order.size() + " of " + whileLate.size());
        assertThat(lateListener.order).containsExactlyElementsOf(whileLate);

        // it leaves: its destination goes, the others keep receiving
        late.close();
        TestSupport.awaitTrue(10_000, () -> frames.remoteCount() == 2, sender::toString);
        assertThat(frames.isRemote(late.peerId())).isFalse();
        expected.addAll(broadcastRange(sender, 1200, 1800));
        for (OrderListener l : listeners) {
            TestSupport.awaitTrue(20_000, () -> l.order.size() >= expected.size(),
                    () -> l + ", expected " + expected.size() + "; " + sender + " " + receivers);
            assertThat(l.order).containsExactlyElementsOf(expected);
        }
        assertThat(lateListener.order).containsExactlyElementsOf(whileLate);
        assertThat(networkPublications(first.aeronDirectory(), sender.peerId())).isEqualTo(1);
    }

    @Test
    void remoteMemberKilled_othersKeepReceivingBroadcastsSoonAfterItIsReportedLost() throws Exception {
        // a registry that keeps a dead client's subscription (whose image keeps telling the sender's flow
        // control the position it stopped at) for 14 s (Aeron wants less than its 15 s publication unblock
        // timeout): only the removal of the killed member's destination frees the sender's UDP publication sooner
        NetRegistry third = NetRegistry.start(URI.create("tandem://127.0.0.1:0"),
                config().toBuilder().clientTimeoutMs(14_000).peers(List.of(first.uri())).build(), V);
        open.add(third);
        AtomicLong lostAtNs = new AtomicLong();
        NetSession[] self = new NetSession[1];
        RecordingListener senderEvents = new RecordingListener() {
            @Override
            public void onMessage(int fromPeerId, CosimMessage message) {
                // a participant connecting after us waits for our barrier reply
                if (message instanceof BarrierRequest b) {
                    self[0].send(fromPeerId, new BarrierReply(b.barrierId()));
                }
            }

            @Override
            public void onPeerLeft(int peerId, String participantName, boolean connectionLost) {
                if (participantName.equals("victim")) {
                    lostAtNs.set(System.nanoTime());
                }
                super.onPeerLeft(peerId, participantName, connectionLost);
            }
        };
        NetSession sender = self[0] = join(first, "sender", senderEvents);
        OrderListener survivor = new OrderListener();
        survivor.from = sender.peerId();
        NetSession r1 = join(third, "r1", survivor);
        survivor.self = r1;
        Path victimLog = dir.resolve("victim.log");
        Process victim = TestSupport.spawnParticipant(victimLog, "idle", third.uri(), "sim", "victim");
        open.add(0, victim::destroyForcibly);
        TestSupport.awaitTrue(30_000,
                () -> senderEvents.events.stream().anyMatch(e -> e.startsWith("+") && e.endsWith(" victim")),
                () -> senderEvents.events + "; " + sender + "; victim's log: " + log(victimLog));
        FrameSender frames = sender.sender();
        TestSupport.awaitTrue(10_000, () -> frames.remoteCount() == 2
                && senderEvents.events.contains("+" + r1.peerId() + " r1"), sender::toString);
        List<String> expected = broadcastRange(sender, 0, 30);
        TestSupport.awaitTrue(10_000, () -> survivor.order.size() >= expected.size(), survivor::toString);

        victim.destroyForcibly(); // SIGKILL
        assertThat(victim.waitFor(10, TimeUnit.SECONDS)).isTrue();
        // far more than a receiver window: without the fix this stalls behind the victim's frozen position
        String pad = "x".repeat(1_000);
        List<String> burst = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            burst.add(pad + i);
        }
        expected.addAll(burst);
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
            for (String reason : burst) {
                sender.broadcast(new StatusUpdate(ParticipantState.RUNNING, reason));
            }
        });
        TestSupport.awaitTrue(30_000, () -> survivor.order.size() >= expected.size(),
                () -> survivor.order.size() + " of " + expected.size() + " (lost reported: " + (lostAtNs.get() != 0) + "; "
                        + senderEvents.events + "); " + sender);
        sent.get(10, TimeUnit.SECONDS);
        assertThat(survivor.order).containsExactlyElementsOf(expected);
        assertThat(senderEvents.events).anyMatch(e -> e.startsWith("-") && e.endsWith(" victim lost"));
        org.slf4j.LoggerFactory.getLogger(CrossRegistryTest.class).info("survivor's last message {} ms after the loss",
                (survivor.lastAtNs - lostAtNs.get()) / 1_000_000);
        long afterLossMs = (survivor.lastAtNs - lostAtNs.get()) / 1_000_000;
        assertThat(afterLossMs).as("ms from the sender learning of the loss to the survivor's last message")
                .isLessThan(2_000);
    }

    private static String log(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "(no log)";
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Test
    void timeSyncedParticipantsOnTwoRegistries_exchangeTimestampedMessagesInOrder() throws Exception {
        Participant controller = connect(first, "controller");
        controller.createSystemController().setWorkflowConfiguration(List.of("a", "b"));
        Participant a = connect(first, "a");
        Participant b = connect(second, "b");
        int steps = 300;
        List<String> bad = new CopyOnWriteArrayList<>();
        List<Long> got = new CopyOnWriteArrayList<>();
        List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
        for (Participant p : List.of(a, b)) {
            boolean isA = p == a;
            DataPublisher pub = p.createDataPublisher("out", PubSubSpec.of(p.name(), "application/x-longs"), 0);
            LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
            TimeSyncService ts = lc.createTimeSyncService();
            List<Long> mine = new ArrayList<>();
            p.createDataSubscriber("in", PubSubSpec.of(isA ? "b" : "a", ""), e -> {
                long stamp = MultiProcessTest.longAt(e.data());
                if (stamp != e.timestampNs() || (!mine.isEmpty() && stamp != mine.get(mine.size() - 1) + MS)
                        || stamp < ts.now()) {
                    bad.add(p.name() + ": stamp " + stamp + " ts " + e.timestampNs() + " now " + ts.now());
                }
                mine.add(stamp);
                if (isA) {
                    got.add(stamp);
                }
            });
            ts.setSimulationStepHandler((now, d) -> {
                pub.publish(MultiProcessTest.longs(now));
                if (isA && now == steps * MS) {
                    lc.stop("done");
                }
            }, MS);
            done.add(lc.startLifecycle());
        }
        for (CompletableFuture<ParticipantState> f : done) {
            assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(ParticipantState.SHUTDOWN);
        }
        assertThat(bad).isEmpty();
        assertThat(got).hasSizeGreaterThanOrEqualTo(steps - 2).startsWith(0L, MS, 2 * MS);
    }
}
