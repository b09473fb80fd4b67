package io.tandem.cli.demo;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.ParticipantStatus;
import io.tandem.cosim.Registry;
import io.tandem.cosim.SystemMonitor;
import io.tandem.cosim.SystemState;
import io.tandem.cosim.TimeSyncService;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/*
 * Implementation notes.
 *
 * Every participant connects before any service exists, so the whole graph is known before the
 * first announcement: the demo's output then depends only on virtual time, not on join order.
 */

/**
 * Runs the co-simulation demo: a system controller (also the system monitor) and N coordinated,
 * time-synchronized participants in one process, on a fresh in-process registry. Blocks the
 * calling thread until the run ends or times out. Allocates freely (this is a demo, not a hot path).
 */
final class CosimDemo {

    static final String SIMULATION = "demo";
    static final String CONTROLLER = "controller";
    static final String MEDIA_TYPE = "text/plain";
    private static final AtomicInteger RUNS = new AtomicInteger();

    private CosimDemo() {
    }

    /** @return the topic a participant publishes on */
    static String topic(int index) {
        return "demo/" + CosimDemoConfig.participantName(index);
    }

    /**
     * Runs the demo once.
     *
     * @param config what to run
     * @return the report; {@link CosimDemoReport#succeeded()} is false if a participant did not
     *     reach SHUTDOWN, or the monitor did not see it, within the timeout
     */
    static CosimDemoReport run(CosimDemoConfig config) {
        int n = config.participants();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(CosimDemoConfig.participantName(i));
        }
        MonitorLog monitorLog = new MonitorLog(names);
        DemoParticipant[] logic = new DemoParticipant[n];
        Participant[] participants = new Participant[n];
        LifecycleService[] lifecycles = new LifecycleService[n];
        List<CompletableFuture<ParticipantState>> futures = new ArrayList<>();
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.timeoutMs());
        String failure = null;
        MonitorLog.Snapshot seen = null;
        Registry registry = Registry.start("tandem+inproc://tandem-demo-cosim-" + RUNS.incrementAndGet());
        Participant controller = null;
        try {
            // connect everyone before creating any service (see the notes above)
            controller = Participant.connect(registry.uri(), SIMULATION, CONTROLLER);
            for (int i = 0; i < n; i++) {
                participants[i] = Participant.connect(registry.uri(), SIMULATION, names.get(i));
            }
            SystemMonitor monitor = controller.createSystemMonitor();
            monitor.addParticipantStatusHandler(monitorLog::onStatus);
            monitor.addSystemStateHandler(monitorLog::onSystemState);
            controller.createSystemController().setWorkflowConfiguration(names);

            for (int i = 0; i < n; i++) {
                DemoParticipant p = new DemoParticipant(i, config.durationNs(), i == 0);
                logic[i] = p;
                DataPublisher pub = participants[i].createDataPublisher("out", PubSubSpec.of(topic(i), MEDIA_TYPE), 0);
                for (int j = 0; j < n; j++) {
                    if (j != i) {
                        int sender = j;
                        participants[i].createDataSubscriber("in-" + CosimDemoConfig.participantName(j),
                                PubSubSpec.of(topic(j), MEDIA_TYPE), event -> p.onData(sender, event));
                    }
                }
                LifecycleService lc = participants[i].createLifecycleService(OperationMode.COORDINATED);
                TimeSyncService ts = lc.createTimeSyncService();
                ts.setSimulationStepHandler(p::onStep, config.stepSizesNs().get(i));
                lifecycles[i] = lc;
                p.attach(pub, lc);
            }
            for (LifecycleService lc : lifecycles) {
                futures.add(lc.startLifecycle());
            }
            failure = await(futures, monitorLog, names, lifecycles, deadlineNs);
            // before closing: leaving participants must not show up in what the monitor saw
            seen = monitorLog.snapshot();
        } finally {
            for (Participant p : participants) {
                if (p != null) {
                    p.close();
                }
            }
            if (controller != null) {
                controller.close();
            }
            registry.close();
        }

        Map<String, ParticipantState> finalStates = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            CompletableFuture<ParticipantState> f = i < futures.size() ? futures.get(i) : null;
            finalStates.put(names.get(i), f != null && f.isDone() && !f.isCompletedExceptionally()
                    ? f.join() : lifecycles[i] == null ? ParticipantState.INVALID : lifecycles[i].state());
        }
        List<CosimDemoReport.StepRecord> steps = new ArrayList<>();
        if (failure == null) {
            for (DemoParticipant p : logic) {
                steps.addAll(p.log());
            }
            steps.sort(Comparator.comparingLong(CosimDemoReport.StepRecord::nowNs)
                    .thenComparingInt(CosimDemoReport.StepRecord::participant));
        }
        return new CosimDemoReport(config, List.copyOf(steps), seen.participantStates(), finalStates,
                seen.systemStates(), failure);
    }

    /** Waits for every lifecycle future, then for the monitor. @return null, or why it failed */
    private static String await(List<CompletableFuture<ParticipantState>> futures, MonitorLog monitorLog,
            List<String> names, LifecycleService[] lifecycles, long deadlineNs) {
        try {
            CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0]))
                    .get(remainingNs(deadlineNs), TimeUnit.NANOSECONDS);
            for (int i = 0; i < futures.size(); i++) {
                ParticipantState s = futures.get(i).join();
                if (s != ParticipantState.SHUTDOWN) {
                    return names.get(i) + " ended in " + s + ", not SHUTDOWN";
                }
            }
            monitorLog.allShutdown().get(remainingNs(deadlineNs), TimeUnit.NANOSECONDS);
            return null;
        } catch (TimeoutException e) {
            StringBuilder b = new StringBuilder("timed out: ");
            boolean any = false;
            for (int i = 0; i < lifecycles.length; i++) {
                ParticipantState s = lifecycles[i].state();
                if (s != ParticipantState.SHUTDOWN) {
                    b.append(any ? ", " : "").append(names.get(i)).append(" is ").append(s);
                    any = true;
                }
            }
            if (!any) {
                b.append("every participant reached SHUTDOWN, but the monitor did not see the system state SHUTDOWN");
            } else {
                b.append(" (not SHUTDOWN)");
            }
            return b.toString();
        } catch (ExecutionException e) {
            return "a lifecycle failed: " + e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static long remainingNs(long deadlineNs) {
        return Math.max(0, deadlineNs - System.nanoTime());
    }

    /**
     * What the system monitor saw. Handlers run on the controller's thread; {@link #snapshot()}
     * may run on any thread.
     */
    static final class MonitorLog {
        private final List<String> names;
        private final Map<String, List<ParticipantState>> participantStates = new LinkedHashMap<>();
        private final List<SystemState> systemStates = new ArrayList<>();
        private final CompletableFuture<Void> allShutdown = new CompletableFuture<>();

        MonitorLog(List<String> names) {
            this.names = names;
            for (String name : names) {
                participantStates.put(name, new ArrayList<>());
            }
        }

        synchronized void onStatus(ParticipantStatus status) {
            List<ParticipantState> seen = participantStates.get(status.participantName());
            if (seen != null && (seen.isEmpty() || seen.get(seen.size() - 1) != status.state())) {
                seen.add(status.state());
            }
            check();
        }

        synchronized void onSystemState(SystemState state) {
            if (systemStates.isEmpty() || systemStates.get(systemStates.size() - 1) != state) {
                systemStates.add(state);
            }
            check();
        }

        private void check() {
            if (systemStates.isEmpty() || systemStates.get(systemStates.size() - 1) != SystemState.SHUTDOWN) {
                return;
            }
            for (String name : names) {
                List<ParticipantState> seen = participantStates.get(name);
                if (seen.isEmpty() || seen.get(seen.size() - 1) != ParticipantState.SHUTDOWN) {
                    return;
                }
            }
            allShutdown.complete(null);
        }

        /** @return completes when the system and every participant are seen in SHUTDOWN */
        CompletableFuture<Void> allShutdown() {
            return allShutdown;
        }

        synchronized Snapshot snapshot() {
            Map<String, List<ParticipantState>> copy = new LinkedHashMap<>();
            for (Map.Entry<String, List<ParticipantState>> e : participantStates.entrySet()) {
                copy.put(e.getKey(), List.copyOf(e.getValue()));
            }
            return new Snapshot(copy, List.copyOf(systemStates));
        }

        /** An immutable copy of what was seen. */
        record Snapshot(Map<String, List<ParticipantState>> participantStates, List<SystemState> systemStates) {
        }
    }
}
