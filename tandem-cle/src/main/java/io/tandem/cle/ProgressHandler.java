package io.tandem.cle;

/**
 * Told about each completed loop step (NRP-core's StatusFunction role): primitives only, so it
 * allocates nothing. Called on the loop thread, with every engine that synced at the step's end idle.
 */
@FunctionalInterface
public interface ProgressHandler {
    /** Never stops. */
    ProgressHandler NONE = (iteration, timeNs) -> true;

    /**
     * @param iteration the index of the loop step just completed
     * @param timeNs    the simulated time at its end, ns
     * @return true to go on, false to stop after this step
     */
    boolean onStep(long iteration, long timeNs);
}
