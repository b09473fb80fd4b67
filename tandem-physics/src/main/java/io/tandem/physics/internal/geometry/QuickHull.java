package io.tandem.physics.internal.geometry;

import java.util.Arrays;

/*
 * Implementation notes
 *
 * Quickhull [1] in three dimensions, with outside sets ("conflict lists") and the horizon traced by
 * a depth-first walk over the visible faces, as in [2] and [3]:
 *   1. initial simplex: of the points extreme along x, y and z the two farthest apart, then the
 *      point farthest from their line, then the point farthest from the plane of the three; each
 *      must lie more than the tolerance tau away, else the input is degenerate (all points within
 *      tau of one point, of a line or of a plane: IllegalArgumentException);
 *   2. every other point goes into the outside set of the face it lies farthest above (more than
 *      tau above; points within tau of the hull are dropped for good);
 *   3. faces are taken in creation order; for one with a non-empty outside set, its farthest point
 *      (the eye) sees every face it lies more than tau above; the faces reachable through visible
 *      neighbours form the visible region, whose boundary (the horizon, in order) is joined to the
 *      eye by a fan of new triangles; the visible faces' outside points are handed to the new faces
 *      (or dropped). A horizon that is not one closed loop (numerically inconsistent input) is an
 *      IllegalStateException; it has not been seen in the randomized tests.
 *   4. coplanar merge: triangles are grown into polygon faces from seeds taken by decreasing area;
 *      a neighbouring triangle joins a face when its normal points the same way and its three
 *      vertices lie within tau of the seed's plane (so every vertex of a merged face lies within tau
 *      of one plane, and within 2 tau of its final plane; merging is not transitive beyond that).
 *      A face whose boundary is not a single loop is split back into its triangles. Vertices left
 *      inside a merged face are dropped, and so are vertices on only two faces (collinear on a
 *      merged edge).
 *   5. each face's normal is Newell's normal of its loop [4]; its offset is the largest n . v over
 *      its loop (other vertices lie behind it, to within tau; ConvexHull makes the planes exactly
 *      supporting).
 *
 * Tolerance: tau = 1e-6 (max|x| + max|y| + max|z|) over the input points (the scale of [2]), far
 * above double rounding and above the rounding of float32 mesh files (6e-8 relative), so the facets
 * of a CAD box exported to STL merge into its six faces. Every input point lies within tau of the
 * result (behind every face plane, or at most tau in front of one).
 *
 * Deterministic: faces are processed in creation order, ties go to the lower point index, and no
 * hash iteration is involved. Build time only: allocates freely (growable arrays).
 *
 * [1] C. B. Barber, D. P. Dobkin, H. Huhdanpaa, "The Quickhull algorithm for convex hulls", ACM
 *     Transactions on Mathematical Software 22(4), 469-483, 1996.
 * [2] J. E. Lloyd, QuickHull3D (a Java port of [1]'s 3-D case), 2004.
 * [3] D. Gregorius, "Implementing Quickhull", GDC 2014.
 * [4] M. E. Newell's method, see F. S. Hill, "Computer Graphics", 1990, or C. Ericson, "Real-Time
 *     Collision Detection", 12.3.
 */

/**
 * The convex hull of a 3-D point set: vertices and polygon faces (outward unit normal, plane
 * offset, vertex loop counter-clockwise about the normal). Immutable after construction; build
 * time only (allocates).
 */
final class QuickHull {
    /** relative tolerance: tau = TOLERANCE (max|x| + max|y| + max|z|) */
    static final double TOLERANCE = 1e-6;

    /** number of hull vertices */
    final int vertexCount;
    /** (vertexCount x 3) vertex positions, in increasing order of their input index */
    final double[] vertices;
    /** (vertexCount) index of each vertex in the input */
    final int[] sourceIndex;
    /** number of polygon faces */
    final int faceCount;
    /** (faceCount x 3) outward unit normals */
    final double[] normals;
    /** (faceCount) plane offsets: n . v &lt;= offset for the face's vertices, and for all to within tau */
    final double[] offsets;
    /** (faceCount + 1) start of each face's loop in {@link #loops} */
    final int[] faceStart;
    /** vertex loops, counter-clockwise about the outward normal */
    final int[] loops;
    /** the absolute tolerance tau, m */
    final double tolerance;

