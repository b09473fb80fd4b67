package io.tandem.physics.internal.geometry;

/**
 * An immutable collision shape described in its own local frame (SI units, metres):
 *
 * <ul>
 *   <li>{@link ShapeType#SPHERE}: radius r, centred on the origin;
 *   <li>{@link ShapeType#BOX}: half extents hx, hy, hz along the local axes, centred on the origin;
 *   <li>{@link ShapeType#CAPSULE}: radius r around the segment from (0, 0, -h) to (0, 0, h), where h
 *       is the half length of the segment (total length 2h + 2r);
 *   <li>{@link ShapeType#CYLINDER}: radius r about the local z axis, half height h (z in [-h, h]);
 *   <li>{@link ShapeType#CONVEX}: the convex hull of a point set given in the local frame
 *       ({@link #hull}); it need not contain the origin;
 *   <li>{@link ShapeType#PLANE}: the local xy-plane with normal +z, solid below (the half-space
 *       z &lt;= 0); infinite, for static bodies only.
 * </ul>
 *
 * <p>Every shape but a convex hull is centred on its local origin, so its centre of mass is the
 * origin; a convex hull's centre of mass is wherever its points put it ({@link MassProperties}). A shape is
 * placed in the world by a pose (position, unit quaternion (w, x, y, z) rotating the local frame to
 * the world). Factories validate eagerly and allocate (build time only); instances are immutable and
 * safe to share between threads and colliders.
 */
public final class Shape {
    /** Number of side faces of the prism that stands in for a cylinder against boxes, capsules and cylinders. */
    public static final int CYLINDER_PRISM_SIDES = 16;

    private static final Shape PLANE = new Shape(ShapeType.PLANE, 0, 0, 0, 0, 0);

    private final ShapeType type;
    private final double radius;
    private final double halfX;
    private final double halfY;
    private final double halfZ;
    private final double halfLength;
    private final double boundingRadius;
    /** polytope core for the SAT/GJK pairs: box, cylinder prism, capsule segment, convex hull; null otherwise */
    public final ConvexHull hull;

    private Shape(ShapeType type, double radius, double hx, double hy, double hz, double halfLength) {
        this.type = type;
        this.radius = radius;
        this.halfX = hx;
        this.halfY = hy;
        this.halfZ = hz;
        this.halfLength = halfLength;
        this.boundingRadius = switch (type) {
            case SPHERE -> radius;
            case BOX -> Math.sqrt(hx * hx + hy * hy + hz * hz);
            case CAPSULE -> halfLength + radius;
            case CYLINDER -> Math.sqrt(radius * radius + halfLength * halfLength);
            case PLANE -> Double.POSITIVE_INFINITY;
            case CONVEX -> throw new AssertionError("convex shapes have their own constructor");
        };
        this.hull = switch (type) {
            case SPHERE, PLANE -> null;
            case BOX -> ConvexHull.box(hx, hy, hz);
            case CAPSULE -> ConvexHull.segment(halfLength);
            case CYLINDER -> ConvexHull.prism(radius, halfLength, CYLINDER_PRISM_SIDES);
            case CONVEX -> throw new AssertionError("convex shapes have their own constructor");
        };
    }

    private Shape(ConvexHull hull) {
        this.type = ShapeType.CONVEX;
        this.radius = 0;
        this.halfX = 0;
        this.halfY = 0;
        this.halfZ = 0;
        this.halfLength = 0;
        this.hull = hull;
        double r2 = 0;
        double[] v = hull.vertices;
        for (int k = 0; k < hull.vertexCount; k++) {
            r2 = Math.max(r2, v[3 * k] * v[3 * k] + v[3 * k + 1] * v[3 * k + 1] + v[3 * k + 2] * v[3 * k + 2]);
        }
        this.boundingRadius = Math.sqrt(r2);
    }

    /**
     * A sphere.
     *
     * @param radius radius, m; positive and finite
     * @return the shape
     * @throws IllegalArgumentException if the radius is not positive and finite
     */
    public static Shape sphere(double radius) {
        return new Shape(ShapeType.SPHERE, requireDimension(radius, "sphere radius"), 0, 0, 0, 0);
    }

    /**
     * A box.
     *
     * @param hx half extent along local x, m; positive and finite
     * @param hy half extent along local y, m; positive and finite
     * @param hz half extent along local z, m; positive and finite
     * @return the shape
     * @throws IllegalArgumentException if a half extent is not positive and finite
     */
    public static Shape box(double hx, double hy, double hz) {
        return new Shape(ShapeType.BOX, 0,
                requireDimension(hx, "box half extent hx"),
                requireDimension(hy, "box half extent hy"),
                requireDimension(hz, "box half extent hz"), 0);
    }

