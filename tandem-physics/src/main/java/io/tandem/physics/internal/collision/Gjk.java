package io.tandem.physics.internal.collision;

/*
 * Implementation notes
 *
 * Distance between the convex hulls of two point sets given in the same frame, by the
 * Gilbert-Johnson-Keerthi algorithm [1] in the form of [2] (chapter 9.5): the simplex holds points
 * w = a - b of the Minkowski difference together with the indices of a and b; each iteration adds
 * the support point in direction -v and replaces the simplex by the smallest sub-simplex that
 * contains the point v closest to the origin. The closest point on a segment, triangle and
 * tetrahedron uses the Voronoi-region tests of [3] (5.1.2, 5.1.5, 5.1.6); a degenerate
 * (flat) triangle or tetrahedron falls back to its edges or faces.
 *
 * Termination: the lower bound test |v|^2 - v.w <= 1e-12 |v|^2 [2], a repeated support pair (the
 * point sets are finite, so this guarantees termination), no decrease of |v|, a full tetrahedron
 * containing the origin, or 64 iterations. Distances below ~1e-12 of the coordinates are reported
 * as 0 ("cores overlap"); callers switch to the SAT then.
 *
 * The witness points are the same barycentric combination of the support points of A and of B.
 * Only used for capsule cores (a 2-point set) against boxes, prisms and convex hulls (fewer than
 * ConvexHull.MAX_FEATURES points), so the sets are small and support is a linear scan. Allocation-free; one instance per thread.
 *
 * [1] E. G. Gilbert, D. W. Johnson, S. S. Keerthi, "A fast procedure for computing the distance
 *     between complex objects in three-dimensional space", IEEE J. Robotics and Automation 4(2), 1988.
 * [2] G. van den Bergen, "Collision Detection in Interactive 3D Environments", Morgan Kaufmann 2003.
 * [3] C. Ericson, "Real-Time Collision Detection", Morgan Kaufmann 2005.
 */

/** GJK distance between two convex point sets. Not thread-safe; allocation-free after construction. */
final class Gjk {
    private static final int MAX_ITERATIONS = 64;

    /** witness point on A, m */
    final double[] witnessA = new double[3];
    /** witness point on B, m */
    final double[] witnessB = new double[3];
    /** simplex size after the last call, 1..4 */
    int size;
    /** indices into A's and B's point sets of the simplex vertices with positive weight */
    final int[] indexA = new int[4];
    final int[] indexB = new int[4];

    private final double[] w = new double[12];
    private final double[] lambda = new double[4];
    private final double[] tmpLambda = new double[4];
    private final double[] bestLambda = new double[4];
    private final double[] segLambda = new double[4];