    // ---- working state of the construction (released at the end)
    private double[] pts;
    private int faces;
    private int[] fv = new int[3 * 64];
    private double[] fn = new double[3 * 64];
    private double[] fd = new double[64];
    private int[] adj = new int[3 * 64];
    private boolean[] alive = new boolean[64];
    private int[] outHead = new int[64];
    private int[] next;

    private QuickHull(double[] xyz, int n, double tau) {
        this.tolerance = tau;
        this.pts = xyz;
        this.next = new int[n];
        build(n);
        // collect the live triangles
        int t = 0;
        int[] newIndex = new int[faces];
        for (int f = 0; f < faces; f++) {
            newIndex[f] = alive[f] ? t++ : -1;
        }
        int[] tv = new int[3 * t];
        int[] tadj = new int[3 * t];
        double[] tn = new double[3 * t];
        for (int f = 0; f < faces; f++) {
            if (alive[f]) {
                int k = newIndex[f];
                for (int j = 0; j < 3; j++) {
                    tv[3 * k + j] = fv[3 * f + j];
                    tadj[3 * k + j] = newIndex[adj[3 * f + j]];
                    tn[3 * k + j] = fn[3 * f + j];
                }
            }
        }
        // release the working arrays
        fv = null;
        fn = null;
        fd = null;
        adj = null;
        alive = null;
        outHead = null;
        next = null;
        pts = null;
        Merged m = merge(xyz, n, t, tv, tadj, tn, tau);
        this.vertexCount = m.vertexCount;
        this.vertices = m.vertices;
        this.sourceIndex = m.sourceIndex;
        this.faceCount = m.faceCount;
        this.faceStart = m.faceStart;
        this.loops = m.loops;
        this.normals = new double[3 * faceCount];
        this.offsets = new double[faceCount];
        for (int f = 0; f < faceCount; f++) {
            newell(vertices, loops, faceStart[f], faceStart[f + 1], normals, 3 * f);
            double nx = normals[3 * f];
            double ny = normals[3 * f + 1];
            double nz = normals[3 * f + 2];
            double d = Double.NEGATIVE_INFINITY;
            for (int k = faceStart[f]; k < faceStart[f + 1]; k++) {
                int v = loops[k];
                d = Math.max(d, nx * vertices[3 * v] + ny * vertices[3 * v + 1] + nz * vertices[3 * v + 2]);
            }
            offsets[f] = d;
        }
    }

    /**
     * The convex hull of the first {@code n} points of {@code xyz}.
     *
     * @param xyz (at least n x 3) point coordinates, m. Not modified.
     * @param n number of points, at least 4
     * @return the hull
     * @throws IllegalArgumentException if the points are degenerate: all within the tolerance of
     *     one point, of a line or of a plane (a flat mesh), or fewer than 4, or not finite
     */
    static QuickHull of(double[] xyz, int n) {
        if (n < 4) {
            throw new IllegalArgumentException("a convex hull needs at least 4 points not in one plane, got " + n
                    + " points: the mesh is flat or degenerate");
        }
        double mx = 0;
        double my = 0;
        double mz = 0;
        for (int i = 0; i < n; i++) {
            double x = xyz[3 * i];
            double y = xyz[3 * i + 1];
            double z = xyz[3 * i + 2];
            if (!Double.isFinite(x) || !Double.isFinite(y) || !Double.isFinite(z)) {
                throw new IllegalArgumentException("convex hull point " + i + " is not finite: (" + x + ", " + y + ", "
                        + z + ")");
            }
            mx = Math.max(mx, Math.abs(x));
            my = Math.max(my, Math.abs(y));
            mz = Math.max(mz, Math.abs(z));
        }
        return new QuickHull(xyz, n, TOLERANCE * (mx + my + mz));
    }

    /**
     * The convex hull of the first {@code n} points of {@code xyz} (finite) with a given tolerance.
     *
     * @param xyz (at least n x 3) finite point coordinates, m. Not modified.
     * @param n number of points
     * @param tau the absolute tolerance, m
     * @return the hull
     * @throws IllegalArgumentException if the points are degenerate (see {@link #of(double[], int)})
     */
    static QuickHull of(double[] xyz, int n, double tau) {
        if (n < 4) {
            throw new IllegalArgumentException("a convex hull needs at least 4 points not in one plane, got " + n
                    + " points: the mesh is flat or degenerate");
        }
        return new QuickHull(xyz, n, tau);
    }

    // ---------------------------------------------------------------- construction

