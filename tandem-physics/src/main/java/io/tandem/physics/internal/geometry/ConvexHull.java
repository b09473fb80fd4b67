package io.tandem.physics.internal.geometry;

/*
 * Implementation notes
 *
 * A convex polytope in its shape's local frame with the topology the SAT and clipping code of
 * HullCollider needs: vertices, faces (outward unit normal, plane offset, counter-clockwise vertex
 * loop about the normal and the edge of each side), and undirected edges with their two adjacent
 * faces (the arc of the edge on the Gauss map, for the Minkowski-face test of [1]).
 *
 * Built once per Shape (allocates); read-only afterwards, so shared freely across threads.
 * Four kinds exist: the box (8 vertices, 6 faces, 12 edges), the regular N-gon prism that stands in
 * for a cylinder (vertices on the rim, so the prism is inscribed: its side faces are at most
 * r (1 - cos(pi/N)) inside the true cylinder, 1.9 % of r for N = 16), the segment that is the core
 * of a capsule (2 vertices, 1 edge, no faces), and the hull of a point cloud (of(), by QuickHull),
 * which need not contain the local origin: centre is an interior point (the vertex average), used
 * where the SAT orients an axis "away from the hull".
 *
 * Indices are bounded so that HullCollider can pack them into feature ids: fewer than
 * MAX_FEATURES = 128 vertices, faces and edges (7 bits each; see HullCollider's notes for the
 * packing). A point cloud whose hull has more is simplified (of()):
 *   1. start from the initial simplex of QuickHull on the hull's vertices;
 *   2. greedily add the hull vertex farthest in front of the current hull (largest n . p - d over
 *      its faces; the lowest index among equals), re-hull the chosen vertices, and stop before the
 *      first addition that would break a limit, or when every vertex is within the tolerance;
 *   3. the simplified hull's vertices are a subset of the full hull's, so it lies inside the full
 *      hull, and its shape error, the Hausdorff distance between the two, is the largest exact
 *      distance from a dropped vertex to it (the distance to a convex set is convex, so over the full
 *      hull it peaks at a vertex); it is computed and kept in simplificationError. Every input point
 *      lies within simplificationError + the QuickHull tolerance of the result.
 * The edge limit binds first: a triangulated hull has E = 3V - 6, so about 44 vertices survive (more
 * where faces are polygons). Seeding with the support vertices along 42 well-spread directions (the
 * vertices and edge midpoints of an icosahedron) before the greedy phase spreads them evenly: the
 * greedy phase alone left 9-10.5 % of the radius on tessellated spheres. Measured error for
 * icospheres of radius R (162, 642, 2562, 10242 vertices): 4.9 %, 6.1 %, 6.5 %, 6.6 % of R, the
 * depth of the spherical cap over the largest face, R (1 - cos theta) with theta about 21 degrees;
 * ConvexHullTest bounds it below 10 %. For a 200-segment cylinder mesh it is under 1 % of the radius,
 * and meshes with flat regions (boxes, prisms, most CAD parts) reach their corners first and lose
 * little. The shape is never enlarged: a simplified hull is inscribed in the mesh's hull, so a
 * resting body sinks by at most the error.
 *
 * [1] D. Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013.
 */

/**
 * A convex polytope in local coordinates with face loops and edge adjacency. Immutable after
 * construction (factories allocate; build time only); the fields are read-only views shared across
 * threads, and {@link #closestPoint} is allocation-free and thread-safe.
 */
public final class ConvexHull {
    /** Upper bound (exclusive) on the number of vertices, faces and edges of a hull. */
    public static final int MAX_FEATURES = 128;

