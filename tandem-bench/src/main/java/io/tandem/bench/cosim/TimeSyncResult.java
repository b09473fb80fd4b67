package io.tandem.bench.cosim;

import java.util.Locale;

/**
 * One {@code bench timesync} run. Immutable.
 *
 * @param transport    {@code inproc} or {@code aeron}
 * @param participants time-synchronized participants
 * @param steps        virtual steps of 1 ms executed by every participant
 * @param setupNs      wall ns to start the registry, connect and create the services
 * @param runNs        wall ns from the first {@code startLifecycle} until every lifecycle future
 *                     completed (SHUTDOWN); includes the lifecycle start-up and shut-down, as SIL
 *                     Kit's benchmark does
 * @param teardownNs   wall ns to close the participants and the registry
 * @param processes    for participants in separate processes: their CPU use; null in-process
 */
record TimeSyncResult(String transport, int participants, long steps, long setupNs, long runNs, long teardownNs,
        ProcessStats processes) {

    /** An in-process run. */
    TimeSyncResult(int participants, long steps, long setupNs, long runNs, long teardownNs) {
        this("inproc", participants, steps, setupNs, runNs, teardownNs, null);
    }

    /**
     * CPU use of a run with one participant per process.
     *
     * @param registries         registries the participants were spread over (2: Aeron UDP between them)
     * @param idle               the participants' idle strategy ({@code tandem.net.idle})
     * @param cpuPerSecondMean   mean over the participants of process CPU s per wall s during the run
     * @param cpuPerSecondMax    the largest of them
     * @param idleCpuPerSecondMean mean process CPU s per wall s of a connected participant before its
     *                           lifecycle starts (idle)
     * @param idleCpuPerSecondMax the largest of them
     * @param registryCpuPerSecond CPU s per wall s of the benchmark process during the run: the
     *                           registries (media drivers) and the system controller participant
     */
    record ProcessStats(int registries, String idle, double cpuPerSecondMean, double cpuPerSecondMax,
            double idleCpuPerSecondMean, double idleCpuPerSecondMax, double registryCpuPerSecond) {
    }

    /** @return steps / run seconds */
    double stepsPerSecond() {
        return steps * 1e9 / runNs;
    }

    /**
     * @param run 1-based run number within its participant count
     * @return one JSON object on one line: transport, participants, (processes,) steps, steps_per_s,
     *     run, run_s, setup_s, teardown_s, and for separate processes their CPU use
     */
    String toJsonLine(int run) {
        String head = String.format(Locale.ROOT, "{\"transport\":\"%s\",\"participants\":%d,", transport, participants)
                + (processes == null ? "" : "\"processes\":" + participants + ",");
        String body = String.format(Locale.ROOT,
                "\"steps\":%d,\"steps_per_s\":%.1f,\"run\":%d,\"run_s\":%.6f,\"setup_s\":%.6f,\"teardown_s\":%.6f",
                steps, stepsPerSecond(), run, runNs / 1e9, setupNs / 1e9, teardownNs / 1e9);
        if (processes == null) {
            return head + body + "}";
        }
        return head + body + String.format(Locale.ROOT,
                ",\"registries\":%d,\"idle\":\"%s\",\"cpu_per_s_mean\":%.3f,\"cpu_per_s_max\":%.3f,"
                        + "\"idle_cpu_per_s_mean\":%.3f,\"idle_cpu_per_s_max\":%.3f,\"registry_cpu_per_s\":%.3f}",
                processes.registries(), processes.idle(), processes.cpuPerSecondMean(), processes.cpuPerSecondMax(),
                processes.idleCpuPerSecondMean(), processes.idleCpuPerSecondMax(), processes.registryCpuPerSecond());
    }
}
