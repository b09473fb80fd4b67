package io.tandem.physics.internal.collision;

import io.tandem.physics.internal.parallel.ParallelLoop;

/*
 * Implementation notes
 *
 * Hashed uniform-grid cell lists ([1] chapter 7.1.6; the half-shell neighbour search of
 * molecular-dynamics cell lists [2]) in a small hierarchy of levels ([1] 7.2, after Mirtich's
 * hierarchical hash grid), rebuilt every call, so there is no incremental state to go stale.
 *
 *   - Level of a box: the number of factors LEVEL_RATIO (4) between the smallest largest-extent
 *     e_min of all bounded boxes and its own largest extent e: level = floor(log4(e / e_min)), at
 *     most MAX_LEVELS - 1. Uniform scenes (the sphere pile) have one level.
 *   - A level other than the finest with fewer than BRUTE_FORCE_MAX boxes (the floor slab and walls
 *     of a container) is not gridded: each of its boxes is tested against every bounded box, which
 *     is cheaper than 27 cell probes per small box.
 *   - Each gridded level has cell size = the largest extent in it (times cellFactor, default 1);
 *     each box is entered once, in the cell of its centre. Cell coordinates are measured from the
 *     world origin, wrapped to 21 bits and packed into a long, so the grid is unbounded (a far
 *     outlier does not coarsen it). Two boxes
 *     of one level overlap only if their centre cells are equal or adjacent (their centres are at
 *     most the mean of their extents, hence one cell, apart along each axis).
 *   - Entries are bucketed by a Fibonacci hash of (level table, packed cell key) with one counting
 *     sort (per level 2^k >= 2 x its entries buckets), and their bounds are copied into flat arrays
 *     in bucket order, so the scans read memory mostly sequentially. The common case of a single
 *     gridded level in a compact region uses a directly indexed cell array instead (see
 *     denseSingleLevel).
 *   - Same level: each box is tested against the later boxes of its own cell and all boxes of the 13
 *     neighbour cells of the "upper half shell" (offsets after (0, 0, 0) in (z, y, x) lexicographic
 *     order), so each pair of cells is visited from one side only and no de-duplication is needed.
 *   - Across levels: each box probes the 27 cells around its centre in every coarser gridded level
 *     (its extent is below that level's cell size, so any overlapping box there has its centre in
 *     one of them).
 *   - The overlap test is branch-free (non-short-circuit |): its outcome is unpredictable in a dense
 *     pile (the same change made SAP 1.4x faster there, see BroadPhase).
 *   - With a parallel loop, the dense grid's tests run in chunks of entries (each entry knows its
 *     cell), each chunk into its own pair buffer, appended in chunk order; BroadPhase sorts the
 *     pairs, so they are the same for any thread count. So are the levels (each chunk's minima,
 *     maxima and counts, reduced in chunk order: exact in any order) and the dense grid's cell of
 *     each entry; the counting sort into cells, the hashed levels and the brute-force list stay
 *     serial.
 * All arrays are reused; they grow only with the number of colliders.
 *
 * [1] C. Ericson, "Real-Time Collision Detection", Morgan Kaufmann 2005.
 * [2] M. P. Allen, D. J. Tildesley, "Computer Simulation of Liquids", Oxford 1987, 5.3.2 (cell lists).
 */

/**
 * Hierarchical hashed uniform-grid cell lists over the bounded colliders. Not thread-safe; grows its
 * arrays only when needed.
 */
final class UniformGrid {
    static final double DEFAULT_CELL_FACTOR = 1.0;
    static final double LEVEL_RATIO = 4.0;
    static final int MAX_LEVELS = 8;
    static final int BRUTE_FORCE_MAX = 32;
    /** a directly indexed cell array is used while it has at most this many cells per box */
    private static final int DENSE_CELLS_PER_ENTRY = 8;
    private static final int AXIS_BITS = 21;
    private static final long AXIS_MASK = (1L << AXIS_BITS) - 1;
    /** the 13 offsets (dx, dy, dz) after (0, 0, 0) in (z, y, x) lexicographic order */
    private static final int[] HALF_SHELL = shell(true);
    /** all 27 offsets */
    private static final int[] FULL_SHELL = shell(false);

