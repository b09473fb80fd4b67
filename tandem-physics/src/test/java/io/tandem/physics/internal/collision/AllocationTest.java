package io.tandem.physics.internal.collision;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.physics.internal.geometry.AabbOps;
import io.tandem.physics.internal.geometry.Meshes;
import io.tandem.physics.internal.geometry.Poses;
import io.tandem.physics.internal.geometry.Shape;
import java.lang.management.ManagementFactory;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Steady-state collision detection allocates nothing: the calling thread's allocated bytes over
 * 1 000 repeated calls after warm-up stay under a small bound (the measurement itself and rare JIT
 * events may allocate a little).
 */
@SuppressForbidden // per-thread allocation counters live in com.sun.management
class AllocationTest {
    private static final int CALLS = 1_000;
    private static final long BOUND_BYTES = 4_096;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void collide_everyPairInContact_allocatesNothingAfterWarmUp() {
        // one touching configuration per canonical pair, each also evaluated swapped
        // convex: an off-centre hull and a simplified 642-vertex icosphere (44 vertices)
        Shape[] shapes = {
            Shape.sphere(0.1), Shape.box(0.2, 0.15, 0.1), Shape.capsule(0.08, 0.2), Shape.cylinder(0.15, 0.1),
            Shape.convex(Meshes.shifted(Meshes.ball(30, 0.15, 0, 0, 0, new Random(7)), 0.03, -0.02, 0.01)),
            Shape.convex(Meshes.icosphere(0.12, 3)), Shape.plane()
        };
        int n = shapes.length;
        Poses p = new Poses(2 * n);
        Random rnd = new Random(3);
        // pose k of shape k and a second copy nearby, so every pair overlaps a little
        for (int k = 0; k < n; k++) {
            p.at(k, 0.01 * k, 0.02 * k, 0.1 + 0.01 * k).randomOrientation(k, rnd);
            p.at(n + k, 0.05, -0.03, 0.2).randomOrientation(n + k, rnd);
        }
        p.at(n - 1, 0, 0, 0);
        p.at(2 * n - 1, 0, 0, 0.05);
        // GJK path: a capsule lying above a box and a cylinder, and above a convex hull
        Poses q = new Poses(3).at(0, 0, 0, 0).at(1, 0.05, 0, 0.1 + 0.08 + 0.05, 0, 1, 0, Math.PI / 2).at(2, 0, 0, 0.35);
        Poses g = new Poses(2).at(0, 0, 0, 0).at(1, 0.02, 0, 0.12 + 0.08 + 0.005, 0, 1, 0, Math.PI / 2);
        NarrowPhase np = new NarrowPhase();
        ContactManifold m = new ContactManifold();
        int contacts = 0;
        for (int round = 0; round < 2; round++) {
            long before = allocatedBytes();
            int calls = round == 0 ? 2 * CALLS : CALLS;
            for (int c = 0; c < calls; c++) {
                for (int a = 0; a < n; a++) {
                    for (int b = 0; b < n; b++) {
                        contacts += np.collide(shapes[a], p.pos, p.quat, a, shapes[b], n + b, 0.01, m);
                    }
                }
                contacts += np.collide(shapes[1], q.pos, q.quat, 0, shapes[2], 1, 0.01, m);
                contacts += np.collide(shapes[2], q.pos, q.quat, 1, shapes[3], 2, 0.01, m);
                contacts += np.collide(shapes[5], g.pos, g.quat, 0, shapes[2], 1, 0.01, m);
            }
            long allocated = allocatedBytes() - before;
            if (round == 1) {
                assertThat(allocated).as("bytes allocated by %d x %d collide calls", CALLS, n * n + 3)
                        .isLessThan(BOUND_BYTES);
            }
        }
        assertThat(contacts).isPositive();
    }

    @ParameterizedTest
    @EnumSource(BroadPhase.Algorithm.class)
    void findPairs_movingPile_allocatesNothingAfterWarmUp(BroadPhase.Algorithm algorithm) {
        int n = 1_001;
        Shape ball = Shape.sphere(0.1);
        Poses p = new Poses(n);
        int[] group = new int[n];
        Random rnd = new Random(5);
        for (int i = 0; i < n - 1; i++) {
            p.at(i, (i % 10) * 0.22 + 0.01 * rnd.nextGaussian(), ((i / 10) % 10) * 0.22 + 0.01 * rnd.nextGaussian(),
                    0.1 + (i / 100) * 0.22);
            group[i] = 1;
        }
        p.at(n - 1, 0, 0, 0);
        double[] min = new double[3 * n];
        double[] max = new double[3 * n];
        double[] step = new double[3 * (n - 1)];
        for (int k = 0; k < step.length; k++) {
            step[k] = 0.001 * rnd.nextGaussian();
        }
        BroadPhase bp = new BroadPhase(algorithm);
        PairBuffer out = new PairBuffer();
        long pairs = 0;
        for (int round = 0; round < 2; round++) {
            int calls = round == 0 ? 200 : CALLS;
            long before = allocatedBytes();
            for (int c = 0; c < calls; c++) {
                // jiggle back and forth so the scene stays a pile
                double sign = (c & 1) == 0 ? 1 : -1;
                for (int i = 0; i < n - 1; i++) {
                    p.translate(i, sign * step[3 * i], sign * step[3 * i + 1], sign * step[3 * i + 2]);
                    AabbOps.compute(ball, p.pos, p.quat, i, 0.01, min, max);
                }
                AabbOps.compute(Shape.plane(), p.pos, p.quat, n - 1, 0.01, min, max);
                pairs += bp.findPairs(n, min, max, group, out);
            }
            long allocated = allocatedBytes() - before;
            if (round == 1) {
                assertThat(allocated).as("bytes allocated by %d findPairs calls", CALLS).isLessThan(BOUND_BYTES);
            }
        }
        assertThat(pairs).isPositive();
    }
}
