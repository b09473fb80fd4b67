package io.tandem.cli.tools;

import io.tandem.cli.internal.CliSupport;
import io.tandem.cli.internal.RegistryOption;
import io.tandem.cli.internal.StopSignal;
import io.tandem.cli.internal.SystemWatch;
import io.tandem.cosim.Participant;
import io.tandem.cosim.TandemException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tandem monitor}: joins a simulation as a passive participant (no lifecycle) and prints
 * every participant's connects, disconnects and state changes and every system state change until
 * Ctrl-C, like SIL Kit's {@code sil-kit-monitor}, or until it loses its registry (then it fails,
 * naming the registry, rather than watch nothing). Runs on the calling thread; not thread-safe.
 */
@Command(
        name = "monitor",
        mixinStandardHelpOptions = true,
        description = {
            "Prints the participants' state changes and the system state of a simulation until Ctrl-C.",
            "One line per event: wall-clock seconds since the monitor started, the participant (or 'system'),"
                + " the new state and the participant's reason. A participant that vanishes (killed, crashed) is"
                + " shown in ERROR with the reason 'Connection Lost'. Exits 1 with a message naming the registry"
                + " when the registry is lost (closed, crashed or killed)."
        })
public final class MonitorCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @picocli.CommandLine.Mixin
    io.tandem.cli.internal.SecretFileOption secretFile;

    @Mixin
    private RegistryOption registry;

    @Option(names = "--simulation", paramLabel = "NAME", defaultValue = "demo",
            description = "Simulation to watch (default: ${DEFAULT-VALUE}).")
    private String simulation;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "monitor",
            description = "This monitor's participant name, unique in the simulation (default: ${DEFAULT-VALUE}).")
    private String name;

    /** Used by picocli. */
    public MonitorCommand() {
    }

    /**
     * Connects, prints events until Ctrl-C, disconnects.
     *
     * @return 0 after Ctrl-C
     * @throws TandemException naming the registry URI when the registry is lost (exit code 1)
     */
    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        try (StopSignal stop = StopSignal.onShutdown();
                Participant p = CliSupport.connect(spec, registry.uri(), simulation, name)) {
            out.println("tandem monitor: watching simulation '" + simulation + "' at " + registry.uri() + " as '" + name
                    + "'; Ctrl-C ends");
            out.flush();
            SystemWatch.attach(p, out);
            CompletableFuture<String> lost = new CompletableFuture<>();
            p.addConnectionLostHandler(lost::complete);
            try {
                CompletableFuture.anyOf(stop.requested(), lost).get();
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
            if (lost.isDone() && !stop.isRequested()) {
                throw new TandemException(lost.join() + "; nothing left to watch: restart the registry (tandem registry"
                        + " --listen " + registry.uri() + ") and the simulation, then the monitor");
            }
            out.println("tandem monitor: stopped");
            out.flush();
        }
        return 0;
    }
}
