package io.tandem.bench;

import java.util.Locale;

/**
 * One {@code bench timesync} run. Immutable.
 *
 * @param participants time-synchronized participants
 * @param steps        virtual steps of 1 ms executed by every participant
 * @param setupNs      wall ns to start the registry, connect and create the services
 * @param runNs        wall ns from the first {@code startLifecycle} until every lifecycle future
 *                     completed (SHUTDOWN); includes the lifecycle start-up and shut-down, as SIL
 *                     Kit's benchmark does
 * @param teardownNs   wall ns to close the participants and the registry
 */
record TimeSyncResult(int participants, long steps, long setupNs, long runNs, long teardownNs) {

    /** @return steps / run seconds */
    double stepsPerSecond() {
        return steps * 1e9 / runNs;
    }

    /**
     * @param run 1-based run number within its participant count
     * @return one JSON object on one line: transport, participants, steps, steps_per_s, run,
     *     run_s, setup_s, teardown_s
     */
    String toJsonLine(int run) {
        return String.format(Locale.ROOT,
                "{\"transport\":\"inproc\",\"participants\":%d,\"steps\":%d,\"steps_per_s\":%.1f,\"run\":%d,"
                        + "\"run_s\":%.6f,\"setup_s\":%.6f,\"teardown_s\":%.6f}",
                participants, steps, stepsPerSecond(), run, runNs / 1e9, setupNs / 1e9, teardownNs / 1e9);
    }
}
