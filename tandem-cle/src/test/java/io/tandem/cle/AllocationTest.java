package io.tandem.cle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.PoissonSource;
import io.tandem.cle.engine.BrainEngine;
import io.tandem.cle.engine.WorldEngine;
import io.tandem.cle.internal.SuppressForbidden;
import io.tandem.cle.tf.EyeSensorTransmit;
import io.tandem.cle.tf.LinearTwist;
import io.tandem.neuro.BraitenbergBrain;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The loop's steps allocate nothing of their own: a serial loop (everything on this thread) over
 * the Braitenberg brain engine with a TF reading its integrators and setting its Poisson rates
 * and a recorded spike train, after warm-up, allocates less than a small bound over 200 steps;
 * so does the whole Husky loop (brain, world with its camera, both transfer functions).
 */
@SuppressForbidden // per-thread allocation counters live in com.sun.management
class AllocationTest {
    private static final long BOUND_BYTES = 4_096;
    private static final long STEP_NS = 20_000_000L;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void run_serialBrainLoop_allocatesNothingAfterWarmUp() {
        BrainEngine brain = HuskyBraitenberg.brainEngine("brain", BraitenbergBrain.build(3));
        TransferFunction eyes = TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "eyes", 0, d -> {
            PoissonSource l = d.poissonSource("red_left_eye");
            PoissonSource r = d.poissonSource("red_right_eye");
            PoissonSource g = d.poissonSource("green_blue_eye");
            LeakyIntegrator vl = d.leakyIntegrator("left_wheel_neuron");
            return (t, k) -> {
                l.setRate(500 + (k % 7) * 100);
                r.setRate(vl.voltage() > 1e9 ? 0 : 300);
                g.setRate(75);
            };
        });
        long[] seen = new long[1];
        ProgressHandler progress = (k, t) -> {
            seen[0] = k;
            return true;
        };
        try (ClosedLoop loop = ClosedLoop.builder().engine(brain).transferFunction(eyes).recordSpikes(HuskyBraitenberg.SPIKES)
                .mode(SyncMode.SERIAL).build()) {
            long allocated = 0;
            for (int round = 0; round < 3; round++) {
                long before = allocatedBytes();
                for (int i = 0; i < 200; i++) {
                    loop.run(STEP_NS, progress);
                }
                allocated = allocatedBytes() - before;
            }
            assertThat(seen[0]).isEqualTo(599);
            assertThat(loop.spikeTrains().size()).isPositive();
            // 200 runs of one step each: the per-run StepTimings (a few small arrays) are the only allocation
            assertThat(allocated - 200L * stepTimingsBytes()).isLessThan(BOUND_BYTES);
        }
    }

    @Test
    void run_serialHuskyLoop_brainWorldCameraAndTfs_allocateNothingAfterWarmUp() {
        BrainEngine brain = HuskyBraitenberg.brainEngine("brain", BraitenbergBrain.build(3));
        WorldEngine world = HuskyBraitenberg.worldEngine("world",
                io.tandem.world.sdf.SdfLoader.load(HuskyBraitenberg.findWorldFile(), w -> { }), false);
        try (ClosedLoop loop = ClosedLoop.builder().engine(brain).engine(world).transferFunction(new EyeSensorTransmit())
                .transferFunction(new LinearTwist()).mode(SyncMode.SERIAL).build()) {
            long allocated = 0;
            for (int round = 0; round < 3; round++) {
                long before = allocatedBytes();
                for (int i = 0; i < 200; i++) {
                    loop.run(STEP_NS, ProgressHandler.NONE);
                }
                allocated = allocatedBytes() - before;
            }
            // 600 loop steps of both engines ran
            assertThat(loop.timeNs()).isEqualTo(600 * STEP_NS);
            assertThat(allocated - 200L * stepTimingsBytes(java.util.List.of("brain", "world"))).isLessThan(BOUND_BYTES);
        }
    }

    private static long stepTimingsBytes() {
        return stepTimingsBytes(java.util.List.of("brain"));
    }

    /** What one run of one step allocates for its StepTimings (measured, not guessed). */
    private static long stepTimingsBytes(java.util.List<String> names) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < 50; i++) {
            long b = allocatedBytes();
            StepTimings t = new StepTimings(names, 1);
            long a = allocatedBytes() - b;
            if (t.steps() == 0) {
                min = Math.min(min, a);
            }
        }
        return min;
    }
}