    /**
     * A capsule along the local z axis.
     *
     * @param radius radius, m; positive and finite
     * @param halfLength half length h of the core segment, m (total length 2h + 2r); positive and finite
     * @return the shape
     * @throws IllegalArgumentException if a dimension is not positive and finite
     */
    public static Shape capsule(double radius, double halfLength) {
        return new Shape(ShapeType.CAPSULE, requireDimension(radius, "capsule radius"), 0, 0, 0,
                requireDimension(halfLength, "capsule half length"));
    }

    /**
     * A solid cylinder about the local z axis.
     *
     * @param radius radius, m; positive and finite
     * @param halfHeight half height h, m (z in [-h, h]); positive and finite
     * @return the shape
     * @throws IllegalArgumentException if a dimension is not positive and finite
     */
    public static Shape cylinder(double radius, double halfHeight) {
        return new Shape(ShapeType.CYLINDER, requireDimension(radius, "cylinder radius"), 0, 0, 0,
                requireDimension(halfHeight, "cylinder half height"));
    }

    /**
     * The convex hull of a point set, e.g. the vertices of a mesh loaded from an STL, OBJ or COLLADA
     * file, see {@link ConvexHull#of}: coplanar facets merge into polygon faces, and a hull with
     * {@link ConvexHull#MAX_FEATURES} or more vertices, faces or edges is simplified to a subset of
     * its vertices ({@link ConvexHull#simplificationError} reports the shape error).
     *
     * @param xyz (n x 3) points in the shape frame, m; not necessarily around the origin; n at least
     *     4, finite, not all in one plane. Not modified (copied).
     * @return the shape
     * @throws IllegalArgumentException if the array is null or not a list of x, y, z triples, a
     *     coordinate is not finite, or the points do not span a volume (a flat or degenerate mesh)
     */
    public static Shape convex(double[] xyz) {
        return new Shape(ConvexHull.of(xyz));
    }

    /**
     * The plane z = 0 of the local frame, normal +z, solid below. Static bodies only.
     *
     * @return the (shared) plane shape
     */
    public static Shape plane() {
        return PLANE;
    }

    private static double requireDimension(double value, String what) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be positive and finite, got " + value);
        }
        return value;
    }

    /**
     * The kind of shape.
     *
     * @return the type
     */
    public ShapeType type() {
        return type;
    }

    /**
     * Radius of a sphere, capsule or cylinder, m; 0 for a box, a convex hull or a plane.
     *
     * @return the radius
     */
    public double radius() {
        return radius;
    }

    /**
     * Half extent of a box along local x, m; 0 for other shapes.
     *
     * @return hx
     */
    public double halfExtentX() {
        return halfX;
    }

    /**
     * Half extent of a box along local y, m; 0 for other shapes.
     *
     * @return hy
     */
    public double halfExtentY() {
        return halfY;
    }

    /**
     * Half extent of a box along local z, m; 0 for other shapes.
     *
     * @return hz
     */
    public double halfExtentZ() {
        return halfZ;
    }

    /**
     * Half length of a capsule's core segment or half height of a cylinder, m; 0 for other shapes.
     *
     * @return h
     */
    public double halfLength() {
        return halfLength;
    }

    /**
     * Radius of the smallest origin-centred ball containing the shape, m (for a convex hull the
     * largest distance of a vertex from the origin, which need not be inside it); +infinity for a
     * plane.
     *
     * @return the bounding radius
     */
    public double boundingRadius() {
        return boundingRadius;
    }

    @Override
    public String toString() {
        return switch (type) {
            case SPHERE -> "Shape[sphere r=" + radius + "]";
            case BOX -> "Shape[box hx=" + halfX + " hy=" + halfY + " hz=" + halfZ + "]";
            case CAPSULE -> "Shape[capsule r=" + radius + " h=" + halfLength + "]";
            case CYLINDER -> "Shape[cylinder r=" + radius + " h=" + halfLength + "]";
            case PLANE -> "Shape[plane]";
            case CONVEX -> "Shape[convex vertices=" + hull.vertexCount + " faces=" + hull.faceCount + " edges="
                    + hull.edgeCount + " centre=(" + hull.centreX + ", " + hull.centreY + ", " + hull.centreZ
                    + ") radius=" + hull.radius + (hull.simplificationError > 0
                            ? " simplified, error=" + hull.simplificationError : "") + "]";
        };
    }
}
