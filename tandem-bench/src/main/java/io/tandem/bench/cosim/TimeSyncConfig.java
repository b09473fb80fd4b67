package io.tandem.bench.cosim;

import java.util.List;

/**
 * What {@code bench timesync} measures. Immutable.
 *
 * @param participants participant counts to measure, each at least 1; copied
 * @param steps        steps per run, at least 1
 * @param runs         measured runs per participant count, at least 1
 * @param warmupRuns   unreported runs before them, at least 0
 * @param timeoutMs    wall ms one run may take, greater than 0
 */
record TimeSyncConfig(List<Integer> participants, long steps, int runs, int warmupRuns, long timeoutMs) {
    /** Validates and copies. */
    TimeSyncConfig {
        participants = List.copyOf(participants);
        if (participants.isEmpty()) {
            throw new IllegalArgumentException("give at least one participant count");
        }
        for (int n : participants) {
            if (n < 1) {
                throw new IllegalArgumentException("participant counts must be >= 1, got " + n);
            }
        }
        if (steps < 1) {
            throw new IllegalArgumentException("steps must be >= 1, got " + steps);
        }
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be >= 1, got " + runs);
        }
        if (warmupRuns < 0) {
            throw new IllegalArgumentException("warm-up runs must be >= 0, got " + warmupRuns);
        }
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("timeout must be > 0, got " + timeoutMs + " ms");
        }
    }
}
