package io.tandem.cosim;

/**
 * Takes part in the distributed virtual-time synchronization (SIL Kit's algorithm): there is no
 * time master; each participant broadcasts the start of its next step and advances only when
 * every other time-synchronized participant has announced a next time at or after its own.
 * Participants may use different step sizes.
 */
public interface TimeSyncService {
    /**
     * Sets a blocking step handler: the step is complete when the handler returns.
     *
     * @param handler    the step, called on the participant's thread
     * @param stepSizeNs step size in ns, greater than 0
     */
    void setSimulationStepHandler(SimulationStepHandler handler, long stepSizeNs);

    /**
     * Sets an asynchronous step handler: the step stays open after the handler returns until
     * {@link #completeSimulationStep()} is called; no further step starts before that.
     *
     * @param handler    the step, called on the participant's thread
     * @param stepSizeNs step size in ns, greater than 0
     */
    void setSimulationStepHandlerAsync(SimulationStepHandler handler, long stepSizeNs);

    /**
     * Completes the open asynchronous step. Safe from any thread; allocates nothing. Calls while
     * no step is open are ignored, and calls made before the participant acts on the first one
     * coalesce. Call it once per step: the API carries no step id, so an extra call that races
     * with the start of the next step completes that step.
     */
    void completeSimulationStep();

    /** @return start of the current step in ns, or {@link VirtualTime#INVALID_NS} before the first */
    long now();
}
