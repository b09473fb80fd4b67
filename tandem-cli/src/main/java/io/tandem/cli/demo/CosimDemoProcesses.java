package io.tandem.cli.demo;

import io.tandem.cli.internal.CliSupport;
import io.tandem.cli.internal.StopSignal;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.Registry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
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
                    children.add(Child.start(i, config, uri, simulation));
                }
                failure = await(children, monitorLog, timeoutMs, stop);
            } finally {
                for (Child c : children) {
                    c.destroy();
                }
            }
            seen = monitorLog.snapshot();
        } finally {
            if (registry != null) {
                registry.close();
            }
        }
        if (failure == null) {
            for (Child c : children) {
                if (c.process.exitValue() != 0) {
                    failure = c.name + " exited with code " + c.process.exitValue() + ": " + c.lastLine();
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
            CompletableFuture<Process> exit = c.process.onExit();
            CompletableFuture.anyOf(exit, stop.requested()).orTimeout(Math.max(1, deadlineNs - System.nanoTime()),
                    TimeUnit.NANOSECONDS).exceptionally(t -> null).join();
            if (stop.isRequested()) {
                return stop.requested().join();
            }
            if (!exit.isDone()) {
                return "timed out after " + timeoutMs + " ms waiting for " + c.name + " (" + c.lastLine() + ")";
            }
            if (c.process.exitValue() != 0) {
                return c.name + " exited with code " + c.process.exitValue() + ": " + c.lastLine();
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

    /** One participant's JVM and the lines it printed (read by a reader thread). */
    private static final class Child {
        final String name;
        final Process process;
        final List<String> lines = new ArrayList<>();
        final Thread reader;

        private Child(String name, Process process) {
            this.name = name;
            this.process = process;
            this.reader = new Thread(this::read, "tandem-demo-" + name + "-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(int index, CosimDemoConfig config, String uri, String simulation) {
            List<String> cmd = CliSupport.tandemJvm(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m"),
                    List.of("demo", "cosim", "--registry", uri, "--simulation", simulation, "--participant",
                            CosimDemoConfig.participantName(index), "--duration-ms", CosimDemoReport.ms(config.durationNs()),
                            "--step-sizes-ms", stepSizes(config)));
            try {
                return new Child(CosimDemoConfig.participantName(index),
                        new ProcessBuilder(cmd).redirectErrorStream(true).start());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the JVM of " + CosimDemoConfig.participantName(index), e);
            }
        }

        private static String stepSizes(CosimDemoConfig config) {
            StringBuilder b = new StringBuilder();
            for (long s : config.stepSizesNs()) {
                b.append(b.length() == 0 ? "" : ",").append(CosimDemoReport.ms(s));
            }
            return b.toString();
        }

        private void read() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            } catch (IOException e) {
                // the child is gone
            }
        }

        /** Ends the child: SIGTERM, then SIGKILL after a grace period; waits for its output. */
        void destroy() throws InterruptedException {
            if (process.isAlive()) {
                process.toHandle().destroy(); // SIGTERM; Process.destroy() would also close its output
                if (!process.waitFor(DESTROY_GRACE_MS, TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(DESTROY_GRACE_MS, TimeUnit.MILLISECONDS);
                }
            }
            reader.join(DESTROY_GRACE_MS);
        }

        String lastLine() {
            synchronized (lines) {
                for (int i = lines.size() - 1; i >= 0; i--) {
                    if (!lines.get(i).isBlank()) {
                        return lines.get(i).trim();
                    }
                }
            }
            return "(no output)";
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
