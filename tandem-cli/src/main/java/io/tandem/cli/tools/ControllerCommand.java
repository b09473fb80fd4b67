package io.tandem.cli.tools;

import io.tandem.cli.internal.CliSupport;
import io.tandem.cli.internal.RegistryOption;
import io.tandem.cli.internal.StopSignal;
import io.tandem.cli.internal.SystemWatch;
import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.SystemState;
import io.tandem.cosim.TandemException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/*
 * Implementation notes.
 *
 * As SIL Kit's sil-kit-system-controller: the workflow configuration is the named participants
 * plus the controller itself, and the controller has a coordinated lifecycle without time sync, so
 * the simulation starts once all of them are ready, stops when any of them stops, and a Ctrl-C
 * stops it (Running or Paused) or aborts it (any earlier state). Beyond it: a system state of Error
 * ends the controller too, with an error naming the participant. A lost required participant (or
 * a lost registry) ends the controller's coordinated lifecycle by itself (the library: Error
 * naming it, then Shutdown); an error a required participant reports only halts coordinated time
 * for good (SIL Kit), so the controller then reports that error itself and shuts down.
 */

/**
 * {@code tandem controller NAME...}: sets the required participants of a simulation, waits for
 * them, runs the coordinated simulation until it ends or Ctrl-C, printing every state change.
 * Runs on the calling thread; not thread-safe.
 */
@Command(
        name = "controller",
        mixinStandardHelpOptions = true,
        description = {
            "Runs a coordinated simulation: sets the required participants, waits for them, stops the simulation on"
                + " Ctrl-C.",
            "The controller is required too (as in SIL Kit): the simulation starts once every named participant and"
                + " the controller are ready. Prints every state change like 'tandem monitor'. Exits 0 when the"
                + " simulation ends or is stopped, 1 with a message naming the participant when a required participant"
                + " is lost or reports an error."
        })
public final class ControllerCommand implements Callable<Integer> {
    /** how long the controller waits for the simulation to shut down after a stop, ms */
    static final long SHUTDOWN_WAIT_MS = 10_000;

    @Spec
    private CommandSpec spec;

    @picocli.CommandLine.Mixin
    io.tandem.cli.internal.SecretFileOption secretFile;

    @Parameters(arity = "1..*", paramLabel = "NAME", description = "The required participants.")
    private List<String> required;

    @Mixin
    private RegistryOption registry;

    @Option(names = "--simulation", paramLabel = "NAME", defaultValue = "demo",
            description = "Simulation to run (default: ${DEFAULT-VALUE}).")
    private String simulation;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "controller",
            description = "The controller's participant name (default: ${DEFAULT-VALUE}).")
    private String name;

    /** Used by picocli. */
    public ControllerCommand() {
    }

    /**
     * Runs the simulation.
     *
     * @return 0 when it ended or was stopped
     * @throws TandemException naming the participant when a required participant is lost or in error
     */
    @Override
    public Integer call() throws InterruptedException {
        List<String> names = new ArrayList<>(new LinkedHashSet<>(required));
        if (names.size() != required.size()) {
            throw new ParameterException(spec.commandLine(), "a required participant is named twice in " + required);
        }
        if (names.contains(name)) {
            throw new ParameterException(spec.commandLine(), "'" + name + "' is the controller's own name (--name);"
                    + " name the other participants");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (StopSignal stop = StopSignal.onShutdown();
                Participant p = CliSupport.connect(spec, registry.uri(), simulation, name)) {
            out.println("tandem controller: waiting for " + String.join(", ", names) + " in simulation '" + simulation
                    + "' at " + registry.uri() + "; Ctrl-C stops the simulation");
            out.flush();
            SystemWatch watch = SystemWatch.attach(p, out);
            List<String> all = new ArrayList<>(names);
            all.add(name);
            p.createSystemController().setWorkflowConfiguration(all);
            LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
            CompletableFuture<ParticipantState> end = lc.startLifecycle();
            try {
                CompletableFuture.anyOf(end, stop.requested(), watch.systemError(), watch.selfError()).get();
            } catch (ExecutionException e) {
                // the lifecycle failed: reported below
            }
            if (!end.isDone() && (watch.selfError().isDone() || watch.systemError().isDone())) {
                // a lost participant or registry ends the lifecycle by itself, in Error naming the
                // cause; an error a required participant reports halts it for good (SIL Kit): end
                // it the same way (ignored when the library already did); from Error a stop shuts down
                String why = watch.selfError().getNow(watch.systemError().getNow(""));
                lc.reportError(why);
                lc.stop(why);
            } else if (!end.isDone()) {
                stopOrAbort(p, lc, watch, out);
            }
            ParticipantState last = CliSupport.await(end, SHUTDOWN_WAIT_MS);
            if (watch.selfError().isDone()) {
                throw new TandemException(watch.selfError().join() + "; the simulation stopped in Error: "
                        + (p.isConnected() ? "restart the lost participant, or start a new run with this controller"
                                : "restart the registry (tandem registry --listen " + registry.uri()
                                        + ") and the simulation"));
            }
            if (last != ParticipantState.SHUTDOWN) {
                throw new TandemException("the simulation did not shut down within " + SHUTDOWN_WAIT_MS
                        + " ms (controller in " + lc.state() + ", system " + watch.systemState() + ")");
            }
            // the others shut down after the controller's last barrier: show it when it comes
            CliSupport.await(watch.systemShutdown(), 2_000);
            out.println("tandem controller: simulation ended, controller shut down");
            out.flush();
        }
        return 0;
    }

    private void stopOrAbort(Participant p, LifecycleService lc, SystemWatch watch, PrintWriter out) {
        SystemState s = watch.systemState();
        if (s == SystemState.RUNNING || s == SystemState.PAUSED) {
            out.println("tandem controller: stopping the simulation");
            out.flush();
            lc.stop("stopped by tandem controller");
        } else {
            out.println("tandem controller: the simulation is " + s + " and cannot be stopped; aborting it");
            out.flush();
            p.createSystemController().abortSimulation();
        }
    }
}
