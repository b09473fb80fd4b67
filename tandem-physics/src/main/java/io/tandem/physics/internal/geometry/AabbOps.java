package io.tandem.physics.internal.geometry;

/*
 * Implementation notes
 *
 * Tight world AABBs from the rotation matrix R of the pose (column k = local axis k in world):
 *   box      extent_k = |R_k0| hx + |R_k1| hy + |R_k2| hz                    (exact)
 *   capsule  extent_k = |a_k| h + r, a = R e_z                               (exact)
 *   cylinder extent_k = |a_k| h + r sqrt(1 - a_k^2)                          (exact: a disk of radius r
 *            with unit normal a spans r sqrt(1 - a_k^2) along axis k)  [1]
 *   sphere   extent_k = r
 *   convex   min and max over the hull's vertices of (R v)_k (exact; the hull need not be centred on
 *            the shape origin, so the box is not symmetric about the position)
 *   plane    the solid half-space is unbounded: every bound is infinite except that an axis-aligned
 *            normal (two components exactly 0) bounds the normal axis on the solid side, e.g. the
 *            usual floor (identity rotation) gets max z = position z + margin.
 * The margin is added on every side.
 *
 * [1] I. Quilez, "Cylinder bounding box" (iquilezles.org/articles/diskbbox).
 */

/**
 * World-space axis-aligned bounding boxes of shapes. Static kernels on flat arrays; allocation-free
 * and thread-safe (they touch only their arguments).
 */
public final class AabbOps {
    private AabbOps() {
    }

    /**
     * Writes the world AABB of a shape at pose i into {@code min[3i..3i+2]} and {@code max[3i..3i+2]}.
     *
     * @param shape the shape. Not modified.
     * @param pos positions, (n x 3) m; reads {@code pos[3i..3i+2]}. Not modified.
     * @param quat orientations, (n x 4) unit quaternions (w, x, y, z) local to world; reads
     *     {@code quat[4i..4i+3]}. Not modified.
     * @param i the pose index, also the output index
     * @param margin distance added on every side, m
     * @param min lower corners, (n x 3) m. Modified.
     * @param max upper corners, (n x 3) m. Modified.
     */
    public static void compute(
            Shape shape, double[] pos, double[] quat, int i, double margin, double[] min, double[] max) {
        compute(shape, pos, quat, i, margin, min, max, i);
    }

