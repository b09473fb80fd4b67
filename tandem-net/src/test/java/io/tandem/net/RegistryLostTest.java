package io.tandem.net;

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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A tandem:// registry that goes away under its participants (Registry.close() documents it): each
 * participant is told it lost its connection, naming the registry URI, and coordinated lifecycles
 * end in Error and shut down instead of waiting for good. A killed registry process is tested in
 * tandem-cli (NetReliabilityTest, ToolsErrorTest).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RegistryLostTest {
    private static final long WAIT_S = 20;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closeLater(T c) {
        open.add(c);
        return c;
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
    void registryClosed_participantsToldNamingUriAndCoordinatedLifecyclesShutDown() throws Exception {
        Registry registry = closeLater(Registry.start("tandem://127.0.0.1:0"));
        String uri = registry.uri();
        Participant ctl = closeLater(Participant.connect(uri, "sim", "controller"));
        ctl.createSystemController().setWorkflowConfiguration(List.of("a", "b"));
        List<LifecycleService> lcs = new ArrayList<>();
        List<CompletableFuture<String>> lost = new ArrayList<>();
        List<CompletableFuture<ParticipantStatus>> errors = new ArrayList<>();
        List<Participant> ps = new ArrayList<>();
        for (String n : List.of("a", "b")) {
            Participant p = closeLater(Participant.connect(uri, "sim", n));
            ps.add(p);
            LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
            lc.createTimeSyncService().setSimulationStepHandler((now, d) -> { }, 1_000_000);
            lcs.add(lc);
            CompletableFuture<String> f = new CompletableFuture<>();
            p.addConnectionLostHandler(f::complete);
            lost.add(f);
            errors.add(when(p, n, ParticipantState.ERROR));
        }
        CompletableFuture<String> ctlLost = new CompletableFuture<>();
        ctl.addConnectionLostHandler(ctlLost::complete);
        CompletableFuture<ParticipantStatus> running = when(ctl, "b", ParticipantState.RUNNING);
        List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
        for (LifecycleService lc : lcs) {
            done.add(lc.startLifecycle());
        }
        running.get(WAIT_S, TimeUnit.SECONDS);
        assertThat(ps).allSatisfy(p -> assertThat(p.isConnected()).isTrue());

        registry.close();

        for (int i = 0; i < 2; i++) {
            String n = ps.get(i).name();
            String why = lost.get(i).get(WAIT_S, TimeUnit.SECONDS);
            assertThat(why).startsWith("participant '" + n + "' lost its connection to the registry at " + uri);
            assertThat(errors.get(i).get(WAIT_S, TimeUnit.SECONDS).reason()).isEqualTo(why);
            assertThat(done.get(i).get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(ParticipantState.SHUTDOWN);
            assertThat(ps.get(i).isConnected()).isFalse();
        }
        assertThat(ctlLost.get(WAIT_S, TimeUnit.SECONDS)).contains("'controller'").contains(uri);
        assertThat(ctl.isParticipantConnected("a")).isFalse();
    }
}