    private double dist(int f, int p) {
        return fn[3 * f] * pts[3 * p] + fn[3 * f + 1] * pts[3 * p + 1] + fn[3 * f + 2] * pts[3 * p + 2] - fd[f];
    }

    private void build(int n) {
        int[] s = initialSimplex(pts, n, tolerance);
        int i0 = s[0];
        int i1 = s[1];
        int i2 = s[2];
        int i3 = s[3];
        // orient so that i3 lies below the plane of (i0, i1, i2)
        if (orient(pts, i0, i1, i2, i3) > 0) {
            int tmp = i1;
            i1 = i2;
            i2 = tmp;
        }
        int f0 = addFace(i0, i1, i2);
        int f1 = addFace(i0, i3, i1);
        int f2 = addFace(i1, i3, i2);
        int f3 = addFace(i2, i3, i0);
        link(f0, 0, f1, 2);
        link(f0, 1, f2, 2);
        link(f0, 2, f3, 2);
        link(f1, 0, f3, 1);
        link(f1, 1, f2, 0);
        link(f2, 1, f3, 0);
        // outside sets of the initial faces
        for (int p = 0; p < n; p++) {
            if (p == i0 || p == i1 || p == i2 || p == i3) {
                continue;
            }
            assign(p, 0, 4);
        }
        int[] visible = new int[16];
        int[] stackFace = new int[16];
        int[] stackEdge = new int[16];
        int[] stackLeft = new int[16];
        int[] horizonFrom = new int[16];
        int[] horizonTo = new int[16];
        int[] horizonFace = new int[16];
        int[] mark = new int[64];
        int stamp = 0;
        for (int f = 0; f < faces; f++) {
            if (!alive[f] || outHead[f] < 0) {
                continue;
            }
            // the eye: the farthest outside point of f (the lowest index of equals)
            int eye = -1;
            double far = Double.NEGATIVE_INFINITY;
            for (int p = outHead[f]; p >= 0; p = next[p]) {
                double d = dist(f, p);
                if (d > far || (d == far && p < eye)) {
                    far = d;
                    eye = p;
                }
            }
            // visible region and its horizon, depth first from f
            stamp++;
            if (mark.length < faces) {
                mark = Arrays.copyOf(mark, 2 * faces);
            }
            int nv = 0;
            int nh = 0;
            mark[f] = stamp;
            visible[nv++] = f;
            int sp = 0;
            stackFace[sp] = f;
            stackEdge[sp] = 0;
            stackLeft[sp] = 3;
            sp++;
            while (sp > 0) {
                int top = sp - 1;
                if (stackLeft[top] == 0) {
                    sp--;
                    continue;
                }
                int g = stackFace[top];
                int k = stackEdge[top];
                stackEdge[top] = k == 2 ? 0 : k + 1;
                stackLeft[top]--;
                int h = adj[3 * g + k];
                if (mark[h] == stamp) {
                    continue;
                }
                if (dist(h, eye) > tolerance) {
                    mark[h] = stamp;
                    if (nv == visible.length) {
                        visible = Arrays.copyOf(visible, 2 * nv);
                    }
                    visible[nv++] = h;
                    int e = edgeTo(h, g);
                    if (sp == stackFace.length) {
                        stackFace = Arrays.copyOf(stackFace, 2 * sp);
                        stackEdge = Arrays.copyOf(stackEdge, 2 * sp);
                        stackLeft = Arrays.copyOf(stackLeft, 2 * sp);
                    }
                    stackFace[sp] = h;
                    stackEdge[sp] = e == 2 ? 0 : e + 1;
                    stackLeft[sp] = 2;
                    sp++;
                } else {
                    if (nh == horizonFrom.length) {
                        horizonFrom = Arrays.copyOf(horizonFrom, 2 * nh);
                        horizonTo = Arrays.copyOf(horizonTo, 2 * nh);
                        horizonFace = Arrays.copyOf(horizonFace, 2 * nh);
                    }
                    horizonFrom[nh] = fv[3 * g + k];
                    horizonTo[nh] = fv[3 * g + (k == 2 ? 0 : k + 1)];
                    horizonFace[nh] = h;
                    nh++;
                }
            }
            for (int i = 0; i < nh; i++) {
                if (horizonTo[i] != horizonFrom[i + 1 == nh ? 0 : i + 1]) {
                    throw new IllegalStateException("quickhull: the region visible from point " + eye
                            + " is not a disc (numerically inconsistent input)");
                }
            }
            // the cone of new faces from the horizon to the eye
            int first = faces;
            for (int i = 0; i < nh; i++) {
                int nf = addFace(horizonFrom[i], horizonTo[i], eye);
                int h = horizonFace[i];
                adj[3 * nf] = h;
                adj[3 * h + edgeFrom(h, horizonTo[i])] = nf;
            }
            for (int i = 0; i < nh; i++) {
                int nf = first + i;
                adj[3 * nf + 1] = first + (i + 1 == nh ? 0 : i + 1);
                adj[3 * nf + 2] = first + (i == 0 ? nh - 1 : i - 1);
            }
            // hand the visible faces' outside points to the new faces
            for (int i = 0; i < nv; i++) {
                int g = visible[i];
                alive[g] = false;
                int p = outHead[g];
                outHead[g] = -1;
                while (p >= 0) {
                    int q = next[p];
                    if (p != eye) {
                        assign(p, first, first + nh);
                    }
                    p = q;
                }
            }
        }
    }

