package io.tandem.cosim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.Registry;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The steady-state lockstep allocates nothing on the participants' threads: each participant's
 * worker measures its own allocated bytes over 20 000 steps after a 5 000-step warm-up.
 */
@SuppressForbidden // per-thread allocation counters live in com.sun.management
class AllocationTest {
    private static final long MS = 1_000_000;

    @Test
    void lockstep_steadyState_allocatesNothingPerStep() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int n = 3;
        long warmup = 5_000;
        long measured = 20_000;
        long[] allocated = new long[n];
        try (Registry registry = Registry.start("tandem+inproc://allocation-test")) {
            List<Participant> ps = new ArrayList<>();
            List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
            Participant ctl = Participant.connect(registry.uri(), "sim", "controller");
            for (int i = 0; i < n; i++) {
                ps.add(Participant.connect(registry.uri(), "sim", "p" + i));
            }
            ctl.createSystemController().setWorkflowConfiguration(List.of("p0", "p1", "p2"));
            for (int i = 0; i < n; i++) {
                int id = i;
                LifecycleService lc = ps.get(i).createLifecycleService(OperationMode.COORDINATED);
                long[] startBytes = new long[1];
                lc.createTimeSyncService().setSimulationStepHandler((now, d) -> {
                    if (now == warmup * MS) {
                        startBytes[0] = mx.getCurrentThreadAllocatedBytes();
                    } else if (now == (warmup + measured) * MS) {
                        allocated[id] = mx.getCurrentThreadAllocatedBytes() - startBytes[0];
                        if (id == 0) {
                            lc.stop("measured");
                        }
                    }
                }, MS);
                done.add(lc.startLifecycle());
            }
            for (CompletableFuture<ParticipantState> f : done) {
                assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(ParticipantState.SHUTDOWN);
            }
            for (Participant p : ps) {
                p.close();
            }
            ctl.close();
        }
        for (int i = 0; i < n; i++) {
            // a bound, not zero: the measurement itself and rare JIT deoptimizations may allocate a little
            assertThat(allocated[i]).as("bytes allocated by p%d over %d steps", i, measured).isLessThan(measured / 10);
        }
    }
}
