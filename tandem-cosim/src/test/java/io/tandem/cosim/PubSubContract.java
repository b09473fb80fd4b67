package io.tandem.cosim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cosim.pubsub.DataMessageEvent;
import io.tandem.cosim.pubsub.DataMessageHandler;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Pub/sub behaviour (SIL Kit ITest_Internals_DataPubSub, ITest_PubHistory): matching, history,
 * self-delivery, per-publisher order. "Nothing arrives" is decided deterministically: after the
 * message under test the same participant publishes a sentinel on a matching topic; messages of
 * one participant arrive in publish order, so once the sentinel is in, nothing else can come.
 */
public abstract class PubSubContract extends ContractBase {

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Subscriber that records payloads as text and completes when "END" arrives. */
    private static final class Recorder implements DataMessageHandler {
        final List<String> got = new CopyOnWriteArrayList<>();
        final CompletableFuture<Void> end = new CompletableFuture<>();

        @Override
        public void onData(DataMessageEvent event) {
            String s = text(event.data());
            if (s.equals("END")) {
                end.complete(null);
            } else {
                got.add(s);
            }
        }
    }

    private List<String> publishAndCollect(PubSubSpec pubSpec, PubSubSpec subSpec) {
        Participant sub = connect("sub");
        Recorder rec = new Recorder();
        sub.createDataSubscriber("s", subSpec, rec);
        sub.createDataSubscriber("sentinel", PubSubSpec.of("sentinel", ""), rec);
        Participant pub = connect("pub");
        DataPublisher sentinel = pub.createDataPublisher("sentinel", PubSubSpec.of("sentinel", "x"), 0);
        DataPublisher p = pub.createDataPublisher("p", pubSpec, 0);
        p.publish(text("hello"));
        sentinel.publish(text("END"));
        await(rec.end);
        return rec.got;
    }

    @Test
    void publish_sameTopicAndMediaType_delivered() {
        assertThat(publishAndCollect(PubSubSpec.of("t", "m"), PubSubSpec.of("t", "m"))).containsExactly("hello");
    }

    @Test
    void publish_wrongTopic_notDelivered() {
        assertThat(publishAndCollect(PubSubSpec.of("t", "m"), PubSubSpec.of("other", "m"))).isEmpty();
    }

    @Test
    void publish_wrongMediaType_notDelivered() {
        assertThat(publishAndCollect(PubSubSpec.of("t", "m"), PubSubSpec.of("t", "other"))).isEmpty();
    }

    @Test
    void publish_emptySubscriberMediaType_isWildcard() {
        assertThat(publishAndCollect(PubSubSpec.of("t", "anything"), PubSubSpec.of("t", ""))).containsExactly("hello");
    }

    @Test
    void publish_emptyPublisherMediaType_isNoWildcard() {
        assertThat(publishAndCollect(PubSubSpec.of("t", ""), PubSubSpec.of("t", "m"))).isEmpty();
    }

    private static MatchingLabel opt(String k, String v) {
        return new MatchingLabel(k, v, MatchingLabel.Kind.OPTIONAL);
    }

    private static MatchingLabel man(String k, String v) {
        return new MatchingLabel(k, v, MatchingLabel.Kind.MANDATORY);
    }

    @Test
    void publish_mandatorySubscriberLabel_matchesOnlyEqualValue() {
        PubSubSpec sub = new PubSubSpec("t", "", List.of(man("Instance", "FL")));
        assertThat(publishAndCollect(new PubSubSpec("t", "m", List.of()), sub)).isEmpty();
        closeEverything();
        startTestRegistry();
        assertThat(publishAndCollect(new PubSubSpec("t", "m", List.of(opt("Instance", "FL"))), sub)).containsExactly("hello");
        closeEverything();
        startTestRegistry();
        assertThat(publishAndCollect(new PubSubSpec("t", "m", List.of(opt("Instance", "RR"))), sub)).isEmpty();
        closeEverything();
        startTestRegistry();
        assertThat(publishAndCollect(new PubSubSpec("t", "m", List.of(opt("Namespace", "Car"))), sub)).isEmpty();
    }

