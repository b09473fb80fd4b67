package io.tandem.physics.internal.collision;

import io.tandem.physics.internal.geometry.AabbOps;
import io.tandem.physics.internal.geometry.Poses;
import io.tandem.physics.internal.geometry.Shape;
import java.util.Random;

/**
 * One-off measurement behind BroadPhase.DEFAULT_ALGORITHM (not a test; run by hand):
 * {@code java -cp tandem-physics/target/classes:tandem-physics/target/test-classes
 * io.tandem.physics.internal.collision.BroadPhaseMeasurement}. Spheres r = 0.1, AABB margin 0.01,
 * plus a static floor plane; dense = cubic lattice with 0.22 m spacing and 1 cm jitter (the pile),
 * sparse = uniform in a cube with 1 m mean spacing. Each frame moves every sphere by a Gaussian
 * step of 2 mm and recomputes the AABBs (not timed). Prints the mean time per findPairs call.
 */
@SuppressForbidden // console output and System.nanoTime in a measurement tool
final class BroadPhaseMeasurement {
    private BroadPhaseMeasurement() {
    }

    public static void main(String[] args) {
        int[] sizes = {1_000, 10_000, 100_000};
        for (int round = 0; round < 2; round++) {
            System.out.println(round == 0 ? "# warm-up round" : "# measured round");
            for (int n : sizes) {
                for (boolean dense : new boolean[] {true, false}) {
                    for (BroadPhase.Algorithm algorithm : BroadPhase.Algorithm.values()) {
                        measure(n, dense, algorithm, round == 1);
                    }
                }
            }
        }
    }

    private static void measure(int n, boolean dense, BroadPhase.Algorithm algorithm, boolean print) {
        Random rnd = new Random(42);
        int total = n + 1;
        Shape ball = Shape.sphere(0.1);
        Poses p = new Poses(total);
        int[] group = new int[total];
        int side = (int) Math.ceil(Math.cbrt(n));
        double extent = Math.cbrt(n) * 1.0;
        for (int i = 0; i < n; i++) {
            if (dense) {
                int x = i % side;
                int y = (i / side) % side;
                int z = i / (side * side);
                p.at(i, x * 0.22 + 0.01 * rnd.nextGaussian(), y * 0.22 + 0.01 * rnd.nextGaussian(),
                        0.3 + z * 0.22 + 0.01 * rnd.nextGaussian());
            } else {
                p.at(i, extent * rnd.nextDouble(), extent * rnd.nextDouble(), 0.3 + extent * rnd.nextDouble());
            }
            group[i] = 1;
        }
        p.at(n, 0, 0, 0);
        group[n] = 0;
        double[] min = new double[3 * total];
        double[] max = new double[3 * total];
        BroadPhase bp = new BroadPhase(algorithm);
        PairBuffer out = new PairBuffer();
        int frames = n >= 100_000 ? 8 : (n >= 10_000 ? 30 : 200);
        int warm = Math.max(3, frames / 4);
        long elapsed = 0;
        long pairs = 0;
        for (int f = 0; f < warm + frames; f++) {
            for (int i = 0; i < n; i++) {
                p.translate(i, 0.002 * rnd.nextGaussian(), 0.002 * rnd.nextGaussian(), 0.002 * rnd.nextGaussian());
                AabbOps.compute(ball, p.pos, p.quat, i, 0.01, min, max);
            }
            AabbOps.compute(Shape.plane(), p.pos, p.quat, n, 0.01, min, max);
            long t0 = System.nanoTime();
            bp.findPairs(total, min, max, group, out);
            long t1 = System.nanoTime();
            if (f >= warm) {
                elapsed += t1 - t0;
                pairs += out.size();
            }
        }
        if (print) {
            System.out.printf("%-7s n=%6d %-15s pairs=%8d  %10.1f us/call%n", dense ? "dense" : "sparse", n, algorithm,
                    pairs / frames, elapsed / 1e3 / frames);
        }
    }
}
