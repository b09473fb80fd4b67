package io.tandem.net.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cosim.msg.StatusUpdate;
import io.tandem.cosim.ParticipantState;
import io.tandem.net.NetConfig;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared secret (NetConfig.secretFile): who may join and whose frames are accepted. The
 * signature against the JDK's HMAC and RFC 4231; joins refused for a missing, wrong or one-sided
 * secret; frames forged on a member's own stream (unsigned, or signed with another key) dropped
 * before they are read; a secret group still carries messages, chunks and NextSimTasks in order
 * without allocating.
 */
@SuppressForbidden // per-thread allocation counters live in com.sun.management
class SharedSecretTest {
    private static final int V = WireFormat.VERSION;
    private final List<AutoCloseable> open = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private Path secretFile(String name, String content) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        return f;
    }

    private NetConfig config(Path secret) {
        return NetConfig.builder().registryDirectory(dir).registryTimeoutMs(3_000).secretFile(secret).build();
    }

    private NetRegistry registry(Path secret) {
        NetRegistry r = NetRegistry.start(URI.create("tandem://127.0.0.1:0"), config(secret), V);
        open.add(r);
        return r;
    }

    private NetSession join(NetRegistry r, Path secret, String name, RecordingListener l) {
        NetSession s = NetSession.join(URI.create(r.uri()), "sim", name, l, config(secret), V);
        open.add(0, s);
        return s;
    }

    @Test
    void frameTag_anyInput_equalsJdkHmacSha256Truncated() throws Exception {
        Random random = new Random(42);
        for (int trial = 0; trial < 200; trial++) {
            byte[] key = new byte[1 + random.nextInt(64)];
            random.nextBytes(key);
            byte[] frame = new byte[random.nextInt(trial < 100 ? 200 : 20_000)];
            random.nextBytes(frame);
            int session = random.nextInt();
            int stream = random.nextInt();
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(new byte[] {(byte) session, (byte) (session >>> 8), (byte) (session >>> 16), (byte) (session >>> 24),
                    (byte) stream, (byte) (stream >>> 8), (byte) (stream >>> 16), (byte) (stream >>> 24)});
            byte[] expected = java.util.Arrays.copyOf(mac.doFinal(frame), FrameTag.LENGTH);

            FrameTag tag = new FrameTag(key);
            // off-heap (copied in pieces) and on-heap buffers give the same tag
            UnsafeBuffer direct = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(frame.length + FrameTag.LENGTH));
            direct.putBytes(0, frame);
            tag.begin(session, stream);
            tag.update(direct, 0, frame.length);
            tag.finish(direct, frame.length);
            byte[] got = new byte[FrameTag.LENGTH];
            direct.getBytes(frame.length, got);
            assertThat(got).as("trial %d", trial).isEqualTo(expected);
            assertThat(tag.verify(direct, 0, frame.length + FrameTag.LENGTH, session, stream)).isTrue();
            assertThat(tag.verify(direct, 0, frame.length + FrameTag.LENGTH, session + 1, stream)).isFalse();
            if (frame.length > 0) {
                int at = random.nextInt(frame.length);
                direct.putByte(at, (byte) (direct.getByte(at) ^ 1));
                assertThat(tag.verify(direct, 0, frame.length + FrameTag.LENGTH, session, stream)).as("a flipped bit").isFalse();
            }
        }
    }

    @Test
    void frameTag_rfc4231TestCase2_matches() {
        // key "Jefe", data "what do ya want for nothing?": the first 8 bytes are the ids, little-endian
        byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII);
        UnsafeBuffer b = new UnsafeBuffer(data);
        FrameTag tag = new FrameTag("Jefe".getBytes(StandardCharsets.US_ASCII));
        tag.begin(b.getInt(0, java.nio.ByteOrder.LITTLE_ENDIAN), b.getInt(4, java.nio.ByteOrder.LITTLE_ENDIAN));
        tag.update(data, 8, data.length - 8);
        byte[] out = new byte[FrameTag.LENGTH];
        tag.finish(out, 0);
        assertThat(HexFormat.of().formatHex(out)).isEqualTo("5bdcc146bf60754e6a042426089575c7");
    }

    @Test
    void secretFile_tooShortOrMissing_refusedNamingTheFileAndTheFix() throws Exception {
        Path shortFile = secretFile("short", "abc");
        assertThatThrownBy(() -> config(shortFile)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(shortFile.toString()).hasMessageContaining("3 bytes")
                .hasMessageContaining("head -c 32 /dev/urandom");
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> config(missing)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(missing.toString());
        System.setProperty(NetConfig.SECRET_FILE_PROP_NAME, missing.toString());
        try {
            assertThatThrownBy(NetConfig::fromSystemProperties).hasMessageContaining(missing.toString());
        } finally {
            System.clearProperty(NetConfig.SECRET_FILE_PROP_NAME);
        }
    }

    @Test
    void join_withoutTheSecret_refusedSayingWhy() throws Exception {
        Path secret = secretFile("secret", "correct horse battery staple");
        NetRegistry r = registry(secret);
        join(r, secret, "member", new RecordingListener());
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> join(r, null, "intruder", new RecordingListener()))
                .isInstanceOf(io.tandem.net.SharedSecretMismatchException.class)
                .hasMessageContaining(r.uri()).hasMessageContaining("shared secret");
        assertThat((System.nanoTime() - t0) / 1e9).as("seconds to the refusal").isLessThan(2.5);
    }

    @Test
    void join_wrongSecret_refusedSayingWhy() throws Exception {
        NetRegistry r = registry(secretFile("secret", "correct horse battery staple"));
        Path wrong = secretFile("wrong", "incorrect horse battery staple");
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> join(r, wrong, "intruder", new RecordingListener()))
                .isInstanceOf(io.tandem.net.SharedSecretMismatchException.class)
                .hasMessageContaining(r.uri()).hasMessageContaining("shared secret").hasMessageContaining(wrong.toString());
        assertThat((System.nanoTime() - t0) / 1e9).as("seconds to the refusal").isLessThan(2.5);
    }

    @Test
    void join_secretButTheRegistryHasNone_refusedSayingWhy() throws Exception {
        NetRegistry r = registry(null);
        Path secret = secretFile("secret", "correct horse battery staple");
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> join(r, secret, "member", new RecordingListener()))
                .isInstanceOf(io.tandem.net.SharedSecretMismatchException.class)
                .hasMessageContaining(r.uri()).hasMessageContaining("has no shared secret");
        assertThat((System.nanoTime() - t0) / 1e9).as("seconds to the refusal").isLessThan(2.5);
        // it left at once: the registry still admits members without a secret
        join(r, null, "member", new RecordingListener());
    }

    @Test
    void forgedFrames_unsignedOrSignedWithAnotherKey_droppedBeforeTheyAreRead() throws Exception {
        Path secret = secretFile("secret", "correct horse battery staple");
        NetRegistry r = registry(secret);
        OrderListener rec = new OrderListener();
        List<String> got = rec.order;
        NetSession receiver = join(r, secret, "receiver", rec);
        NetSession member = join(r, secret, "member", new RecordingListener());
        TestSupport.awaitTrue(10_000, () -> rec.events.stream().anyMatch(e -> e.startsWith("+")), () -> rec.events.toString());
        SessionAgent idle = new SessionAgent("forger", "sim", V, new RecordingListener(), NetClock.MONOTONIC, 1);
        // frames offered on the member's own Aeron session, as a process that reached its stream could
        FrameSender unsigned = new FrameSender(member.publication(), V, idle, "forger", null, 0, 0, 0, 0, null);
        FrameSender otherKey = new FrameSender(member.publication(), V, idle, "forger", null, 0, 0, 0, 0,
                SharedSecret.of("another secret entirely"));
        byte[] big = new byte[300_000]; // chunked
        for (FrameSender forger : List.of(unsigned, otherKey)) {
            forger.sendNextSimTask(666, 1);
            forger.send(receiver.peerId(), new StatusUpdate(ParticipantState.RUNNING, "forged"));
            forger.send(MessageCodec.ALL_PEERS, new StatusUpdate(ParticipantState.RUNNING,
                    "forged" + new String(big, StandardCharsets.ISO_8859_1)));
        }
        member.send(receiver.peerId(), new StatusUpdate(ParticipantState.RUNNING, "genuine"));
        member.broadcastNextSimTask(7, 1);
        TestSupport.awaitTrue(10_000, () -> got.contains("t7"), got::toString);
        assertThat(got).containsExactly("genuine", "t7");
        int chunks = (int) Math.ceil(big.length / (double) (member.publication().maxMessageLength() - 64));
        assertThat(receiver.droppedFrames()).as("dropped frames").isGreaterThanOrEqualTo(2L * (2 + chunks));
    }

    @Test
    void secretGroup_mixedTraffic_arrivesInOrderAndNextSimTaskAllocatesNothing() throws Exception {
        Path secret = secretFile("secret", "correct horse battery staple");
        NetRegistry r = registry(secret);
        OrderListener rec = new OrderListener();
        List<String> order = rec.order;
        NetSession receiver = join(r, secret, "receiver", rec);
        NetSession sender = join(r, secret, "sender", new RecordingListener());
        TestSupport.awaitTrue(10_000, () -> rec.events.stream().anyMatch(e -> e.startsWith("+")), () -> rec.events.toString());
        List<String> expected = new ArrayList<>();
        String big = "big" + "x".repeat(300_000);
        for (int i = 0; i < 300; i++) {
            if (i % 3 == 0) {
                sender.broadcast(new StatusUpdate(ParticipantState.RUNNING, "b" + i));
                expected.add("b" + i);
            } else if (i % 3 == 1) {
                sender.send(receiver.peerId(), new StatusUpdate(ParticipantState.RUNNING, "s" + i));
                expected.add("s" + i);
            } else {
                sender.broadcastNextSimTask(i, 1);
                expected.add("t" + i);
            }
            if (i == 150) {
                sender.send(receiver.peerId(), new StatusUpdate(ParticipantState.RUNNING, big));
                expected.add(big);
            }
        }
        TestSupport.awaitTrue(20_000, () -> order.size() >= expected.size(), () -> order.size() + " of " + expected.size());
        assertThat(order).isEqualTo(expected);
        assertThat(receiver.droppedFrames()).isZero();
        rec.recording = false;

        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int n = 50_000;
        for (int i = 0; i < 3 * n; i++) { // warm-up: the digests' own code allocates until compiled
            sender.broadcastNextSimTask(1000 + i - 3 * n, 1);
        }
        for (int i = 0; i < n; i++) {
            sender.broadcastNextSimTask(1000 + i, 1);
        }
        TestSupport.awaitTrue(10_000, () -> rec.lastNextSimTaskNs == 1000 + n - 1, () -> "at " + rec.lastNextSimTaskNs);
        long receiverThread = threadId("tandem-net-sim/receiver");
        long senderBefore = mx.getCurrentThreadAllocatedBytes();
        long receiverBefore = mx.getThreadAllocatedBytes(receiverThread);
        for (int i = n; i < 3 * n; i++) {
            sender.broadcastNextSimTask(1000 + i, 1);
        }
        long senderBytes = mx.getCurrentThreadAllocatedBytes() - senderBefore;
        TestSupport.awaitTrue(10_000, () -> rec.lastNextSimTaskNs == 1000 + 3L * n - 1, () -> "at " + rec.lastNextSimTaskNs);
        long receiverBytes = mx.getThreadAllocatedBytes(receiverThread) - receiverBefore;
        assertThat(senderBytes).as("bytes allocated signing %d NextSimTasks", 2 * n).isLessThan(2_000);
        assertThat(receiverBytes).as("bytes allocated checking %d NextSimTasks", 2 * n).isLessThan(20_000);
    }

    @Test
    void twoRegistriesWithTheSecret_udpBetweenThem_messagesAndChunksArriveSigned() throws Exception {
        Path secret = secretFile("secret", "correct horse battery staple");
        NetRegistry first = registry(secret);
        NetRegistry second = NetRegistry.start(URI.create("tandem://127.0.0.1:0"),
                config(secret).toBuilder().peers(List.of(first.uri())).build(), V);
        open.add(second);
        OrderListener rec = new OrderListener();
        List<String> got = rec.order;
        NetSession receiver = join(first, secret, "receiver", rec);
        NetSession sender = join(second, secret, "sender", new RecordingListener());
        TestSupport.awaitTrue(10_000, () -> rec.events.stream().anyMatch(e -> e.startsWith("+")), () -> rec.events.toString());
        assertThat(sender.sender().isRemote(receiver.peerId())).as("over UDP").isTrue();
        String big = "big" + "y".repeat(200_000);
        sender.send(receiver.peerId(), new StatusUpdate(ParticipantState.RUNNING, "one"));
        sender.broadcastNextSimTask(5, 1);
        sender.send(receiver.peerId(), new StatusUpdate(ParticipantState.RUNNING, big));
        sender.broadcast(new StatusUpdate(ParticipantState.RUNNING, "two"));
        TestSupport.awaitTrue(10_000, () -> got.contains("two"), () -> got.size() + " messages");
        assertThat(got).containsExactly("one", "t5", big, "two");
        assertThat(receiver.droppedFrames()).isZero();
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
