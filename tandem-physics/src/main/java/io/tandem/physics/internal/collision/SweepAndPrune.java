package io.tandem.physics.internal.collision;

/*
 * Implementation notes
 *
 * Single-axis sweep and prune [1], [2] chapter 7.5. The sweep axis is the one with the largest
 * variance of the AABB centres (switching only when another axis beats the current one by 25 %, so
 * that it does not flip every step). All colliders are kept in one order array sorted by min on that
 * axis (unbounded and invalid colliders get key +infinity and collect at the end). Between calls the
 * previous order is insertion-sorted, which is O(n + swaps) for coherent motion [1]; if that needs
 * more than 8n + 64 moves (teleports, first call) it gives up and runs a bottom-up merge sort with a
 * reused buffer instead. A new n or a new axis also triggers the merge sort.
 *
 * The sweep copies the sorted bounds into flat arrays and, for each box, walks forward while the
 * next min is <= its max on the sweep axis, testing the other two axes. Cost: O(n + k) where k is
 * the number of overlaps on the sweep axis alone, which for a dense 3D pile grows like n^(5/3); see
 * the measurements in BroadPhase.
 *
 * [1] D. Baraff, "Dynamic Simulation of Non-Penetrating Rigid Bodies", PhD thesis, Cornell 1992.
 * [2] C. Ericson, "Real-Time Collision Detection", Morgan Kaufmann 2005.
 */

/** Sweep and prune over the bounded colliders. Not thread-safe; grows its arrays only when n grows. */
final class SweepAndPrune {
    private int[] order = new int[0];
    private int[] mergeTmp = new int[0];
    private double[] key = new double[0];
    private int orderN = -1;
    private int axis = -1;
    private double[] sMin = new double[0];
    private double[] sMax = new double[0];
    private double[] sMin1 = new double[0];
    private double[] sMax1 = new double[0];
    private double[] sMin2 = new double[0];
    private double[] sMax2 = new double[0];
    private int[] sIdx = new int[0];
    private boolean[] sStatic = new boolean[0];

    void find(int n, double[] min, double[] max, int[] group, byte[] kind, int boundedCount, PairBuffer out) {
        if (order.length < n) {
            int cap = Math.max(n, 2 * order.length);
            order = new int[cap];
            mergeTmp = new int[cap];
            key = new double[cap];
            sMin = new double[cap];
            sMax = new double[cap];
            sMin1 = new double[cap];
            sMax1 = new double[cap];
            sMin2 = new double[cap];
            sMax2 = new double[cap];
            sIdx = new int[cap];
            sStatic = new boolean[cap];
        }
        int newAxis = chooseAxis(n, min, max, kind, boundedCount);
        for (int i = 0; i < n; i++) {
            key[i] = kind[i] == BroadPhase.BOUNDED ? min[3 * i + newAxis] : Double.POSITIVE_INFINITY;
        }
        if (n != orderN || newAxis != axis) {
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            mergeSort(n);
            orderN = n;
            axis = newAxis;
        } else if (!insertionSort(n)) {
            mergeSort(n);
        }
        int a1 = axis == 0 ? 1 : 0;
        int a2 = axis == 2 ? 1 : 2;
        int m = boundedCount;
        for (int r = 0; r < m; r++) {
            int i = order[r];
            sIdx[r] = i;
            sMin[r] = min[3 * i + axis];
            sMax[r] = max[3 * i + axis];
            sMin1[r] = min[3 * i + a1];
            sMax1[r] = max[3 * i + a1];
            sMin2[r] = min[3 * i + a2];
            sMax2[r] = max[3 * i + a2];
            sStatic[r] = group[i] == 0;
        }
        for (int r = 0; r < m; r++) {
            double hi = sMax[r];
            double lo1 = sMin1[r];
            double hi1 = sMax1[r];
            double lo2 = sMin2[r];
            double hi2 = sMax2[r];
            boolean st = sStatic[r];
            int i = sIdx[r];
            for (int q = r + 1; q < m && sMin[q] <= hi; q++) {
                // branch-free: the outcome is unpredictable in a dense pile (1k pile: 433 us, short-circuit 608 us)
                boolean apart = (sMin1[q] > hi1) | (lo1 > sMax1[q]) | (sMin2[q] > hi2) | (lo2 > sMax2[q])
                        | (st & sStatic[q]);
                if (apart) {
                    continue;
                }
                int j = sIdx[q];
                if (!BroadPhase.mayCollide(group[i], group[j])) {
                    continue;
                }
                if (i < j) {
                    out.add(i, j);
                } else {
                    out.add(j, i);
                }
            }
        }
    }

    private int chooseAxis(int n, double[] min, double[] max, byte[] kind, int boundedCount) {
        if (boundedCount < 2) {
            return axis < 0 ? 0 : axis;
        }
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double q0 = 0;
        double q1 = 0;
        double q2 = 0;
        for (int i = 0; i < n; i++) {
            if (kind[i] != BroadPhase.BOUNDED) {
                continue;
            }
            double c0 = min[3 * i] + max[3 * i];
            double c1 = min[3 * i + 1] + max[3 * i + 1];
            double c2 = min[3 * i + 2] + max[3 * i + 2];
            s0 += c0;
            s1 += c1;
            s2 += c2;
            q0 += c0 * c0;
            q1 += c1 * c1;
            q2 += c2 * c2;
        }
        double inv = 1.0 / boundedCount;
        double v0 = q0 - s0 * s0 * inv;
        double v1 = q1 - s1 * s1 * inv;
        double v2 = q2 - s2 * s2 * inv;
        int best = v0 >= v1 ? (v0 >= v2 ? 0 : 2) : (v1 >= v2 ? 1 : 2);
        if (axis < 0) {
            return best;
        }
        double current = axis == 0 ? v0 : (axis == 1 ? v1 : v2);
        double top = best == 0 ? v0 : (best == 1 ? v1 : v2);
        return top > 1.25 * current ? best : axis;
    }

    /** Insertion sort of order by key; false when it exceeded its move budget (order is still a permutation). */
    private boolean insertionSort(int n) {
        long budget = 8L * n + 64;
        long moves = 0;
        int[] o = order;
        double[] k = key;
        for (int r = 1; r < n; r++) {
            int v = o[r];
            double kv = k[v];
            int q = r - 1;
            while (q >= 0 && k[o[q]] > kv) {
                o[q + 1] = o[q];
                q--;
                if (++moves > budget) {
                    o[q + 1] = v;
                    return false;
                }
            }
            o[q + 1] = v;
        }
        return true;
    }

    /** Bottom-up merge sort of order[0..n) by (key, index). */
    private void mergeSort(int n) {
        int[] src = order;
        int[] dst = mergeTmp;
        double[] k = key;
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int d = lo;
                while (i < mid && j < hi) {
                    int a = src[i];
                    int b = src[j];
                    if (k[a] < k[b] || (k[a] == k[b] && a <= b)) {
                        dst[d++] = a;
                        i++;
                    } else {
                        dst[d++] = b;
                        j++;
                    }
                }
                while (i < mid) {
                    dst[d++] = src[i++];
                }
                while (j < hi) {
                    dst[d++] = src[j++];
                }
            }
            int[] t = src;
            src = dst;
            dst = t;
        }
        if (src != order) {
            System.arraycopy(src, 0, order, 0, n);
        }
    }
}
