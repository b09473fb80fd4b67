package io.tandem.cli.demo;

import java.util.List;

/**
 * What {@code tandem demo cosim} runs. Immutable.
 *
 * @param durationNs  virtual time to simulate in ns, greater than 0; the first participant stops
 *                    the simulation at its first step at or after this time
 * @param stepSizesNs one step size in ns per participant (1 to {@value #MAX_PARTICIPANTS}), each
 *                    greater than 0; copied
 * @param timeoutMs   wall-clock ms to wait for every participant to reach SHUTDOWN, greater than 0
 */
record CosimDemoConfig(long durationNs, List<Long> stepSizesNs, long timeoutMs) {
    /** The most participants the demo runs. */
    static final int MAX_PARTICIPANTS = 9;

    /** Validates and copies. */
    CosimDemoConfig {
        if (durationNs <= 0) {
            throw new IllegalArgumentException("duration must be > 0 ns, got " + durationNs);
        }
        stepSizesNs = List.copyOf(stepSizesNs);
        if (stepSizesNs.isEmpty() || stepSizesNs.size() > MAX_PARTICIPANTS) {
            throw new IllegalArgumentException("give 1 to " + MAX_PARTICIPANTS + " step sizes (one per participant), got "
                    + stepSizesNs.size());
        }
        for (long s : stepSizesNs) {
            if (s <= 0) {
                throw new IllegalArgumentException("step sizes must be > 0, got " + s + " ns");
            }
        }
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("timeout must be > 0 ms, got " + timeoutMs);
        }
    }

    /** @return the default demo: 3 participants stepping 1, 2 and 5 ms for 20 ms, 10 s timeout */
    static CosimDemoConfig defaults() {
        return new CosimDemoConfig(20_000_000, List.of(1_000_000L, 2_000_000L, 5_000_000L), 10_000);
    }

    /** @return the number of time-synchronized participants */
    int participants() {
        return stepSizesNs.size();
    }

    /**
     * @param index participant index, 0-based
     * @return its name: {@code p1}, {@code p2}, ...
     */
    static String participantName(int index) {
        return "p" + (index + 1);
    }
}