    /** Puts point p into the outside set of the face in [from, to) it lies farthest above, if any. */
    private void assign(int p, int from, int to) {
        int best = -1;
        double far = tolerance;
        for (int f = from; f < to; f++) {
            double d = dist(f, p);
            if (d > far) {
                far = d;
                best = f;
            }
        }
        if (best >= 0) {
            // push to the front (the eye's selection breaks ties by index, not by list order)
            next[p] = outHead[best];
            outHead[best] = p;
        }
    }

    /** Index of the edge of face h whose neighbour is g. */
    private int edgeTo(int h, int g) {
        for (int k = 0; k < 3; k++) {
            if (adj[3 * h + k] == g) {
                return k;
            }
        }
        throw new IllegalStateException("quickhull: broken face adjacency");
    }

    /** Index of the edge of face h that starts at vertex v. */
    private int edgeFrom(int h, int v) {
        for (int k = 0; k < 3; k++) {
            if (fv[3 * h + k] == v) {
                return k;
            }
        }
        throw new IllegalStateException("quickhull: broken face adjacency");
    }

    private void link(int f, int kf, int g, int kg) {
        adj[3 * f + kf] = g;
        adj[3 * g + kg] = f;
    }

    private int addFace(int a, int b, int c) {
        if (faces == alive.length) {
            int cap = 2 * faces;
            fv = Arrays.copyOf(fv, 3 * cap);
            fn = Arrays.copyOf(fn, 3 * cap);
            fd = Arrays.copyOf(fd, cap);
            adj = Arrays.copyOf(adj, 3 * cap);
            alive = Arrays.copyOf(alive, cap);
            outHead = Arrays.copyOf(outHead, cap);
        }
        int f = faces++;
        fv[3 * f] = a;
        fv[3 * f + 1] = b;
        fv[3 * f + 2] = c;
        alive[f] = true;
        outHead[f] = -1;
        double ax = pts[3 * a];
        double ay = pts[3 * a + 1];
        double az = pts[3 * a + 2];
        double bx = pts[3 * b];
        double by = pts[3 * b + 1];
        double bz = pts[3 * b + 2];
        double cx = pts[3 * c];
        double cy = pts[3 * c + 1];
        double cz = pts[3 * c + 2];
        double nx = (by - ay) * (cz - az) - (bz - az) * (cy - ay);
        double ny = (bz - az) * (cx - ax) - (bx - ax) * (cz - az);
        double nz = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
        double l = Math.sqrt(nx * nx + ny * ny + nz * nz);
        nx /= l;
        ny /= l;
        nz /= l;
        fn[3 * f] = nx;
        fn[3 * f + 1] = ny;
        fn[3 * f + 2] = nz;
        fd[f] = (nx * (ax + bx + cx) + ny * (ay + by + cy) + nz * (az + bz + cz)) / 3.0;
        return f;
    }

    /** Sign of the volume of (a, b, c, d): (b - a) x (c - a) . (d - a). */
    private static double orient(double[] p, int a, int b, int c, int d) {
        double ax = p[3 * a];
        double ay = p[3 * a + 1];
        double az = p[3 * a + 2];
        double ux = p[3 * b] - ax;
        double uy = p[3 * b + 1] - ay;
        double uz = p[3 * b + 2] - az;
        double vx = p[3 * c] - ax;
        double vy = p[3 * c + 1] - ay;
        double vz = p[3 * c + 2] - az;
        double wx = p[3 * d] - ax;
        double wy = p[3 * d + 1] - ay;
        double wz = p[3 * d + 2] - az;
        return (uy * vz - uz * vy) * wx + (uz * vx - ux * vz) * wy + (ux * vy - uy * vx) * wz;
    }