    /**
     * Distance between conv(a) and conv(b), m; 0 when they overlap.
     *
     * @param a (na x 3) points of A
     * @param b (nb x 3) points of B, in the same frame
     */
    double distance(double[] a, int na, double[] b, int nb) {
        size = 1;
        indexA[0] = 0;
        indexB[0] = 0;
        w[0] = a[0] - b[0];
        w[1] = a[1] - b[1];
        w[2] = a[2] - b[2];
        lambda[0] = 1;
        double vx = w[0];
        double vy = w[1];
        double vz = w[2];
        double vv = vx * vx + vy * vy + vz * vz;
        double scale = 0;
        for (int k = 0; k < 3 * na; k++) {
            scale = Math.max(scale, Math.abs(a[k]));
        }
        for (int k = 0; k < 3 * nb; k++) {
            scale = Math.max(scale, Math.abs(b[k]));
        }
        double zero2 = 1e-24 * (scale * scale + 1e-300);
        boolean inside = vv <= zero2;
        for (int iter = 0; iter < MAX_ITERATIONS && !inside; iter++) {
            // support of A in -v and of B in +v
            int sa = 0;
            double best = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < na; k++) {
                double d = -(vx * a[3 * k] + vy * a[3 * k + 1] + vz * a[3 * k + 2]);
                if (d > best) {
                    best = d;
                    sa = k;
                }
            }
            int sb = 0;
            best = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < nb; k++) {
                double d = vx * b[3 * k] + vy * b[3 * k + 1] + vz * b[3 * k + 2];
                if (d > best) {
                    best = d;
                    sb = k;
                }
            }
            boolean repeated = false;
            for (int k = 0; k < size; k++) {
                if (indexA[k] == sa && indexB[k] == sb) {
                    repeated = true;
                    break;
                }
            }
            double wx = a[3 * sa] - b[3 * sb];
            double wy = a[3 * sa + 1] - b[3 * sb + 1];
            double wz = a[3 * sa + 2] - b[3 * sb + 2];
            if (repeated || vv - (vx * wx + vy * wy + vz * wz) <= 1e-12 * vv) {
                break;
            }
            int s = size++;
            w[3 * s] = wx;
            w[3 * s + 1] = wy;
            w[3 * s + 2] = wz;
            indexA[s] = sa;
            indexB[s] = sb;
            double prevVv = vv;
            if (closest()) {
                inside = true;
                break;
            }
            vx = 0;
            vy = 0;
            vz = 0;
            for (int k = 0; k < size; k++) {
                vx += lambda[k] * w[3 * k];
                vy += lambda[k] * w[3 * k + 1];
                vz += lambda[k] * w[3 * k + 2];
            }
            vv = vx * vx + vy * vy + vz * vz;
            if (vv <= zero2) {
                inside = true;
                break;
            }
            if (vv >= prevVv) {
                break;
            }
        }
        // witnesses
        double ax = 0;
        double ay = 0;
        double az = 0;
        double bx = 0;
        double by = 0;
        double bz = 0;
        for (int k = 0; k < size; k++) {
            double l = lambda[k];
            ax += l * a[3 * indexA[k]];
            ay += l * a[3 * indexA[k] + 1];
            az += l * a[3 * indexA[k] + 2];
            bx += l * b[3 * indexB[k]];
            by += l * b[3 * indexB[k] + 1];
            bz += l * b[3 * indexB[k] + 2];
        }
        witnessA[0] = ax;
        witnessA[1] = ay;
        witnessA[2] = az;
        witnessB[0] = bx;
        witnessB[1] = by;
        witnessB[2] = bz;
        if (inside) {
            return 0.0;
        }
        double dx = ax - bx;
        double dy = ay - by;
        double dz = az - bz;
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    /**
     * Replaces the simplex by the support set of its point closest to the origin and sets lambda.
     * Returns true when the origin is inside a full tetrahedron.
     */
    private boolean closest() {
        switch (size) {
            case 2 -> closestSegment(0, 1, lambda);
            case 3 -> closestTriangle(0, 1, 2, lambda);
            case 4 -> {
                if (closestTetrahedron()) {
                    lambda[3] = 0;
                    return true;
                }
            }
            default -> throw new AssertionError(size);
        }
        compact();
        return false;
    }

    private void compact() {
        int m = 0;
        for (int k = 0; k < size; k++) {
            if (lambda[k] > 0) {
                w[3 * m] = w[3 * k];
                w[3 * m + 1] = w[3 * k + 1];
                w[3 * m + 2] = w[3 * k + 2];
                indexA[m] = indexA[k];
                indexB[m] = indexB[k];
                lambda[m] = lambda[k];
                m++;
            }
        }
        size = m;
    }

    /** Closest point of segment (i, j) to the origin; writes weights into out (others zeroed); returns |v|^2. */
    private double closestSegment(int i, int j, double[] out) {
        out[0] = 0;
        out[1] = 0;
        out[2] = 0;
        out[3] = 0;
        double ax = w[3 * i];
        double ay = w[3 * i + 1];
        double az = w[3 * i + 2];
        double ex = w[3 * j] - ax;
        double ey = w[3 * j + 1] - ay;
        double ez = w[3 * j + 2] - az;
        double ee = ex * ex + ey * ey + ez * ez;
        double t = ee > 0 ? -(ax * ex + ay * ey + az * ez) / ee : 0.0;
        if (t <= 0) {
            out[i] = 1;
            return ax * ax + ay * ay + az * az;
        }
        if (t >= 1) {
            out[j] = 1;
            double bx = w[3 * j];
            double by = w[3 * j + 1];
            double bz = w[3 * j + 2];
            return bx * bx + by * by + bz * bz;
        }
        out[i] = 1 - t;
        out[j] = t;
        double px = ax + t * ex;
        double py = ay + t * ey;
        double pz = az + t * ez;
        return px * px + py * py + pz * pz;
    }

    /** Closest point of triangle (i, j, k) to the origin (Ericson 5.1.5); returns |v|^2. */
    private double closestTriangle(int i, int j, int k, double[] out) {
        double ax = w[3 * i];
        double ay = w[3 * i + 1];
        double az = w[3 * i + 2];
        double bx = w[3 * j];
        double by = w[3 * j + 1];
        double bz = w[3 * j + 2];
        double cx = w[3 * k];
        double cy = w[3 * k + 1];
        double cz = w[3 * k + 2];
        double abx = bx - ax;
        double aby = by - ay;
        double abz = bz - az;
        double acx = cx - ax;
        double acy = cy - ay;
        double acz = cz - az;
        // degenerate (flat) triangle: best of its edges
        double nx = aby * acz - abz * acy;
        double ny = abz * acx - abx * acz;
        double nz = abx * acy - aby * acx;
        double n2 = nx * nx + ny * ny + nz * nz;
        double ab2 = abx * abx + aby * aby + abz * abz;
        double ac2 = acx * acx + acy * acy + acz * acz;
        if (n2 <= 1e-24 * ab2 * ac2) {
            double best = closestSegment(i, j, out);
            double d = closestSegment(i, k, segLambda);
            if (d < best) {
                best = d;
                System.arraycopy(segLambda, 0, out, 0, 4);
            }
            d = closestSegment(j, k, segLambda);
            if (d < best) {
                best = d;
                System.arraycopy(segLambda, 0, out, 0, 4);
            }
            return best;
        }
        out[0] = 0;
        out[1] = 0;
        out[2] = 0;
        out[3] = 0;
        double d1 = -(abx * ax + aby * ay + abz * az);
        double d2 = -(acx * ax + acy * ay + acz * az);
        if (d1 <= 0 && d2 <= 0) {
            out[i] = 1;
            return ax * ax + ay * ay + az * az;
        }
        double d3 = -(abx * bx + aby * by + abz * bz);
        double d4 = -(acx * bx + acy * by + acz * bz);
        if (d3 >= 0 && d4 <= d3) {
            out[j] = 1;
            return bx * bx + by * by + bz * bz;
        }
        double vc = d1 * d4 - d3 * d2;
        if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            double v = d1 / (d1 - d3);
            out[i] = 1 - v;
            out[j] = v;
            return norm2(ax + v * abx, ay + v * aby, az + v * abz);
        }
        double d5 = -(abx * cx + aby * cy + abz * cz);
        double d6 = -(acx * cx + acy * cy + acz * cz);
        if (d6 >= 0 && d5 <= d6) {
            out[k] = 1;
            return cx * cx + cy * cy + cz * cz;
        }
        double vb = d5 * d2 - d1 * d6;
        if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            double t = d2 / (d2 - d6);
            out[i] = 1 - t;
            out[k] = t;
            return norm2(ax + t * acx, ay + t * acy, az + t * acz);
        }
        double va = d3 * d6 - d5 * d4;
        if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
            double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            out[j] = 1 - t;
            out[k] = t;
            return norm2(bx + t * (cx - bx), by + t * (cy - by), bz + t * (cz - bz));
        }
        double denom = 1.0 / (va + vb + vc);
        double v = vb * denom;
        double t = vc * denom;
        out[i] = 1 - v - t;
        out[j] = v;
        out[k] = t;
        return norm2(ax + v * abx + t * acx, ay + v * aby + t * acy, az + v * abz + t * acz);
    }

    /** Closest point of the tetrahedron (0, 1, 2, 3); returns true when the origin is inside. */
    private boolean closestTetrahedron() {
        // faces with the vertex opposite to each
        double best = Double.POSITIVE_INFINITY;
        boolean any = false;
        double det = signedVolume(0, 1, 2, 3);
        double l01 = edge2(0, 1);
        double l02 = edge2(0, 2);
        double l03 = edge2(0, 3);
        boolean flat = det * det <= 1e-20 * l01 * l02 * l03;
        for (int f = 0; f < 4; f++) {
            int i;
            int j;
            int k;
            int o;
            switch (f) {
                case 0 -> {
                    i = 0;
                    j = 1;
                    k = 2;
                    o = 3;
                }
                case 1 -> {
                    i = 0;
                    j = 2;
                    k = 3;
                    o = 1;
                }
                case 2 -> {
                    i = 0;
                    j = 3;
                    k = 1;
                    o = 2;
                }
                default -> {
                    i = 1;
                    j = 3;
                    k = 2;
                    o = 0;
                }
            }
            if (!flat && !originOutside(i, j, k, o)) {
                continue;
            }
            any = true;
            double d = closestTriangle(i, j, k, tmpLambda);
            if (d < best) {
                best = d;
                System.arraycopy(tmpLambda, 0, bestLambda, 0, 4);
            }
        }
        if (!any) {
            return true;
        }
        System.arraycopy(bestLambda, 0, lambda, 0, 4);
        return false;
    }

    private boolean originOutside(int i, int j, int k, int o) {
        double ax = w[3 * i];
        double ay = w[3 * i + 1];
        double az = w[3 * i + 2];
        double abx = w[3 * j] - ax;
        double aby = w[3 * j + 1] - ay;
        double abz = w[3 * j + 2] - az;
        double acx = w[3 * k] - ax;
        double acy = w[3 * k + 1] - ay;
        double acz = w[3 * k + 2] - az;
        double nx = aby * acz - abz * acy;
        double ny = abz * acx - abx * acz;
        double nz = abx * acy - aby * acx;
        double sp = -(ax * nx + ay * ny + az * nz);
        double sd = (w[3 * o] - ax) * nx + (w[3 * o + 1] - ay) * ny + (w[3 * o + 2] - az) * nz;
        return sp * sd < 0;
    }

    private double signedVolume(int i, int j, int k, int l) {
        double ax = w[3 * i];
        double ay = w[3 * i + 1];
        double az = w[3 * i + 2];
        double bx = w[3 * j] - ax;
        double by = w[3 * j + 1] - ay;
        double bz = w[3 * j + 2] - az;
        double cx = w[3 * k] - ax;
        double cy = w[3 * k + 1] - ay;
        double cz = w[3 * k + 2] - az;
        double dx = w[3 * l] - ax;
        double dy = w[3 * l + 1] - ay;
        double dz = w[3 * l + 2] - az;
        return bx * (cy * dz - cz * dy) + by * (cz * dx - cx * dz) + bz * (cx * dy - cy * dx);
    }

    private double edge2(int i, int j) {
        return norm2(w[3 * j] - w[3 * i], w[3 * j + 1] - w[3 * i + 1], w[3 * j + 2] - w[3 * i + 2]);
    }

    private static double norm2(double x, double y, double z) {
        return x * x + y * y + z * z;
    }
}
