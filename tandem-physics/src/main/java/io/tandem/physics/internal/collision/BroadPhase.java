package io.tandem.physics.internal.collision;

import io.tandem.physics.internal.parallel.ParallelLoop;

/*
 * Implementation notes
 *
 * Input: n world AABBs (AabbOps) and a group per collider (0 = static). Output: every pair i < j
 * whose boxes overlap (closed intervals on all three axes) and that are not both static, sorted
 * by (i, j), so that the narrow phase and the solver see the same order every run.
 *
 * Colliders are classified first:
 *   - invalid: a NaN bound or min > max on some axis; skipped and counted (invalidCount());
 *   - unbounded: some bound infinite (planes, see AabbOps); they are not inserted in the sweep or
 *     the grid but tested against every other valid collider with the same box overlap test, which
 *     with infinite bounds pairs an arbitrary plane with every non-static collider and a floor
 *     (half-infinite box) with every non-static collider that reaches down to it. O(planes x n);
 *   - bounded: handed to the chosen algorithm.
 * The algorithms append pairs in their own order; PairBuffer.sort then orders them with one
 * counting-sort pass by the first index (O(pairs + n)) and a sort of each first index's few pairs
 * by the second, in parallel (insertion sort; a heap sort for a long run, so no quadratic case).
 *
 * Algorithms (SweepAndPrune, UniformGrid): see their notes. Measured with BroadPhaseMeasurement
 * (test folder, run by hand): spheres r = 0.1 with AABB margin 0.01 plus a static floor plane;
 * "dense" = cubic lattice at 0.22 m spacing with 1 cm jitter (the spheres1000 pile, scaled up),
 * "sparse" = uniform in a cube with 1 m mean spacing; every frame each sphere moves by a Gaussian
 * 2 mm step and the AABBs are recomputed (untimed). Mean microseconds per findPairs call after
 * warm-up (200 / 30 / 8 frames for 1k / 10k / 100k), range of three runs on this 2-vCPU VM
 * (JDK 17.0.15) while another build was running (load average 2.3 - 3.1):
 *
 *   scene            pairs      sweep and prune        uniform grid      grid speed-up
 *   dense    1k       2 960       460 - 479              262 - 274          1.7 - 1.8 x
 *   sparse   1k          43       122 - 276              181 - 302          about even
 *   dense   10k      32 319    17 900 - 19 100          2 960 - 3 380        5.3 - 6.4 x
 *   sparse  10k         415     4 030 - 4 240          1 960 - 2 170        1.9 - 2.2 x
 *   dense  100k     337 056   753 000 - 792 000       31 600 - 32 000         24 - 25 x
 *   sparse 100k       4 230   170 000 - 179 000       22 800 - 29 500        5.8 - 7.9 x
 *
 * In a quieter run (load 0.8) of an earlier single-level grid the sparse 1k scene took 119 us with
 * SAP and 150 us with the grid, so SAP keeps a small edge on small sparse worlds. Single-axis SAP
 * touches every pair that overlaps on the sweep axis alone, which in a 3D scene grows like
 * n^(5/3) (a slab through a 47^3 pile holds thousands of spheres); the cell list stays
 * O(n + pairs). Temporal coherence makes SAP's sort nearly free, but the sweep dominates.
 * Rejected grid variants, dense 1k pile: every box entered in all the cells it touches with an
 * owner-cell de-duplication, 490 - 560 us (cells twice as large: ~490 us); the cell list with
 * hashed cells only, 1.5x (1k) to 2.5x (100k) slower on the dense piles than the directly indexed
 * cells now used for a single compact level. Both algorithms use a branch-free overlap test: in
 * SAP on the dense 1k pile it measured 433 us against 608 us for the short-circuit form.
 *
 * Default: UNIFORM_GRID: faster in five of the six scenes, by 1.7x on the 1k pile and by 5 - 25x at
 * 10k - 100k, and about even on the sparse 1k scene; SAP stays available (BroadPhase.Algorithm).
 */