    public final int vertexCount;
    /** (vertexCount x 3) local vertex positions, m */
    public final double[] vertices;
    public final int faceCount;
    /** (faceCount x 3) outward unit normals */
    public final double[] faceNormals;
    /** (faceCount) plane offsets d with n . x = d on the face, m; n . v &lt;= d for every vertex v */
    public final double[] faceOffsets;
    /** (faceCount + 1) start of each face's loop in {@link #faceVertices} */
    public final int[] faceStart;
    /** vertex loops, counter-clockwise about the outward normal */
    public final int[] faceVertices;
    /** parallel to faceVertices: the edge from loop vertex k to loop vertex k + 1 */
    public final int[] faceEdges;
    public final int edgeCount;
    /** (edgeCount x 2) vertex indices */
    public final int[] edgeVertices;
    /** (edgeCount x 2) adjacent face indices, -1 when the hull has no faces */
    public final int[] edgeFaces;
    /** an interior point (the vertex average; the origin for box, prism and segment), m */
    public final double centreX;
    /** an interior point, y, m */
    public final double centreY;
    /** an interior point, z, m */
    public final double centreZ;
    /** largest distance from {@link #centreX centre} to a vertex, m */
    public final double radius;
    /**
     * Hausdorff distance between this hull and the hull of the points it was made from, m: 0 unless
     * {@link #of} had to simplify (see the class notes).
     */
    public final double simplificationError;

    private ConvexHull(double[] vertices, double[] normals, double[] offsets, int[] faceStart, int[] loops,
            boolean centred, double simplificationError) {
        this.vertexCount = vertices.length / 3;
        this.vertices = vertices;
        this.faceCount = normals.length / 3;
        this.faceNormals = normals;
        this.faceOffsets = offsets;
        this.faceStart = faceStart;
        this.faceVertices = loops;
        this.simplificationError = simplificationError;
        int nl = loops.length;
        int[] loopEdges = new int[nl];
        int[] edges = new int[2 * nl];
        int[] edgeFacesTmp = new int[2 * nl];
        int ne = 0;
        for (int f = 0; f < faceCount; f++) {
            int start = faceStart[f];
            int m = faceStart[f + 1] - start;
            for (int k = 0; k < m; k++) {
                int v0 = loops[start + k];
                int v1 = loops[start + (k + 1) % m];
                int lo = Math.min(v0, v1);
                int hi = Math.max(v0, v1);
                int e = -1;
                for (int j = 0; j < ne; j++) {
                    if (edges[2 * j] == lo && edges[2 * j + 1] == hi) {
                        e = j;
                        break;
                    }
                }
                if (e < 0) {
                    e = ne++;
                    edges[2 * e] = lo;
                    edges[2 * e + 1] = hi;
                    edgeFacesTmp[2 * e] = f;
                    edgeFacesTmp[2 * e + 1] = -1;
                } else if (edgeFacesTmp[2 * e + 1] < 0) {
                    edgeFacesTmp[2 * e + 1] = f;
                } else {
                    throw new IllegalStateException("non-manifold hull: edge " + lo + "-" + hi + " has three faces");
                }
                loopEdges[start + k] = e;
            }
        }
        this.faceEdges = loopEdges;
        this.edgeCount = ne;
        this.edgeVertices = java.util.Arrays.copyOf(edges, 2 * ne);
        this.edgeFaces = java.util.Arrays.copyOf(edgeFacesTmp, 2 * ne);
        if (vertexCount >= MAX_FEATURES || faceCount >= MAX_FEATURES || edgeCount >= MAX_FEATURES) {
            throw new IllegalArgumentException("hull too large for feature ids: " + vertexCount + " vertices, "
                    + faceCount + " faces, " + edgeCount + " edges");
        }
        for (int e = 0; e < ne; e++) {
            if (edgeFaces[2 * e + 1] < 0) {
                throw new IllegalStateException("open hull: edge " + e + " has one face");
            }
        }
        double cx = 0;
        double cy = 0;
        double cz = 0;
        if (!centred) {
            for (int v = 0; v < vertexCount; v++) {
                cx += vertices[3 * v];
                cy += vertices[3 * v + 1];
                cz += vertices[3 * v + 2];
            }
            cx /= vertexCount;
            cy /= vertexCount;
            cz /= vertexCount;
        }
        this.centreX = cx;
        this.centreY = cy;
        this.centreZ = cz;
        double r2 = 0;
        for (int v = 0; v < vertexCount; v++) {
            double dx = vertices[3 * v] - cx;
            double dy = vertices[3 * v + 1] - cy;
            double dz = vertices[3 * v + 2] - cz;
            r2 = Math.max(r2, dx * dx + dy * dy + dz * dz);
        }
        this.radius = Math.sqrt(r2);
    }

