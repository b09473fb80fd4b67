package io.tandem.cli.demo;

import io.tandem.cli.internal.CliSupport;
import io.tandem.cli.internal.StopSignal;
import io.tandem.cli.internal.SystemWatch;
import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.TimeSyncService;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Model.CommandSpec;

/*
 * Implementation notes.
 *
 * The same participant as in the in-process demo (DemoParticipant), connected to a tandem://
 * registry. It subscribes before it starts its lifecycle and is coordinated, so it runs only once
 * every required participant is ready: its step log is the same as in the in-process demo.
 *
 * A lost required participant (or a lost registry) ends the coordinated lifecycle by itself: the
 * library moves it to Error with a reason naming the lost one, then to Shutdown. An error that
 * another required participant reports only halts coordinated time (SIL Kit), so the participant
 * then reports that error itself and shuts down rather than wait forever. Either way it exits 1
 * with its own Error reason.
 */

/**
 * {@code tandem demo cosim --registry URI --participant NAME}: runs one participant of the demo in
 * this process and prints its steps when it ends. Runs on the calling thread; not thread-safe.
 */
final class CosimDemoParticipantRun {
    /** how long the participant waits for its shutdown after a stop, ms */
    static final long SHUTDOWN_WAIT_MS = 10_000;

    private CosimDemoParticipantRun() {
    }

    /**
     * Runs participant {@code index} until the simulation ends, fails, or Ctrl-C.
     *
     * @return 0 when it reached Shutdown without an error
     * @throws TandemException naming the cause when the simulation failed (exit code 1)
     */
    static int run(CommandSpec spec, CosimDemoConfig config, String registryUri, String simulation, int index,
            StopSignal stop) throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        int n = config.participants();
        String name = CosimDemoConfig.participantName(index);
        List<String> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(CosimDemoConfig.participantName(i));
        }
        try (Participant p = CliSupport.connect(spec, registryUri, simulation, name)) {
            out.println("tandem demo cosim: " + name + " (every " + CosimDemoReport.ms(config.stepSizesNs().get(index))
                    + " ms) joined simulation '" + simulation + "' at " + registryUri + "; waiting for "
                    + String.join(", ", all) + " and a controller (tandem controller " + String.join(" ", all)
                    + " --registry " + registryUri + ")");
            out.flush();
            SystemWatch watch = SystemWatch.attach(p, null);
            DemoParticipant logic = new DemoParticipant(index, config.durationNs(), index == 0);
            DataPublisher pub = p.createDataPublisher("out", PubSubSpec.of(CosimDemo.topic(index), CosimDemo.MEDIA_TYPE), 0);
            for (int j = 0; j < n; j++) {
                if (j != index) {
                    int sender = j;
                    p.createDataSubscriber("in-" + CosimDemoConfig.participantName(j),
                            PubSubSpec.of(CosimDemo.topic(j), CosimDemo.MEDIA_TYPE), e -> logic.onData(sender, e));
                }
            }
            LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
            TimeSyncService ts = lc.createTimeSyncService();
            ts.setSimulationStepHandler(logic::onStep, config.stepSizesNs().get(index));
            logic.attach(pub, lc);
            CompletableFuture<ParticipantState> end = lc.startLifecycle();
            try {
                CompletableFuture.anyOf(end, stop.requested(), watch.systemError(), watch.selfError()).get();
            } catch (ExecutionException e) {
                // the lifecycle failed: reported below
            }
            boolean interrupted = !end.isDone() && stop.isRequested();
            if (!end.isDone() && !watch.selfError().isDone() && watch.systemError().isDone()) {
                // a lost participant or registry ends the lifecycle by itself, in Error naming the
                // cause; an error another participant reports halts it for good (SIL Kit): end it
                // the same way (ignored when the library already did)
                lc.reportError(watch.systemError().join());
            }
            ParticipantState now = lc.state();
            if (!end.isDone() && (!interrupted || now == ParticipantState.RUNNING || now == ParticipantState.PAUSED
                    || now == ParticipantState.ERROR)) {
                // from Error a stop shuts down; in Running or Paused it stops; ignored when shutting down
                lc.stop(interrupted ? stop.requested().join() : "error");
            }
            // before Running there is nothing to stop: closing leaves the simulation
            ParticipantState last = end.isDone() || watch.selfError().isDone() || watch.systemError().isDone()
                    || isStoppable(lc.state()) ? CliSupport.await(end, SHUTDOWN_WAIT_MS) : null;
            if (last == ParticipantState.SHUTDOWN) {
                for (CosimDemoReport.StepRecord s : logic.log()) {
                    out.println(CosimDemoReport.stepLine(s));
                }
            }
            out.println("tandem demo cosim: " + name + " final state " + (last == null ? lc.state() : last));
            out.flush();
            if (watch.selfError().isDone()) {
                throw new TandemException(name + " stopped: " + watch.selfError().join());
            }
            if (interrupted) {
                throw new TandemException(name + " stopped: " + stop.requested().join());
            }
            if (last != ParticipantState.SHUTDOWN) {
                throw new TandemException(name + " did not shut down within " + SHUTDOWN_WAIT_MS + " ms (in "
                        + lc.state() + ")");
            }
        }
        return 0;
    }

    /** @return whether the lifecycle is on its way to Shutdown after a stop */
    private static boolean isStoppable(ParticipantState s) {
        return switch (s) {
            case RUNNING, PAUSED, STOPPING, STOPPED, ERROR, SHUTTING_DOWN, ABORTING -> true;
            case INVALID, SERVICES_CREATED, COMMUNICATION_INITIALIZING, COMMUNICATION_INITIALIZED, READY_TO_RUN,
                    SHUTDOWN -> false;
        };
    }
}