/**
 * Broad phase: finds the collider pairs whose world AABBs overlap. Pairs of two static colliders
 * and of two colliders of one family are skipped; infinite colliders (planes) are paired with every
 * overlapping non-static collider.
 * The output is deterministic: pairs (i, j) with i &lt; j, sorted by i then j.
 *
 * <p>Not thread-safe: it keeps the previous sort order (temporal coherence) and scratch arrays.
 * Allocates only when n or the number of pairs exceeds every earlier call.
 */
public final class BroadPhase {
    /** The pair-finding algorithm for bounded colliders. */
    public enum Algorithm {
        /** Sweep and prune on the axis of largest spread, insertion-sorting the previous order. */
        SWEEP_AND_PRUNE,
        /** Uniform-grid cell list, cell = largest AABB extent, hashed when the scene is sparse; the default. */
        UNIFORM_GRID
    }

    /** The algorithm of {@link #BroadPhase()}, chosen by measurement (see the implementation notes). */
    public static final Algorithm DEFAULT_ALGORITHM = Algorithm.UNIFORM_GRID;

    /**
     * Up to this many bounded colliders every pair is tested directly (at most 2016 tests): a robot
     * alone or a small scene pays no grid or sweep setup.
     */
    static final int SMALL = 64;

    static final byte BOUNDED = 0;
    static final byte UNBOUNDED = 1;
    static final byte INVALID = 2;

    private final Algorithm algorithm;
    private final SweepAndPrune sweep;
    private final UniformGrid grid;
    private byte[] kind = new byte[0];
    private int[] bounded = new int[0];
    private int[] unbounded = new int[0];
    private int invalid;
    private final ParallelLoop loop;
    /** per parallel chunk of colliders: the pairs with unbounded colliders it found */
    private PairBuffer[] chunkPairs = new PairBuffer[0];
    private final ParallelLoop.RangeBody unboundedRange = this::unboundedChunk;
    private final ParallelLoop.RangeBody classifyRange = this::classify;
    private final ParallelLoop.RangeBody listRange = this::list;
    /** per parallel chunk of colliders: its bounded, unbounded and invalid counts, then the first two's offsets */
    private int[] chunkKinds = new int[0];
    // the current call's arguments, for unboundedChunk
    private double[] minNow;
    private double[] maxNow;
    private int[] groupNow;
    private int unboundedCount;

    /** Creates a broad phase with the {@link #DEFAULT_ALGORITHM}. */
    public BroadPhase() {
        this(DEFAULT_ALGORITHM);
    }

    /**
     * Creates a broad phase.
     *
     * @param algorithm the algorithm for bounded colliders
     */
    public BroadPhase(Algorithm algorithm) {
        this(algorithm, UniformGrid.DEFAULT_CELL_FACTOR);
    }

    /**
     * Creates a broad phase with the {@link #DEFAULT_ALGORITHM} whose pair tests run on a parallel
     * loop (the pairs are the same, in the same order, for any thread count).
     *
     * @param loop the loop, owned (and closed) by the caller
     */
    public BroadPhase(ParallelLoop loop) {
        this(DEFAULT_ALGORITHM, UniformGrid.DEFAULT_CELL_FACTOR, loop);
    }

    /** For measurements: a grid with cell size cellFactor x the mean largest AABB extent. */
    BroadPhase(Algorithm algorithm, double cellFactor) {
        this(algorithm, cellFactor, ParallelLoop.serial());
    }

    private BroadPhase(Algorithm algorithm, double cellFactor, ParallelLoop loop) {
        this.algorithm = algorithm;
        this.loop = loop;
        this.sweep = algorithm == Algorithm.SWEEP_AND_PRUNE ? new SweepAndPrune() : null;
        this.grid = algorithm == Algorithm.UNIFORM_GRID ? new UniformGrid(cellFactor, loop) : null;
    }

    /**
     * The algorithm in use.
     *
     * @return the algorithm
     */
    public Algorithm algorithm() {
        return algorithm;
    }

