package io.tandem.physics.internal.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The minimum-degree ordering on small graphs whose best orders are known. */
class MinimumDegreeTest {
    /** CSR of an undirected graph from its edges. */
    private static int[][] csr(int n, int[][] edges) {
        int[] start = new int[n + 1];
        for (int[] e : edges) {
            start[e[0] + 1]++;
            start[e[1] + 1]++;
        }
        for (int i = 0; i < n; i++) {
            start[i + 1] += start[i];
        }
        int[] adj = new int[start[n]];
        int[] cursor = java.util.Arrays.copyOf(start, n);
        for (int[] e : edges) {
            adj[cursor[e[0]]++] = e[1];
            adj[cursor[e[1]]++] = e[0];
        }
        return new int[][] {start, adj};
    }

    private static int[] order(int n, int[][] edges, int[] weight) {
        int[][] g = csr(n, edges);
        int[] out = new int[n];
        new MinimumDegree().order(n, g[0], g[1], weight, out);
        return out;
    }

    @Test
    void star_leavesBeforeTheCentre() {
        // eliminating the centre first would join its five leaves into a clique; it goes once at
        // most one leaf is left (then the two tie, and the lower index goes first)
        int[] out = order(6, new int[][] {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}}, new int[] {6, 6, 6, 6, 6, 6});
        assertThat(out).containsExactly(1, 2, 3, 4, 0, 5);
    }

    @Test
    void path_eliminatedFromAnEndWithoutFill() {
        // 3 - 1 - 0 - 4 - 2: each elimination takes a node of degree at most 1, ties to the lower index
        int[] out = order(5, new int[][] {{3, 1}, {1, 0}, {0, 4}, {4, 2}}, new int[] {6, 6, 6, 6, 6});
        assertThat(out).containsExactly(2, 3, 1, 0, 4);
    }

    @Test
    void weightedDegree_heavyNeighbourCountsMore() {
        // nodes 0 and 1 have one neighbour each, node 0's a 7-coordinate articulation (node 2): 1 goes
        // first despite its higher index, then its neighbour 3 (left with none), then 2 and 0
        int[] out = order(4, new int[][] {{0, 2}, {1, 3}}, new int[] {6, 6, 7, 6});
        assertThat(out).containsExactly(1, 3, 2, 0);
    }

    @Test
    void twoComponents_eachKeepsTheOrderItHasAlone() {
        int[] alone = order(3, new int[][] {{0, 1}, {1, 2}}, new int[] {6, 6, 6});
        // the same path as nodes 2, 3, 4 behind a star of nodes 0, 1 and 5 (relative order kept)
        int[] both = order(6, new int[][] {{2, 3}, {3, 4}, {0, 1}, {0, 5}}, new int[] {6, 6, 6, 6, 6, 6});
        int k = 0;
        for (int q : both) {
            if (q >= 2 && q <= 4) {
                assertThat(q - 2).isEqualTo(alone[k++]);
            }
        }
        assertThat(k).isEqualTo(3);
    }
}
