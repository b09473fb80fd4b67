package io.tandem.cosim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void threeCoordinated_stepAndStop() throws Exception {
        try (Registry r = Registry.start("tandem+inproc://smoke")) {
            Participant ctl = Participant.connect(r.uri(), "s", "ctl");
            ctl.createSystemController().setWorkflowConfiguration(List.of("a", "b", "c"));
            AtomicLong[] last = new AtomicLong[3];
            CompletableFuture<?>[] fs = new CompletableFuture<?>[3];
            Participant[] ps = new Participant[3];
            long[] steps = {1_000_000, 2_000_000, 3_000_000};
            for (int i = 0; i < 3; i++) {
                ps[i] = Participant.connect(r.uri(), "s", "abc".substring(i, i + 1));
                LifecycleService lc = ps[i].createLifecycleService(OperationMode.COORDINATED);
                TimeSyncService ts = lc.createTimeSyncService();
                AtomicLong l = last[i] = new AtomicLong();
                int k = i;
                ts.setSimulationStepHandler((now, d) -> {
                    l.set(now);
                    if (k == 0 && now >= 100_000_000) {
                        lc.stop("done");
                    }
                }, steps[i]);
                fs[i] = lc.startLifecycle();
            }
            for (CompletableFuture<?> f : fs) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(ParticipantState.SHUTDOWN);
            }
            assertThat(last[0].get()).isEqualTo(100_000_000);
            for (Participant p : ps) {
                p.close();
            }
            ctl.close();
        }
    }
}
