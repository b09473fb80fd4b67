package io.tandem.bench.cosim;

import java.util.Optional;

/**
 * SIL Kit 5.0.8's time-sync-only steps/s on a 2-core machine: in-process
 * {@code SilKitDemoBenchmark}, default transport, 10,000 steps of 1 ms, no payload, runtime
 * including setup; the lowest and highest of three rounds' medians (shared/specs/silkit.md 4.6).
 * Immutable.
 *
 * @param participants number of time-synchronized participants
 * @param lowStepsPerS lowest round median, steps/s
 * @param highStepsPerS highest round median, steps/s
 */
record SilKitReference(int participants, double lowStepsPerS, double highStepsPerS) {
    /** Tandem's goal, as a multiple of SIL Kit. */
    static final double GOAL_FACTOR = 5.0;

    private static final SilKitReference[] MEASURED = {
        new SilKitReference(2, 40_000, 54_945),
        new SilKitReference(4, 11_919, 13_986),
        new SilKitReference(8, 2_488, 3_300),
    };

    /**
     * @param participants number of participants
     * @return the measured range, if SIL Kit was measured at that size (2, 4, 8)
     */
    static Optional<SilKitReference> forParticipants(int participants) {
        for (SilKitReference r : MEASURED) {
            if (r.participants == participants) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
