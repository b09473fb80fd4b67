package io.tandem.physics.internal.geometry;

/*
 * Implementation notes
 *
 * Hashed uniform grid as a cell list ([1] chapter 7.1.6; the half-shell neighbour search of
 * molecular-dynamics cell lists [2]), rebuilt every call, so there is no state to go stale.
 *
 *   - Boxes whose largest extent exceeds LARGE_FACTOR x the mean largest extent (a floor slab or a
 *     wall among small bodies) are kept out of the grid and tested against every bounded collider.
 *   - Cell size = the largest extent of the remaining boxes (times cellFactor, default 1), enlarged
 *     if needed so the scene spans fewer than 2^20 cells per axis (cell coordinates are packed 21
 *     bits per axis into a long). Each box is entered once, in the cell of its centre. Two boxes can
 *     overlap only if their centre cells are equal or adjacent, because the distance between their
 *     centres along an axis is at most the mean of their extents, hence at most one cell.
 *   - Entries are bucketed by a Fibonacci hash of the packed cell key with a counting sort (2^k >= 2 x
 *     entries buckets) and their bounds copied into flat arrays in bucket order, so the scans below
 *     read memory mostly sequentially.
 *   - Each box is tested against the later boxes of its own cell and against all boxes of the 13
 *     neighbour cells of the "upper half shell" (offsets (dx, dy, dz) lexicographically after
 *     (0, 0, 0) with z most significant), so every adjacent pair of cells is visited from exactly one
 *     side and no de-duplication is needed.
 *   - The overlap test is branch-free (non-short-circuit |), which measured about 2x faster than the
 *     short-circuit form in the dense pile: the outcome is unpredictable there.
 * All arrays are reused; they grow only with the number of colliders.
 *
 * [1] C. Ericson, "Real-Time Collision Detection", Morgan Kaufmann 2005.
 * [2] M. P. Allen, D. J. Tildesley, "Computer Simulation of Liquids", Oxford 1987, 5.3.2 (cell lists).
 */

/** Hashed uniform-grid cell list over the bounded colliders. Not thread-safe; grows its arrays only when needed. */
final class UniformGrid {
    static final double DEFAULT_CELL_FACTOR = 1.0;
    static final double LARGE_FACTOR = 4.0;
    /** a directly indexed cell array is used while it has at most this many cells per entry */
    private static final int DENSE_CELLS_PER_ENTRY = 8;
    private static final int AXIS_BITS = 21;
    private static final double MAX_CELLS_PER_AXIS = 1 << 20;
    /** the 13 offsets (dx, dy, dz) after (0, 0, 0) in (z, y, x) lexicographic order */
    private static final int[] HALF_SHELL = halfShell();

    private final double cellFactor;
    private final int[] shellDelta = new int[13];
    private long[] entryKey = new long[0];
    private int[] entryBucket = new int[0];
    private int[] entryObj = new int[0];
    private long[] sKey = new long[0];
    private int[] sObj = new int[0];
    private boolean[] sStatic = new boolean[0];
    private double[] sMinX = new double[0];
    private double[] sMinY = new double[0];
    private double[] sMinZ = new double[0];
    private double[] sMaxX = new double[0];
    private double[] sMaxY = new double[0];
    private double[] sMaxZ = new double[0];
    private int[] bucketBegin = new int[0];
    private int[] bucketCursor = new int[0];
    private int[] large = new int[0];
    private boolean[] isLarge = new boolean[0];

    UniformGrid() {
        this(DEFAULT_CELL_FACTOR);
    }

    /** cellFactor: cell size in units of the largest (non-large) AABB extent, at least 1 for correctness. */
    UniformGrid(double cellFactor) {
        if (!(cellFactor >= 1.0)) {
            throw new IllegalArgumentException("cell factor must be >= 1, got " + cellFactor);
        }
        this.cellFactor = cellFactor;
    }

