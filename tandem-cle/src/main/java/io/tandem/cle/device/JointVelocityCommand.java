package io.tandem.cle.device;

/**
 * A joint velocity command (the Gazebo joint DataPack's velocity target) for a joint with a
 * velocity motor. A command device: a speed set in loop step k acts from the engine's next sync on.
 */
public final class JointVelocityCommand extends Device {
    private double speed;
    private boolean changed;

    /**
     * @param name   the joint's scoped name (model::joint)
     * @param engine the owning engine's name
     */
    public JointVelocityCommand(String name, String engine) {
        super(name, engine, Side.ROBOT, true);
    }

    /**
     * Sets the joint's target speed (loop thread; allocates nothing).
     *
     * @param radPerSecond rad/s (m/s for a prismatic joint), finite
     * @throws IllegalArgumentException for NaN or infinity
     */
    public void setVelocity(double radPerSecond) {
        if (!Double.isFinite(radPerSecond)) {
            throw new IllegalArgumentException("joint '" + name() + "': velocity must be finite, got " + radPerSecond);
        }
        speed = radPerSecond;
        changed = true;
    }

    /** @return the last speed set, rad/s or m/s */
    public double velocity() {
        return speed;
    }

    /**
     * Engine side: whether a speed was set since the last call, clearing the flag.
     *
     * @return true when {@link #velocity()} should be applied
     */
    public boolean takeChanged() {
        boolean c = changed;
        changed = false;
        return c;
    }

    @Override
    void swap() {
    }

    @Override
    void clearBuffers() {
        speed = 0;
        changed = false;
    }
}