    /** A hull centred on the origin from vertices and face normals: each loop holds the vertices on its face plane. */
    private static ConvexHull fromNormals(double[] vertices, double[] normals) {
        int vertexCount = vertices.length / 3;
        int faceCount = normals.length / 3;
        double[] faceOffsets = new double[faceCount];
        int[] faceStart = new int[faceCount + 1];
        int[] loops = new int[faceCount * vertexCount];
        int nl = 0;
        double[] angle = new double[vertexCount];
        int[] members = new int[vertexCount];
        for (int f = 0; f < faceCount; f++) {
            double nx = normals[3 * f];
            double ny = normals[3 * f + 1];
            double nz = normals[3 * f + 2];
            double d = Double.NEGATIVE_INFINITY;
            double scale = 0;
            for (int v = 0; v < vertexCount; v++) {
                d = Math.max(d, nx * vertices[3 * v] + ny * vertices[3 * v + 1] + nz * vertices[3 * v + 2]);
                scale = Math.max(scale,
                        Math.abs(vertices[3 * v]) + Math.abs(vertices[3 * v + 1]) + Math.abs(vertices[3 * v + 2]));
            }
            faceOffsets[f] = d;
            // vertices on the face plane
            int m = 0;
            double cx = 0;
            double cy = 0;
            double cz = 0;
            for (int v = 0; v < vertexCount; v++) {
                double dv = nx * vertices[3 * v] + ny * vertices[3 * v + 1] + nz * vertices[3 * v + 2];
                if (dv >= d - 1e-9 * scale) {
                    members[m++] = v;
                    cx += vertices[3 * v];
                    cy += vertices[3 * v + 1];
                    cz += vertices[3 * v + 2];
                }
            }
            cx /= m;
            cy /= m;
            cz /= m;
            // basis (u, w, n) right-handed: increasing angle is counter-clockwise about n
            double ux;
            double uy;
            double uz;
            if (Math.abs(nx) < 0.9) {
                ux = 0;
                uy = nz;
                uz = -ny;
            } else {
                ux = -nz;
                uy = 0;
                uz = nx;
            }
            double ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
            ux /= ul;
            uy /= ul;
            uz /= ul;
            double wx = ny * uz - nz * uy;
            double wy = nz * ux - nx * uz;
            double wz = nx * uy - ny * ux;
            for (int k = 0; k < m; k++) {
                int v = members[k];
                double ex = vertices[3 * v] - cx;
                double ey = vertices[3 * v + 1] - cy;
                double ez = vertices[3 * v + 2] - cz;
                angle[k] = Math.atan2(wx * ex + wy * ey + wz * ez, ux * ex + uy * ey + uz * ez);
            }
            // insertion sort by angle (builder only)
            for (int k = 1; k < m; k++) {
                double a = angle[k];
                int v = members[k];
                int j = k - 1;
                while (j >= 0 && angle[j] > a) {
                    angle[j + 1] = angle[j];
                    members[j + 1] = members[j];
                    j--;
                }
                angle[j + 1] = a;
                members[j + 1] = v;
            }
            faceStart[f] = nl;
            for (int k = 0; k < m; k++) {
                loops[nl++] = members[k];
            }
        }
        faceStart[faceCount] = nl;
        return new ConvexHull(vertices, normals, faceOffsets, faceStart, java.util.Arrays.copyOf(loops, nl), true, 0);
    }

