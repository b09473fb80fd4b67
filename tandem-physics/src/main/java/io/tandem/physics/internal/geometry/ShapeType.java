package io.tandem.physics.internal.geometry;

/**
 * The kinds of collision shape. Each kind's local frame and dimensions are described on
 * {@link Shape}. The declaration order is the canonical pair order of the narrow phase
 * ({@code io.tandem.physics.internal.collision.NarrowPhase}): a pair is evaluated with the lower
 * ordinal as its first shape.
 *
 * <p>Immutable; usable from any thread.
 */
public enum ShapeType {
    /** A ball of radius r centred on the local origin. */
    SPHERE,
    /** A box with half extents (hx, hy, hz) along the local axes, centred on the local origin. */
    BOX,
    /** The points within distance r of the segment from (0, 0, -h) to (0, 0, h). */
    CAPSULE,
    /** A solid right circular cylinder of radius r about the local z axis, z in [-h, h]. */
    CYLINDER,
    /**
     * The convex hull of a point set given in the local frame (a {@link ConvexHull}), e.g. of a
     * mesh's vertices; not necessarily centred on the local origin.
     */
    CONVEX,
    /** The half-space z &lt;= 0 of the local frame (its surface is the local xy-plane, normal +z); static only. */
    PLANE;

    /**
     * Whether shapes of this kind have a finite extent (every kind but {@link #PLANE}).
     *
     * @return true for bounded kinds
     */
    public boolean isBounded() {
        return this != PLANE;
    }
}
