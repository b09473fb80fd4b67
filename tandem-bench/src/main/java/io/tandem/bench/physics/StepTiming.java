package io.tandem.bench.physics;

import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsState;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of the calling (stepping) thread and wall time of {@code steps} engine steps: the one
 * timed block every physics bench uses. Wall time is System.nanoTime: this is the measuring
 * harness, not simulation logic.
 *
 * @param cpuNs  stepping thread's CPU ns
 * @param wallNs wall ns
 * @param steps  steps timed
 * @param iterations solver iterations over the timed steps
 */
record StepTiming(long cpuNs, long wallNs, int steps, long iterations) {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    /** Steps {@code state} {@code steps} times and times it. */
    static StepTiming measure(PhysicsEngine engine, PhysicsState state, int steps) {
        return measure(engine, state, steps, null);
    }

    /** {@link #measure(PhysicsEngine, PhysicsState, int)} with a controller run before each step (timed too), or null. */
    static StepTiming measure(PhysicsEngine engine, PhysicsState state, int steps, Runnable control) {
        long cpu0 = MX.getCurrentThreadCpuTime();
        long wall0 = System.nanoTime();
        long iterations = 0;
        for (int k = 0; k < steps; k++) {
            if (control != null) {
                control.run();
            }
            engine.step(state);
            iterations += engine.lastIterations();
        }
        long wall = System.nanoTime() - wall0;
        return new StepTiming(MX.getCurrentThreadCpuTime() - cpu0, wall, steps, iterations);
    }

    double cpuMsPerStep() {
        return cpuNs / 1e6 / steps;
    }

    /** @return mean solver iterations per step */
    double meanIterations() {
        return (double) iterations / steps;
    }

    double wallMsPerStep() {
        return wallNs / 1e6 / steps;
    }
}
