package io.tandem.cosim;

/** The simulation step of a time-synchronized participant; called on the participant's thread. */
@FunctionalInterface
public interface SimulationStepHandler {
    /**
     * @param nowNs      start of this step in virtual ns (k times the step size for a participant
     *                   that started at 0)
     * @param durationNs length of this step in ns
     */
    void onStep(long nowNs, long durationNs);
}