    private static ConvexHull fromQuickHull(QuickHull q, double simplificationError) {
        // supporting planes: no vertex in front of a face
        double[] offsets = q.offsets.clone();
        double[] v = q.vertices;
        for (int f = 0; f < q.faceCount; f++) {
            for (int k = 0; k < q.vertexCount; k++) {
                double d = q.normals[3 * f] * v[3 * k] + q.normals[3 * f + 1] * v[3 * k + 1]
                        + q.normals[3 * f + 2] * v[3 * k + 2];
                offsets[f] = Math.max(offsets[f], d);
            }
        }
        ConvexHull h = new ConvexHull(v, q.normals, offsets, q.faceStart, q.loops, false, simplificationError);
        if (h.vertexCount - h.edgeCount + h.faceCount != 2) {
            throw new IllegalStateException("hull is not a closed polytope: " + h.vertexCount + " vertices, "
                    + h.edgeCount + " edges, " + h.faceCount + " faces");
        }
        return h;
    }

    /**
     * The convex hull of a point cloud, e.g. the vertices of a mesh, in the shape's local frame
     * (not necessarily around the origin). Coplanar facets (within a relative tolerance of 1e-6)
     * become one polygon face; duplicate and interior points are ignored. A hull with
     * {@link #MAX_FEATURES} or more vertices, faces or edges is simplified to a subset of its
     * vertices (see the class notes; {@link #simplificationError} reports the shape error).
     * Deterministic. Allocates (build time only).
     *
     * @param xyz (n x 3) point coordinates, m; n at least 4, all finite. Not modified (copied).
     * @return the hull
     * @throws IllegalArgumentException if the array is null, its length is not a multiple of 3, a
     *     coordinate is not finite, or the points do not span a volume (fewer than 4 points not in
     *     one plane: a flat or degenerate mesh)
     */
    public static ConvexHull of(double[] xyz) {
        if (xyz == null) {
            throw new IllegalArgumentException("convex hull points must not be null");
        }
        if (xyz.length % 3 != 0) {
            throw new IllegalArgumentException("convex hull points come as x, y, z triples; got " + xyz.length
                    + " coordinates");
        }
        double[] copy = xyz.clone();
        QuickHull full = QuickHull.of(copy, copy.length / 3);
        if (fits(full)) {
            return fromQuickHull(full, 0);
        }
        return simplified(full);
    }

    private static boolean fits(QuickHull q) {
        return q.vertexCount < MAX_FEATURES && q.faceCount < MAX_FEATURES && q.loops.length / 2 < MAX_FEATURES;
    }

    /**
     * The 42 seed directions of the simplification: the 12 vertices of an icosahedron, then its 30
     * edge midpoints (normalized), in a fixed order.
     */
    private static double[] seedDirections() {
        double t = (1 + Math.sqrt(5)) / 2;
        double[] ico = new double[36];
        int k = 0;
        for (int axis = 0; axis < 3; axis++) {
            for (int s1 = -1; s1 <= 1; s1 += 2) {
                for (int s2 = -1; s2 <= 1; s2 += 2) {
                    // (0, +-1, +-t) and its cyclic permutations
                    ico[3 * k + axis] = 0;
                    ico[3 * k + (axis + 1) % 3] = s1;
                    ico[3 * k + (axis + 2) % 3] = s2 * t;
                    k++;
                }
            }
        }
        double[] d = new double[3 * 42];
        int n = 0;
        for (int i = 0; i < 12; i++) {
            n = addUnit(d, n, ico[3 * i], ico[3 * i + 1], ico[3 * i + 2]);
        }
        for (int i = 0; i < 12; i++) {
            for (int j = i + 1; j < 12; j++) {
                double dx = ico[3 * i] - ico[3 * j];
                double dy = ico[3 * i + 1] - ico[3 * j + 1];
                double dz = ico[3 * i + 2] - ico[3 * j + 2];
                // neighbours are 2 apart
                if (Math.abs(dx * dx + dy * dy + dz * dz - 4) < 1e-9) {
                    n = addUnit(d, n, ico[3 * i] + ico[3 * j], ico[3 * i + 1] + ico[3 * j + 1],
                            ico[3 * i + 2] + ico[3 * j + 2]);
                }
            }
        }
        return d;
    }

