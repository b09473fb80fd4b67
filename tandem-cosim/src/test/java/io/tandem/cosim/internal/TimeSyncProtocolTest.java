package io.tandem.cosim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.Registry;
import io.tandem.cosim.TimeSyncService;
import io.tandem.cosim.VirtualTime;
import io.tandem.cosim.msg.BarrierReply;
import io.tandem.cosim.msg.BarrierRequest;
import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.msg.LifecycleAnnouncement;
import io.tandem.cosim.msg.StatusUpdate;
import io.tandem.cosim.spi.TransportListener;
import io.tandem.cosim.spi.TransportSession;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The NextSimTask protocol of one participant (SIL Kit Test_TimeSyncService), observed and driven
 * by a scripted peer that joins the in-process transport directly: the test decides when the
 * participant may advance.
 */
class TimeSyncProtocolTest {
    private static final long MS = 1_000_000;
    private Registry registry;
    private Participant participant;

    /** A transport-level peer that records NextSimTasks and answers barriers. */
    private static final class ScriptedPeer implements TransportListener {
        final BlockingQueue<long[]> nextSimTasks = new LinkedBlockingQueue<>();
        final BlockingQueue<ParticipantState> states = new LinkedBlockingQueue<>();
        TransportSession session;

        static ScriptedPeer join(String registryUri, String name) {
            ScriptedPeer p = new ScriptedPeer();
            p.session = Transports.forScheme(Transports.parse(registryUri))
                    .join(Transports.parse(registryUri), "sim", name, p);
            return p;
        }

        void announceTimeSynced() {
            session.broadcast(new LifecycleAnnouncement(OperationMode.AUTONOMOUS, true));
        }

        long[] nextTask() throws InterruptedException {
            long[] t = nextSimTasks.poll(30, TimeUnit.SECONDS);
            assertThat(t).as("a NextSimTask within 30 s").isNotNull();
            return t;
        }

        @Override
        public void onPeerJoined(int peerId, String participantName) {
        }

        @Override
        public void onPeerLeft(int peerId, String participantName, boolean connectionLost) {
        }

        @Override
        public void onMessage(int fromPeerId, CosimMessage message) {
            if (message instanceof BarrierRequest r) {
                session.send(fromPeerId, new BarrierReply(r.barrierId()));
            } else if (message instanceof StatusUpdate u) {
                states.add(u.state());
            }
        }

        @Override
        public void onNextSimTask(int fromPeerId, long timePointNs, long durationNs) {
            nextSimTasks.add(new long[] {timePointNs, durationNs});
        }
    }

    @BeforeEach
    void start() {
        registry = Registry.start("tandem+inproc://timesync-protocol-" + System.identityHashCode(this));
    }

    @AfterEach
    void stop() {
        if (participant != null) {
            participant.close();
        }
        registry.close();
    }

    @Test
    void firstNextSimTaskIsZero_nextOnlyAfterCompleteSimulationStep_advanceOnlyWhenPeerCaughtUp() throws Exception {
        ScriptedPeer peer = ScriptedPeer.join(registry.uri(), "peer");
        participant = Participant.connect(registry.uri(), "sim", "p");
        peer.announceTimeSynced();
        LifecycleService lc = participant.createLifecycleService(OperationMode.AUTONOMOUS);
        TimeSyncService ts = lc.createTimeSyncService();
        BlockingQueue<Long> steps = new LinkedBlockingQueue<>();
        ts.setSimulationStepHandlerAsync((now, d) -> steps.add(now), MS);
        lc.startLifecycle();

        assertThat(peer.nextTask()).containsExactly(0, MS);
        // the peer has announced nothing: the participant must not have stepped
        assertThat(ts.now()).isEqualTo(VirtualTime.INVALID_NS);
        assertThat(steps).isEmpty();

        peer.session.broadcastNextSimTask(0, MS);
        assertThat(steps.poll(30, TimeUnit.SECONDS)).isEqualTo(0L);
        // the async step is open: no announcement of the next step yet
        assertThat(peer.nextSimTasks).isEmpty();
        ts.completeSimulationStep();
        assertThat(peer.nextTask()).containsExactly(MS, MS);

        // the peer is still at 0 < 1 ms: no step at 1 ms until it announces 1 ms
        assertThat(steps).isEmpty();
        peer.session.broadcastNextSimTask(5 * MS, 5 * MS);
        assertThat(steps.poll(30, TimeUnit.SECONDS)).isEqualTo(MS);
        ts.completeSimulationStep();
        ts.completeSimulationStep(); // extra completion: harmless
        assertThat(peer.nextTask()).containsExactly(2 * MS, MS);
        for (long t = 2; t <= 5; t++) {
            assertThat(steps.poll(30, TimeUnit.SECONDS)).isEqualTo(t * MS);
            ts.completeSimulationStep();
            assertThat(peer.nextTask()).containsExactly((t + 1) * MS, MS);
        }
        // 6 ms > the peer's 5 ms: waits again
        assertThat(steps).isEmpty();
    }

