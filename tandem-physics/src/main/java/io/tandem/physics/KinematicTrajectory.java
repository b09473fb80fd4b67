package io.tandem.physics;

/**
 * The prescribed motion of a kinematic body. Called on the stepping thread; must not allocate.
 */
@FunctionalInterface
public interface KinematicTrajectory {
    /**
     * Writes the body's pose and velocity at {@code timeS} into {@code out}:
     * position x y z (m), orientation qw qx qy qz, linear velocity (m/s), angular velocity (rad/s,
     * world frame): 13 values.
     *
     * @param timeS simulated time, s
     * @param out   13 values, modified
     */
    void sample(double timeS, double[] out);
}