    private final double cellFactor;
    private final int[] shellDelta = new int[13];
    // per level
    private final int[] levelCount = new int[MAX_LEVELS];
    private final double[] levelExtent = new double[MAX_LEVELS];
    private final double[] levelInv = new double[MAX_LEVELS];
    private final int[] levelBits = new int[MAX_LEVELS];
    private final int[] levelOffset = new int[MAX_LEVELS];
    private final boolean[] levelGridded = new boolean[MAX_LEVELS];
    // per bounded collider, in input order
    private int[] entryObj = new int[0];
    private int[] entryLevel = new int[0];
    private long[] entryKey = new long[0];
    private int[] entryBucket = new int[0];
    // per gridded entry, in bucket order
    private long[] sKey = new long[0];
    private int[] sObj = new int[0];
    private boolean[] sStatic = new boolean[0];
    private double[] sMinX = new double[0];
    private double[] sMinY = new double[0];
    private double[] sMinZ = new double[0];
    private double[] sMaxX = new double[0];
    private double[] sMaxY = new double[0];
    private double[] sMaxZ = new double[0];
    /** per gridded entry of the dense grid, in bucket order: its cell */
    private int[] sCell = new int[0];
    private int[] bucketBegin = new int[0];
    private final ParallelLoop loop;
    /** the dense grid's pairs per parallel chunk */
    private PairBuffer[] chunkPairs = new PairBuffer[0];
    private final ParallelLoop.RangeBody denseRange = this::denseChunk;
    private int[] bucketCursor = new int[0];
    /** per bounded collider, in input order: its largest extent */
    private double[] entryExtent = new double[0];
    /** per parallel chunk of entries: the smallest extent */
    private double[] chunkEMin = new double[0];
    /** per parallel chunk and level at [(chunk MAX_LEVELS + level) LEVEL_STATS]: count, largest extent, centre min x y z, centre max x y z */
    private double[] chunkLevel = new double[0];
    private static final int LEVEL_STATS = 8;
    /** per level at [3 level]: the lowest and highest box centre */
    private final double[] levelLo = new double[3 * MAX_LEVELS];
    private final double[] levelHi = new double[3 * MAX_LEVELS];
    private final ParallelLoop.RangeBody extentRange = this::extents;
    private final ParallelLoop.RangeBody levelRange = this::levels;
    private final ParallelLoop.RangeBody bucketRange = this::denseBuckets;
    // the current call, for the parallel passes
    private double[] minNow;
    private double[] maxNow;
    private int[] boundedNow;
    /** the colliders' groups during find (see BroadPhase.mayCollide) */
    private int[] groupNow;
    private double eMinNow;
    private int denseLevel;
    private int denseNx;
    private int denseNy;
    private int denseNz;
    private double denseOx;
    private double denseOy;
    private double denseOz;
    private int[] brute = new int[0];
    private boolean[] isBrute = new boolean[0];

    UniformGrid() {
        this(DEFAULT_CELL_FACTOR, ParallelLoop.serial());
    }

    /**
     * cellFactor: cell size in units of the level's largest AABB extent; at least 1 for correctness.
     * loop: runs the dense grid's tests in parallel chunks (owned by the caller).
     */
    UniformGrid(double cellFactor, ParallelLoop loop) {
        if (!(cellFactor >= 1.0)) {
            throw new IllegalArgumentException("cell factor must be >= 1, got " + cellFactor);
        }
        this.cellFactor = cellFactor;
        this.loop = loop;
    }

