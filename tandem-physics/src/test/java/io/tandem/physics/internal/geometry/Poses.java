package io.tandem.physics.internal.geometry;

/** Test fixture: flat pose arrays for a handful of bodies, with quaternion helpers. */
public final class Poses {
    public final double[] pos;
    public final double[] quat;

    public Poses(int n) {
        pos = new double[3 * n];
        quat = new double[4 * n];
        for (int i = 0; i < n; i++) {
            quat[4 * i] = 1;
        }
    }

    /** Pose i at (x, y, z), identity orientation. */
    public Poses at(int i, double x, double y, double z) {
        pos[3 * i] = x;
        pos[3 * i + 1] = y;
        pos[3 * i + 2] = z;
        quat[4 * i] = 1;
        quat[4 * i + 1] = 0;
        quat[4 * i + 2] = 0;
        quat[4 * i + 3] = 0;
        return this;
    }

    /** Pose i at (x, y, z) rotated by angle (rad) about the axis (ax, ay, az). */
    public Poses at(int i, double x, double y, double z, double ax, double ay, double az, double angle) {
        at(i, x, y, z);
        double l = Math.sqrt(ax * ax + ay * ay + az * az);
        double s = Math.sin(angle / 2) / l;
        quat[4 * i] = Math.cos(angle / 2);
        quat[4 * i + 1] = ax * s;
        quat[4 * i + 2] = ay * s;
        quat[4 * i + 3] = az * s;
        return this;
    }

    /** Pre-multiplies the orientation of pose i by a rotation of angle (rad) about (ax, ay, az) (world axis). */
    public Poses rotate(int i, double ax, double ay, double az, double angle) {
        double l = Math.sqrt(ax * ax + ay * ay + az * az);
        double s = Math.sin(angle / 2) / l;
        double w1 = Math.cos(angle / 2);
        double x1 = ax * s;
        double y1 = ay * s;
        double z1 = az * s;
        int q = 4 * i;
        double w2 = quat[q];
        double x2 = quat[q + 1];
        double y2 = quat[q + 2];
        double z2 = quat[q + 3];
        quat[q] = w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2;
        quat[q + 1] = w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2;
        quat[q + 2] = w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2;
        quat[q + 3] = w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2;
        return this;
    }

    public Poses translate(int i, double dx, double dy, double dz) {
        pos[3 * i] += dx;
        pos[3 * i + 1] += dy;
        pos[3 * i + 2] += dz;
        return this;
    }

    /** Sets pose i to a uniformly random orientation. */
    public Poses randomOrientation(int i, java.util.Random rnd) {
        double u1 = rnd.nextDouble();
        double u2 = rnd.nextDouble() * 2 * Math.PI;
        double u3 = rnd.nextDouble() * 2 * Math.PI;
        double a = Math.sqrt(1 - u1);
        double b = Math.sqrt(u1);
        quat[4 * i] = a * Math.sin(u2);
        quat[4 * i + 1] = a * Math.cos(u2);
        quat[4 * i + 2] = b * Math.sin(u3);
        quat[4 * i + 3] = b * Math.cos(u3);
        return this;
    }
}
