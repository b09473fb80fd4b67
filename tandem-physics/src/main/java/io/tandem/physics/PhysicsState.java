package io.tandem.physics;

/**
 * The mutable state of a world: structure-of-arrays, preallocated for its model (MuJoCo's
 * mjData). Fields are public so other modules read and write poses without copies; the shapes
 * are in the comments. Not thread-safe: one stepping thread at a time.
 */
public final class PhysicsState {
    /** positions of the centres of mass, m (bodies x 3) */
    public final double[] pos;
    /** orientations (w, x, y, z), body to world (bodies x 4) */
    public final double[] quat;
    /** linear velocities, m/s (bodies x 3) */
    public final double[] linVel;
    /** angular velocities in the world frame, rad/s (bodies x 3) */
    public final double[] angVel;
    /** warm-start impulses of joint rows (joints x 10: 6 hard rows, lower and upper limit, motor, spring) */
    public final double[] jointImpulse;
    /** simulated time, s */
    public double time;
    /** completed steps */
    public long step;

    PhysicsState(PhysicsModel m) {
        pos = m.pos0.clone();
        quat = m.quat0.clone();
        linVel = m.linVel0.clone();
        angVel = m.angVel0.clone();
        jointImpulse = new double[JointAssembly.SLOTS * m.joints];
        // kinematic bodies start on their trajectory
        double[] sample = new double[13];
        for (int i = 0; i < m.bodies; i++) {
            if (m.bodyType[i] == BodyType.KINEMATIC) {
                m.trajectory[i].sample(0, sample);
                System.arraycopy(sample, 0, pos, 3 * i, 3);
                System.arraycopy(sample, 3, quat, 4 * i, 4);
                System.arraycopy(sample, 7, linVel, 3 * i, 3);
                System.arraycopy(sample, 10, angVel, 3 * i, 3);
            }
        }
    }

    /**
     * Copies another state of the same model into this one (snapshot / restore). Allocates nothing.
     *
     * @param other source, not modified
     */
    public void copyFrom(PhysicsState other) {
        System.arraycopy(other.pos, 0, pos, 0, pos.length);
        System.arraycopy(other.quat, 0, quat, 0, quat.length);
        System.arraycopy(other.linVel, 0, linVel, 0, linVel.length);
        System.arraycopy(other.angVel, 0, angVel, 0, angVel.length);
        System.arraycopy(other.jointImpulse, 0, jointImpulse, 0, jointImpulse.length);
        time = other.time;
        step = other.step;
    }
}
