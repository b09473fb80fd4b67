package io.tandem.physics.internal.collision;

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
            case PLANE -> lz;
        };
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
