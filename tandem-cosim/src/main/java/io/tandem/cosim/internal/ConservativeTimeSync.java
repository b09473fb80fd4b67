package io.tandem.cosim.internal;

import io.tandem.cosim.OperationMode;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.SimulationStepHandler;
import io.tandem.cosim.SystemState;
import io.tandem.cosim.TimeSyncService;
import io.tandem.cosim.VirtualTime;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/*
 * Implementation notes.
 *
 * SIL Kit 5.0.8 TimeSyncService.cpp (SynchronizedPolicy), shared/specs/silkit.md 1(b): each
 * participant broadcasts NextSimTask{timePoint, duration} for its own next step (de-duplicated);
 * it advances when it is Running, no stop or pause is pending, (coordinated) the system is not in
 * Error, and every other time-synced participant's announced timePoint >= its own next timePoint.
 * A participant that finds, before its first step, peers past their first step (timePoint >
 * duration) has hopped on and starts at the smallest such timePoint, which it announces at once (so
 * several newcomers joining together do not wait on each other's initial {0}); a coordinated one
 * aborts the simulation instead.
 *
 * The advance check reads PeerClock volatiles (no queue, no allocation); see ParticipantCore for
 * why the second inbox drain before a step preserves the timestamp guarantee.
 */

/** Virtual-time synchronization of one participant. Steps run on the participant's thread. */
final class ConservativeTimeSync implements TimeSyncService {
    private static final long DEFAULT_STEP_SIZE_NS = 1_000_000;

    private final ParticipantCore core;
    private final ParticipantLifecycle lifecycle;
    private volatile SimulationStepHandler handler;
    private volatile boolean async;
    private volatile long stepSizeNs = DEFAULT_STEP_SIZE_NS;
    private final AtomicBoolean completeRequested = new AtomicBoolean();
    private volatile long nowNs = VirtualTime.INVALID_NS;

    // worker
    private boolean timeRunning;
    private boolean executing;
    private long currentNs = -1;
    private long myNextNs;
    private long lastSentNs = Long.MIN_VALUE;

    ConservativeTimeSync(ParticipantCore core, ParticipantLifecycle lifecycle) {
        this.core = core;
        this.lifecycle = lifecycle;
    }

    @Override
    public void setSimulationStepHandler(SimulationStepHandler h, long stepSize) {
        set(h, stepSize, false);
    }

    @Override
    public void setSimulationStepHandlerAsync(SimulationStepHandler h, long stepSize) {
        set(h, stepSize, true);
    }

    private void set(SimulationStepHandler h, long stepSize, boolean isAsync) {
        Objects.requireNonNull(h, "simulation step handler must not be null");
        if (stepSize <= 0) {
            throw new IllegalArgumentException("participant '" + core.participantName()
                    + "': step size must be > 0 ns, got " + stepSize);
        }
        if (lifecycle.state() != ParticipantState.INVALID) {
            throw new io.tandem.cosim.ConfigurationException("participant '" + core.participantName()
                    + "': set the step handler before startLifecycle()");
        }
        handler = h;
        stepSizeNs = stepSize;
        async = isAsync;
    }

    @Override
    public void completeSimulationStep() {
        completeRequested.set(true);
        core.signal();
    }

    @Override
    public long now() {
        return nowNs;
    }

    /** A diagnostic line (racy reads). */
    String describe() {
        return "next=" + myNextNs + " sent=" + lastSentNs + (executing ? " executing" : "") + (timeRunning ? "" : " stopped");
    }

    // ---------------------------------------------------------------- worker

    void startTime() {
        timeRunning = true;
        requestNextStep();
    }

    /** Announces the next step unless a step is open or a stop/pause is pending. */
    void requestNextStep() {
        if (!timeRunning || executing || lifecycle.stopRequested || lifecycle.pauseRequested
                || lifecycle.state() != ParticipantState.RUNNING) {
            return;
        }
        if (lastSentNs != myNextNs) {
            lastSentNs = myNextNs;
            core.session().broadcastNextSimTask(myNextNs, stepSizeNs);
        }
    }

    /** A time-synced peer appeared: re-send what we announced so it can see our time. */
    void onPeerDiscovered() {
        if (lastSentNs != Long.MIN_VALUE) {
            core.session().broadcastNextSimTask(lastSentNs, stepSizeNs);
        }
    }

    /** One duty cycle. @return work done */
    int doWork() {
        int work = 0;
        if (completeRequested.get() && completeRequested.getAndSet(false) && executing) {
            executing = false;
            requestNextStep();
            work++;
        }
        if (!canAdvance()) {
            return work;
        }
        // messages sent before the announcements we just read must be handled before the step
        if (core.drain() > 0) {
            return work + 1;
        }
        if (!canAdvance()) {
            return work + 1;
        }
        step();
        return work + 1;
    }

    private boolean canAdvance() {
        if (!timeRunning || executing || handler == null || lifecycle.stopRequested || lifecycle.pauseRequested
                || lifecycle.state() != ParticipantState.RUNNING) {
            return false;
        }
        if (lifecycle.mode() == OperationMode.COORDINATED && core.systemState() == SystemState.ERROR) {
            return false;
        }
        PeerClock[] clocks = core.syncedClocks;
        if (currentNs < 0) {
            long hop = Long.MAX_VALUE;
            for (PeerClock c : clocks) {
                long t = c.nextNs;
                if (t > c.durationNs && t < hop) {
                    hop = t;
                }
            }
            if (hop != Long.MAX_VALUE) {
                if (lifecycle.mode() == OperationMode.COORDINATED) {
                    lifecycle.abortBecauseOfHopOn();
                    return false;
                }
                if (hop > myNextNs) {
                    myNextNs = hop;
                    // announce the jump at once: other newcomers still waiting at {0} would
                    // otherwise block on us while we block on them
                    requestNextStep();
                }
            }
        }
        long mine = myNextNs;
        for (PeerClock c : clocks) {
            if (c.nextNs < mine) {
                return false;
            }
        }
        return true;
    }

    private void step() {
        long now = myNextNs;
        long duration = stepSizeNs;
        currentNs = now;
        myNextNs = now + duration;
        nowNs = now;
        core.tickVirtualTimeouts(now, duration);
        if (async) {
            executing = true;
        }
        try {
            handler.onStep(now, duration);
        } catch (RuntimeException ex) {
            executing = false;
            lifecycle.reportErrorNow("simulation step handler threw at t=" + now + " ns: " + ex);
            return;
        }
        if (!async) {
            requestNextStep();
        }
    }
}