    /**
     * Four points spanning a tetrahedron of the point set, see the class notes (step 1).
     *
     * @throws IllegalArgumentException if the points lie within tau of one point, a line or a plane
     */
    static int[] initialSimplex(double[] p, int n, double tau) {
        // extreme points along x, y, z (the lowest index of equals)
        int[] lo = new int[3];
        int[] hi = new int[3];
        for (int i = 1; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                if (p[3 * i + k] < p[3 * lo[k] + k]) {
                    lo[k] = i;
                }
                if (p[3 * i + k] > p[3 * hi[k] + k]) {
                    hi[k] = i;
                }
            }
        }
        int i0 = lo[0];
        int i1 = hi[0];
        double best = -1;
        for (int k = 0; k < 3; k++) {
            double d = dist2(p, lo[k], hi[k]);
            if (d > best) {
                best = d;
                i0 = lo[k];
                i1 = hi[k];
            }
        }
        if (!(Math.sqrt(best) > tau)) {
            throw new IllegalArgumentException("a convex hull needs points that span a volume: all " + n
                    + " points lie within " + tau + " m of one point (the mesh is degenerate)");
        }
        // farthest from the line i0-i1
        double ux = p[3 * i1] - p[3 * i0];
        double uy = p[3 * i1 + 1] - p[3 * i0 + 1];
        double uz = p[3 * i1 + 2] - p[3 * i0 + 2];
        double ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
        ux /= ul;
        uy /= ul;
        uz /= ul;
        int i2 = -1;
        best = -1;
        for (int i = 0; i < n; i++) {
            double dx = p[3 * i] - p[3 * i0];
            double dy = p[3 * i + 1] - p[3 * i0 + 1];
            double dz = p[3 * i + 2] - p[3 * i0 + 2];
            double cx = dy * uz - dz * uy;
            double cy = dz * ux - dx * uz;
            double cz = dx * uy - dy * ux;
            double d = cx * cx + cy * cy + cz * cz;
            if (d > best) {
                best = d;
                i2 = i;
            }
        }
        if (!(Math.sqrt(best) > tau)) {
            throw new IllegalArgumentException("a convex hull needs points that span a volume: all " + n
                    + " points lie within " + tau + " m of one line (the mesh is degenerate)");
        }
        // farthest from the plane i0, i1, i2
        double vx = p[3 * i2] - p[3 * i0];
        double vy = p[3 * i2 + 1] - p[3 * i0 + 1];
        double vz = p[3 * i2 + 2] - p[3 * i0 + 2];
        double nx = uy * vz - uz * vy;
        double ny = uz * vx - ux * vz;
        double nz = ux * vy - uy * vx;
        double nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
        nx /= nl;
        ny /= nl;
        nz /= nl;
        int i3 = -1;
        best = -1;
        for (int i = 0; i < n; i++) {
            double d = Math.abs(nx * (p[3 * i] - p[3 * i0]) + ny * (p[3 * i + 1] - p[3 * i0 + 1])
                    + nz * (p[3 * i + 2] - p[3 * i0 + 2]));
            if (d > best) {
                best = d;
                i3 = i;
            }
        }
        if (!(best > tau)) {
            throw new IllegalArgumentException("a convex hull needs points that span a volume: all " + n
                    + " points lie within " + tau + " m of one plane (the mesh is flat or degenerate)");
        }
        return new int[] {i0, i1, i2, i3};
    }

    private static double dist2(double[] p, int a, int b) {
        double dx = p[3 * a] - p[3 * b];
        double dy = p[3 * a + 1] - p[3 * b + 1];
        double dz = p[3 * a + 2] - p[3 * b + 2];
        return dx * dx + dy * dy + dz * dz;
    }

    // ---------------------------------------------------------------- coplanar merge

    /** Polygon faces over the used vertices (renumbered in input order). */
    private record Merged(int vertexCount, double[] vertices, int[] sourceIndex, int faceCount, int[] faceStart,
            int[] loops) {
    }

    /**
     * Merges coplanar triangles (t of them: vertices tv, adjacency tadj, unit normals tn) into
     * polygons, see the class notes (step 4).
     */
    private static Merged merge(double[] p, int n, int t, int[] tv, int[] tadj, double[] tn, double tau) {
        double[] area = new double[t];
        Integer[] order = new Integer[t];
        for (int f = 0; f < t; f++) {
            int a = tv[3 * f];
            int b = tv[3 * f + 1];
            int c = tv[3 * f + 2];
            double ux = p[3 * b] - p[3 * a];
            double uy = p[3 * b + 1] - p[3 * a + 1];
            double uz = p[3 * b + 2] - p[3 * a + 2];
            double vx = p[3 * c] - p[3 * a];
            double vy = p[3 * c + 1] - p[3 * a + 1];
            double vz = p[3 * c + 2] - p[3 * a + 2];
            double cx = uy * vz - uz * vy;
            double cy = uz * vx - ux * vz;
            double cz = ux * vy - uy * vx;
            area[f] = Math.sqrt(cx * cx + cy * cy + cz * cz);
            order[f] = f;
        }
        // seeds by decreasing area, then index (stable sort)
        Arrays.sort(order, (x, y) -> Double.compare(area[y], area[x]));
        int[] group = new int[t];
        Arrays.fill(group, -1);
        int groups = 0;
        int[] queue = new int[t];
        for (int oi = 0; oi < t; oi++) {
            int seed = order[oi];
            if (group[seed] >= 0) {
                continue;
            }
            int gid = groups++;
            group[seed] = gid;
            double nx = tn[3 * seed];
            double ny = tn[3 * seed + 1];
            double nz = tn[3 * seed + 2];
            double d = 0;
            for (int j = 0; j < 3; j++) {
                int v = tv[3 * seed + j];
                d += nx * p[3 * v] + ny * p[3 * v + 1] + nz * p[3 * v + 2];
            }
            d /= 3;
            int qh = 0;
            int qt = 0;
            queue[qt++] = seed;
            while (qh < qt) {
                int u = queue[qh++];
                for (int k = 0; k < 3; k++) {
                    int w = tadj[3 * u + k];
                    if (group[w] >= 0 || nx * tn[3 * w] + ny * tn[3 * w + 1] + nz * tn[3 * w + 2] <= 0) {
                        continue;
                    }
                    boolean flat = true;
                    for (int j = 0; j < 3 && flat; j++) {
                        int v = tv[3 * w + j];
                        flat = Math.abs(nx * p[3 * v] + ny * p[3 * v + 1] + nz * p[3 * v + 2] - d) <= tau;
                    }
                    if (flat) {
                        group[w] = gid;
                        queue[qt++] = w;
                    }
                }
            }
        }
        // boundary loop of each group; a group without a single simple loop falls back to its triangles
        int[] nextOf = new int[n];
        Arrays.fill(nextOf, -1);
        int[][] groupLoops = new int[groups][];
        int[] members = new int[t];
        int[] memberStart = new int[groups + 1];
        for (int f = 0; f < t; f++) {
            memberStart[group[f] + 1]++;
        }
        for (int g = 0; g < groups; g++) {
            memberStart[g + 1] += memberStart[g];
        }
        int[] fill = Arrays.copyOf(memberStart, groups);
        for (int f = 0; f < t; f++) {
            members[fill[group[f]]++] = f;
        }
        int extra = 0;
        boolean[] split = new boolean[groups];
        for (int g = 0; g < groups; g++) {
            int count = 0;
            int start = -1;
            boolean simple = true;
            for (int mi = memberStart[g]; mi < memberStart[g + 1] && simple; mi++) {
                int f = members[mi];
                for (int k = 0; k < 3; k++) {
                    if (group[tadj[3 * f + k]] != g) {
                        int a = tv[3 * f + k];
                        int b = tv[3 * f + (k == 2 ? 0 : k + 1)];
                        if (nextOf[a] >= 0) {
                            simple = false;
                            break;
                        }
                        nextOf[a] = b;
                        if (start < 0) {
                            start = a;
                        }
                        count++;
                    }
                }
            }
            int[] loop = null;
            if (simple) {
                loop = new int[count];
                int v = start;
                int m = 0;
                do {
                    if (m == count || v < 0) {
                        simple = false;
                        break;
                    }
                    loop[m++] = v;
                    v = nextOf[v];
                } while (v != start);
                simple = simple && m == count;
            }
            // reset the scratch map
            for (int mi = memberStart[g]; mi < memberStart[g + 1]; mi++) {
                int f = members[mi];
                for (int k = 0; k < 3; k++) {
                    nextOf[tv[3 * f + k]] = -1;
                }
            }
            if (simple) {
                groupLoops[g] = loop;
            } else {
                split[g] = true;
                extra += memberStart[g + 1] - memberStart[g] - 1;
            }
        }
        // faces in group order: a split group becomes its triangles (in member order)
        int faceCount = groups + extra;
        int[][] faceLoops = new int[faceCount][];
        int fc = 0;
        for (int g = 0; g < groups; g++) {
            if (split[g]) {
                for (int mi = memberStart[g]; mi < memberStart[g + 1]; mi++) {
                    int f = members[mi];
                    faceLoops[fc++] = new int[] {tv[3 * f], tv[3 * f + 1], tv[3 * f + 2]};
                }
            } else {
                faceLoops[fc++] = groupLoops[g];
            }
        }
        // drop vertices on only two faces (collinear on a merged edge)
        int[] degree = new int[n];
        for (int[] loop : faceLoops) {
            for (int v : loop) {
                degree[v]++;
            }
        }
        // (both faces of such a vertex must drop it: keep the vertices of a face that would fall below 3)
        boolean[] removable = new boolean[n];
        for (int v = 0; v < n; v++) {
            removable[v] = degree[v] == 2;
        }
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int[] loop : faceLoops) {
                int m = 0;
                for (int v : loop) {
                    if (!removable[v]) {
                        m++;
                    }
                }
                if (m < 3) {
                    for (int v : loop) {
                        changed |= removable[v];
                        removable[v] = false;
                    }
                }
            }
        }
        for (int f = 0; f < faceCount; f++) {
            int[] loop = faceLoops[f];
            int m = 0;
            for (int v : loop) {
                if (!removable[v]) {
                    m++;
                }
            }
            if (m < loop.length) {
                int[] shorter = new int[m];
                int j = 0;
                for (int v : loop) {
                    if (!removable[v]) {
                        shorter[j++] = v;
                    }
                }
                faceLoops[f] = shorter;
            }
        }
        // renumber the used vertices in input order
        int[] index = new int[n];
        Arrays.fill(index, -1);
        for (int[] loop : faceLoops) {
            for (int v : loop) {
                index[v] = 0;
            }
        }
        int nv = 0;
        for (int v = 0; v < n; v++) {
            if (index[v] == 0) {
                index[v] = nv++;
            }
        }
        double[] vertices = new double[3 * nv];
        int[] source = new int[nv];
        for (int v = 0; v < n; v++) {
            if (index[v] >= 0) {
                int k = index[v];
                source[k] = v;
                vertices[3 * k] = p[3 * v];
                vertices[3 * k + 1] = p[3 * v + 1];
                vertices[3 * k + 2] = p[3 * v + 2];
            }
        }
        int total = 0;
        for (int[] loop : faceLoops) {
            total += loop.length;
        }
        int[] faceStart = new int[faceCount + 1];
        int[] loops = new int[total];
        int o = 0;
        for (int f = 0; f < faceCount; f++) {
            faceStart[f] = o;
            for (int v : faceLoops[f]) {
                loops[o++] = index[v];
            }
        }
        faceStart[faceCount] = o;
        return new Merged(nv, vertices, source, faceCount, faceStart, loops);
    }

    /** Newell's normal of the loop loops[from..to), normalized, into out[o..o+2]. */
    private static void newell(double[] v, int[] loops, int from, int to, double[] out, int o) {
        double nx = 0;
        double ny = 0;
        double nz = 0;
        for (int k = from; k < to; k++) {
            int a = loops[k];
            int b = loops[k + 1 == to ? from : k + 1];
            double ax = v[3 * a];
            double ay = v[3 * a + 1];
            double az = v[3 * a + 2];
            double bx = v[3 * b];
            double by = v[3 * b + 1];
            double bz = v[3 * b + 2];
            nx += (ay - by) * (az + bz);
            ny += (az - bz) * (ax + bx);
            nz += (ax - bx) * (ay + by);
        }
        double l = Math.sqrt(nx * nx + ny * ny + nz * nz);
        out[o] = nx / l;
        out[o + 1] = ny / l;
        out[o + 2] = nz / l;
    }
}