    /**
     * Writes the world AABB of a shape at pose i into {@code min[3o..3o+2]} and {@code max[3o..3o+2]}.
     * An unbounded shape (plane) gets infinite bounds, see the class notes.
     *
     * @param shape the shape. Not modified.
     * @param pos positions, (n x 3) m; reads {@code pos[3i..3i+2]}. Not modified.
     * @param quat orientations, (n x 4) unit quaternions (w, x, y, z) local to world; reads
     *     {@code quat[4i..4i+3]}. Not modified.
     * @param i the pose index
     * @param margin distance added on every side, m
     * @param min lower corners, m. Modified at {@code 3o..3o+2}.
     * @param max upper corners, m. Modified at {@code 3o..3o+2}.
     * @param o the output index
     */
    public static void compute(
            Shape shape, double[] pos, double[] quat, int i, double margin, double[] min, double[] max, int o) {
        int q = 4 * i;
        double w = quat[q];
        double x = quat[q + 1];
        double y = quat[q + 2];
        double z = quat[q + 3];
        double n2 = w * w + x * x + y * y + z * z;
        double s = n2 > 0 ? 2.0 / n2 : 0.0;
        // rotation matrix entries (row-major)
        double r00 = 1.0 - s * (y * y + z * z);
        double r01 = s * (x * y - w * z);
        double r02 = s * (x * z + w * y);
        double r10 = s * (x * y + w * z);
        double r11 = 1.0 - s * (x * x + z * z);
        double r12 = s * (y * z - w * x);
        double r20 = s * (x * z - w * y);
        double r21 = s * (y * z + w * x);
        double r22 = 1.0 - s * (x * x + y * y);
        if (shape.type() == ShapeType.PLANE) {
            planeBounds(pos, 3 * i, r02, r12, r22, margin, min, max, 3 * o);
            return;
        }
        if (shape.type() == ShapeType.CONVEX) {
            ConvexHull h = shape.hull;
            double[] v = h.vertices;
            double lx = Double.POSITIVE_INFINITY;
            double ly = Double.POSITIVE_INFINITY;
            double lz = Double.POSITIVE_INFINITY;
            double ux = Double.NEGATIVE_INFINITY;
            double uy = Double.NEGATIVE_INFINITY;
            double uz = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < h.vertexCount; k++) {
                double vx = v[3 * k];
                double vy = v[3 * k + 1];
                double vz = v[3 * k + 2];
                double wx = r00 * vx + r01 * vy + r02 * vz;
                double wy = r10 * vx + r11 * vy + r12 * vz;
                double wz = r20 * vx + r21 * vy + r22 * vz;
                lx = Math.min(lx, wx);
                ly = Math.min(ly, wy);
                lz = Math.min(lz, wz);
                ux = Math.max(ux, wx);
                uy = Math.max(uy, wy);
                uz = Math.max(uz, wz);
            }
            int p = 3 * i;
            int b = 3 * o;
            min[b] = pos[p] + lx - margin;
            min[b + 1] = pos[p + 1] + ly - margin;
            min[b + 2] = pos[p + 2] + lz - margin;
            max[b] = pos[p] + ux + margin;
            max[b + 1] = pos[p + 1] + uy + margin;
            max[b + 2] = pos[p + 2] + uz + margin;
            return;
        }
        double ex = extent(shape, r00, r01, r02);
        double ey = extent(shape, r10, r11, r12);
        double ez = extent(shape, r20, r21, r22);
        int p = 3 * i;
        int b = 3 * o;
        min[b] = pos[p] - ex - margin;
        min[b + 1] = pos[p + 1] - ey - margin;
        min[b + 2] = pos[p + 2] - ez - margin;
        max[b] = pos[p] + ex + margin;
        max[b + 1] = pos[p + 1] + ey + margin;
        max[b + 2] = pos[p + 2] + ez + margin;
    }

    /** Half extent of a centred bounded shape along one world axis, given row k (rk0, rk1, rk2) of its rotation. */
    private static double extent(Shape shape, double rk0, double rk1, double rk2) {
        double r = shape.radius();
        double h = shape.halfLength();
        return switch (shape.type()) {
            case SPHERE -> r;
            case BOX -> Math.abs(rk0) * shape.halfExtentX() + Math.abs(rk1) * shape.halfExtentY()
                    + Math.abs(rk2) * shape.halfExtentZ();
            case CAPSULE -> Math.abs(rk2) * h + r;
            case CYLINDER -> Math.abs(rk2) * h + r * Math.sqrt(Math.max(0.0, 1.0 - rk2 * rk2));
            case CONVEX, PLANE -> Double.POSITIVE_INFINITY;
        };
    }

    private static void planeBounds(double[] pos, int p, double nx, double ny, double nz, double margin,
            double[] min, double[] max, int b) {
        double inf = Double.POSITIVE_INFINITY;
        min[b] = -inf;
        min[b + 1] = -inf;
        min[b + 2] = -inf;
        max[b] = inf;
        max[b + 1] = inf;
        max[b + 2] = inf;
        // an axis-aligned normal bounds the solid half-space on one side of that axis
        int axis = -1;
        double sign = 0;
        if (ny == 0 && nz == 0) {
            axis = 0;
            sign = nx;
        } else if (nx == 0 && nz == 0) {
            axis = 1;
            sign = ny;
        } else if (nx == 0 && ny == 0) {
            axis = 2;
            sign = nz;
        }
        if (axis >= 0) {
            if (sign > 0) {
                max[b + axis] = pos[p + axis] + margin;
            } else {
                min[b + axis] = pos[p + axis] - margin;
            }
        }
    }
}