    @Test
    void newTimeSyncedPeer_triggersResendOfCurrentTask() throws Exception {
        ScriptedPeer first = ScriptedPeer.join(registry.uri(), "first");
        participant = Participant.connect(registry.uri(), "sim", "p");
        first.announceTimeSynced();
        LifecycleService lc = participant.createLifecycleService(OperationMode.AUTONOMOUS);
        TimeSyncService ts = lc.createTimeSyncService();
        BlockingQueue<Long> steps = new LinkedBlockingQueue<>();
        ts.setSimulationStepHandler((now, d) -> steps.add(now), MS);
        lc.startLifecycle();
        assertThat(first.nextTask()).containsExactly(0, MS);
        // a peer with 5 ms steps at its first step (not past it: no hop-on), then at its second
        first.session.broadcastNextSimTask(0, 5 * MS);
        assertThat(steps.poll(30, TimeUnit.SECONDS)).isEqualTo(0L);
        first.session.broadcastNextSimTask(5 * MS, 5 * MS);
        for (long t = 1; t <= 5; t++) {
            assertThat(steps.poll(30, TimeUnit.SECONDS)).isEqualTo(t * MS);
        }
        while (first.nextTask()[0] < 6 * MS) {
            // drain the announcements up to 6 ms
        }
        ScriptedPeer late = ScriptedPeer.join(registry.uri(), "late");
        late.announceTimeSynced();
        // the late peer never saw the earlier broadcasts; the participant re-sends its next task
        assertThat(late.nextTask()).containsExactly(6 * MS, MS);
    }

    @Test
    void hopOn_autonomousFindsPeerPastFirstStep_startsAtPeersTimeAndAnnouncesIt() throws Exception {
        ScriptedPeer running = ScriptedPeer.join(registry.uri(), "running");
        participant = Participant.connect(registry.uri(), "sim", "p");
        running.announceTimeSynced();
        running.session.broadcastNextSimTask(42 * MS, MS);
        LifecycleService lc = participant.createLifecycleService(OperationMode.AUTONOMOUS);
        TimeSyncService ts = lc.createTimeSyncService();
        BlockingQueue<Long> steps = new LinkedBlockingQueue<>();
        ts.setSimulationStepHandler((now, d) -> steps.add(now), MS);
        lc.startLifecycle();
        assertThat(steps.poll(30, TimeUnit.SECONDS)).as("first step after hop-on").isEqualTo(42 * MS);
        long[] t;
        do {
            t = running.nextTask();
        } while (t[0] == 0);
        assertThat(t[0]).isEqualTo(42 * MS);
    }

    @Test
    void hopOn_coordinatedFindsAdvancedTime_abortsSimulation() throws Exception {
        ScriptedPeer running = ScriptedPeer.join(registry.uri(), "running");
        participant = Participant.connect(registry.uri(), "sim", "p");
        participant.createSystemController().setWorkflowConfiguration(java.util.List.of("p"));
        running.announceTimeSynced();
        running.session.broadcastNextSimTask(42 * MS, MS);
        LifecycleService lc = participant.createLifecycleService(OperationMode.COORDINATED);
        TimeSyncService ts = lc.createTimeSyncService();
        BlockingQueue<Long> steps = new LinkedBlockingQueue<>();
        ts.setSimulationStepHandler((now, d) -> steps.add(now), MS);
        assertThat(lc.startLifecycle().get(30, TimeUnit.SECONDS)).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(steps).isEmpty();
        assertThat(running.states).contains(ParticipantState.ABORTING);
    }
}
