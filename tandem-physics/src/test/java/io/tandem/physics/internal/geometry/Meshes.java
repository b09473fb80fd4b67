package io.tandem.physics.internal.geometry;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Test fixture: point clouds and mesh vertices (flat x, y, z arrays, m) for convex hulls. */
public final class Meshes {
    private Meshes() {
    }

    /** The 8 corners of the box with half extents (hx, hy, hz), corner v at (+-hx, +-hy, +-hz) by bits 0, 1, 2. */
    public static double[] boxCorners(double hx, double hy, double hz) {
        double[] v = new double[24];
        for (int i = 0; i < 8; i++) {
            v[3 * i] = (i & 1) != 0 ? hx : -hx;
            v[3 * i + 1] = (i & 2) != 0 ? hy : -hy;
            v[3 * i + 2] = (i & 4) != 0 ? hz : -hz;
        }
        return v;
    }

    /** The same corners shifted by (dx, dy, dz). */
    public static double[] shifted(double[] xyz, double dx, double dy, double dz) {
        double[] v = xyz.clone();
        for (int k = 0; k < v.length / 3; k++) {
            v[3 * k] += dx;
            v[3 * k + 1] += dy;
            v[3 * k + 2] += dz;
        }
        return v;
    }

    /**
     * The vertices of an icosphere of the given radius: an icosahedron whose triangles are split
     * {@code subdivisions} times into four, the new vertices pushed onto the sphere (12, 42, 162,
     * 642, 2562 vertices for 0..4). Edge midpoints are shared, as in a mesh file.
     */
    public static double[] icosphere(double radius, int subdivisions) {
        double t = (1 + Math.sqrt(5)) / 2;
        List<double[]> v = new ArrayList<>();
        double[][] base = {
            {-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
            {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}
        };
        for (double[] p : base) {
            v.add(unit(p));
        }
        int[][] faces = {
            {0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4}, {11, 10, 2},
            {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9}, {4, 9, 5}, {2, 4, 11},
            {6, 2, 10}, {8, 6, 7}, {9, 8, 1}
        };
        for (int s = 0; s < subdivisions; s++) {
            java.util.Map<Long, Integer> mid = new java.util.HashMap<>();
            int[][] next = new int[faces.length * 4][];
            int k = 0;
            for (int[] f : faces) {
                int a = midpoint(v, mid, f[0], f[1]);
                int b = midpoint(v, mid, f[1], f[2]);
                int c = midpoint(v, mid, f[2], f[0]);
                next[k++] = new int[] {f[0], a, c};
                next[k++] = new int[] {f[1], b, a};
                next[k++] = new int[] {f[2], c, b};
                next[k++] = new int[] {a, b, c};
            }
            faces = next;
        }
        double[] xyz = new double[3 * v.size()];
        for (int i = 0; i < v.size(); i++) {
            for (int d = 0; d < 3; d++) {
                xyz[3 * i + d] = radius * v.get(i)[d];
            }
        }
        return xyz;
    }

    private static int midpoint(List<double[]> v, java.util.Map<Long, Integer> mid, int a, int b) {
        long key = ((long) Math.min(a, b) << 32) | Math.max(a, b);
        Integer i = mid.get(key);
        if (i != null) {
            return i;
        }
        double[] p = v.get(a);
        double[] q = v.get(b);
        v.add(unit(new double[] {p[0] + q[0], p[1] + q[1], p[2] + q[2]}));
        mid.put(key, v.size() - 1);
        return v.size() - 1;
    }

    private static double[] unit(double[] p) {
        double l = Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        return new double[] {p[0] / l, p[1] / l, p[2] / l};
    }

    /** n points uniformly in the ball of the given radius around (cx, cy, cz). */
    public static double[] ball(int n, double radius, double cx, double cy, double cz, Random rnd) {
        double[] xyz = new double[3 * n];
        for (int i = 0; i < n; i++) {
            double x;
            double y;
            double z;
            do {
                x = 2 * rnd.nextDouble() - 1;
                y = 2 * rnd.nextDouble() - 1;
                z = 2 * rnd.nextDouble() - 1;
            } while (x * x + y * y + z * z > 1);
            xyz[3 * i] = cx + radius * x;
            xyz[3 * i + 1] = cy + radius * y;
            xyz[3 * i + 2] = cz + radius * z;
        }
        return xyz;
    }

    /** Concatenation of point arrays. */
    public static double[] concat(double[]... parts) {
        int n = 0;
        for (double[] p : parts) {
            n += p.length;
        }
        double[] out = new double[n];
        int o = 0;
        for (double[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }
}
