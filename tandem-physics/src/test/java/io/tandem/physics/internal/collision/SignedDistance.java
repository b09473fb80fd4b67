package io.tandem.physics.internal.collision;

import io.tandem.physics.internal.geometry.ConvexHull;
import io.tandem.physics.internal.geometry.Shape;

/** Test reference: exact signed distance of a world point to a shape at a pose (negative inside). */
final class SignedDistance {
    private SignedDistance() {
    }

    static double of(Shape s, double[] pos, double[] quat, int i, double x, double y, double z) {
        double[] r = new double[9];
        GeomOps.quatToMatrix(quat, i, r, 0);
        double dx = x - pos[3 * i];
        double dy = y - pos[3 * i + 1];
        double dz = z - pos[3 * i + 2];
        double lx = r[0] * dx + r[3] * dy + r[6] * dz;
        double ly = r[1] * dx + r[4] * dy + r[7] * dz;
        double lz = r[2] * dx + r[5] * dy + r[8] * dz;
        return switch (s.type()) {
            case SPHERE -> Math.sqrt(lx * lx + ly * ly + lz * lz) - s.radius();
            case BOX -> box(lx, ly, lz, s.halfExtentX(), s.halfExtentY(), s.halfExtentZ());
            case CAPSULE -> {
                double t = GeomOps.clamp(lz, -s.halfLength(), s.halfLength());
                yield Math.sqrt(lx * lx + ly * ly + (lz - t) * (lz - t)) - s.radius();
            }
            case CYLINDER -> {
                double a = Math.sqrt(lx * lx + ly * ly) - s.radius();
                double b = Math.abs(lz) - s.halfLength();
                yield Math.min(Math.max(a, b), 0) + Math.hypot(Math.max(a, 0), Math.max(b, 0));
            }
            case CONVEX -> convex(s.hull, lx, ly, lz);
            case PLANE -> lz;
        };
    }

    /**
     * Inside: minus the distance to the nearest face plane; outside: the distance to the nearest
     * triangle of the faces' fans (closest point on a triangle, Ericson 5.1.5), independent of
     * ConvexHull.closestPoint.
     */
    private static double convex(ConvexHull h, double x, double y, double z) {
        double inside = Double.NEGATIVE_INFINITY;
        for (int f = 0; f < h.faceCount; f++) {
            inside = Math.max(inside, h.faceNormals[3 * f] * x + h.faceNormals[3 * f + 1] * y
                    + h.faceNormals[3 * f + 2] * z - h.faceOffsets[f]);
        }
        if (inside <= 0) {
            return inside;
        }
        double best = Double.POSITIVE_INFINITY;
        double[] v = h.vertices;
        double[] q = new double[3];
        for (int f = 0; f < h.faceCount; f++) {
            int a = h.faceVertices[h.faceStart[f]];
            for (int k = h.faceStart[f] + 1; k + 1 < h.faceStart[f + 1]; k++) {
                int b = h.faceVertices[k];
                int c = h.faceVertices[k + 1];
                closestOnTriangle(x, y, z, v[3 * a], v[3 * a + 1], v[3 * a + 2], v[3 * b], v[3 * b + 1], v[3 * b + 2],
                        v[3 * c], v[3 * c + 1], v[3 * c + 2], q);
                double dx = x - q[0];
                double dy = y - q[1];
                double dz = z - q[2];
                best = Math.min(best, Math.sqrt(dx * dx + dy * dy + dz * dz));
            }
        }
        return best;
    }

    /** Ericson, Real-Time Collision Detection, 5.1.5 ClosestPtPointTriangle. */
    static void closestOnTriangle(double px, double py, double pz, double ax, double ay, double az, double bx,
            double by, double bz, double cx, double cy, double cz, double[] out) {
        double abx = bx - ax;
        double aby = by - ay;
        double abz = bz - az;
        double acx = cx - ax;
        double acy = cy - ay;
        double acz = cz - az;
        double apx = px - ax;
        double apy = py - ay;
        double apz = pz - az;
        double d1 = abx * apx + aby * apy + abz * apz;
        double d2 = acx * apx + acy * apy + acz * apz;
        if (d1 <= 0 && d2 <= 0) {
            set(out, ax, ay, az);
            return;
        }
        double bpx = px - bx;
        double bpy = py - by;
        double bpz = pz - bz;
        double d3 = abx * bpx + aby * bpy + abz * bpz;
        double d4 = acx * bpx + acy * bpy + acz * bpz;
        if (d3 >= 0 && d4 <= d3) {
            set(out, bx, by, bz);
            return;
        }
        double vc = d1 * d4 - d3 * d2;
        if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            double t = d1 / (d1 - d3);
            set(out, ax + t * abx, ay + t * aby, az + t * abz);
            return;
        }
        double cpx = px - cx;
        double cpy = py - cy;
        double cpz = pz - cz;
        double d5 = abx * cpx + aby * cpy + abz * cpz;
        double d6 = acx * cpx + acy * cpy + acz * cpz;
        if (d6 >= 0 && d5 <= d6) {
            set(out, cx, cy, cz);
            return;
        }
        double vb = d5 * d2 - d1 * d6;
        if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            double t = d2 / (d2 - d6);
            set(out, ax + t * acx, ay + t * acy, az + t * acz);
            return;
        }
        double va = d3 * d6 - d5 * d4;
        if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
            double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            set(out, bx + t * (cx - bx), by + t * (cy - by), bz + t * (cz - bz));
            return;
        }
        double denom = 1 / (va + vb + vc);
        double v = vb * denom;
        double w = vc * denom;
        set(out, ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w);
    }

    private static void set(double[] out, double x, double y, double z) {
        out[0] = x;
        out[1] = y;
        out[2] = z;
    }

    private static double box(double x, double y, double z, double hx, double hy, double hz) {
        double qx = Math.abs(x) - hx;
        double qy = Math.abs(y) - hy;
        double qz = Math.abs(z) - hz;
        double ox = Math.max(qx, 0);
        double oy = Math.max(qy, 0);
        double oz = Math.max(qz, 0);
        return Math.sqrt(ox * ox + oy * oy + oz * oz) + Math.min(Math.max(qx, Math.max(qy, qz)), 0);
    }
}
