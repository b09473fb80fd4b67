package io.tandem.cosim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.ParticipantStatus;
import io.tandem.cosim.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A participant that loses its registry (the transport calls onConnectionLost), on the in-process
 * transport's test hook {@link InprocTransport.Session#loseConnection}: the connection-lost
 * handlers, {@link Participant#isConnected()}, and the end of a coordinated lifecycle. The
 * networked transport is tested with a real registry in tandem-net.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectionLostTest {
    private static final long WAIT_S = 30;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private Registry registry;

    @AfterEach
    void closeEverything() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private Participant connect(String name) {
        if (registry == null) {
            registry = Registry.start("tandem+inproc://connection-lost-" + System.identityHashCode(this));
            closeables.add(registry);
        }
        Participant p = Participant.connect(registry.uri(), "sim", name);
        closeables.add(p);
        return p;
    }

    private static void cutOff(Participant p) {
        ((InprocTransport.Session) ((ParticipantCore) p).session()).loseConnection("cut off by the test");
    }

    private static <T> T await(CompletableFuture<T> f) throws Exception {
        return f.get(WAIT_S, TimeUnit.SECONDS);
    }

    private static CompletableFuture<ParticipantStatus> when(Participant observer, String who, ParticipantState state) {
        CompletableFuture<ParticipantStatus> f = new CompletableFuture<>();
        observer.createSystemMonitor().addParticipantStatusHandler(s -> {
            if (s.participantName().equals(who) && s.state() == state) {
                f.complete(s);
            }
        });
        return f;
    }

    @Test
    void loseConnection_coordinatedParticipant_handlersToldAndLifecycleEndsInErrorNamingRegistry() throws Exception {
        Participant ctl = connect("controller");
        ctl.createSystemController().setWorkflowConfiguration(List.of("a", "b"));
        Participant a = connect("a");
        Participant b = connect("b");
        LifecycleService la = a.createLifecycleService(OperationMode.COORDINATED);
        LifecycleService lb = b.createLifecycleService(OperationMode.COORDINATED);
        la.createTimeSyncService().setSimulationStepHandler((now, d) -> { }, 1_000_000);
        lb.createTimeSyncService().setSimulationStepHandler((now, d) -> { }, 1_000_000);
        CompletableFuture<String> lost = new CompletableFuture<>();
        a.addConnectionLostHandler(lost::complete);
        CompletableFuture<ParticipantStatus> aError = when(a, "a", ParticipantState.ERROR);
        CompletableFuture<ParticipantStatus> bError = when(ctl, "b", ParticipantState.ERROR);
        List<String> aSawDisconnected = new CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch bothGone = new java.util.concurrent.CountDownLatch(2);
        a.addParticipantDisconnectedHandler(name -> {
            aSawDisconnected.add(name);
            bothGone.countDown();
        });
        CompletableFuture<ParticipantStatus> running = when(ctl, "b", ParticipantState.RUNNING);
        CompletableFuture<ParticipantState> aDone = la.startLifecycle();
        CompletableFuture<ParticipantState> bDone = lb.startLifecycle();
        await(running);
        assertThat(a.isConnected()).isTrue();

        cutOff(a);

        String why = await(lost);
        assertThat(why).startsWith("participant 'a' lost its connection to the registry at " + registry.uri())
                .contains("cut off by the test");
        assertThat(a.isConnected()).isFalse();
        assertThat(await(aError).reason()).isEqualTo(why);
        assertThat(await(aDone)).isEqualTo(ParticipantState.SHUTDOWN);
        // the others see a lost and end too, naming it
        assertThat(await(bError).reason()).startsWith("participant 'a' lost its connection");
        assertThat(await(bDone)).isEqualTo(ParticipantState.SHUTDOWN);
        // the disconnect handlers run on a's thread, possibly after its lifecycle future completed
        assertThat(bothGone.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
        assertThat(aSawDisconnected).containsExactlyInAnyOrder("controller", "b");
        // a handler added after the loss is told at once
        CompletableFuture<String> late = new CompletableFuture<>();
        a.addConnectionLostHandler(late::complete);
        assertThat(await(late)).isEqualTo(why);
        assertThat(b.isConnected()).isTrue();
    }

    @Test
    void loseConnection_autonomousParticipant_toldButKeepsRunning() throws Exception {
        Participant p = connect("p");
        connect("other");
        LifecycleService lc = p.createLifecycleService(OperationMode.AUTONOMOUS);
        CompletableFuture<ParticipantStatus> running = when(p, "p", ParticipantState.RUNNING);
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        await(running);
        CompletableFuture<String> lost = new CompletableFuture<>();
        p.addConnectionLostHandler(lost::complete);

        cutOff(p);

        assertThat(await(lost)).contains("'p'").contains(registry.uri());
        // a status round trip on p's thread: the loss has been handled before it
        assertThat(((ParticipantCore) p).callOnWorker(() -> lc.state())).isEqualTo(ParticipantState.RUNNING);
        lc.stop("done");
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
    }

    @Test
    void close_participant_isConnectedFalse() {
        Participant p = connect("p");
        assertThat(p.isConnected()).isTrue();
        p.close();
        assertThat(p.isConnected()).isFalse();
    }
}
