package io.tandem.cle.device;

/**
 * A model's pose in the world (the Gazebo model-state DataPack): position (m) and orientation
 * (unit quaternion w, x, y, z). A reading device: the pose at the start of the loop step; NaN
 * while the model is not loaded.
 */
public final class ModelPose extends Device {
    /** x, y, z, qw, qx, qy, qz (7) */
    private final double[] front = {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN};
    private final double[] back = new double[7];

    /**
     * @param name   the model's name
     * @param engine the owning engine's name
     */
    public ModelPose(String name, String engine) {
        super(name, engine, Side.ROBOT, false);
    }

    /** @return x, m */
    public double x() {
        return front[0];
    }

    /** @return y, m */
    public double y() {
        return front[1];
    }

    /** @return z, m */
    public double z() {
        return front[2];
    }

    /** @return the quaternion's w */
    public double qw() {
        return front[3];
    }

    /** @return the quaternion's x */
    public double qx() {
        return front[4];
    }

    /** @return the quaternion's y */
    public double qy() {
        return front[5];
    }

    /** @return the quaternion's z */
    public double qz() {
        return front[6];
    }

    /** @return the heading (rotation about z), rad in (-pi, pi] */
    public double yaw() {
        double w = front[3];
        double x = front[4];
        double y = front[5];
        double z = front[6];
        return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
    }

    /**
     * Copies the pose into {@code out}.
     *
     * @param out at least 7 long; modified: x, y, z, qw, qx, qy, qz
     */
    public void copyTo(double[] out) {
        System.arraycopy(front, 0, out, 0, 7);
    }

    /**
     * Engine side: the model's pose after an advance (the engine's thread); NaN for a model not loaded.
     *
     * @param x  m
     * @param y  m
     * @param z  m
     * @param qw quaternion w
     * @param qx quaternion x
     * @param qy quaternion y
     * @param qz quaternion z
     */
    public void publish(double x, double y, double z, double qw, double qx, double qy, double qz) {
        back[0] = x;
        back[1] = y;
        back[2] = z;
        back[3] = qw;
        back[4] = qx;
        back[5] = qy;
        back[6] = qz;
        published = true;
    }

    @Override
    void swap() {
        System.arraycopy(back, 0, front, 0, 7);
    }

    @Override
    void clearBuffers() {
        java.util.Arrays.fill(front, Double.NaN);
        java.util.Arrays.fill(back, Double.NaN);
        published = false;
    }
}