    @Test
    void publish_labelsAreSymmetric_publisherMandatoryLabelNeedsSubscriberLabel() {
        PubSubSpec pub = new PubSubSpec("t", "m", List.of(man("k", "v")));
        assertThat(publishAndCollect(pub, PubSubSpec.of("t", ""))).isEmpty();
        closeEverything();
        startTestRegistry();
        assertThat(publishAndCollect(pub, new PubSubSpec("t", "", List.of(opt("k", "v"))))).containsExactly("hello");
    }

    @Test
    void publish_optionalLabelsBothMissing_match() {
        assertThat(publishAndCollect(new PubSubSpec("t", "m", List.of(opt("a", "1"))),
                new PubSubSpec("t", "", List.of(opt("b", "2"))))).containsExactly("hello");
    }

    @Test
    void publish_twoPublishersTwoSubscribers_everyMatchDeliveredInPublisherOrder() throws Exception {
        List<BlockingQueue<String>> queues = List.of(new LinkedBlockingQueue<>(), new LinkedBlockingQueue<>());
        for (int i = 0; i < 2; i++) {
            BlockingQueue<String> q = queues.get(i);
            connect("s" + i).createDataSubscriber("s", PubSubSpec.of("t", ""), e -> q.add(text(e.data())));
        }
        DataPublisher a = connect("p1").createDataPublisher("a", PubSubSpec.of("t", "m"), 0);
        DataPublisher b = connect("p2").createDataPublisher("b", PubSubSpec.of("t", "m"), 0);
        a.publish(text("a1"));
        b.publish(text("b1"));
        a.publish(text("a2"));
        b.publish(text("b2"));
        for (BlockingQueue<String> q : queues) {
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                got.add(poll(q));
            }
            assertThat(got).containsExactlyInAnyOrder("a1", "a2", "b1", "b2");
            assertThat(got.indexOf("a1")).isLessThan(got.indexOf("a2"));
            assertThat(got.indexOf("b1")).isLessThan(got.indexOf("b2"));
        }
    }

    private static String poll(BlockingQueue<String> q) throws InterruptedException {
        String s = q.poll(WAIT_S, TimeUnit.SECONDS);
        assertThat(s).as("message within %d s", WAIT_S).isNotNull();
        return s;
    }

    @Test
    void publish_threePublishersFourSubscribersFourTopics_eachGetsItsTopics() {
        String[] topics = {"t0", "t1", "t2", "t3"};
        List<List<String>> got = new ArrayList<>();
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            Participant sub = connect("sub" + s);
            List<String> mine = new CopyOnWriteArrayList<>();
            got.add(mine);
            CompletableFuture<Void> d = new CompletableFuture<>();
            done.add(d);
            int expected = 3 * 10;
            sub.createDataSubscriber("s", PubSubSpec.of(topics[s], ""), e -> {
                mine.add(text(e.data()));
                if (mine.size() == expected) {
                    d.complete(null);
                }
            });
        }
        for (int p = 0; p < 3; p++) {
            Participant pub = connect("pub" + p);
            DataPublisher[] pubs = new DataPublisher[4];
            for (int t = 0; t < 4; t++) {
                pubs[t] = pub.createDataPublisher("p" + t, PubSubSpec.of(topics[t], "m"), 0);
            }
            for (int i = 0; i < 10; i++) {
                for (int t = 0; t < 4; t++) {
                    pubs[t].publish(text(topics[t] + "/" + p + "/" + i));
                }
            }
        }
        await(CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0])));
        for (int s = 0; s < 4; s++) {
            for (String m : got.get(s)) {
                assertThat(m).startsWith(topics[s] + "/");
            }
            for (int p = 0; p < 3; p++) {
                List<String> fromP = new ArrayList<>();
                for (String m : got.get(s)) {
                    if (m.startsWith(topics[s] + "/" + p + "/")) {
                        fromP.add(m);
                    }
                }
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    expected.add(topics[s] + "/" + p + "/" + i);
                }
                assertThat(fromP).isEqualTo(expected);
            }
        }
    }

    @Test
    void publish_hundredTopics_eachDeliveredOnce() {
        Participant sub = connect("sub");
        List<String> got = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> all = new CompletableFuture<>();
        for (int t = 0; t < 100; t++) {
            sub.createDataSubscriber("s" + t, PubSubSpec.of("topic" + t, ""), e -> {
                got.add(text(e.data()));
                if (got.size() == 100) {
                    all.complete(null);
                }
            });
        }
        Participant pub = connect("pub");
        List<DataPublisher> pubs = new ArrayList<>();
        for (int t = 0; t < 100; t++) {
            pubs.add(pub.createDataPublisher("p" + t, PubSubSpec.of("topic" + t, "m"), 0));
        }
        for (int t = 0; t < 100; t++) {
            pubs.get(t).publish(text("topic" + t));
        }
        await(all);
        assertThat(got).hasSize(100).doesNotHaveDuplicates();
    }

    @Test
    void publish_largeMessage_deliveredIntact() {
        Participant sub = connect("sub");
        CompletableFuture<byte[]> got = new CompletableFuture<>();
        sub.createDataSubscriber("s", PubSubSpec.of("big", ""), e -> got.complete(e.data()));
        Participant pub = connect("pub");
        byte[] big = new byte[10 * 1024 * 1024];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31 + 7);
        }
        pub.createDataPublisher("p", PubSubSpec.of("big", "m"), 0).publish(big);
        assertThat(await(got)).isEqualTo(big);
    }

    @Test
    void publish_bufferModifiedAfterPublish_receiverSeesOriginal() {
        Participant sub = connect("sub");
        CompletableFuture<byte[]> got = new CompletableFuture<>();
        sub.createDataSubscriber("s", PubSubSpec.of("t", ""), e -> got.complete(e.data()));
        Participant pub = connect("pub");
        byte[] buf = text("original");
        pub.createDataPublisher("p", PubSubSpec.of("t", "m"), 0).publish(buf);
        buf[0] = 'X';
        assertThat(text(await(got))).isEqualTo("original");
    }

    @Test
    void publish_subscriberInSameParticipant_selfDelivered() {
        Participant p = connect("self");
        CompletableFuture<String> got = new CompletableFuture<>();
        p.createDataSubscriber("s", PubSubSpec.of("t", ""), e -> got.complete(text(e.data())));
        p.createDataPublisher("p", PubSubSpec.of("t", "m"), 0).publish(text("me"));
        assertThat(await(got)).isEqualTo("me");
    }

    @Test
    void publish_manyMessages_perPublisherFifo() {
        Participant sub = connect("sub");
        List<Long> got = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        int n = 20_000;
        sub.createDataSubscriber("s", PubSubSpec.of("seq", ""), e -> {
            got.add(longAt(e.data(), 0));
            if (got.size() == n) {
                done.complete(null);
            }
        });
        DataPublisher p = connect("pub").createDataPublisher("p", PubSubSpec.of("seq", "m"), 0);
        for (long i = 0; i < n; i++) {
            p.publish(longs(i));
        }
        await(done);
        for (int i = 0; i < n; i++) {
            assertThat(got.get(i)).isEqualTo(i);
        }
    }

    @Test
    void history1_subscriberCreatedAfterPublish_receivesLastMessage() {
        Participant pub = connect("pub");
        DataPublisher p = pub.createDataPublisher("p", PubSubSpec.of("t", "m"), 1);
        p.publish(text("first"));
        p.publish(text("last"));
        Participant sub = connect("sub");
        CompletableFuture<String> got = new CompletableFuture<>();
        sub.createDataSubscriber("s", PubSubSpec.of("t", ""), e -> got.complete(text(e.data())));
        assertThat(await(got)).isEqualTo("last");
    }

    @Test
    void history1_localSubscriberCreatedAfterPublish_receivesLastMessage() {
        Participant pub = connect("pub");
        pub.createDataPublisher("p", PubSubSpec.of("t", "m"), 1).publish(text("kept"));
        CompletableFuture<String> got = new CompletableFuture<>();
        pub.createDataSubscriber("s", PubSubSpec.of("t", ""), e -> got.complete(text(e.data())));
        assertThat(await(got)).isEqualTo("kept");
    }

    @Test
    void history0_subscriberCreatedAfterPublish_receivesNothing() {
        Participant pub = connect("pub");
        pub.createDataPublisher("p", PubSubSpec.of("t", "m"), 0).publish(text("lost"));
        pub.createDataPublisher("sentinel", PubSubSpec.of("sentinel", "m"), 1).publish(text("END"));
        Participant sub = connect("sub");
        Recorder rec = new Recorder();
        sub.createDataSubscriber("s", PubSubSpec.of("t", ""), rec);
        sub.createDataSubscriber("sentinel", PubSubSpec.of("sentinel", ""), rec);
        await(rec.end);
        assertThat(rec.got).isEmpty();
    }

    @Test
    void history2_rejectedWithConfigurationError() {
        Participant pub = connect("pub");
        assertThatThrownBy(() -> pub.createDataPublisher("p", PubSubSpec.of("t", "m"), 2))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("history must be 0 or 1")
                .hasMessageContaining("2");
    }

    @Test
    void history1_publisherRejoinsTenTimes_redeliveredEachTime() throws Exception {
        Participant sub = connect("sub");
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        sub.createDataSubscriber("s", PubSubSpec.of("t", ""), e -> got.add(text(e.data())));
        for (int i = 0; i < 10; i++) {
            try (Participant pub = Participant.connect(registry.uri(), "sim", "pub")) {
                pub.createDataPublisher("p", PubSubSpec.of("t", "m"), 1).publish(text("round" + i));
                assertThat(poll(got)).isEqualTo("round" + i);
            }
        }
        assertThat(got).isEmpty();
    }

    @Test
    void expectQuietFor_messagesDuringAndAfterTheQuietPeriod_areAllDeliveredInOrder() throws Exception {
        Participant sub = connect("sub");
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        sub.createDataSubscriber("s", PubSubSpec.of("t", ""), e -> got.add(text(e.data())));
        Participant pub = connect("pub");
        DataPublisher p = pub.createDataPublisher("p", PubSubSpec.of("t", "m"), 0);
        // a hint only delays: what arrives while the receiver (and the sender) expect quiet still comes, in order
        sub.expectQuietFor(TimeUnit.MILLISECONDS.toNanos(200));
        pub.expectQuietFor(TimeUnit.MILLISECONDS.toNanos(200));
        p.publish(text("during"));
        assertThat(poll(got)).isEqualTo("during");
        sub.expectQuietFor(0);
        p.publish(text("after"));
        assertThat(poll(got)).isEqualTo("after");
        sub.expectQuietFor(TimeUnit.SECONDS.toNanos(60));
        sub.expectQuietFor(TimeUnit.MILLISECONDS.toNanos(1));
        p.publish(text("replaced"));
        // a later hint replaces an earlier one: a minute-long hint cut to 1 ms does not hold this back
        assertThat(got.poll(WAIT_S, TimeUnit.SECONDS)).isEqualTo("replaced");
        assertThat(got).isEmpty();
    }

    @Test
    void expectQuietFor_negativeDuration_isRefused() {
        Participant sub = connect("sub");
        assertThatThrownBy(() -> sub.expectQuietFor(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(">= 0");
    }
}
