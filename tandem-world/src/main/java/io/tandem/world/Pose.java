package io.tandem.world;

/**
 * A rigid transform: position (m) and unit orientation quaternion (w, x, y, z). As a pose of a frame
 * in a parent frame it maps the frame's coordinates to the parent's: p_parent = R p + t.
 * Immutable; every operation allocates one new pose (model-build time, not the stepping loop).
 *
 * @param x  position x, m
 * @param y  position y, m
 * @param z  position z, m
 * @param qw orientation w
 * @param qx orientation x
 * @param qy orientation y
 * @param qz orientation z
 */
public record Pose(double x, double y, double z, double qw, double qx, double qy, double qz) {
    /** The identity transform. */
    public static final Pose IDENTITY = new Pose(0, 0, 0, 1, 0, 0, 0);

    /** Normalizes the quaternion; rejects non-finite values and a zero quaternion. */
    public Pose {
        double n = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
        if (!Double.isFinite(x + y + z) || !(n > 1e-12) || !Double.isFinite(n)) {
            throw new IllegalArgumentException("pose needs a finite position and a non-zero finite quaternion, got ("
                    + x + ", " + y + ", " + z + ", " + qw + ", " + qx + ", " + qy + ", " + qz + ")");
        }
        qw /= n;
        qx /= n;
        qy /= n;
        qz /= n;
    }

    /**
     * SDF's {@code <pose>x y z roll pitch yaw</pose>}: rotation R = Rz(yaw) Ry(pitch) Rx(roll).
     *
     * @return the pose
     */
    public static Pose fromXyzRpy(double x, double y, double z, double roll, double pitch, double yaw) {
        double cr = Math.cos(roll / 2);
        double sr = Math.sin(roll / 2);
        double cp = Math.cos(pitch / 2);
        double sp = Math.sin(pitch / 2);
        double cy = Math.cos(yaw / 2);
        double sy = Math.sin(yaw / 2);
        return new Pose(x, y, z,
                cr * cp * cy + sr * sp * sy,
                sr * cp * cy - cr * sp * sy,
                cr * sp * cy + sr * cp * sy,
                cr * cp * sy - sr * sp * cy);
    }

    /** @return a pure translation */
    public static Pose translation(double x, double y, double z) {
        return new Pose(x, y, z, 1, 0, 0, 0);
    }

    /**
     * @param child a pose expressed in this pose's frame
     * @return the child's pose in this pose's parent frame (this * child)
     */
    public Pose compose(Pose child) {
        double[] p = rotate(child.x, child.y, child.z);
        return new Pose(x + p[0], y + p[1], z + p[2],
                qw * child.qw - qx * child.qx - qy * child.qy - qz * child.qz,
                qw * child.qx + qx * child.qw + qy * child.qz - qz * child.qy,
                qw * child.qy - qx * child.qz + qy * child.qw + qz * child.qx,
                qw * child.qz + qx * child.qy - qy * child.qx + qz * child.qw);
    }

    /** @return the inverse transform */
    public Pose inverse() {
        Pose conj = new Pose(0, 0, 0, qw, -qx, -qy, -qz);
        double[] p = conj.rotate(-x, -y, -z);
        return new Pose(p[0], p[1], p[2], qw, -qx, -qy, -qz);
    }

    /** @return R v, a new array of 3 */
    public double[] rotate(double vx, double vy, double vz) {
        double tx = 2 * (qy * vz - qz * vy);
        double ty = 2 * (qz * vx - qx * vz);
        double tz = 2 * (qx * vy - qy * vx);
        return new double[] {vx + qw * tx + (qy * tz - qz * ty), vy + qw * ty + (qz * tx - qx * tz),
            vz + qw * tz + (qx * ty - qy * tx)};
    }

    /** @return R p + t, a new array of 3 */
    public double[] transform(double px, double py, double pz) {
        double[] r = rotate(px, py, pz);
        r[0] += x;
        r[1] += y;
        r[2] += z;
        return r;
    }
}
