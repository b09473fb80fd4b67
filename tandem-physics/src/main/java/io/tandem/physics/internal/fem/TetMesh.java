package io.tandem.physics.internal.fem;

import java.util.Arrays;

/**
 * A tetrahedral mesh at rest: node positions (m) and tetrahedra as four node indices each, every
 * one with positive volume ({@code det[X1-X0, X2-X0, X3-X0] > 0}). Immutable (the arrays are
 * copied); the constructor checks every element and names the first bad one with the fix.
 *
 * @param nodes (3 n): x, y, z of each node, m
 * @param tets  (4 m): the node indices of each tetrahedron
 */
public record TetMesh(double[] nodes, int[] tets) {
    /** a tetrahedron this much smaller than the cube of its longest edge is degenerate (flat) */
    static final double DEGENERATE = 1e-9;

    public TetMesh {
        if (nodes.length % 3 != 0 || tets.length % 4 != 0) {
            throw new IllegalArgumentException("a tetrahedral mesh needs 3 coordinates per node and 4 nodes per"
                    + " tetrahedron, got " + nodes.length + " coordinates and " + tets.length + " indices");
        }
        if (tets.length == 0) {
            throw new IllegalArgumentException("a tetrahedral mesh needs at least one tetrahedron");
        }
        nodes = nodes.clone();
        tets = tets.clone();
        int n = nodes.length / 3;
        for (int e = 0; e < tets.length / 4; e++) {
            for (int k = 0; k < 4; k++) {
                int a = tets[4 * e + k];
                if (a < 0 || a >= n) {
                    throw new IllegalArgumentException("tetrahedron " + e + " names node " + a + ", but the mesh has nodes 0.."
                            + (n - 1));
                }
            }
            double det = det(nodes, tets, e);
            double edge = longestEdge(nodes, tets, e);
            if (!(Math.abs(det) > DEGENERATE * edge * edge * edge)) {
                throw new IllegalArgumentException("tetrahedron " + e + " (nodes " + Arrays.toString(Arrays.copyOfRange(tets,
                        4 * e, 4 * e + 4)) + ") is degenerate: its volume " + det / 6 + " m^3 is about zero for its size;"
                        + " remove it or move its nodes apart");
            }
            if (det < 0) {
                throw new IllegalArgumentException("tetrahedron " + e + " (nodes " + Arrays.toString(Arrays.copyOfRange(tets,
                        4 * e, 4 * e + 4)) + ") is inverted (negative volume " + det / 6 + " m^3): swap two of its nodes");
            }
        }
    }

    /** @return the number of nodes */
    public int nodeCount() {
        return nodes.length / 3;
    }

    /** @return the number of tetrahedra */
    public int tetCount() {
        return tets.length / 4;
    }

    /** @return tetrahedron e's rest volume, m^3 (positive) */
    public double volume(int e) {
        return det(nodes, tets, e) / 6;
    }

    /** @return the 12 rest coordinates of tetrahedron e's nodes, in its node order, into out[0..11] */
    public double[] restCoordinates(int e, double[] out) {
        for (int k = 0; k < 4; k++) {
            System.arraycopy(nodes, 3 * tets[4 * e + k], out, 3 * k, 3);
        }
        return out;
    }

    /** det[X1-X0, X2-X0, X3-X0] of tetrahedron e (6 times its signed volume) */
    static double det(double[] x, int[] t, int e) {
        int a = 3 * t[4 * e];
        double[] d = new double[9];
        for (int k = 0; k < 3; k++) {
            int b = 3 * t[4 * e + 1 + k];
            for (int i = 0; i < 3; i++) {
                d[3 * i + k] = x[b + i] - x[a + i]; // column k
            }
        }
        return Mat3.det(d);
    }

    /** the longest edge of tetrahedron e, m */
    static double longestEdge(double[] x, int[] t, int e) {
        double best = 0;
        for (int i = 0; i < 4; i++) {
            for (int j = i + 1; j < 4; j++) {
                int a = 3 * t[4 * e + i];
                int b = 3 * t[4 * e + j];
                double dx = x[a] - x[b];
                double dy = x[a + 1] - x[b + 1];
                double dz = x[a + 2] - x[b + 2];
                best = Math.max(best, Math.sqrt(dx * dx + dy * dy + dz * dz));
            }
        }
        return best;
    }
}
