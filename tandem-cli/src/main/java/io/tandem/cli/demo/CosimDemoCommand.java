package io.tandem.cli.demo;

import io.tandem.cli.internal.RegistryUris;
import io.tandem.cli.internal.StopSignal;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tandem demo cosim}: parses the options, runs {@link CosimDemo} (or, with
 * {@code --processes}, {@link CosimDemoProcesses}; with {@code --participant}, one participant:
 * {@link CosimDemoParticipantRun}), prints its report to standard output. Exit code 0 when every
 * participant reached SHUTDOWN, 1 otherwise.
 */
@Command(
        name = "cosim",
        mixinStandardHelpOptions = true,
        description = {
            "Time-synchronized participants with different step sizes exchanging messages.",
            "Runs coordinated, time-synchronized participants in this process, each with its own step size.",
            "Every step a participant publishes a timestamped message on its topic and lists what it received"
                + " from the others; a system controller sets the required participants and a system monitor"
                + " records the system states. The first participant stops the simulation at the end time.",
            "Output is deterministic: step lines are sorted by (virtual time, participant).",
            "Across processes: --processes runs each participant in its own JVM (the registry and the controller"
                + " stay in this one); --registry URI --participant pN runs one participant against a running"
                + " 'tandem registry', started with 'tandem controller p1 p2 ...' in another terminal."
        })
final class CosimDemoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @picocli.CommandLine.Mixin
    io.tandem.cli.internal.SecretFileOption secretFile;

    @Option(names = "--duration-ms", paramLabel = "MS", defaultValue = "20",
            description = "Virtual time to simulate, in ms (default: ${DEFAULT-VALUE}).")
    private long durationMs;

    @Option(names = "--step-sizes-ms", paramLabel = "MS", split = ",", defaultValue = "1,2,5",
            description = "Step size of each participant in ms, comma-separated; one participant per value,"
                + " at most " + CosimDemoConfig.MAX_PARTICIPANTS + " (default: ${DEFAULT-VALUE}).")
    private List<Long> stepSizesMs;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "10000",
            description = "Wall-clock time to wait for every participant to shut down, in ms (default: ${DEFAULT-VALUE}).")
    private long timeoutMs;

    @Option(names = "--registry", paramLabel = "URI", converter = RegistryUris.Connect.class,
            description = "A running tandem:// registry (tandem registry): with --participant, the registry to join;"
                + " with --processes, used instead of a registry in this process.")
    private String registry;

    @Option(names = "--participant", paramLabel = "NAME",
            description = "Run only this participant (p1, p2, ...) in this process; needs --registry and a"
                + " 'tandem controller p1 p2 ...' on that registry.")
    private String participant;

    @Option(names = "--processes",
            description = "Run every participant in its own JVM, merging their output (same report as in-process).")
    private boolean processes;

    @Option(names = "--simulation", paramLabel = "NAME", defaultValue = CosimDemo.SIMULATION,
            description = "Simulation name on the registry, with --registry or --processes (default: ${DEFAULT-VALUE}).")
    private String simulation;

    /** the timeout of a run across processes, unless --timeout-ms is given: JVMs take a while to start */
    static final long PROCESSES_TIMEOUT_MS = 60_000;

    @Override
    public Integer call() throws InterruptedException {
        CosimDemoConfig config;
        try {
            List<Long> stepSizesNs = new ArrayList<>();
            for (long ms : stepSizesMs) {
                stepSizesNs.add(Math.multiplyExact(ms, 1_000_000L));
            }
            config = new CosimDemoConfig(Math.multiplyExact(durationMs, 1_000_000L), stepSizesNs, timeoutMs);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (participant != null && processes) {
            throw new ParameterException(spec.commandLine(), "--participant and --processes exclude each other");
        }
        if (participant != null) {
            if (registry == null) {
                throw new ParameterException(spec.commandLine(), "--participant needs --registry: the tandem:// registry"
                        + " the other participants and the controller use, e.g. --registry " + RegistryUris.DEFAULT);
            }
            int index = participantIndex(config);
            try (StopSignal stop = StopSignal.onShutdown()) {
                return CosimDemoParticipantRun.run(spec, config, registry, simulation, index, stop);
            }
        }
        if (registry != null && !processes) {
            throw new ParameterException(spec.commandLine(), "--registry needs --participant NAME (one participant in"
                    + " this process) or --processes (every participant in its own process)");
        }
        CosimDemoReport report;
        List<String> lines;
        if (processes) {
            long timeout = spec.commandLine().getParseResult().hasMatchedOption("--timeout-ms") ? timeoutMs
                    : PROCESSES_TIMEOUT_MS;
            try (StopSignal stop = StopSignal.onShutdown()) {
                CosimDemoProcesses.Result r = CosimDemoProcesses.run(config, registry, simulation, timeout, stop);
                report = r.report();
                lines = r.lines();
            }
        } else {
            report = CosimDemo.run(config);
            lines = report.lines();
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String line : lines) {
            out.println(line);
        }
        out.flush();
        if (!report.succeeded()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("tandem demo cosim: " + report.failure());
            err.flush();
            return 1;
        }
        return 0;
    }

    private int participantIndex(CosimDemoConfig config) {
        for (int i = 0; i < config.participants(); i++) {
            if (CosimDemoConfig.participantName(i).equals(participant)) {
                return i;
            }
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < config.participants(); i++) {
            names.add(CosimDemoConfig.participantName(i));
        }
        throw new ParameterException(spec.commandLine(), "unknown participant '" + participant + "': with --step-sizes-ms "
                + stepSizesMs.toString().replaceAll("[\\[\\] ]", "") + " the participants are " + String.join(", ", names));
    }
}
