package io.tandem.physics.internal.collision;

import io.tandem.physics.internal.geometry.ConvexHull;

/*
 * Implementation notes
 *
 * Candidate contact points of one pair, in world coordinates, before reduction to the four points
 * a ContactManifold holds. Reduction (only when there are more than four candidates) keeps the
 * contact area the solver sees as large as possible, in the spirit of [1] and Bullet's
 * btPersistentManifold::sortCachedPoints:
 *   1. the deepest point (the first of equals);
 *   2. the point farthest from it in the contact plane;
 *   3. the point giving the triangle of largest area with the first two;
 *   4. the point that adds the most area outside that triangle (skipped when all are inside).
 * Ties go to the lowest candidate index, so the choice is deterministic.
 *
 * [1] D. Gregorius, "Robust Contact Creation for Physics Simulations", GDC 2015.
 */

/** Scratch list of contact candidates with the reduction to at most four points. Allocation-free after construction. */
final class ContactCandidates {
    /** enough for every clipped polygon of HullCollider and every vertex of a hull against a plane */
    static final int CAPACITY = 2 * ConvexHull.MAX_FEATURES;

    /** (CAPACITY x 3) world points, m */
    final double[] point = new double[3 * CAPACITY];
    final double[] depth = new double[CAPACITY];
    final int[] feature = new int[CAPACITY];
    int count;
    double nx;
    double ny;
    double nz;
    private final int[] selected = new int[4];

    void clear() {
        count = 0;
        nx = 0;
        ny = 0;
        nz = 1;
    }

    void setNormal(double x, double y, double z) {
        nx = x;
        ny = y;
        nz = z;
    }

    void add(double x, double y, double z, double d, int f) {
        if (count == CAPACITY) {
            return;
        }
        int k = count++;
        point[3 * k] = x;
        point[3 * k + 1] = y;
        point[3 * k + 2] = z;
        depth[k] = d;
        feature[k] = f;
    }

    /** Writes the normal and at most four points into {@code out}; returns the point count. */
    int emit(ContactManifold out) {
        out.normal[0] = nx;
        out.normal[1] = ny;
        out.normal[2] = nz;
        int n = count;
        if (n <= ContactManifold.MAX_POINTS) {
            for (int k = 0; k < n; k++) {
                copy(k, out, k);
            }
            out.count = n;
            return n;
        }
        int m = reduce();
        for (int k = 0; k < m; k++) {
            copy(selected[k], out, k);
        }
        out.count = m;
        return m;
    }

    private void copy(int from, ContactManifold out, int to) {
        out.point[3 * to] = point[3 * from];
        out.point[3 * to + 1] = point[3 * from + 1];
        out.point[3 * to + 2] = point[3 * from + 2];
        out.depth[to] = depth[from];
        out.feature[to] = feature[from];
    }

    private int reduce() {
        int n = count;
        int i0 = 0;
        for (int k = 1; k < n; k++) {
            if (depth[k] > depth[i0]) {
                i0 = k;
            }
        }
        double x0 = point[3 * i0];
        double y0 = point[3 * i0 + 1];
        double z0 = point[3 * i0 + 2];
        // farthest in the contact plane
        int i1 = -1;
        double best = -1;
        for (int k = 0; k < n; k++) {
            if (k == i0) {
                continue;
            }
            double dx = point[3 * k] - x0;
            double dy = point[3 * k + 1] - y0;
            double dz = point[3 * k + 2] - z0;
            double dn = dx * nx + dy * ny + dz * nz;
            dx -= dn * nx;
            dy -= dn * ny;
            dz -= dn * nz;
            double d2 = dx * dx + dy * dy + dz * dz;
            if (d2 > best) {
                best = d2;
                i1 = k;
            }
        }
        double ax = point[3 * i1] - x0;
        double ay = point[3 * i1 + 1] - y0;
        double az = point[3 * i1 + 2] - z0;
        // largest triangle
        int i2 = -1;
        best = -1;
        double orient = 0;
        for (int k = 0; k < n; k++) {
            if (k == i0 || k == i1) {
                continue;
            }
            double area = triangleArea(ax, ay, az, point[3 * k] - x0, point[3 * k + 1] - y0, point[3 * k + 2] - z0);
            if (Math.abs(area) > best) {
                best = Math.abs(area);
                orient = area;
                i2 = k;
            }
        }
        selected[0] = i0;
        selected[1] = i1;
        selected[2] = i2;
        double s = orient >= 0 ? 1.0 : -1.0;
        // most area added outside the triangle
        int i3 = -1;
        best = 0;
        for (int k = 0; k < n; k++) {
            if (k == i0 || k == i1 || k == i2) {
                continue;
            }
            double gain = Math.max(-s * area(i0, i1, k), Math.max(-s * area(i1, i2, k), -s * area(i2, i0, k)));
            if (gain > best) {
                best = gain;
                i3 = k;
            }
        }
        if (i3 < 0) {
            return 3;
        }
        selected[3] = i3;
        return 4;
    }

    private double area(int a, int b, int c) {
        double xa = point[3 * a];
        double ya = point[3 * a + 1];
        double za = point[3 * a + 2];
        return triangleArea(point[3 * b] - xa, point[3 * b + 1] - ya, point[3 * b + 2] - za,
                point[3 * c] - xa, point[3 * c + 1] - ya, point[3 * c + 2] - za);
    }

    /** Signed (twice) area of the triangle (0, u, v) about the normal. */
    private double triangleArea(double ux, double uy, double uz, double vx, double vy, double vz) {
        double cx = uy * vz - uz * vy;
        double cy = uz * vx - ux * vz;
        double cz = ux * vy - uy * vx;
        return cx * nx + cy * ny + cz * nz;
    }
}