    /**
     * Number of colliders skipped by the last {@link #findPairs} call because of a NaN bound or
     * min &gt; max.
     *
     * @return the count
     */
    public int invalidCount() {
        return invalid;
    }

    /**
     * Finds all overlapping pairs.
     *
     * @param n number of colliders
     * @param aabbMin lower corners, (n x 3) m, collider i at {@code 3i..3i+2}. Not modified.
     * @param aabbMax upper corners, (n x 3) m. Not modified.
     * @param group per collider: 0 = static, anything else = dynamic; a group of 2 or more is a
     *              family whose colliders never pair with each other (a robot's links). Not modified.
     * @param out receives the pairs (i &lt; j, sorted by i then j). Modified (cleared first).
     * @return the number of pairs
     * @throws IllegalArgumentException if an array is shorter than n requires
     */
    public int findPairs(int n, double[] aabbMin, double[] aabbMax, int[] group, PairBuffer out) {
        if (n < 0 || aabbMin.length < 3 * n || aabbMax.length < 3 * n || group.length < n) {
            throw new IllegalArgumentException("arrays too short for " + n + " colliders");
        }
        out.clear();
        if (kind.length < n) {
            int cap = Math.max(n, 2 * kind.length);
            kind = new byte[cap];
            bounded = new int[cap];
            unbounded = new int[cap];
        }
        // classify in parallel chunks, each counting its kinds; then each chunk lists its bounded
        // and unbounded colliders at its offsets (a prefix sum over chunks): the lists keep index order
        int chunks = loop.chunks(n);
        if (chunkKinds.length < 3 * chunks) {
            chunkKinds = new int[3 * Math.max(chunks, 2 * (chunkKinds.length / 3))];
        }
        minNow = aabbMin;
        maxNow = aabbMax;
        loop.run(n, classifyRange);
        int nb = 0;
        int nu = 0;
        invalid = 0;
        for (int k = 0; k < chunks; k++) {
            int b = chunkKinds[3 * k];
            int u = chunkKinds[3 * k + 1];
            invalid += chunkKinds[3 * k + 2];
            chunkKinds[3 * k] = nb;
            chunkKinds[3 * k + 1] = nu;
            nb += b;
            nu += u;
        }
        loop.run(n, listRange);
        minNow = null;
        maxNow = null;
        boolean any = !noBoundedPairs(group, nb);
        if (any && nb <= SMALL) {
            smallPairs(aabbMin, aabbMax, group, nb, out);
        } else if (any && algorithm == Algorithm.SWEEP_AND_PRUNE) {
            sweep.find(n, aabbMin, aabbMax, group, kind, nb, out);
        } else if (any) {
            grid.find(aabbMin, aabbMax, group, bounded, nb, out);
        }
        // unbounded colliders (planes) against every collider, in parallel chunks of colliders,
        // each into its own buffer (the sort below puts the pairs in order)
        if (nu > 0 && loop.threads() > 1 && chunks > 1) {
            if (chunkPairs.length < chunks) {
                int old = chunkPairs.length;
                chunkPairs = java.util.Arrays.copyOf(chunkPairs, Math.max(chunks, 2 * old));
                for (int k = old; k < chunkPairs.length; k++) {
                    chunkPairs[k] = new PairBuffer(64);
                }
            }
            minNow = aabbMin;
            maxNow = aabbMax;
            groupNow = group;
            unboundedCount = nu;
            loop.run(n, unboundedRange);
            minNow = null;
            maxNow = null;
            groupNow = null;
            for (int k = 0; k < chunks; k++) {
                out.addAll(chunkPairs[k]);
            }
        } else if (nu > 0) {
            unboundedTests(aabbMin, aabbMax, group, nu, 0, n, out);
        }
        out.sort(n, loop);
        return out.size();
    }