    private static int[] shell(boolean half) {
        int[] offsets = new int[half ? 39 : 81];
        int k = 0;
        for (int dz = -1; dz <= 1; dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    boolean after = dz > 0 || (dz == 0 && (dy > 0 || (dy == 0 && dx > 0)));
                    if (after || !half) {
                        offsets[k++] = dx;
                        offsets[k++] = dy;
                        offsets[k++] = dz;
                    }
                }
            }
        }
        return offsets;
    }

    void find(double[] min, double[] max, int[] group, int[] bounded, int m, PairBuffer out) {
        if (m < 2) {
            return;
        }
        groupNow = group;
        ensure(m, bounded);
        // levels, in parallel chunks of entries (minima, maxima and counts are exact in any order):
        // the smallest largest-extent e_min, then each box's level and each level's count, largest
        // extent and box-centre bounds
        minNow = min;
        maxNow = max;
        boundedNow = bounded;
        int chunks = loop.chunks(m);
        loop.run(m, extentRange);
        double eMin = Double.POSITIVE_INFINITY;
        for (int k = 0; k < chunks; k++) {
            eMin = Math.min(eMin, chunkEMin[k]);
        }
        if (!(eMin > 0)) {
            eMin = Double.MIN_NORMAL;
        }
        eMinNow = eMin;
        loop.run(m, levelRange);
        java.util.Arrays.fill(levelCount, 0);
        java.util.Arrays.fill(levelExtent, 0);
        java.util.Arrays.fill(levelLo, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(levelHi, Double.NEGATIVE_INFINITY);
        for (int k = 0; k < chunks; k++) {
            for (int l = 0; l < MAX_LEVELS; l++) {
                int o = (k * MAX_LEVELS + l) * LEVEL_STATS;
                if (chunkLevel[o] == 0) {
                    continue;
                }
                levelCount[l] += (int) chunkLevel[o];
                levelExtent[l] = Math.max(levelExtent[l], chunkLevel[o + 1]);
                for (int d = 0; d < 3; d++) {
                    levelLo[3 * l + d] = Math.min(levelLo[3 * l + d], chunkLevel[o + 2 + d]);
                    levelHi[3 * l + d] = Math.max(levelHi[3 * l + d], chunkLevel[o + 5 + d]);
                }
            }
        }
        // level tables; sparse coarse levels go to the brute-force list
        int finest = 0;
        while (levelCount[finest] == 0) {
            finest++;
        }
        int buckets = 0;
        for (int l = 0; l < MAX_LEVELS; l++) {
            levelGridded[l] = levelCount[l] > 0 && (l == finest || levelCount[l] >= BRUTE_FORCE_MAX);
            if (!levelGridded[l]) {
                continue;
            }
            double cell = cellFactor * levelExtent[l];
            levelInv[l] = cell > 0 ? 1.0 / cell : 1.0;
            int bits = 4;
            while ((1 << bits) < 2 * levelCount[l]) {
                bits++;
            }
            levelBits[l] = bits;
            levelOffset[l] = buckets;
            buckets += 1 << bits;
        }
        int nBrute = 0;
        boolean anyBrute = false;
        for (int l = 0; l < MAX_LEVELS; l++) {
            anyBrute |= levelCount[l] > 0 && !levelGridded[l];
        }
        // (isBrute is read only by the brute-force tests below, which need it only when some box is)
        for (int r = 0; anyBrute && r < m; r++) {
            int c = entryObj[r];
            isBrute[c] = !levelGridded[entryLevel[r]];
            if (isBrute[c]) {
                brute[nBrute++] = c;
            }
        }
        if (!denseSingleLevel(min, max, group, m, out)) {
            hashedLevels(min, max, group, m, buckets, out);
        }
        // brute-force boxes against every bounded box
        for (int a = 0; a < nBrute; a++) {
            int l = brute[a];
            boolean lStatic = group[l] == 0;
            for (int r = 0; r < m; r++) {
                int k = bounded[r];
                if (k == l || (isBrute[k] && k < l) || (lStatic && group[k] == 0)) {
                    continue;
                }
                if (BroadPhase.overlap(min, max, l, k) && BroadPhase.mayCollide(group[l], group[k])) {
                    out.add(Math.min(l, k), Math.max(l, k));
                }
            }
        }
        minNow = null;
        maxNow = null;
        boundedNow = null;
    }

    /** The general path: every gridded level in its own hash table. */
    private void hashedLevels(double[] min, double[] max, int[] group, int m, int buckets, PairBuffer out) {
        if (bucketBegin.length < buckets + 1) {
            bucketBegin = new int[Math.max(buckets + 1, 2 * bucketBegin.length)];
            bucketCursor = new int[bucketBegin.length];
        }
        int[] begin = bucketBegin;
        java.util.Arrays.fill(begin, 0, buckets + 1, 0);
        int gridded = 0;
        for (int r = 0; r < m; r++) {
            int c = entryObj[r];
            int l = entryLevel[r];
            if (!levelGridded[l]) {
                entryBucket[r] = -1;
                continue;
            }
            int i = 3 * c;
            long key = key(
                    0.5 * (min[i] + max[i]), 0.5 * (min[i + 1] + max[i + 1]), 0.5 * (min[i + 2] + max[i + 2]), l);
            int b = bucket(key, l);
            entryKey[r] = key;
            entryBucket[r] = b;
            begin[b + 1]++;
            gridded++;
        }
        for (int b = 0; b < buckets; b++) {
            begin[b + 1] += begin[b];
        }
        int[] cursor = bucketCursor;
        System.arraycopy(begin, 0, cursor, 0, buckets);
        for (int r = 0; r < m; r++) {
            int b = entryBucket[r];
            if (b < 0) {
                continue;
            }
            int pos = cursor[b]++;
            int c = entryObj[r];
            int i = 3 * c;
            sKey[pos] = entryKey[r];
            sObj[pos] = c;
            sStatic[pos] = group[c] == 0;
            sMinX[pos] = min[i];
            sMinY[pos] = min[i + 1];
            sMinZ[pos] = min[i + 2];
            sMaxX[pos] = max[i];
            sMaxY[pos] = max[i + 1];
            sMaxZ[pos] = max[i + 2];
        }
        if (gridded > 0) {
            scan(out);
        }
    }

    /**
     * The common case, one gridded level whose occupied cell box is compact (at most
     * DENSE_CELLS_PER_ENTRY cells per box): a directly indexed cell array (x fastest) instead of a
     * hash table, so neighbour cells are near in memory; measured 1.5x (dense 1k) to 2.5x (dense
     * 100k) faster than the hashed path. Returns false when it does not apply.
     */
    private boolean denseSingleLevel(double[] min, double[] max, int[] group, int m, PairBuffer out) {
        int level = -1;
        for (int l = 0; l < MAX_LEVELS; l++) {
            if (levelGridded[l]) {
                if (level >= 0) {
                    return false;
                }
                level = l;
            }
        }
        if (level < 0) {
            return true;
        }
        double x0 = levelLo[3 * level];
        double y0 = levelLo[3 * level + 1];
        double z0 = levelLo[3 * level + 2];
        double x1 = levelHi[3 * level];
        double y1 = levelHi[3 * level + 1];
        double z1 = levelHi[3 * level + 2];
        int entries = levelCount[level];
        double inv = levelInv[level];
        double nxd = (x1 - x0) * inv + 3;
        double nyd = (y1 - y0) * inv + 3;
        double nzd = (z1 - z0) * inv + 3;
        if (!(nxd * nyd * nzd <= DENSE_CELLS_PER_ENTRY * (double) entries + 64)) {
            return false;
        }
        int nx = (int) nxd;
        int ny = (int) nyd;
        int nz = (int) nzd;
        int cells = nx * ny * nz;
        // origin one cell below the lowest centre: occupied coordinates are 1 .. n - 2
        double ox = x0 - 1 / inv;
        double oy = y0 - 1 / inv;
        double oz = z0 - 1 / inv;
        if (bucketBegin.length < cells + 1) {
            bucketBegin = new int[Math.max(cells + 1, 2 * bucketBegin.length)];
            bucketCursor = new int[bucketBegin.length];
        }
        int[] begin = bucketBegin;
        java.util.Arrays.fill(begin, 0, cells + 1, 0);
        // each entry's cell in parallel chunks, then the counts serially
        denseLevel = level;
        denseNx = nx;
        denseNy = ny;
        denseNz = nz;
        denseOx = ox;
        denseOy = oy;
        denseOz = oz;
        loop.run(m, bucketRange);
        for (int r = 0; r < m; r++) {
            int b = entryBucket[r];
            if (b >= 0) {
                begin[b + 1]++;
            }
        }
        for (int b = 0; b < cells; b++) {
            begin[b + 1] += begin[b];
        }
        int[] cursor = bucketCursor;
        System.arraycopy(begin, 0, cursor, 0, cells);
        for (int r = 0; r < m; r++) {
            int b = entryBucket[r];
            if (b < 0) {
                continue;
            }
            int pos = cursor[b]++;
            int c = entryObj[r];
            int i = 3 * c;
            sCell[pos] = b;
            sObj[pos] = c;
            sStatic[pos] = group[c] == 0;
            sMinX[pos] = min[i];
            sMinY[pos] = min[i + 1];
            sMinZ[pos] = min[i + 2];
            sMaxX[pos] = max[i];
            sMaxY[pos] = max[i + 1];
            sMaxZ[pos] = max[i + 2];
        }
        for (int s = 0; s < 13; s++) {
            shellDelta[s] = HALF_SHELL[3 * s] + nx * (HALF_SHELL[3 * s + 1] + ny * HALF_SHELL[3 * s + 2]);
        }
        // the tests, per entry in cell order; in parallel chunks of entries, each into its own
        // buffer, appended in chunk order (findPairs sorts the pairs, so the order found is moot)
        int gridded = begin[cells];
        if (loop.threads() == 1 || loop.chunks(gridded) < 2) {
            denseTests(0, gridded, out);
            return true;
        }
        int chunks = loop.chunks(gridded);
        if (chunkPairs.length < chunks) {
            int old = chunkPairs.length;
            chunkPairs = java.util.Arrays.copyOf(chunkPairs, Math.max(chunks, 2 * old));
            for (int k = old; k < chunkPairs.length; k++) {
                chunkPairs[k] = new PairBuffer(256);
            }
        }
        loop.run(gridded, denseRange);
        for (int k = 0; k < chunks; k++) {
            out.addAll(chunkPairs[k]);
        }
        return true;
    }

    /** Largest extents of entries [lo, hi) and their smallest, into chunkEMin. */
    private void extents(int lo, int hi, int chunk) {
        double eMin = Double.POSITIVE_INFINITY;
        for (int r = lo; r < hi; r++) {
            double e = extent(minNow, maxNow, boundedNow[r]);
            entryExtent[r] = e;
            eMin = Math.min(eMin, e);
        }
        chunkEMin[chunk] = eMin;
    }

    /** Levels of entries [lo, hi), and per level their count, largest extent and centre bounds, into chunkLevel. */
    private void levels(int lo, int hi, int chunk) {
        double[] min = minNow;
        double[] max = maxNow;
        double[] st = chunkLevel;
        int base = chunk * MAX_LEVELS * LEVEL_STATS;
        for (int l = 0; l < MAX_LEVELS; l++) {
            int o = base + l * LEVEL_STATS;
            st[o] = 0;
            st[o + 1] = 0;
            st[o + 2] = Double.POSITIVE_INFINITY;
            st[o + 3] = Double.POSITIVE_INFINITY;
            st[o + 4] = Double.POSITIVE_INFINITY;
            st[o + 5] = Double.NEGATIVE_INFINITY;
            st[o + 6] = Double.NEGATIVE_INFINITY;
            st[o + 7] = Double.NEGATIVE_INFINITY;
        }
        for (int r = lo; r < hi; r++) {
            int c = boundedNow[r];
            double e = entryExtent[r];
            int level = 0;
            double limit = eMinNow * LEVEL_RATIO;
            while (e > limit && level < MAX_LEVELS - 1) {
                level++;
                limit *= LEVEL_RATIO;
            }
            entryObj[r] = c;
            entryLevel[r] = level;
            int i = 3 * c;
            double x = 0.5 * (min[i] + max[i]);
            double y = 0.5 * (min[i + 1] + max[i + 1]);
            double z = 0.5 * (min[i + 2] + max[i + 2]);
            int o = base + level * LEVEL_STATS;
            st[o]++;
            st[o + 1] = Math.max(st[o + 1], e);
            st[o + 2] = Math.min(st[o + 2], x);
            st[o + 3] = Math.min(st[o + 3], y);
            st[o + 4] = Math.min(st[o + 4], z);
            st[o + 5] = Math.max(st[o + 5], x);
            st[o + 6] = Math.max(st[o + 6], y);
            st[o + 7] = Math.max(st[o + 7], z);
        }
    }

    /** The dense grid's cell of entries [lo, hi) (-1 for another level), into entryBucket. */
    private void denseBuckets(int lo, int hi, int chunk) {
        double[] min = minNow;
        double[] max = maxNow;
        int level = denseLevel;
        double inv = levelInv[level];
        int nx = denseNx;
        int ny = denseNy;
        int nz = denseNz;
        for (int r = lo; r < hi; r++) {
            if (entryLevel[r] != level) {
                entryBucket[r] = -1;
                continue;
            }
            int i = 3 * entryObj[r];
            entryBucket[r] = dense((0.5 * (min[i] + max[i]) - denseOx) * inv, nx)
                    + nx * (dense((0.5 * (min[i + 1] + max[i + 1]) - denseOy) * inv, ny)
                    + ny * dense((0.5 * (min[i + 2] + max[i + 2]) - denseOz) * inv, nz));
        }
    }

    /** Coordinate in a directly indexed grid of n cells along an axis, kept in 1 .. n - 2 against rounding. */
    private static int dense(double v, int n) {
        int c = (int) v;
        return c < 1 ? 1 : (c > n - 2 ? n - 2 : c);
    }

    private void scan(PairBuffer out) {
        for (int l = 0; l < MAX_LEVELS; l++) {
            if (!levelGridded[l]) {
                continue;
            }
            int first = levelOffset[l];
            int last = first + (1 << levelBits[l]);
            for (int b = first; b < last; b++) {
                int end = bucketBegin[b + 1];
                for (int p = bucketBegin[b]; p < end; p++) {
                    long key = sKey[p];
                    // own cell: later entries of the same key
                    for (int q = p + 1; q < end; q++) {
                        if (sKey[q] == key) {
                            test(p, q, out);
                        }
                    }
                    probe(p, key, l, HALF_SHELL, out);
                    // coarser gridded levels: the 27 cells around the centre
                    if (l + 1 < MAX_LEVELS) {
                        double x = 0.5 * (sMinX[p] + sMaxX[p]);
                        double y = 0.5 * (sMinY[p] + sMaxY[p]);
                        double z = 0.5 * (sMinZ[p] + sMaxZ[p]);
                        for (int c = l + 1; c < MAX_LEVELS; c++) {
                            if (levelGridded[c]) {
                                probe(p, key(x, y, z, c), c, FULL_SHELL, out);
                            }
                        }
                    }
                }
            }
        }
    }

    /** Tests entry p against every entry of the cells at the given offsets from cell {@code key} of level l. */
    private void probe(int p, long key, int l, int[] offsets, PairBuffer out) {
        int cx = (int) (key & AXIS_MASK);
        int cy = (int) ((key >>> AXIS_BITS) & AXIS_MASK);
        int cz = (int) (key >>> (2 * AXIS_BITS));
        for (int s = 0; s < offsets.length; s += 3) {
            long nk = pack((cx + offsets[s]) & (int) AXIS_MASK, (cy + offsets[s + 1]) & (int) AXIS_MASK,
                    (cz + offsets[s + 2]) & (int) AXIS_MASK);
            int nb = bucket(nk, l);
            int end = bucketBegin[nb + 1];
            for (int q = bucketBegin[nb]; q < end; q++) {
                if (sKey[q] == nk) {
                    test(p, q, out);
                }
            }
        }
    }

    /** The dense grid's tests for entries [lo, hi) (bucket order) into out. */
    private void denseTests(int lo, int hi, PairBuffer out) {
        int[] begin = bucketBegin;
        // occupied cells have coordinates 1 .. n - 2, so every neighbour index is in range
        for (int p = lo; p < hi; p++) {
            int b = sCell[p];
            int end = begin[b + 1];
            for (int q = p + 1; q < end; q++) {
                test(p, q, out);
            }
            for (int s = 0; s < 13; s++) {
                int nb = b + shellDelta[s];
                int nEnd = begin[nb + 1];
                for (int q = begin[nb]; q < nEnd; q++) {
                    test(p, q, out);
                }
            }
        }
    }

    private void denseChunk(int lo, int hi, int chunk) {
        PairBuffer buffer = chunkPairs[chunk];
        buffer.clear();
        denseTests(lo, hi, buffer);
    }

    private void test(int p, int q, PairBuffer out) {
        boolean apart = (sMinX[p] > sMaxX[q]) | (sMinX[q] > sMaxX[p]) | (sMinY[p] > sMaxY[q]) | (sMinY[q] > sMaxY[p])
                | (sMinZ[p] > sMaxZ[q]) | (sMinZ[q] > sMaxZ[p]) | (sStatic[p] & sStatic[q]);
        if (apart) {
            return;
        }
        int i = sObj[p];
        int j = sObj[q];
        if (!BroadPhase.mayCollide(groupNow[i], groupNow[j])) {
            return;
        }
        if (i < j) {
            out.add(i, j);
        } else {
            out.add(j, i);
        }
    }

    private long key(double x, double y, double z, int level) {
        double inv = levelInv[level];
        return pack(coordinate(x * inv), coordinate(y * inv), coordinate(z * inv));
    }

    /**
     * Cell coordinate: truncated toward zero (monotone, so boxes less than a cell apart are at most
     * one coordinate apart; the two cells around 0 merge into one) and wrapped to 21 bits. Wrapping
     * only aliases cells 2^21 cells apart, which costs extra candidates, never a missed pair; the
     * saturating long cast does the same for absurdly far boxes.
     */
    private static int coordinate(double v) {
        return (int) ((long) v & AXIS_MASK);
    }

    private static long pack(int x, int y, int z) {
        return (long) x | ((long) y << AXIS_BITS) | ((long) z << (2 * AXIS_BITS));
    }

    private int bucket(long key, int level) {
        return levelOffset[level] + (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - levelBits[level]));
    }

    private static double extent(double[] min, double[] max, int c) {
        int i = 3 * c;
        return Math.max(max[i] - min[i], Math.max(max[i + 1] - min[i + 1], max[i + 2] - min[i + 2]));
    }

    private void ensure(int m, int[] bounded) {
        if (entryObj.length < m) {
            int cap = Math.max(m, 2 * entryObj.length);
            entryObj = new int[cap];
            entryLevel = new int[cap];
            entryKey = new long[cap];
            entryBucket = new int[cap];
            sKey = new long[cap];
            sObj = new int[cap];
            sCell = new int[cap];
            sStatic = new boolean[cap];
            sMinX = new double[cap];
            sMinY = new double[cap];
            sMinZ = new double[cap];
            sMaxX = new double[cap];
            sMaxY = new double[cap];
            sMaxZ = new double[cap];
            brute = new int[cap];
            entryExtent = new double[cap];
        }
        int chunks = loop.chunks(m);
        if (chunkEMin.length < chunks) {
            chunkEMin = new double[Math.max(chunks, 2 * chunkEMin.length)];
            chunkLevel = new double[chunkEMin.length * MAX_LEVELS * LEVEL_STATS];
        }
        int maxIndex = 0;
        for (int r = 0; r < m; r++) {
            maxIndex = Math.max(maxIndex, bounded[r]);
        }
        if (isBrute.length <= maxIndex) {
            isBrute = new boolean[Math.max(maxIndex + 1, 2 * isBrute.length)];
        }
    }
}
