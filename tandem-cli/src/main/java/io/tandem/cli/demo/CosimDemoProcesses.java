package io.tandem.cli.demo;

import io.tandem.cli.TandemCli;
import io.tandem.cli.internal.StopSignal;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.Registry;
import io.tandem.cosim.process.ChildJvm;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/*
 * Implementation notes.
 *
 * This process hosts the registry (unless one is given) and the controller with its monitor, as
 * the in-process demo does; each participant is a child JVM running
 * `tandem demo cosim --registry URI --participant pN`. The children print their step lines; they
 * are merged here by (virtual time, participant), so the report is the in-process demo's.
 * Children are destroyed when the run ends, fails, times out or is interrupted.
 */

/**
 * {@code tandem demo cosim --processes}: the co-simulation demo with every participant in its own
 * process. Blocks the calling thread until the run ends. Not thread-safe.
 */
final class CosimDemoProcesses {
    private static final Pattern STEP_LINE = Pattern.compile("^t=\\s*([0-9.]+) ms\\s+p([0-9]+)\\s.*");
    /** how long a child gets to exit after SIGTERM before it is killed, ms */
    private static final long DESTROY_GRACE_MS = 3_000;

    private CosimDemoProcesses() {
    }

    /**
     * Runs the demo across processes.
     *
     * @param registryUri a running registry, or {@code null} to start one in this process on a free port
     * @param stop        ends the run early (Ctrl-C)
     * @return the report and the merged step lines
     */
    static Result run(CosimDemoConfig config, String registryUri, String simulation, long timeoutMs,
            StopSignal stop) throws InterruptedException {
        int n = config.participants();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(CosimDemoConfig.participantName(i));
        }
        CosimDemo.MonitorLog monitorLog = new CosimDemo.MonitorLog(names);
        List<Child> children = new ArrayList<>();
        String failure = null;
        CosimDemo.MonitorLog.Snapshot seen;
        Registry registry = registryUri == null ? Registry.start("tandem://127.0.0.1:0") : null;
        String uri = registry == null ? registryUri : registry.uri();
        try (Participant controller = Participant.connect(uri, simulation, CosimDemo.CONTROLLER)) {
            controller.createSystemMonitor().addParticipantStatusHandler(monitorLog::onStatus);
            controller.createSystemMonitor().addSystemStateHandler(monitorLog::onSystemState);
            controller.createSystemController().setWorkflowConfiguration(names);
            try {
                for (int i = 0; i < n; i++) {
                    children.add(new Child(i, config, uri, simulation));
                }
                failure = await(children, monitorLog, timeoutMs, stop);
            } finally {
                for (Child c : children) {
                    // as Ctrl-C would: SIGTERM, then SIGKILL after the grace period
                    c.jvm.terminate(DESTROY_GRACE_MS);
                }
            }
            if (Thread.interrupted()) {
                // terminate() keeps the interrupt: end the run as an interrupted wait would
                throw new InterruptedException("interrupted while ending the participants' JVMs");
            }
            seen = monitorLog.snapshot();
        } finally {
            if (registry != null) {
                registry.close();
            }
        }
        if (failure == null) {
            for (Child c : children) {
                if (c.process().exitValue() != 0) {
                    failure = c.name + " exited with code " + c.process().exitValue() + ": " + c.lastLine();
                    break;
                }
            }
        }
        Map<String, ParticipantState> finalStates = new LinkedHashMap<>();
        for (Map.Entry<String, List<ParticipantState>> e : seen.participantStates().entrySet()) {
            List<ParticipantState> states = e.getValue();
            finalStates.put(e.getKey(), states.isEmpty() ? ParticipantState.INVALID : states.get(states.size() - 1));
        }
        List<StepLine> steps = new ArrayList<>();
        for (Child c : children) {
            steps.addAll(c.steps());
        }
        steps.sort(Comparator.comparing(StepLine::timeMs).thenComparingInt(StepLine::participant));
        List<String> stepLines = new ArrayList<>();
        for (StepLine s : steps) {
            stepLines.add(s.line());
        }
        CosimDemoReport report = new CosimDemoReport(config, List.of(), seen.participantStates(), finalStates,
                seen.systemStates(), failure);
        return new Result(report, failure == null ? stepLines : List.of());
    }

    private static String await(List<Child> children, CosimDemo.MonitorLog monitorLog, long timeoutMs, StopSignal stop)
            throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (Child c : children) {
            CompletableFuture<Process> exit = c.process().onExit();
            CompletableFuture.anyOf(exit, stop.requested()).orTimeout(Math.max(1, deadlineNs - System.nanoTime()),
                    TimeUnit.NANOSECONDS).exceptionally(t -> null).join();
            if (stop.isRequested()) {
                return stop.requested().join();
            }
            if (!exit.isDone()) {
                return "timed out after " + timeoutMs + " ms waiting for " + c.name + " (" + c.lastLine() + ")";
            }
            if (c.process().exitValue() != 0) {
                return c.name + " exited with code " + c.process().exitValue() + ": " + c.lastLine();
            }
        }
        // the monitor sees the last Shutdown just after the children exit
        try {
            monitorLog.allShutdown().get(Math.max(1, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return "every participant exited, but the monitor did not see the system state SHUTDOWN";
        }
        return null;
    }

    /** A parsed step line of a child. */
    private record StepLine(BigDecimal timeMs, int participant, String line) {
    }

    /**
     * A finished run.
     *
     * @param report    states and failure (its own step list is empty)
     * @param stepLines the children's step lines, sorted by (virtual time, participant); empty on failure
     */
    record Result(CosimDemoReport report, List<String> stepLines) {
        /** @return the printable report */
        List<String> lines() {
            return report.lines(stepLines);
        }
    }

    /** One participant's JVM and every line it printed (collected by its output reader). */
    private static final class Child {
        final String name;
        final ChildJvm jvm;
        final List<String> lines = new ArrayList<>();

        private Child(int index, CosimDemoConfig config, String uri, String simulation) {
            this.name = CosimDemoConfig.participantName(index);
            List<String> args = List.of("demo", "cosim", "--registry", uri, "--simulation", simulation, "--participant",
                    name, "--duration-ms", CosimDemoReport.ms(config.durationNs()), "--step-sizes-ms", stepSizes(config));
            try {
                this.jvm = ChildJvm.builder(name, TandemCli.class.getName())
                        .jvmOptions(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m")).args(args)
                        .onLine(line -> {
                            synchronized (lines) {
                                lines.add(line);
                            }
                        }).start();
            } catch (UncheckedIOException e) {
                throw new UncheckedIOException("cannot start the JVM of " + name, e.getCause());
            }
        }

        private static String stepSizes(CosimDemoConfig config) {
            StringBuilder b = new StringBuilder();
            for (long s : config.stepSizesNs()) {
                b.append(b.length() == 0 ? "" : ",").append(CosimDemoReport.ms(s));
            }
            return b.toString();
        }

        Process process() {
            return jvm.process();
        }

        /** @return the last non-blank line it printed, or "(no output)" */
        String lastLine() {
            return jvm.lastLine();
        }

        List<StepLine> steps() {
            List<StepLine> out = new ArrayList<>();
            synchronized (lines) {
                for (String l : lines) {
                    Matcher m = STEP_LINE.matcher(l);
                    if (m.matches()) {
                        out.add(new StepLine(new BigDecimal(m.group(1)), Integer.parseInt(m.group(2)), l));
                    }
                }
            }
            return out;
        }
    }
}
