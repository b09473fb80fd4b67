package io.tandem.cosim.internal;

import io.tandem.cosim.ConfigurationException;
import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.SystemState;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.TimeSyncService;
import io.tandem.cosim.msg.LifecycleAnnouncement;
import io.tandem.cosim.msg.StatusUpdate;
import io.tandem.cosim.msg.SystemCommand;
import io.tandem.cosim.msg.WorkflowConfiguration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * SIL Kit 5.0.8 LifecycleStates.cpp / LifecycleService.cpp as condensed in shared/specs/silkit.md
 * 1(a): StartLifecycle -> ServicesCreated -> (coordinated: wait for SystemState ServicesCreated)
 * -> barrier -> CommunicationInitializing -> CommunicationInitialized -> (coordinated: wait for
 * SystemState CommunicationInitialized) -> communication-ready handler (sync or async) ->
 * ReadyToRun -> (coordinated: wait for SystemState ReadyToRun) -> starting handler (no time sync)
 * -> Running. Stop: Stopping -> stop handler -> Stopped -> barrier -> ShuttingDown -> shutdown
 * handler -> barrier -> Shutdown. Abort: Aborting -> abort handler -> barrier -> Shutdown.
 *
 * Lost participants (beyond SIL Kit). In SIL Kit a required participant that disconnects without
 * reaching Shutdown gets a synthetic Error "Connection Lost", the system state becomes Error, and
 * coordinated participants stop advancing time but stay Running (or wherever they were) until the
 * application reacts: with nobody reacting, they wait for good. Here the lifecycle reacts itself
 * (issue 4): a coordinated participant that sees a required participant lost, or that loses its
 * own connection to the registry, enters Error with a reason naming the lost participant (or the
 * registry), then shuts down along SIL Kit's own Error path, Error -> ShuttingDown (shutdown
 * handler) -> barrier -> Shutdown, the path Stop() takes in Error. So every transition is one of
 * SIL Kit's valid ones (Stopping may not follow Error), monitors see each participant's Error and
 * why, the stop handler does not run (nothing was stopped: the simulation broke), and
 * startLifecycle()'s future completes with Shutdown. The reaction applies to the states in which
 * the participant would otherwise wait on the system state or on peers: ServicesCreated through
 * Paused, and Error (which is shut down). Stopping, Stopped, ShuttingDown, Aborting and Shutdown
 * are already on their way to Shutdown; a lifecycle not started yet is left alone. Autonomous
 * participants keep SIL Kit's behaviour: they do not follow the system state, so they run on.
 *
 * Transitions run on the participant's thread. API calls from other threads validate against the
 * volatile state and defer the transition to that thread (SIL Kit's ExecuteDeferred). The
 * barriers make messages sent from the final handlers arrive before the final state.
 */

/** The lifecycle service of one participant. Public methods are safe from any thread. */
final class ParticipantLifecycle implements LifecycleService {
    private static final Logger LOG = LoggerFactory.getLogger(ParticipantLifecycle.class);

    private final ParticipantCore core;
    private final OperationMode mode;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CompletableFuture<ParticipantState> finalState = new CompletableFuture<>();
    private volatile ParticipantState state = ParticipantState.INVALID;
    private volatile String reason = "";
    private volatile ConservativeTimeSync timeSync;
    volatile boolean stopRequested;
    volatile boolean pauseRequested;

    private volatile Runnable commReadyHandler;
    private volatile boolean commReadyAsync;
    private volatile Runnable startingHandler;
    private volatile Runnable stopHandler;
    private volatile Runnable shutdownHandler;
    private volatile Consumer<ParticipantState> abortHandler;

    // worker
    private boolean announced;
    private boolean abortPending;
    private boolean phaseBusy;
    private boolean awaitingAsyncCommReady;
    private boolean evaluate;
    private boolean hopOnAborted;

    ParticipantLifecycle(ParticipantCore core, OperationMode mode) {
        this.core = core;
        this.mode = mode;
    }

    // ---------------------------------------------------------------- API

    @Override
    public TimeSyncService createTimeSyncService() {
        if (started.get()) {
            throw new ConfigurationException("participant '" + core.participantName()
                    + "': create the time-sync service before startLifecycle()");
        }
        synchronized (this) {
            if (timeSync != null) {
                throw new ConfigurationException("participant '" + core.participantName()
                        + "' already has a time-sync service; create it once");
            }
            timeSync = new ConservativeTimeSync(core, this);
            return timeSync;
        }
    }

    @Override
    public CompletableFuture<ParticipantState> startLifecycle() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("startLifecycle() was already called for participant '"
                    + core.participantName() + "'; it may be called once");
        }
        core.defer(this::doStart);
        return finalState;
    }

    @Override
    public void stop(String why) {
        ParticipantState s = state;
        if (s == ParticipantState.RUNNING || s == ParticipantState.PAUSED) {
            stopRequested = true;
        }
        core.defer(() -> doStop(why == null ? "" : why));
    }

    @Override
    public void pause(String why) {
        ParticipantState s = state;
        if (s != ParticipantState.RUNNING || pauseRequested) {
            String msg = "participant '" + core.participantName() + "': pause() in state " + s
                    + (pauseRequested ? " (already paused)" : "") + "; pause is valid only while RUNNING";
            reportError(msg);
            throw new IllegalStateException(msg);
        }
        pauseRequested = true;
        core.defer(() -> {
            if (state == ParticipantState.RUNNING) {
                changeState(ParticipantState.PAUSED, why == null ? "" : why);
            }
        });
    }

    @Override
    public void continueSimulation() {
        ParticipantState s = state;
        if (s != ParticipantState.PAUSED) {
            String msg = "participant '" + core.participantName() + "': continueSimulation() in state " + s
                    + "; continue is valid only while PAUSED";
            reportError(msg);
            throw new IllegalStateException(msg);
        }
        core.defer(() -> {
            if (state == ParticipantState.PAUSED) {
                pauseRequested = false;
                changeState(ParticipantState.RUNNING, "continued");
                ConservativeTimeSync ts = timeSync;
                if (ts != null) {
                    ts.requestNextStep();
                }
            }
        });
    }

    @Override
    public void reportError(String why) {
        // "before startLifecycle" is decided at the call, not when the worker gets to it: a
        // startLifecycle() racing in between must not turn an early report into an error
        if (!started.get()) {
            LOG.warn("participant '{}': error report before startLifecycle() ignored: {}", core.participantName(), why);
            return;
        }
        core.defer(() -> reportErrorNow(why == null ? "" : why));
    }

    @Override
    public ParticipantState state() {
        return state;
    }

    @Override
    public OperationMode operationMode() {
        return mode;
    }

    @Override
    public void setCommunicationReadyHandler(Runnable handler) {
        commReadyHandler = handler;
        commReadyAsync = false;
    }

    @Override
    public void setCommunicationReadyHandlerAsync(Runnable handler) {
        commReadyHandler = handler;
        commReadyAsync = true;
    }

    @Override
    public void completeCommunicationReadyHandlerAsync() {
        core.defer(() -> {
            if (awaitingAsyncCommReady && state == ParticipantState.COMMUNICATION_INITIALIZED) {
                awaitingAsyncCommReady = false;
                phaseBusy = false;
                changeState(ParticipantState.READY_TO_RUN, "communication ready handler completed");
                requestEvaluation();
            }
        });
    }

    @Override
    public void setStartingHandler(Runnable handler) {
        startingHandler = handler;
    }

    @Override
    public void setStopHandler(Runnable handler) {
        stopHandler = handler;
    }

    @Override
    public void setShutdownHandler(Runnable handler) {
        shutdownHandler = handler;
    }

    @Override
    public void setAbortHandler(Consumer<ParticipantState> handler) {
        abortHandler = handler;
    }

    // ---------------------------------------------------------------- worker side

    ConservativeTimeSync timeSync() {
        return timeSync;
    }

    OperationMode mode() {
        return mode;
    }

    String reason() {
        return reason;
    }

    boolean announced() {
        return announced;
    }

    LifecycleAnnouncement announcement() {
        return new LifecycleAnnouncement(mode, timeSync != null);
    }

    void requestEvaluation() {
        evaluate = true;
    }

    /** One duty cycle: pending transitions, then time sync. @return work done */
    int doWork() {
        int work = 0;
        if (evaluate) {
            evaluate = false;
            evaluateTransitions();
            work++;
        }
        ConservativeTimeSync ts = timeSync;
        if (ts != null) {
            work += ts.doWork();
        }
        return work;
    }

    private void doStart() {
        if (state != ParticipantState.INVALID) {
            return; // aborted between startLifecycle() and this deferred start
        }
        if (abortPending) {
            abortNow();
            return;
        }
        announced = true;
        core.broadcast(announcement());
        changeState(ParticipantState.SERVICES_CREATED, "lifecycle started");
        WorkflowConfiguration wc = core.workflowConfiguration();
        if (wc != null) {
            onWorkflowConfiguration(wc);
        }
        requestEvaluation();
    }

    /** Re-validates "coordinated implies required" (SIL Kit LifecycleService::SetWorkflowConfiguration). */
    void onWorkflowConfiguration(WorkflowConfiguration wc) {
        if (announced && mode == OperationMode.COORDINATED
                && !wc.requiredParticipantNames().contains(core.participantName())
                && state != ParticipantState.ERROR && state != ParticipantState.SHUTDOWN) {
            reportErrorNow("coordinated participant '" + core.participantName()
                    + "' is not in the required participants " + wc.requiredParticipantNames()
                    + "; add it to the workflow configuration or use OperationMode.AUTONOMOUS");
        }
    }

    private void evaluateTransitions() {
        if (phaseBusy) {
            return;
        }
        SystemState sys = core.systemState();
        boolean auto = mode == OperationMode.AUTONOMOUS;
        switch (state) {
            case SERVICES_CREATED -> {
                if (auto || atLeast(sys, SystemState.SERVICES_CREATED)) {
                    phaseBusy = true;
                    core.afterAllPeersReplied(() -> {
                        phaseBusy = false;
                        if (state == ParticipantState.SERVICES_CREATED) {
                            changeState(ParticipantState.COMMUNICATION_INITIALIZING, "all peers replied");
                            changeState(ParticipantState.COMMUNICATION_INITIALIZED, "discovery complete");
                            requestEvaluation();
                        }
                    });
                }
            }
            case COMMUNICATION_INITIALIZED -> {
                if (auto || atLeast(sys, SystemState.COMMUNICATION_INITIALIZED)) {
                    runCommunicationReady();
                }
            }
            case READY_TO_RUN -> {
                if (auto || atLeast(sys, SystemState.READY_TO_RUN)) {
                    startRunning();
                }
            }
            case RUNNING, PAUSED -> {
                if (!auto && (sys == SystemState.STOPPING || sys == SystemState.STOPPED)) {
                    doStop("simulation is stopping (system state " + sys + ")");
                }
            }
            case INVALID, COMMUNICATION_INITIALIZING, STOPPING, STOPPED, ERROR, SHUTTING_DOWN, SHUTDOWN, ABORTING -> {
                // nothing waits on the system state here
            }
        }
    }

    /** Whether the system state has reached {@code s} on the normal start-up path. */
    private static boolean atLeast(SystemState sys, SystemState s) {
        return sys.code() >= s.code() && sys.code() <= SystemState.RUNNING.code();
    }

    private void runCommunicationReady() {
        Runnable h = commReadyHandler;
        if (commReadyAsync && h != null) {
            phaseBusy = true;
            awaitingAsyncCommReady = true;
            if (!invoke(h, "communication ready handler")) {
                awaitingAsyncCommReady = false;
                phaseBusy = false;
            }
            return;
        }
        if (h != null && !invoke(h, "communication ready handler")) {
            return;
        }
        if (state == ParticipantState.COMMUNICATION_INITIALIZED) {
            changeState(ParticipantState.READY_TO_RUN, "communication ready");
            requestEvaluation();
        }
    }

    private void startRunning() {
        ConservativeTimeSync ts = timeSync;
        Runnable h = startingHandler;
        if (ts == null && h != null && !invoke(h, "starting handler")) {
            return;
        }
        if (state != ParticipantState.READY_TO_RUN) {
            return;
        }
        changeState(ParticipantState.RUNNING, "simulation started");
        if (ts != null) {
            ts.startTime();
        }
    }

    /** Runs a handler that moves the participant to Error if it throws. @return true if it returned */
    private boolean invoke(Runnable h, String what) {
        try {
            h.run();
            return true;
        } catch (RuntimeException ex) {
            reportErrorNow(what + " threw: " + ex);
            return false;
        }
    }

    private void doStop(String why) {
        switch (state) {
            case RUNNING, PAUSED -> {
                stopRequested = true;
                changeState(ParticipantState.STOPPING, why);
                Runnable h = stopHandler;
                if (h != null && !invoke(h, "stop handler")) {
                    return;
                }
                changeState(ParticipantState.STOPPED, "stop handler completed");
                core.afterAllPeersReplied(() -> {
                    if (state == ParticipantState.STOPPED) {
                        shutdown("shutting down");
                    }
                });
            }
            case ERROR -> shutdown("shutting down");
            case SHUTTING_DOWN, SHUTDOWN -> {
                // ignored
            }
            case INVALID, SERVICES_CREATED, COMMUNICATION_INITIALIZING, COMMUNICATION_INITIALIZED, READY_TO_RUN,
                    STOPPING, STOPPED, ABORTING ->
                    LOG.warn("participant '{}': stop() ignored in state {}", core.participantName(), state);
        }
    }

    private void shutdown(String why) {
        changeState(ParticipantState.SHUTTING_DOWN, why);
        Runnable h = shutdownHandler;
        if (h != null) {
            try {
                h.run();
            } catch (RuntimeException ex) {
                LOG.warn("participant '{}': shutdown handler threw (ignored)", core.participantName(), ex);
            }
        }
        core.afterAllPeersReplied(() -> {
            if (state == ParticipantState.SHUTTING_DOWN) {
                changeState(ParticipantState.SHUTDOWN, "shut down");
                finalState.complete(ParticipantState.SHUTDOWN);
            }
        });
    }

    void reportErrorNow(String why) {
        // beyond SIL Kit: also ignored while shutting down or aborting, whose barriers complete only
        // in those states: an Error there would keep the lifecycle from ever reaching Shutdown
        if (!started.get() || state == ParticipantState.SHUTDOWN || state == ParticipantState.SHUTTING_DOWN
                || state == ParticipantState.ABORTING) {
            LOG.warn("participant '{}': error report ignored in state {}: {}", core.participantName(), state, why);
            return;
        }
        if (state == ParticipantState.ERROR) {
            return;
        }
        LOG.error("participant '{}': {}", core.participantName(), why);
        awaitingAsyncCommReady = false;
        phaseBusy = false;
        changeState(ParticipantState.ERROR, why);
    }

    /**
     * A required participant lost its connection (worker): a coordinated lifecycle enters Error
     * naming it and shuts down (see the implementation notes).
     *
     * @param lostName the lost participant
     */
    void onRequiredParticipantLost(String lostName) {
        // names only the lost one, so a participant that quotes a peer's reason still reads true
        endBecauseOfLoss("participant '" + lostName + "' lost its connection (" + ParticipantCore.CONNECTION_LOST
                + "); it is required, so the coordinated participants stop");
    }

    /**
     * This participant lost its connection to the registry (worker): a coordinated lifecycle
     * enters Error and shuts down.
     *
     * @param why names this participant and the registry
     */
    void onConnectionLost(String why) {
        endBecauseOfLoss(why);
    }

    private void endBecauseOfLoss(String why) {
        if (mode != OperationMode.COORDINATED || !started.get()) {
            return;
        }
        switch (state) {
            case SERVICES_CREATED, COMMUNICATION_INITIALIZING, COMMUNICATION_INITIALIZED, READY_TO_RUN, RUNNING,
                    PAUSED -> {
                reportErrorNow(why);
                shutdown("shutting down after an error: " + why);
            }
            case ERROR -> shutdown("shutting down after an error: " + why);
            case INVALID, STOPPING, STOPPED, SHUTTING_DOWN, SHUTDOWN, ABORTING -> {
                // not started yet, or already on the way to Shutdown
            }
        }
    }

    /** An abort command arrived (or this participant's controller aborted). */
    void abort() {
        if (!started.get()) {
            abortPending = true; // remembered: startLifecycle aborts at once
            return;
        }
        abortNow();
    }

    private void abortNow() {
        ParticipantState last = state;
        if (last == ParticipantState.SHUTTING_DOWN || last == ParticipantState.SHUTDOWN
                || last == ParticipantState.ABORTING) {
            return;
        }
        stopRequested = true;
        phaseBusy = true;
        changeState(ParticipantState.ABORTING, "simulation aborted");
        Consumer<ParticipantState> h = abortHandler;
        if (h != null) {
            try {
                h.accept(last);
            } catch (RuntimeException ex) {
                LOG.warn("participant '{}': abort handler threw (ignored)", core.participantName(), ex);
            }
        }
        core.afterAllPeersReplied(() -> {
            changeState(ParticipantState.SHUTDOWN, "aborted");
            finalState.complete(ParticipantState.SHUTDOWN);
        });
    }

    /** A coordinated participant found virtual time already advanced: abort everyone (SIL Kit). */
    void abortBecauseOfHopOn() {
        if (hopOnAborted) {
            return;
        }
        hopOnAborted = true;
        LOG.error("participant '{}': coordinated participant joined a simulation whose virtual time has advanced;"
                + " aborting the simulation (use OperationMode.AUTONOMOUS to join late)", core.participantName());
        core.broadcast(new SystemCommand(SystemCommand.Kind.ABORT_SIMULATION));
        abortNow();
    }

    void onTimeSyncPeerDiscovered() {
        ConservativeTimeSync ts = timeSync;
        if (ts != null) {
            ts.onPeerDiscovered();
        }
    }

    private void changeState(ParticipantState next, String why) {
        state = next;
        reason = why;
        LOG.info("participant '{}' -> {} ({})", core.participantName(), next, why);
        core.broadcast(new StatusUpdate(next, why));
        core.applyStatus(new io.tandem.cosim.ParticipantStatus(core.participantName(), next, why));
    }

    void onClosed() {
        if (!finalState.isDone()) {
            finalState.completeExceptionally(new TandemException("participant '" + core.participantName()
                    + "' was closed in state " + state + " before its lifecycle reached SHUTDOWN"));
        }
    }
}
