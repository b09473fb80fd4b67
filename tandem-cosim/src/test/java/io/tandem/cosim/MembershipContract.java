package io.tandem.cosim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Participant identity and connectivity (SIL Kit ITest_SameParticipants, ITest_MultiSim,
 * ITest_SystemMonitor) and bad input at connect.
 */
public abstract class MembershipContract extends ContractBase {

    @Test
    void connect_duplicateNameInSameSimulation_throwsNameTaken() {
        connect("alice");
        assertThatThrownBy(() -> connect("alice"))
                .isInstanceOf(ParticipantNameTakenException.class)
                .isInstanceOf(TandemException.class)
                .hasMessageContaining("alice")
                .hasMessageContaining("sim");
    }

    @Test
    void connect_sameNameInOtherSimulation_works() {
        Participant a = connect("simA", "alice");
        Participant b = connect("simB", "alice");
        assertThat(a.simulationName()).isEqualTo("simA");
        assertThat(b.simulationName()).isEqualTo("simB");
    }

    @Test
    void connect_sameSimulationInOtherPartition_isolated() throws Exception {
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        Participant sub = Participant.connect(registry.uri() + "?partition=team-a", "sim", "sub");
        // subscribe before the publishers connect: connect returns once earlier peers' services are known
        sub.createDataSubscriber("s", PubSubSpec.of("t", ""), e -> got.add(new String(e.data(), StandardCharsets.UTF_8)));
        Participant same = Participant.connect(registry.uri() + "?partition=team-a", "sim", "pub");
        // the same simulation and participant names in another partition: no clash, no traffic
        Participant other = Participant.connect(registry.uri() + "?partition=team-b", "sim", "pub");
        Participant plain = Participant.connect(registry.uri(), "sim", "pub");
        try {
            DataPublisher b = other.createDataPublisher("p", PubSubSpec.of("t", "m"), 0);
            DataPublisher n = plain.createDataPublisher("p", PubSubSpec.of("t", "m"), 0);
            DataPublisher a = same.createDataPublisher("p", PubSubSpec.of("t", "m"), 0);
            b.publish("from-b".getBytes(StandardCharsets.UTF_8));
            n.publish("from-plain".getBytes(StandardCharsets.UTF_8));
            a.publish("from-a".getBytes(StandardCharsets.UTF_8));
            assertThat(got.poll(WAIT_S, TimeUnit.SECONDS)).isEqualTo("from-a");
            assertThat(sub.isParticipantConnected("pub")).isTrue();
            assertThat(got.poll(200, TimeUnit.MILLISECONDS)).isNull();
        } finally {
            sub.close();
            same.close();
            other.close();
            plain.close();
        }
        assertThatThrownBy(() -> Participant.connect(registry.uri() + "?partition=a/b", "sim", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partition 'a/b'");
        assertThatThrownBy(() -> Participant.connect(registry.uri() + "?colour=red", "sim", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("?partition=NAME");
        assertThatThrownBy(() -> Participant.connect(registry.uri(), "a/b", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not contain '/'");
    }

    @Test
    void connect_nameFreedAfterClose_canRejoin() {
        connect("alice").close();
        assertThat(connect("alice").name()).isEqualTo("alice");
    }

    @Test
    void connect_eightAtOnceThreeTimes_everyOneJoinsAndSeesTheOthers() throws Exception {
        // participants started together (a launch script, tandem sim's secondaries) all join; on
        // tandem:// a registry installing a view used to drop a concurrent joiner's discovery
        // request, which then failed after the whole registry timeout (about 7 % of such joins)
        int n = 8;
        for (int round = 0; round < 3; round++) {
            String simulation = "burst" + round;
            List<CompletableFuture<Participant>> joins = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String name = "p" + i;
                CompletableFuture<Participant> f = new CompletableFuture<>();
                Thread t = new Thread(() -> {
                    try {
                        f.complete(connect(simulation, name));
                    } catch (Throwable e) {
                        f.completeExceptionally(e);
                    }
                }, "join-" + simulation + "-" + name);
                t.setDaemon(true);
                t.start();
                joins.add(f);
            }
            List<Participant> joined = new ArrayList<>();
            for (CompletableFuture<Participant> f : joins) {
                joined.add(f.get(WAIT_S, TimeUnit.SECONDS));
            }
            // each sees the other seven (its own connect returns those already there; the rest arrive)
            for (Participant p : joined) {
                for (int i = 0; i < n; i++) {
                    String other = "p" + i;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
                    while (!other.equals(p.name()) && !p.isParticipantConnected(other) && System.nanoTime() < deadline) {
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    }
                    assertThat(other.equals(p.name()) || p.isParticipantConnected(other))
                            .as("%s in %s sees %s", p.name(), simulation, other).isTrue();
                }
            }
            for (Participant p : joined) {
                p.close();
            }
        }
    }

    @Test
    void fiveSimulations_concurrentOnOneRegistry_isolated() throws Exception {
        List<BlockingQueue<String>> got = new ArrayList<>();
        List<DataPublisher> pubs = new ArrayList<>();
        for (int s = 0; s < 5; s++) {
            BlockingQueue<String> q = new LinkedBlockingQueue<>();
            got.add(q);
            connect("sim" + s, "sub").createDataSubscriber("s", PubSubSpec.of("t", ""), e -> q.add(new String(e.data(), StandardCharsets.UTF_8)));
        }
        for (int s = 0; s < 5; s++) {
            pubs.add(connect("sim" + s, "pub").createDataPublisher("p", PubSubSpec.of("t", "m"), 0));
        }
        for (int s = 0; s < 5; s++) {
            pubs.get(s).publish(("from" + s).getBytes(StandardCharsets.UTF_8));
        }
        for (int s = 0; s < 5; s++) {
            assertThat(got.get(s).poll(WAIT_S, TimeUnit.SECONDS)).isEqualTo("from" + s);
        }
        // a marker per simulation proves nothing from other simulations was queued before it
        for (int s = 0; s < 5; s++) {
            pubs.get(s).publish("end".getBytes(StandardCharsets.UTF_8));
            assertThat(got.get(s).poll(WAIT_S, TimeUnit.SECONDS)).isEqualTo("end");
        }
    }

    @Test
    void connect_returns_earlierParticipantsAlreadyConnected() {
        List<Participant> ps = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Participant p = connect("p" + i);
            for (Participant earlier : ps) {
                assertThat(p.isParticipantConnected(earlier.name())).as("%s sees %s", p.name(), earlier.name()).isTrue();
                assertThat(p.createSystemMonitor().isParticipantConnected(earlier.name())).isTrue();
            }
            ps.add(p);
        }
        assertThat(ps.get(0).isParticipantConnected("nobody")).isFalse();
    }

    @Test
    void connectedAndDisconnectedHandlers_fireInOrder() throws Exception {
        Participant observer = connect("observer");
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        observer.addParticipantConnectedHandler(n -> events.add("+" + n));
        observer.addParticipantDisconnectedHandler(n -> events.add("-" + n));
        Participant a = connect("a");
        Participant b = connect("b");
        a.close();
        Participant c = connect("c");
        b.close();
        c.close();
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            seen.add(events.poll(WAIT_S, TimeUnit.SECONDS));
        }
        assertThat(seen).containsExactly("+a", "+b", "-a", "+c", "-b", "-c");
        assertThat(observer.isParticipantConnected("a")).isFalse();
    }

    @Test
    void disconnect_ofParticipantWithoutShutdown_reportsConnectionLostError() {
        Participant observer = connect("observer");
        Participant worker = connect("worker");
        worker.createLifecycleService(OperationMode.AUTONOMOUS).startLifecycle();
        CompletableFuture<ParticipantStatus> lost = new CompletableFuture<>();
        CompletableFuture<Void> running = new CompletableFuture<>();
        observer.createSystemMonitor().addParticipantStatusHandler(st -> {
            if (st.participantName().equals("worker") && st.state() == ParticipantState.RUNNING) {
                running.complete(null);
            }
            if (st.participantName().equals("worker") && st.state() == ParticipantState.ERROR) {
                lost.complete(st);
            }
        });
        await(running);
        worker.close();
        assertThat(await(lost).reason()).isEqualTo("Connection Lost");
    }

    @Test
    void connect_unknownScheme_throwsNamingScheme() {
        assertThatThrownBy(() -> Participant.connect("silkit://localhost:8500", "sim", "p"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("silkit")
                .hasMessageContaining("tandem+inproc");
        assertThatThrownBy(() -> Registry.start("ftp://x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ftp");
    }

    @Test
    void connect_malformedOrEmptyUri_throws() {
        assertThatThrownBy(() -> Participant.connect("", "sim", "p"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("registry URI");
        assertThatThrownBy(() -> Participant.connect(null, "sim", "p"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("registry URI");
        assertThatThrownBy(() -> Participant.connect("no scheme here", "sim", "p"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void connect_nullOrEmptyNames_throw() {
        assertThatThrownBy(() -> connect("sim", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("participant name");
        assertThatThrownBy(() -> connect("sim", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("participant name");
        assertThatThrownBy(() -> connect("", "p")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("simulation name");
        assertThatThrownBy(() -> connect(null, "p")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("simulation name");
    }

    @Test
    void serviceNames_nullOrEmpty_throw() {
        Participant p = connect("p");
        assertThatThrownBy(() -> p.createDataPublisher("", PubSubSpec.of("t", "m"), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.createDataSubscriber(null, PubSubSpec.of("t", "m"), e -> { }))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PubSubSpec.of("", "m")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("topic");
        assertThatThrownBy(() -> new MatchingLabel("", "v", MatchingLabel.Kind.OPTIONAL))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key");
    }

    @Test
    void createServiceAfterClose_throwsIllegalState() {
        Participant p = connect("p");
        p.close();
        p.close(); // idempotent
        assertThatThrownBy(() -> p.createDataPublisher("pub", PubSubSpec.of("t", "m"), 0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(connect("observer").isParticipantConnected("p")).isFalse();
    }
}
