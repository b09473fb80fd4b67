package io.tandem.bench.cosim;

import io.tandem.bench.internal.ProcessCpu;
import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.TimeSyncService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * One time-synchronized participant in its own JVM, driven by {@link AeronTimeSyncScenario} over
 * standard input and output, one line each:
 *
 * <pre>
 *   RUN URI SIM NAME STOPPER STEPS TIMEOUT_MS  connect, create a coordinated lifecycle with a blocking
 *                                  1 ms step handler (STOPPER 1: stop after STEPS steps);
 *                                  answers READY
 *   GO                             start the lifecycle, wait for SHUTDOWN; answers
 *                                  DONE START_NS END_NS STEPS STATE IDLE_CPU_NS IDLE_WALL_NS RUN_CPU_NS
 *                                  (System.nanoTime is one monotonic clock for every process of the host)
 *   CLOSE                          close the participant; answers CLOSED
 * </pre>
 *
 * An error answers {@code ERROR message}; the end of standard input ends the process.
 */
final class TimeSyncWorkerMain {
    private TimeSyncWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Participant participant = null;
        LifecycleService lifecycle = null;
        TimeSyncScenario.StepCounter counter = null;
        long timeoutMs = 0;
        long readyCpuNs = 0;
        long readyNs = 0;
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split(" ");
            try {
                switch (w[0]) {
                    case "RUN" -> {
                        participant = Participant.connect(w[1], w[2], w[3]);
                        long steps = Long.parseLong(w[5]);
                        timeoutMs = Long.parseLong(w[6]);
                        lifecycle = participant.createLifecycleService(OperationMode.COORDINATED);
                        TimeSyncService ts = lifecycle.createTimeSyncService();
                        counter = new TimeSyncScenario.StepCounter(w[4].equals("1") ? lifecycle : null,
                                (steps - 1) * TimeSyncScenario.STEP_SIZE_NS);
                        ts.setSimulationStepHandler(counter, TimeSyncScenario.STEP_SIZE_NS);
                        readyCpuNs = ProcessCpu.nowNs();
                        readyNs = System.nanoTime();
                        out.println("READY");
                    }
                    case "GO" -> {
                        long goNs = System.nanoTime();
                        long goCpuNs = ProcessCpu.nowNs();
                        long t1 = System.nanoTime();
                        ParticipantState end = lifecycle.startLifecycle().get(timeoutMs, TimeUnit.MILLISECONDS);
                        long t2 = System.nanoTime();
                        long runCpuNs = ProcessCpu.nowNs() - goCpuNs;
                        out.println("DONE " + t1 + " " + t2 + " " + counter.steps + " " + end + " "
                                + (goCpuNs - readyCpuNs) + " " + (goNs - readyNs) + " " + runCpuNs);
                    }
                    case "CLOSE" -> {
                        if (participant != null) {
                            participant.close();
                        }
                        participant = null;
                        out.println("CLOSED");
                    }
                    default -> out.println("ERROR unknown command " + w[0]);
                }
            } catch (Exception e) {
                out.println("ERROR " + e.toString().replace('\n', ' ')
                        + (lifecycle == null ? "" : " (state " + lifecycle.state() + ")"));
            }
            out.flush();
        }
        // the parent is gone
        Runtime.getRuntime().halt(participant == null ? 0 : 3);
    }
}
