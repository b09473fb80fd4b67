package io.tandem.cle.device;

/**
 * A robot joint's state (the Gazebo joint-state DataPack): position and velocity of a revolute or
 * prismatic joint. A reading device: the values at the start of the loop step.
 */
public final class JointState extends Device {
    private double frontPosition;
    private double frontVelocity;
    private double backPosition;
    private double backVelocity;

    /**
     * @param name   the joint's scoped name (model::joint)
     * @param engine the owning engine's name
     */
    public JointState(String name, String engine) {
        super(name, engine, Side.ROBOT, false);
    }

    /** @return the joint's position, rad or m (loop thread) */
    public double position() {
        return frontPosition;
    }

    /** @return the joint's velocity, rad/s or m/s (loop thread) */
    public double velocity() {
        return frontVelocity;
    }

    /**
     * Engine side: the joint's state after an advance (the engine's thread).
     *
     * @param position rad or m
     * @param velocity rad/s or m/s
     */
    public void publish(double position, double velocity) {
        backPosition = position;
        backVelocity = velocity;
        published = true;
    }

    @Override
    void swap() {
        frontPosition = backPosition;
        frontVelocity = backVelocity;
    }

    @Override
    void clearBuffers() {
        frontPosition = 0;
        frontVelocity = 0;
        backPosition = 0;
        backVelocity = 0;
        published = false;
    }
}
