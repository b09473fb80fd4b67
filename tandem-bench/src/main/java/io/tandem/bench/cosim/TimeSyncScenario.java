package io.tandem.bench.cosim;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.Registry;
import io.tandem.cosim.SimulationStepHandler;
import io.tandem.cosim.TimeSyncService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/*
 * Implementation notes.
 *
 * Mirrors the time-sync-only mode of SIL Kit's SilKitDemoBenchmark (shared/specs/silkit.md 4.6):
 * N coordinated participants with blocking step handlers and 1 ms steps, no payload, plus a
 * controller participant without lifecycle that sets the workflow configuration. p0 stops in its
 * step at (S - 1) ms, so it executes exactly S steps; the others may run one step fewer, since the
 * stop can overtake their last step.
 *
 * Everyone connects before any service or the workflow configuration exists, so connection set-up
 * is timed apart from the lifecycle and the steps.
 *
 * Wall time is System.nanoTime: this is the measuring harness, not simulation logic.
 */

/**
 * Runs one {@code bench timesync} measurement in this process, on a fresh in-process registry.
 * Blocks the calling thread, which waits (parked) while the participants' threads step.
 */
final class TimeSyncScenario {
    /** Step size of every participant: 1 ms. */
    static final long STEP_SIZE_NS = 1_000_000;
    static final String SIMULATION = "bench";

    private TimeSyncScenario() {
    }

    /**
     * @param participants  number of time-synchronized participants, at least 1
     * @param steps         steps to run, at least 1
     * @param registryName  name of the in-process registry to start (must be free)
     * @param timeoutMs     wall ms to wait for every participant to shut down
     * @return the timings
     * @throws TimeoutException      if a participant is not in SHUTDOWN within the timeout (the
     *                               message names the states)
     * @throws IllegalStateException if participant 0 did not execute exactly {@code steps} steps
     */
    static TimeSyncResult run(int participants, long steps, String registryName, long timeoutMs)
            throws TimeoutException, InterruptedException {
        long t0 = System.nanoTime();
        Registry registry = Registry.start("tandem+inproc://" + registryName);
        Participant controller = null;
        Participant[] ps = new Participant[participants];
        LifecycleService[] lcs = new LifecycleService[participants];
        StepCounter[] counters = new StepCounter[participants];
        long t1;
        long t2;
        try {
            List<String> names = new ArrayList<>();
            controller = Participant.connect(registry.uri(), SIMULATION, "controller");
            for (int i = 0; i < participants; i++) {
                names.add("p" + i);
                ps[i] = Participant.connect(registry.uri(), SIMULATION, names.get(i));
            }
            controller.createSystemController().setWorkflowConfiguration(names);
            for (int i = 0; i < participants; i++) {
                lcs[i] = ps[i].createLifecycleService(OperationMode.COORDINATED);
                TimeSyncService ts = lcs[i].createTimeSyncService();
                counters[i] = new StepCounter(i == 0 ? lcs[i] : null, (steps - 1) * STEP_SIZE_NS);
                ts.setSimulationStepHandler(counters[i], STEP_SIZE_NS);
            }
            List<CompletableFuture<ParticipantState>> futures = new ArrayList<>(participants);
            t1 = System.nanoTime();
            for (LifecycleService lc : lcs) {
                futures.add(lc.startLifecycle());
            }
            try {
                CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).get(timeoutMs, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new TimeoutException(participants + " participants, " + steps + " steps: not shut down after "
                        + timeoutMs + " ms; states " + states(names, lcs) + ", p0 at step " + counters[0].steps);
            } catch (ExecutionException e) {
                throw new IllegalStateException("a lifecycle failed: " + e.getCause(), e.getCause());
            }
            t2 = System.nanoTime();
        } finally {
            for (Participant p : ps) {
                if (p != null) {
                    p.close();
                }
            }
            if (controller != null) {
                controller.close();
            }
            registry.close();
        }
        long t3 = System.nanoTime();
        if (counters[0].steps != steps) {
            throw new IllegalStateException("participant p0 executed " + counters[0].steps + " steps, expected " + steps);
        }
        return new TimeSyncResult(participants, steps, t1 - t0, t2 - t1, t3 - t2);
    }

    private static String states(List<String> names, LifecycleService[] lcs) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < lcs.length; i++) {
            b.append(i == 0 ? "" : ", ").append(names.get(i)).append('=').append(lcs[i].state());
        }
        return b.toString();
    }

    /**
     * A blocking step handler that counts its steps and, for participant 0, stops at the last
     * step. Runs on its participant's thread; allocates nothing per step.
     */
    static final class StepCounter implements SimulationStepHandler {
        private final LifecycleService stopper;
        private final long lastNs;
        /** steps executed; read by other threads only after the lifecycle future completed */
        long steps;

        StepCounter(LifecycleService stopper, long lastNs) {
            this.stopper = stopper;
            this.lastNs = lastNs;
        }

        @Override
        public void onStep(long nowNs, long durationNs) {
            steps++;
            if (stopper != null && nowNs == lastNs) {
                stopper.stop("benchmark done");
            }
        }
    }
}
