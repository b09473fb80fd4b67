package io.tandem.physics.internal.collision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.physics.internal.geometry.AabbOps;
import io.tandem.physics.internal.geometry.Poses;
import io.tandem.physics.internal.geometry.Shape;
import io.tandem.physics.internal.parallel.ParallelLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Broad phase against a brute-force O(n^2) reference; seed overridable with -Dtandem.test.seed=N. */
class BroadPhaseTest {
    private static final long SEED = Long.getLong("tandem.test.seed", 77L);

    /** A scene: n colliders with AABBs, groups; mutable for motion. */
    private static final class Scene {
        final int n;
        final Shape[] shapes;
        final Poses poses;
        final int[] group;
        final double[] min;
        final double[] max;

        Scene(int n) {
            this.n = n;
            shapes = new Shape[n];
            poses = new Poses(n);
            group = new int[n];
            min = new double[3 * n];
            max = new double[3 * n];
        }

        void updateAabbs(double margin) {
            for (int i = 0; i < n; i++) {
                AabbOps.compute(shapes[i], poses.pos, poses.quat, i, margin, min, max);
            }
        }
    }

    /** Random mix of shapes in a cube of the given side, some static, a floor, a tilted plane, a big slab. */
    private static Scene randomScene(int n, double side, Random rnd) {
        Scene s = new Scene(n);
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(4);
            s.shapes[i] = switch (kind) {
                case 0 -> Shape.sphere(0.05 + 0.1 * rnd.nextDouble());
                case 1 -> Shape.box(
                        0.05 + 0.1 * rnd.nextDouble(), 0.05 + 0.1 * rnd.nextDouble(), 0.05 + 0.1 * rnd.nextDouble());
                case 2 -> Shape.capsule(0.05, 0.1 + 0.1 * rnd.nextDouble());
                default -> Shape.cylinder(0.1, 0.05);
            };
            s.poses.at(i, side * rnd.nextDouble(), side * rnd.nextDouble(), side * rnd.nextDouble())
                    .randomOrientation(i, rnd);
            s.group[i] = rnd.nextInt(5) == 0 ? 0 : 1 + rnd.nextInt(3);
        }
        // floor at z = 0.3 side, a tilted plane, and a big static slab
        s.shapes[0] = Shape.plane();
        s.poses.at(0, 0, 0, 0.3 * side);
        s.group[0] = 0;
        s.shapes[1] = Shape.plane();
        s.poses.at(1, side, side, side, 1, -1, 0.3, 2.5);
        s.group[1] = 0;
        s.shapes[2] = Shape.box(side / 3, side / 3, 0.1);
        s.poses.at(2, side / 2, side / 2, side / 2);
        s.group[2] = 0;
        s.updateAabbs(0.01);
        return s;
    }

    private static List<Long> bruteForce(int n, double[] min, double[] max, int[] group) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                // two static colliders, or two of one family (group >= 2: a robot's links), never pair
                boolean family = group[i] == group[j] && group[i] >= 2;
                if (!valid(min, max, i) || !valid(min, max, j) || (group[i] == 0 && group[j] == 0) || family) {
                    continue;
                }
                if (BroadPhase.overlap(min, max, i, j)) {
                    out.add(((long) i << 32) | j);
                }
            }
        }
        return out;
    }

    private static boolean valid(double[] min, double[] max, int i) {
        for (int a = 3 * i; a < 3 * i + 3; a++) {
            if (!(min[a] <= max[a])) {
                return false;
            }
        }
        return true;
    }

    private static List<Long> asList(PairBuffer b) {
        List<Long> out = new ArrayList<>();
        for (int k = 0; k < b.size(); k++) {
            out.add(((long) b.first(k) << 32) | b.second(k));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(BroadPhase.Algorithm.class)
    void findPairs_randomMovingScenes_matchBruteForce(BroadPhase.Algorithm algorithm) {
        Random rnd = new Random(SEED);
        BroadPhase bp = new BroadPhase(algorithm);
        PairBuffer out = new PairBuffer(1);
        for (int scene = 0; scene < 6; scene++) {
            int n = 200 + rnd.nextInt(1500);
            // odd scenes are sparse (hashed grid cells), even ones dense (directly indexed cells)
            double side = scene % 2 == 0 ? 1.5 + 2 * rnd.nextDouble() : 20 + 20 * rnd.nextDouble();
            Scene s = randomScene(n, side, rnd);
            for (int frame = 0; frame < 8; frame++) {
                int count = bp.findPairs(n, s.min, s.max, s.group, out);
                List<Long> expected = bruteForce(n, s.min, s.max, s.group);
                assertThat(count).isEqualTo(out.size());
                assertThat(asList(out)).as("scene %d frame %d n %d seed %d", scene, frame, n, SEED).isEqualTo(expected);
                // move: mostly jitter, a few teleports
                for (int i = 3; i < n; i++) {
                    if (rnd.nextInt(50) == 0) {
                        s.poses.at(i, side * rnd.nextDouble(), side * rnd.nextDouble(), side * rnd.nextDouble());
                    } else {
                        s.poses.translate(
                                i, 0.02 * rnd.nextGaussian(), 0.02 * rnd.nextGaussian(), 0.02 * rnd.nextGaussian());
                    }
                }
                s.updateAabbs(0.01);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(BroadPhase.Algorithm.class)
    void findPairs_smallScenesTestedPairByPair_matchBruteForce(BroadPhase.Algorithm algorithm) {
        // up to BroadPhase.SMALL bounded colliders every pair is tested directly; just above, the algorithm runs
        Random rnd = new Random(SEED);
        BroadPhase bp = new BroadPhase(algorithm);
        PairBuffer out = new PairBuffer(1);
        int oneGroup = 0;
        for (int n : new int[] {3, 4, 10, 40, BroadPhase.SMALL + 2, BroadPhase.SMALL + 3, BroadPhase.SMALL + 20, 30, 30}) {
            Scene s = randomScene(n, 0.8, rnd);
            if (n == 30) {
                // one family (a robot alone, its base included), then every bounded collider static
                int g = oneGroup++ == 0 ? 2 : 0;
                for (int i = 2; i < n; i++) {
                    s.group[i] = g;
                }
            }
            for (int frame = 0; frame < 5; frame++) {
                bp.findPairs(n, s.min, s.max, s.group, out);
                assertThat(asList(out)).as("n %d frame %d seed %d", n, frame, SEED).isEqualTo(bruteForce(n, s.min, s.max, s.group));
                for (int i = 3; i < n; i++) {
                    s.poses.translate(i, 0.05 * rnd.nextGaussian(), 0.05 * rnd.nextGaussian(), 0.05 * rnd.nextGaussian());
                }
                s.updateAabbs(0.01);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(BroadPhase.Algorithm.class)
    void findPairs_changingColliderCountAndInvalidBounds_matchBruteForce(BroadPhase.Algorithm algorithm) {
        Random rnd = new Random(SEED + 1);
        BroadPhase bp = new BroadPhase(algorithm);
        PairBuffer out = new PairBuffer();
        Scene s = randomScene(900, 2, rnd);
        s.min[3 * 10] = Double.NaN;
        s.max[3 * 11 + 2] = s.min[3 * 11 + 2] - 1;
        for (int n : new int[] {900, 400, 900, 5, 0, 1, 700}) {
            bp.findPairs(n, s.min, s.max, s.group, out);
            assertThat(asList(out)).as("n %d", n).isEqualTo(bruteForce(n, s.min, s.max, s.group));
        }
        bp.findPairs(900, s.min, s.max, s.group, out);
        assertThat(bp.invalidCount()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(BroadPhase.Algorithm.class)
    void findPairs_sceneStretchedAlongAnotherAxis_matchBruteForce(BroadPhase.Algorithm algorithm) {
        Random rnd = new Random(SEED + 2);
        int n = 600;
        Scene s = randomScene(n, 2, rnd);
        BroadPhase bp = new BroadPhase(algorithm);
        PairBuffer out = new PairBuffer();
        for (int axis = 0; axis < 3; axis++) {
            for (int i = 3; i < n; i++) {
                s.poses.pos[3 * i + axis] *= 8;
            }
            s.updateAabbs(0.01);
            bp.findPairs(n, s.min, s.max, s.group, out);
            assertThat(asList(out)).as("stretched along %d", axis).isEqualTo(bruteForce(n, s.min, s.max, s.group));
        }
    }

    @Test
    void findPairs_onThreeThreads_matchBruteForceAndTheSerialGrid() {
        Random rnd = new Random(SEED + 9);
        BroadPhase serial = new BroadPhase(BroadPhase.Algorithm.UNIFORM_GRID);
        PairBuffer serialOut = new PairBuffer(1);
        PairBuffer out = new PairBuffer(1);
        try (ParallelLoop loop = ParallelLoop.withThreads(3)) {
            BroadPhase parallel = new BroadPhase(loop);
            for (int scene = 0; scene < 4; scene++) {
                // dense scenes (the directly indexed grid, which runs in parallel) of many chunks
                int n = 1500 + rnd.nextInt(2500);
                Scene s = randomScene(n, 2 + 2 * rnd.nextDouble(), rnd);
                for (int frame = 0; frame < 4; frame++) {
                    parallel.findPairs(n, s.min, s.max, s.group, out);
                    serial.findPairs(n, s.min, s.max, s.group, serialOut);
                    List<Long> expected = bruteForce(n, s.min, s.max, s.group);
                    assertThat(expected.size()).isGreaterThan(4 * ParallelLoop.CHUNK);
                    assertThat(asList(out)).as("scene %d frame %d n %d seed %d", scene, frame, n, SEED).isEqualTo(expected);
                    assertThat(asList(serialOut)).isEqualTo(expected);
                    for (int i = 3; i < n; i++) {
                        s.poses.translate(i, 0.02 * rnd.nextGaussian(), 0.02 * rnd.nextGaussian(), 0.02 * rnd.nextGaussian());
                    }
                    s.updateAabbs(0.01);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(BroadPhase.Algorithm.class)
    void findPairs_sphereBoxPileInContainer_matchBruteForce(BroadPhase.Algorithm algorithm) {
        // the spheres1000 scene: equal spheres on a jittered lattice in a static box container
        Random rnd = new Random(SEED + 4);
        int n = 1005;
        Scene s = new Scene(n);
        for (int i = 0; i < 1000; i++) {
            s.shapes[i] = Shape.sphere(0.1);
            s.poses.at(i, -1 + (i % 10) * 0.22 + 0.01 * rnd.nextGaussian(),
                    -1 + ((i / 10) % 10) * 0.22 + 0.01 * rnd.nextGaussian(),
                    0.1 + (i / 100) * 0.22 + 0.01 * rnd.nextGaussian());
            s.group[i] = 1;
        }
        s.shapes[1000] = Shape.box(1.3, 1.3, 0.05);
        s.poses.at(1000, 0, 0, -0.05);
        for (int w = 0; w < 4; w++) {
            s.shapes[1001 + w] = Shape.box(w < 2 ? 0.05 : 1.3, w < 2 ? 1.3 : 0.05, 1.5);
            double sign = (w & 1) == 0 ? 1 : -1;
            s.poses.at(1001 + w, w < 2 ? sign * 1.25 : 0, w < 2 ? 0 : sign * 1.25, 1.5);
        }
        BroadPhase bp = new BroadPhase(algorithm);
        PairBuffer out = new PairBuffer();
        for (int frame = 0; frame < 6; frame++) {
            s.updateAabbs(0.01);
            bp.findPairs(n, s.min, s.max, s.group, out);
            assertThat(asList(out)).as("frame %d", frame).isEqualTo(bruteForce(n, s.min, s.max, s.group));
            for (int i = 0; i < 1000; i++) {
                s.poses.translate(i, 0.01 * rnd.nextGaussian(), 0.01 * rnd.nextGaussian(), -0.02 * rnd.nextDouble());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(BroadPhase.Algorithm.class)
    void findPairs_sizesSpanningManyGridLevels_matchBruteForce(BroadPhase.Algorithm algorithm) {
        Random rnd = new Random(SEED + 3);
        int n = 3000;
        Scene s = new Scene(n);
        for (int i = 0; i < n; i++) {
            // 80 % grains of 1-2 cm, 15 % rocks of 0.2-0.4 m, 40 boulders of 2-3 m, a few 50 m slabs
            double size;
            if (i < 5) {
                size = 50;
            } else if (i < 45) {
                size = 2 + rnd.nextDouble();
            } else if (i < 500) {
                size = 0.2 + 0.2 * rnd.nextDouble();
            } else {
                size = 0.01 + 0.01 * rnd.nextDouble();
            }
            s.shapes[i] = rnd.nextBoolean() ? Shape.sphere(size / 2) : Shape.box(size / 2, size / 3, size / 4);
            s.poses.at(i, 12 * rnd.nextDouble(), 12 * rnd.nextDouble(), 12 * rnd.nextDouble())
                    .randomOrientation(i, rnd);
            s.group[i] = i < 5 ? 0 : rnd.nextInt(10) == 0 ? 0 : 1;
        }
        // far outliers stretch the scene
        s.poses.at(7, 1e6, -1e6, 3);
        s.poses.at(600, -5e5, 2e5, 1e6);
        s.updateAabbs(0.005);
        BroadPhase bp = new BroadPhase(algorithm);
        PairBuffer out = new PairBuffer();
        for (int frame = 0; frame < 3; frame++) {
            bp.findPairs(n, s.min, s.max, s.group, out);
            assertThat(asList(out)).as("frame %d", frame).isEqualTo(bruteForce(n, s.min, s.max, s.group));
            for (int i = 50; i < n; i++) {
                s.poses.translate(i, 0.05 * rnd.nextGaussian(), 0.05 * rnd.nextGaussian(), 0.05 * rnd.nextGaussian());
            }
            s.updateAabbs(0.005);
        }
    }

    @ParameterizedTest
    @EnumSource(BroadPhase.Algorithm.class)
    void findPairs_floorPlane_pairedWithDynamicCollidersThatReachIt(BroadPhase.Algorithm algorithm) {
        Scene s = new Scene(5);
        s.shapes[0] = Shape.plane();
        s.shapes[1] = Shape.sphere(0.1);
        s.shapes[2] = Shape.sphere(0.1);
        s.shapes[3] = Shape.sphere(0.1);
        s.shapes[4] = Shape.plane();
        s.poses.at(0, 0, 0, 0).at(1, 5, 5, 0.105).at(2, 0, 0, 0.5).at(3, -3, 2, 0.05);
        s.poses.at(4, 0, 0, 0, 1, 0, 0, 0.4);
        s.group[1] = 1;
        s.group[2] = 2;
        s.group[3] = 0;
        s.updateAabbs(0.01);
        PairBuffer out = new PairBuffer();
        new BroadPhase(algorithm).findPairs(5, s.min, s.max, s.group, out);
        // floor: only sphere 1 (sphere 2 is above it, sphere 3 is static); tilted plane: every dynamic sphere
        assertThat(asList(out)).containsExactly(1L, (1L << 32) | 4, (2L << 32) | 4);
    }

    @ParameterizedTest
    @EnumSource(BroadPhase.Algorithm.class)
    void findPairs_staticOverlaps_skippedDynamicOnesKept(BroadPhase.Algorithm algorithm) {
        double[] min = {0, 0, 0, 0.5, 0.5, 0.5, 0.6, 0.6, 0.6};
        double[] max = {1, 1, 1, 1.5, 1.5, 1.5, 0.7, 0.7, 0.7};
        PairBuffer out = new PairBuffer();
        BroadPhase bp = new BroadPhase(algorithm);
        bp.findPairs(3, min, max, new int[] {0, 0, 0}, out);
        assertThat(out.size()).isZero();
        bp.findPairs(3, min, max, new int[] {0, 0, 7}, out);
        assertThat(asList(out)).containsExactly(2L, (1L << 32) | 2);
    }

    @Test
    void findPairs_shortArrays_throw() {
        BroadPhase bp = new BroadPhase();
        assertThatThrownBy(() -> bp.findPairs(3, new double[6], new double[9], new int[3], new PairBuffer()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pairBufferAdd_beyondCapacity_growsAndClearKeepsCapacity() {
        PairBuffer b = new PairBuffer(1);
        for (int k = 0; k < 100; k++) {
            b.add(k, k + 1);
        }
        assertThat(b.size()).isEqualTo(100);
        assertThat(b.first(42)).isEqualTo(42);
        assertThat(b.second(42)).isEqualTo(43);
        int capacity = b.capacity();
        b.clear();
        assertThat(b.size()).isZero();
        assertThat(b.capacity()).isEqualTo(capacity);
    }

    /**
     * The sort's runs: short ones (insertion sort) and long ones (heap sort), such as a floor's
     * hundreds of pairs in any order, on 1 and 3 threads, against a comparison sort.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 3})
    void pairBufferSort_shortAndLongRunsInAnyOrder_matchComparisonSort(int threads) {
        Random rnd = new Random(SEED);
        int n = 400;
        List<long[]> expected = new ArrayList<>();
        java.util.Set<Long> seen = new java.util.HashSet<>();
        PairBuffer b = new PairBuffer(4);
        for (int k = 0; k < 3000; k++) {
            // first index 0 and 7 take long runs, the others a few pairs each
            int i = k % 5 == 0 ? 0 : (k % 5 == 1 ? 7 : rnd.nextInt(n - 1));
            int j = i + 1 + rnd.nextInt(n - 1 - i);
            if (seen.add((long) i * n + j)) {
                b.add(i, j);
                expected.add(new long[] {i, j});
            }
        }
        expected.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        try (ParallelLoop loop = ParallelLoop.withThreads(threads)) {
            b.sort(n, loop);
        }
        assertThat(b.size()).isEqualTo(expected.size());
        for (int k = 0; k < b.size(); k++) {
            assertThat(new long[] {b.first(k), b.second(k)}).as("pair %d", k).containsExactly(expected.get(k));
        }
    }

    @Test
    void constructor_noAlgorithm_usesMeasuredDefault() {
        assertThat(new BroadPhase().algorithm()).isEqualTo(BroadPhase.DEFAULT_ALGORITHM);
    }
}