    private static int[] halfShell() {
        int[] offsets = new int[39];
        int k = 0;
        for (int dz = -1; dz <= 1; dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    boolean after = dz > 0 || (dz == 0 && (dy > 0 || (dy == 0 && dx > 0)));
                    if (after) {
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
        ensure(m, bounded);
        double sumExtent = 0;
        for (int r = 0; r < m; r++) {
            sumExtent += extent(min, max, bounded[r]);
        }
        double largeExtent = LARGE_FACTOR * sumExtent / m;
        double cell = 0;
        double ox = Double.POSITIVE_INFINITY;
        double oy = Double.POSITIVE_INFINITY;
        double oz = Double.POSITIVE_INFINITY;
        double ux = Double.NEGATIVE_INFINITY;
        double uy = Double.NEGATIVE_INFINITY;
        double uz = Double.NEGATIVE_INFINITY;
        int nLarge = 0;
        int entries = 0;
        for (int r = 0; r < m; r++) {
            int c = bounded[r];
            double e = extent(min, max, c);
            if (e > largeExtent) {
                isLarge[c] = true;
                large[nLarge++] = c;
                continue;
            }
            isLarge[c] = false;
            entryObj[entries++] = c;
            cell = Math.max(cell, e);
            int i = 3 * c;
            double cx = 0.5 * (min[i] + max[i]);
            double cy = 0.5 * (min[i + 1] + max[i + 1]);
            double cz = 0.5 * (min[i + 2] + max[i + 2]);
            ox = Math.min(ox, cx);
            oy = Math.min(oy, cy);
            oz = Math.min(oz, cz);
            ux = Math.max(ux, cx);
            uy = Math.max(uy, cy);
            uz = Math.max(uz, cz);
        }
        if (entries > 0) {
            double span = Math.max(ux - ox, Math.max(uy - oy, uz - oz));
            cell = Math.max(cellFactor * cell, span / (MAX_CELLS_PER_AXIS - 4));
            if (!(cell > 0)) {
                cell = 1.0;
            }
            long nx = (long) ((ux - ox) / cell) + 3;
            long ny = (long) ((uy - oy) / cell) + 3;
            long nz = (long) ((uz - oz) / cell) + 3;
            if (nx * ny * nz <= DENSE_CELLS_PER_ENTRY * entries + 64) {
                scanDense(min, max, group, entries, cell, ox - cell, oy - cell, oz - cell, (int) nx, (int) ny, (int) nz, out);
            } else {
                scanCells(min, max, group, entries, cell, ox - cell, oy - cell, oz - cell, out);
            }
        }
        // large boxes against every bounded collider
        for (int a = 0; a < nLarge; a++) {
            int l = large[a];
            boolean lStatic = group[l] == 0;
            for (int r = 0; r < m; r++) {
                int k = bounded[r];
                if (k == l || (isLarge[k] && k < l) || (lStatic && group[k] == 0)) {
                    continue;
                }
                if (BroadPhase.overlap(min, max, l, k)) {
                    out.add(Math.min(l, k), Math.max(l, k));
                }
            }
        }
    }

    private void scanCells(double[] min, double[] max, int[] group, int entries, double cell,
            double ox, double oy, double oz, PairBuffer out) {
        double inv = 1.0 / cell;
        int tableBits = 4;
        while ((1 << tableBits) < 2 * entries) {
            tableBits++;
        }
        int table = 1 << tableBits;
        if (bucketBegin.length < table + 1) {
            bucketBegin = new int[Math.max(table + 1, 2 * bucketBegin.length)];
            bucketCursor = new int[bucketBegin.length];
        }
        int[] begin = bucketBegin;
        java.util.Arrays.fill(begin, 0, table + 1, 0);
        for (int e = 0; e < entries; e++) {
            int i = 3 * entryObj[e];
            long key = pack(cellOf(0.5 * (min[i] + max[i]), ox, inv), cellOf(0.5 * (min[i + 1] + max[i + 1]), oy, inv),
                    cellOf(0.5 * (min[i + 2] + max[i + 2]), oz, inv));
            int b = bucket(key, tableBits);
            entryKey[e] = key;
            entryBucket[e] = b;
            begin[b + 1]++;
        }
        for (int b = 0; b < table; b++) {
            begin[b + 1] += begin[b];
        }
        int[] cursor = bucketCursor;
        System.arraycopy(begin, 0, cursor, 0, table);
        for (int e = 0; e < entries; e++) {
            int pos = cursor[entryBucket[e]]++;
            int c = entryObj[e];
            int i = 3 * c;
            sKey[pos] = entryKey[e];
            sObj[pos] = c;
            sStatic[pos] = group[c] == 0;
            sMinX[pos] = min[i];
            sMinY[pos] = min[i + 1];
            sMinZ[pos] = min[i + 2];
            sMaxX[pos] = max[i];
            sMaxY[pos] = max[i + 1];
            sMaxZ[pos] = max[i + 2];
        }
        long mask = (1L << AXIS_BITS) - 1;
        for (int b = 0; b < table; b++) {
            int end = begin[b + 1];
            for (int p = begin[b]; p < end; p++) {
                long key = sKey[p];
                // own cell: later entries of the same key
                for (int q = p + 1; q < end; q++) {
                    if (sKey[q] == key) {
                        test(p, q, out);
                    }
                }
                int cx = (int) (key & mask);
                int cy = (int) ((key >>> AXIS_BITS) & mask);
                int cz = (int) (key >>> (2 * AXIS_BITS));
                for (int s = 0; s < HALF_SHELL.length; s += 3) {
                    long nk = pack(cx + HALF_SHELL[s], cy + HALF_SHELL[s + 1], cz + HALF_SHELL[s + 2]);
                    int nb = bucket(nk, tableBits);
                    int nEnd = begin[nb + 1];
                    for (int q = begin[nb]; q < nEnd; q++) {
                        if (sKey[q] == nk) {
                            test(p, q, out);
                        }
                    }
                }
            }
        }
    }

    /** Same scan over a directly indexed cell array (x fastest): no hashing, no key comparisons. */
    private void scanDense(double[] min, double[] max, int[] group, int entries, double cell,
            double ox, double oy, double oz, int nx, int ny, int nz, PairBuffer out) {
        double inv = 1.0 / cell;
        int cells = nx * ny * nz;
        if (bucketBegin.length < cells + 1) {
            bucketBegin = new int[Math.max(cells + 1, 2 * bucketBegin.length)];
            bucketCursor = new int[bucketBegin.length];
        }
        int[] begin = bucketBegin;
        java.util.Arrays.fill(begin, 0, cells + 1, 0);
        for (int e = 0; e < entries; e++) {
            int i = 3 * entryObj[e];
            int b = cellOf(0.5 * (min[i] + max[i]), ox, inv)
                    + nx * (cellOf(0.5 * (min[i + 1] + max[i + 1]), oy, inv) + ny * cellOf(0.5 * (min[i + 2] + max[i + 2]), oz, inv));
            entryBucket[e] = b;
            begin[b + 1]++;
        }
        for (int b = 0; b < cells; b++) {
            begin[b + 1] += begin[b];
        }
        int[] cursor = bucketCursor;
        System.arraycopy(begin, 0, cursor, 0, cells);
        for (int e = 0; e < entries; e++) {
            int pos = cursor[entryBucket[e]]++;
            int c = entryObj[e];
            int i = 3 * c;
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
        // occupied cells have coordinates >= 1 and <= n - 2, so every neighbour index is in range
        for (int b = 0; b < cells; b++) {
            int end = begin[b + 1];
            for (int p = begin[b]; p < end; p++) {
                testRange(p, p + 1, end, out);
                for (int s = 0; s < 13; s++) {
                    int nb = b + shellDelta[s];
                    testRange(p, begin[nb], begin[nb + 1], out);
                }
            }
        }
    }

    /** Tests entry p against entries [from, to). */
    private void testRange(int p, int from, int to, PairBuffer out) {
        double x0 = sMinX[p];
        double y0 = sMinY[p];
        double z0 = sMinZ[p];
        double x1 = sMaxX[p];
        double y1 = sMaxY[p];
        double z1 = sMaxZ[p];
        boolean st = sStatic[p];
        for (int q = from; q < to; q++) {
            boolean apart = (x0 > sMaxX[q]) | (sMinX[q] > x1) | (y0 > sMaxY[q]) | (sMinY[q] > y1)
                    | (z0 > sMaxZ[q]) | (sMinZ[q] > z1) | (st & sStatic[q]);
            if (!apart) {
                int i = sObj[p];
                int j = sObj[q];
                if (i < j) {
                    out.add(i, j);
                } else {
                    out.add(j, i);
                }
            }
        }
    }

    private void test(int p, int q, PairBuffer out) {
        boolean apart = (sMinX[p] > sMaxX[q]) | (sMinX[q] > sMaxX[p]) | (sMinY[p] > sMaxY[q]) | (sMinY[q] > sMaxY[p])
                | (sMinZ[p] > sMaxZ[q]) | (sMinZ[q] > sMaxZ[p]) | (sStatic[p] & sStatic[q]);
        if (apart) {
            return;
        }
        int i = sObj[p];
        int j = sObj[q];
        if (i < j) {
            out.add(i, j);
        } else {
            out.add(j, i);
        }
    }

    private static double extent(double[] min, double[] max, int c) {
        int i = 3 * c;
        return Math.max(max[i] - min[i], Math.max(max[i + 1] - min[i + 1], max[i + 2] - min[i + 2]));
    }

    private static int cellOf(double v, double origin, double inv) {
        return (int) ((v - origin) * inv);
    }

    private static long pack(int x, int y, int z) {
        return (long) x | ((long) y << AXIS_BITS) | ((long) z << (2 * AXIS_BITS));
    }

    private static int bucket(long key, int tableBits) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - tableBits));
    }

    private void ensure(int m, int[] bounded) {
        if (entryObj.length < m) {
            int cap = Math.max(m, 2 * entryObj.length);
            entryKey = new long[cap];
            entryBucket = new int[cap];
            entryObj = new int[cap];
            sKey = new long[cap];
            sObj = new int[cap];
            sStatic = new boolean[cap];
            sMinX = new double[cap];
            sMinY = new double[cap];
            sMinZ = new double[cap];
            sMaxX = new double[cap];
            sMaxY = new double[cap];
            sMaxZ = new double[cap];
            large = new int[cap];
        }
        int maxIndex = 0;
        for (int r = 0; r < m; r++) {
            maxIndex = Math.max(maxIndex, bounded[r]);
        }
        if (isLarge.length <= maxIndex) {
            isLarge = new boolean[Math.max(maxIndex + 1, 2 * isLarge.length)];
        }
    }
}
