package io.tandem.cli.demo;

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
 * {@code tandem demo cosim}: parses the options, runs {@link CosimDemo}, prints its report to
 * standard output. Exit code 0 when every participant reached SHUTDOWN, 1 otherwise.
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
            "Output is deterministic: step lines are sorted by (virtual time, participant)."
        })
final class CosimDemoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

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

    @Override
    public Integer call() {
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
        CosimDemoReport report = CosimDemo.run(config);
        PrintWriter out = spec.commandLine().getOut();
        for (String line : report.lines()) {
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
}