    private static int addUnit(double[] d, int n, double x, double y, double z) {
        double l = Math.sqrt(x * x + y * y + z * z);
        d[3 * n] = x / l;
        d[3 * n + 1] = y / l;
        d[3 * n + 2] = z / l;
        return n + 1;
    }

    /** Simplification of a hull over the limits: seeds, then the greedy farthest vertices (see the class notes). */
    private static ConvexHull simplified(QuickHull full) {
        int m = full.vertexCount;
        double[] c = full.vertices;
        double tau = full.tolerance;
        // seeds: QuickHull's initial simplex, then the support vertex along each seed direction
        int[] simplex = QuickHull.initialSimplex(c, m, tau);
        double[] dirs = seedDirections();
        int[] seeds = new int[4 + dirs.length / 3];
        System.arraycopy(simplex, 0, seeds, 0, 4);
        for (int k = 0; k < dirs.length / 3; k++) {
            int best = 0;
            double far = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < m; i++) {
                double d = dirs[3 * k] * c[3 * i] + dirs[3 * k + 1] * c[3 * i + 1] + dirs[3 * k + 2] * c[3 * i + 2];
                if (d > far) {
                    far = d;
                    best = i;
                }
            }
            seeds[4 + k] = best;
        }
        boolean[] chosen = new boolean[m];
        boolean[] inside = new boolean[m];
        double[] sub = new double[3 * m];
        int count = 0;
        for (int k = 0; k < 4; k++) {
            chosen[simplex[k]] = true;
            System.arraycopy(c, 3 * simplex[k], sub, 3 * count, 3);
            count++;
        }
        QuickHull cur = QuickHull.of(sub, count, tau);
        int nextSeed = 4;
        while (true) {
            int best = -1;
            // the next seed not yet taken, else the vertex farthest in front of the current hull
            while (nextSeed < seeds.length && best < 0) {
                int i = seeds[nextSeed++];
                if (!chosen[i] && front(cur, c, i) > tau) {
                    best = i;
                }
            }
            if (best < 0) {
                double far = tau;
                for (int i = 0; i < m; i++) {
                    if (chosen[i] || inside[i]) {
                        continue;
                    }
                    double d = front(cur, c, i);
                    if (d <= tau) {
                        // the hull only grows: inside for good
                        inside[i] = true;
                    } else if (d > far) {
                        far = d;
                        best = i;
                    }
                }
            }
            if (best < 0) {
                break;
            }
            System.arraycopy(c, 3 * best, sub, 3 * count, 3);
            QuickHull trial = QuickHull.of(sub, count + 1, tau);
            if (!fits(trial)) {
                break;
            }
            cur = trial;
            chosen[best] = true;
            count++;
        }
        ConvexHull h = fromQuickHull(cur, 0);
        double[] out = new double[7];
        double error = 0;
        for (int i = 0; i < m; i++) {
            if (!chosen[i]) {
                h.closestPoint(c[3 * i], c[3 * i + 1], c[3 * i + 2], out);
                error = Math.max(error, out[6]);
            }
        }
        return fromQuickHull(cur, error);
    }

    /** Largest n . p - d of point i of c over the faces of q: how far in front of the hull it lies (a lower bound). */
    private static double front(QuickHull q, double[] c, int i) {
        double x = c[3 * i];
        double y = c[3 * i + 1];
        double z = c[3 * i + 2];
        double d = Double.NEGATIVE_INFINITY;
        for (int f = 0; f < q.faceCount; f++) {
            d = Math.max(d, q.normals[3 * f] * x + q.normals[3 * f + 1] * y + q.normals[3 * f + 2] * z - q.offsets[f]);
        }
        return d;
    }

    /**
     * The point of this hull's surface closest to a point, for hulls with faces (not a capsule's
     * segment). Outside the hull the result is exact (a face, edge or vertex of the hull); inside or
     * on it, the point is pushed out through the least penetrated face. Allocation-free and
     * thread-safe.
     *
     * @param x query point in the hull's frame, m
     * @param y query point y, m
     * @param z query point z, m
     * @param out (at least 7) Modified: [0..2] the surface point, m; [3..5] a unit normal, from the
     *     surface point towards the query point outside, the outward normal of the least penetrated
     *     face inside; [6] the signed distance, m: the Euclidean distance outside, minus the depth
     *     below the least penetrated face inside (0 on the surface)
     * @return the feature: face f (0 &lt;= f &lt; MAX_FEATURES) when the point projects into face f,
     *     MAX_FEATURES + e on edge e, 2 MAX_FEATURES + v at vertex v, 3 MAX_FEATURES + f inside
     *     (face f least penetrated); -1 for a non-finite point (out then holds NaN)
     */
    public int closestPoint(double x, double y, double z, double[] out) {
        double[] n = faceNormals;
        double best = Double.NEGATIVE_INFINITY;
        int bf = -1;
        for (int f = 0; f < faceCount; f++) {
            double s = n[3 * f] * x + n[3 * f + 1] * y + n[3 * f + 2] * z - faceOffsets[f];
            if (s > best) {
                best = s;
                bf = f;
            }
        }
        if (bf < 0) {
            for (int k = 0; k < 7; k++) {
                out[k] = Double.NaN;
            }
            return -1;
        }
        if (best <= 0) {
            double nx = n[3 * bf];
            double ny = n[3 * bf + 1];
            double nz = n[3 * bf + 2];
            return write(out, x - best * nx, y - best * ny, z - best * nz, nx, ny, nz, best, 3 * MAX_FEATURES + bf);
        }
        // a face whose plane the point is in front of and whose polygon holds its projection
        double[] v = vertices;
        for (int f = 0; f < faceCount; f++) {
            double nx = n[3 * f];
            double ny = n[3 * f + 1];
            double nz = n[3 * f + 2];
            double s = nx * x + ny * y + nz * z - faceOffsets[f];
            if (s <= 0) {
                continue;
            }
            double qx = x - s * nx;
            double qy = y - s * ny;
            double qz = z - s * nz;
            int start = faceStart[f];
            int sides = faceStart[f + 1] - start;
            boolean in = true;
            for (int k = 0; k < sides && in; k++) {
                int a = faceVertices[start + k];
                int b = faceVertices[start + (k + 1 == sides ? 0 : k + 1)];
                double ex = v[3 * b] - v[3 * a];
                double ey = v[3 * b + 1] - v[3 * a + 1];
                double ez = v[3 * b + 2] - v[3 * a + 2];
                // outward side normal: edge x n
                double px = ey * nz - ez * ny;
                double py = ez * nx - ex * nz;
                double pz = ex * ny - ey * nx;
                in = px * (qx - v[3 * a]) + py * (qy - v[3 * a + 1]) + pz * (qz - v[3 * a + 2]) <= 0;
            }
            if (in) {
                return write(out, qx, qy, qz, nx, ny, nz, s, f);
            }
        }
        // otherwise the nearest point of the edges (their end points included)
        double bestD2 = Double.POSITIVE_INFINITY;
        double bx = 0;
        double by = 0;
        double bz = 0;
        int feature = -1;
        for (int e = 0; e < edgeCount; e++) {
            int a = edgeVertices[2 * e];
            int b = edgeVertices[2 * e + 1];
            double ax = v[3 * a];
            double ay = v[3 * a + 1];
            double az = v[3 * a + 2];
            double dx = v[3 * b] - ax;
            double dy = v[3 * b + 1] - ay;
            double dz = v[3 * b + 2] - az;
            double t = ((x - ax) * dx + (y - ay) * dy + (z - az) * dz) / (dx * dx + dy * dy + dz * dz);
            int code;
            if (t <= 0) {
                t = 0;
                code = 2 * MAX_FEATURES + a;
            } else if (t >= 1) {
                t = 1;
                code = 2 * MAX_FEATURES + b;
            } else {
                code = MAX_FEATURES + e;
            }
            double qx = t == 1 ? v[3 * b] : ax + t * dx;
            double qy = t == 1 ? v[3 * b + 1] : ay + t * dy;
            double qz = t == 1 ? v[3 * b + 2] : az + t * dz;
            double rx = x - qx;
            double ry = y - qy;
            double rz = z - qz;
            double d2 = rx * rx + ry * ry + rz * rz;
            if (d2 < bestD2) {
                bestD2 = d2;
                bx = qx;
                by = qy;
                bz = qz;
                feature = code;
            }
        }
        double d = Math.sqrt(bestD2);
        double nx = (x - bx) / d;
        double ny = (y - by) / d;
        double nz = (z - bz) / d;
        if (!(d > 0)) {
            // on an edge to rounding: the least penetrated face's normal
            nx = n[3 * bf];
            ny = n[3 * bf + 1];
            nz = n[3 * bf + 2];
        }
        return write(out, bx, by, bz, nx, ny, nz, d, feature);
    }

    private static int write(double[] out, double qx, double qy, double qz, double nx, double ny, double nz, double d,
            int feature) {
        out[0] = qx;
        out[1] = qy;
        out[2] = qz;
        out[3] = nx;
        out[4] = ny;
        out[5] = nz;
        out[6] = d;
        return feature;
    }

    /** The segment core of a capsule: two vertices, one edge, no faces. */
    private ConvexHull(double halfLength) {
        this.centreX = 0;
        this.centreY = 0;
        this.centreZ = 0;
        this.radius = halfLength;
        this.simplificationError = 0;
        this.vertexCount = 2;
        this.vertices = new double[] {0, 0, -halfLength, 0, 0, halfLength};
        this.faceCount = 0;
        this.faceNormals = new double[0];
        this.faceOffsets = new double[0];
        this.faceStart = new int[] {0};
        this.faceVertices = new int[0];
        this.faceEdges = new int[0];
        this.edgeCount = 1;
        this.edgeVertices = new int[] {0, 1};
        this.edgeFaces = new int[] {-1, -1};
    }

    /** Box with half extents; vertex v has coordinates (+-hx, +-hy, +-hz) with bit 0, 1, 2 of v selecting +. */
    static ConvexHull box(double hx, double hy, double hz) {
        double[] v = new double[24];
        for (int i = 0; i < 8; i++) {
            v[3 * i] = (i & 1) != 0 ? hx : -hx;
            v[3 * i + 1] = (i & 2) != 0 ? hy : -hy;
            v[3 * i + 2] = (i & 4) != 0 ? hz : -hz;
        }
        // faces 0..5 = -x, +x, -y, +y, -z, +z
        double[] n = {-1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1};
        return fromNormals(v, n);
    }

    /**
     * Regular prism with {@code sides} side faces, its vertices on the circle of the given radius:
     * vertex i (bottom, z = -h) and sides + i (top) at angle 2 pi i / sides. Faces 0..sides-1 are
     * the sides (face i between vertices i and i + 1), then the bottom and the top cap.
     */
    static ConvexHull prism(double radius, double halfHeight, int sides) {
        double[] v = new double[6 * sides];
        double[] n = new double[3 * (sides + 2)];
        for (int i = 0; i < sides; i++) {
            double a = 2 * Math.PI * i / sides;
            double c = Math.cos(a);
            double s = Math.sin(a);
            v[3 * i] = radius * c;
            v[3 * i + 1] = radius * s;
            v[3 * i + 2] = -halfHeight;
            v[3 * (sides + i)] = radius * c;
            v[3 * (sides + i) + 1] = radius * s;
            v[3 * (sides + i) + 2] = halfHeight;
            double m = a + Math.PI / sides;
            n[3 * i] = Math.cos(m);
            n[3 * i + 1] = Math.sin(m);
        }
        n[3 * sides + 2] = -1;
        n[3 * sides + 5] = 1;
        return fromNormals(v, n);
    }

    /** The segment from (0, 0, -h) to (0, 0, h). */
    static ConvexHull segment(double halfLength) {
        return new ConvexHull(halfLength);
    }
}