    /** Kinds of colliders [lo, hi), and the chunk's counts of each into chunkKinds. */
    private void classify(int lo, int hi, int chunk) {
        double[] aabbMin = minNow;
        double[] aabbMax = maxNow;
        int nb = 0;
        int nu = 0;
        int bad = 0;
        for (int i = lo; i < hi; i++) {
            byte k = BOUNDED;
            for (int a = 3 * i; a < 3 * i + 3; a++) {
                double lower = aabbMin[a];
                double upper = aabbMax[a];
                if (!(lower <= upper)) {
                    k = INVALID;
                    break;
                }
                if (lower == Double.NEGATIVE_INFINITY || upper == Double.POSITIVE_INFINITY
                        || lower == Double.POSITIVE_INFINITY || upper == Double.NEGATIVE_INFINITY) {
                    k = UNBOUNDED;
                }
            }
            kind[i] = k;
            if (k == BOUNDED) {
                nb++;
            } else if (k == UNBOUNDED) {
                nu++;
            } else {
                bad++;
            }
        }
        chunkKinds[3 * chunk] = nb;
        chunkKinds[3 * chunk + 1] = nu;
        chunkKinds[3 * chunk + 2] = bad;
    }

    /** Colliders [lo, hi) into the bounded and unbounded lists, from the chunk's offsets in chunkKinds. */
    private void list(int lo, int hi, int chunk) {
        int nb = chunkKinds[3 * chunk];
        int nu = chunkKinds[3 * chunk + 1];
        for (int i = lo; i < hi; i++) {
            if (kind[i] == BOUNDED) {
                bounded[nb++] = i;
            } else if (kind[i] == UNBOUNDED) {
                unbounded[nu++] = i;
            }
        }
    }

    private void unboundedChunk(int lo, int hi, int chunk) {
        PairBuffer buffer = chunkPairs[chunk];
        buffer.clear();
        unboundedTests(minNow, maxNow, groupNow, unboundedCount, lo, hi, buffer);
    }

    /** The unbounded colliders against colliders [lo, hi). */
    private void unboundedTests(double[] min, double[] max, int[] group, int nu, int lo, int hi, PairBuffer out) {
        for (int a = 0; a < nu; a++) {
            int u = unbounded[a];
            boolean uStatic = group[u] == 0;
            for (int k = lo; k < hi; k++) {
                byte kk = kind[k];
                if (k == u || kk == INVALID || (kk == UNBOUNDED && k < u) || (uStatic && group[k] == 0)) {
                    continue;
                }
                if (overlap(min, max, u, k)) {
                    out.add(Math.min(u, k), Math.max(u, k));
                }
            }
        }
    }

    /** A few colliders: every pair, in index order, costs less than either algorithm's setup. */
    private void smallPairs(double[] aabbMin, double[] aabbMax, int[] group, int nb, PairBuffer out) {
        for (int p = 0; p < nb; p++) {
            int i = bounded[p];
            for (int q = p + 1; q < nb; q++) {
                int j = bounded[q];
                if (mayCollide(group[i], group[j]) && overlap(aabbMin, aabbMax, i, j)) {
                    out.add(i, j);
                }
            }
        }
    }

    /** Whether the nb bounded colliders are all static, or all of one family (a robot alone): then none pairs. */
    private boolean noBoundedPairs(int[] group, int nb) {
        if (nb == 0 || group[bounded[0]] == 1) {
            return nb == 0;
        }
        for (int p = 1; p < nb; p++) {
            if (group[bounded[p]] != group[bounded[0]]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether colliders of these groups may pair: not two static ones (group 0), not two of one
     * family (the same group of at least 2: the links of a robot that does not self-collide).
     */
    static boolean mayCollide(int groupA, int groupB) {
        return groupA != groupB || groupA == 1;
    }

    static boolean overlap(double[] min, double[] max, int i, int j) {
        int a = 3 * i;
        int b = 3 * j;
        return min[a] <= max[b] && min[b] <= max[a]
                && min[a + 1] <= max[b + 1] && min[b + 1] <= max[a + 1]
                && min[a + 2] <= max[b + 2] && min[b + 2] <= max[a + 2];
    }
}
