package io.tandem.physics.internal.solver;

/*
 * Implementation notes.
 *
 * Minimum-degree ordering (Tinney and Walker 1967; George and Liu 1989) on a graph of
 * supernodes: each node stands for a dense group of coordinates (a body's 6, an articulation's n)
 * and its degree is the weighted one, the coordinates of its current neighbours. The elimination
 * graph is kept explicitly: eliminating a node joins its neighbours into a clique (the fill of the
 * Cholesky factor) and removes it. Ties go to the lower index, so the order is deterministic, and a
 * connected component is ordered as it would be alone (its nodes keep their relative order). EJML
 * 0.46 offers no fill-reducing ordering of its own (FillReducing has NONE, RANDOM and IDENTITY
 * only), hence this one. Without the quotient-graph tricks of AMD it costs the sum over eliminated
 * nodes of deg x (deg + neighbour degrees), small for contact and joint graphs.
 *
 * Allocates only while the graph grows (the neighbour lists grow by doubling). Not thread-safe.
 */

/** Minimum-degree ordering of a weighted graph. */
final class MinimumDegree {
    private int[][] adj = new int[0][];
    private int[] len = new int[0];
    private int[] degree = new int[0];
    private int[] mark = new int[0];
    private int stamp;
    private int[] heap = new int[0];
    private int[] heapPos = new int[0];
    private int heapSize;

    /**
     * Orders the n nodes of the graph given in CSR form ({@code start}, {@code neighbours}:
     * symmetric, no self loops, no duplicates) with weights {@code weight}: {@code order[k]} is the
     * k-th node to eliminate.
     */
    void order(int n, int[] start, int[] neighbours, int[] weight, int[] order) {
        if (adj.length < n) {
            int[][] grown = new int[Math.max(n, 2 * adj.length)][];
            System.arraycopy(adj, 0, grown, 0, adj.length);
            adj = grown;
        }
        len = ConstraintProblem.grow(len, n);
        degree = ConstraintProblem.grow(degree, n);
        mark = ConstraintProblem.grow(mark, n);
        heap = ConstraintProblem.grow(heap, n);
        heapPos = ConstraintProblem.grow(heapPos, n);
        java.util.Arrays.fill(mark, 0, n, 0);
        stamp = 0;
        for (int i = 0; i < n; i++) {
            int d = start[i + 1] - start[i];
            if (adj[i] == null || adj[i].length < d) {
                adj[i] = new int[Math.max(4, Math.max(d, adj[i] == null ? 0 : 2 * adj[i].length))];
            }
            System.arraycopy(neighbours, start[i], adj[i], 0, d);
            len[i] = d;
            int w = 0;
            for (int e = 0; e < d; e++) {
                w += weight[adj[i][e]];
            }
            degree[i] = w;
        }
        heapSize = 0;
        for (int i = 0; i < n; i++) {
            heap[heapSize] = i;
            heapPos[i] = heapSize;
            heapSize++;
            up(heapPos[i]);
        }
        for (int k = 0; k < n; k++) {
            int p = heap[0];
            removeTop();
            heapPos[p] = -1;
            order[k] = p;
            int[] np = adj[p];
            int dp = len[p];
            // remove p from its neighbours' lists
            for (int e = 0; e < dp; e++) {
                int u = np[e];
                int[] nu = adj[u];
                for (int f = 0; f < len[u]; f++) {
                    if (nu[f] == p) {
                        nu[f] = nu[--len[u]];
                        break;
                    }
                }
            }
            // the neighbours become a clique
            for (int e = 0; e < dp; e++) {
                int u = np[e];
                stamp++;
                mark[u] = stamp;
                for (int f = 0; f < len[u]; f++) {
                    mark[adj[u][f]] = stamp;
                }
                for (int g = 0; g < dp; g++) {
                    int w = np[g];
                    if (mark[w] != stamp) {
                        mark[w] = stamp;
                        append(u, w);
                    }
                }
            }
            for (int e = 0; e < dp; e++) {
                int u = np[e];
                int w = 0;
                for (int f = 0; f < len[u]; f++) {
                    w += weight[adj[u][f]];
                }
                int old = degree[u];
                degree[u] = w;
                if (w < old) {
                    up(heapPos[u]);
                } else if (w > old) {
                    down(heapPos[u]);
                }
            }
            len[p] = 0;
        }
    }

    private void append(int u, int w) {
        if (len[u] == adj[u].length) {
            adj[u] = java.util.Arrays.copyOf(adj[u], 2 * adj[u].length);
        }
        adj[u][len[u]++] = w;
    }

    private boolean less(int a, int b) {
        return degree[a] < degree[b] || degree[a] == degree[b] && a < b;
    }

    private void up(int i) {
        int x = heap[i];
        while (i > 0) {
            int parent = (i - 1) >> 1;
            int y = heap[parent];
            if (!less(x, y)) {
                break;
            }
            heap[i] = y;
            heapPos[y] = i;
            i = parent;
        }
        heap[i] = x;
        heapPos[x] = i;
    }

    private void down(int i) {
        int x = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= heapSize) {
                break;
            }
            if (child + 1 < heapSize && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!less(heap[child], x)) {
                break;
            }
            heap[i] = heap[child];
            heapPos[heap[i]] = i;
            i = child;
        }
        heap[i] = x;
        heapPos[x] = i;
    }

    private void removeTop() {
        heapSize--;
        if (heapSize > 0) {
            heap[0] = heap[heapSize];
            heapPos[heap[0]] = 0;
            down(0);
        }
    }
}
