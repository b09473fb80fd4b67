package io.tandem.physics.internal.collision;

/**
 * The contacts of one collider pair (A, B), written by {@link NarrowPhase#collide}: a reusable,
 * preallocated result holder (a flyweight), meant to be kept and refilled every step.
 *
 * <ul>
 *   <li>{@link #count}: number of valid points, 0 to {@link #MAX_POINTS};
 *   <li>{@link #normal}: the shared contact normal, a world unit vector pointing from A to B;
 *   <li>{@link #point}: world contact points, point k at {@code point[3k..3k+2]}, m, midway between
 *       the two surfaces;
 *   <li>{@link #depth}: penetration depth per point, m, positive when overlapping; a point whose
 *       surfaces are separated by a gap up to the margin has depth = -gap;
 *   <li>{@link #feature}: per-point id of the geometric feature pair that generated the point (for
 *       example reference face and incident vertex of a box pair), stable across frames while the
 *       same features stay in contact, for warm starting. Ids are only comparable for the same pair
 *       of shapes (same types, same order).
 * </ul>
 *
 * <p>Entries at or above {@code count} are stale. Not thread-safe: one writer at a time. No method
 * allocates.
 */
public final class ContactManifold {
    /** Maximum number of points per manifold. */
    public static final int MAX_POINTS = 4;

    /** Number of valid points, 0..4. */
    public int count;
    /** Collider index of A as passed to {@link NarrowPhase#collide}. */
    public int colliderA;
    /** Collider index of B as passed to {@link NarrowPhase#collide}. */
    public int colliderB;
    /** (3) world unit normal from A to B. */
    public final double[] normal = new double[3];
    /** (4 x 3) world contact points, m. */
    public final double[] point = new double[3 * MAX_POINTS];
    /** (4) penetration depths, m; negative for a gap within the margin. */
    public final double[] depth = new double[MAX_POINTS];
    /** (4) feature ids, stable per feature pair. */
    public final int[] feature = new int[MAX_POINTS];

    /** Creates an empty manifold. */
    public ContactManifold() {
        reset();
    }

    /** Clears the manifold: no points, zero normal, collider indices -1. */
    public void reset() {
        count = 0;
        colliderA = -1;
        colliderB = -1;
        normal[0] = 0;
        normal[1] = 0;
        normal[2] = 0;
    }

    /**
     * The deepest penetration over the valid points, m.
     *
     * @return the maximum depth, or -infinity when empty
     */
    public double maxDepth() {
        double d = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < count; k++) {
            d = Math.max(d, depth[k]);
        }
        return d;
    }

    /**
     * Index of the point with the given feature id, for matching against the previous step.
     *
     * @param featureId the id
     * @return the point index, or -1 when absent
     */
    public int indexOfFeature(int featureId) {
        for (int k = 0; k < count; k++) {
            if (feature[k] == featureId) {
                return k;
            }
        }
        return -1;
    }

    void flipNormal() {
        normal[0] = -normal[0];
        normal[1] = -normal[1];
        normal[2] = -normal[2];
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("ContactManifold[count=").append(count).append(" normal=(")
                .append(normal[0]).append(", ").append(normal[1]).append(", ").append(normal[2]).append(')');
        for (int k = 0; k < count; k++) {
            b.append(" p").append(k).append("=(").append(point[3 * k]).append(", ").append(point[3 * k + 1])
                    .append(", ").append(point[3 * k + 2]).append(") d=").append(depth[k])
                    .append(" f=").append(Integer.toHexString(feature[k]));
        }
        return b.append(']').toString();
    }
}
