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
 * Three instances exist: the box (8 vertices, 6 faces, 12 edges), the regular N-gon prism that
 * stands in for a cylinder (vertices on the rim, so the prism is inscribed: its side faces are at
 * most r (1 - cos(pi/N)) inside the true cylinder, 1.9 % of r for N = 16), and the segment that is
 * the core of a capsule (2 vertices, 1 edge, no faces).
 *
 * Indices are bounded so that HullCollider can pack them into feature ids: fewer than 64 vertices,
 * faces and edges.
 *
 * [1] D. Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013.
 */

/** A convex polytope in local coordinates with face loops and edge adjacency; immutable after construction. */
public final class ConvexHull {
    public static final int MAX_FEATURES = 64;

    public final int vertexCount;
    /** (vertexCount x 3) local vertex positions, m */
    public final double[] vertices;
    public final int faceCount;
    /** (faceCount x 3) outward unit normals */
    public final double[] faceNormals;
    /** (faceCount) plane offsets d with n . x = d on the face, m */
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

    private ConvexHull(double[] vertices, double[] normals) {
        this.vertexCount = vertices.length / 3;
        this.vertices = vertices;
        this.faceCount = normals.length / 3;
        this.faceNormals = normals;
        this.faceOffsets = new double[faceCount];
        this.faceStart = new int[faceCount + 1];
        int[] loops = new int[faceCount * vertexCount];
        int[] loopEdges = new int[faceCount * vertexCount];
        int[] edges = new int[2 * vertexCount * faceCount];
        int[] edgeFacesTmp = new int[2 * vertexCount * faceCount];
        int ne = 0;
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
                int v0 = members[k];
                int v1 = members[(k + 1) % m];
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
                } else {
                    edgeFacesTmp[2 * e + 1] = f;
                }
                loops[nl] = v0;
                loopEdges[nl] = e;
                nl++;
            }
        }
        faceStart[faceCount] = nl;
        this.faceVertices = java.util.Arrays.copyOf(loops, nl);
        this.faceEdges = java.util.Arrays.copyOf(loopEdges, nl);
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
    }

    /** The segment core of a capsule: two vertices, one edge, no faces. */
    private ConvexHull(double halfLength) {
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
        return new ConvexHull(v, n);
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
        return new ConvexHull(v, n);
    }

    /** The segment from (0, 0, -h) to (0, 0, h). */
    static ConvexHull segment(double halfLength) {
        return new ConvexHull(halfLength);
    }
}
