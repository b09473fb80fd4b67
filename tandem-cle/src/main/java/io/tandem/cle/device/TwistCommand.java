package io.tandem.cle.device;

/**
 * A twist for a wheeled base (the NRP's {@code geometry_msgs/Twist} on {@code cmd_vel}): forward
 * speed and turn rate, turned into wheel speeds by the engine (a skid-steer drive). A command
 * device: a twist set in loop step k acts from the engine's next sync on.
 */
public final class TwistCommand extends Device {
    private double linear;
    private double angular;
    private boolean changed;

    /**
     * @param name   the drive's name
     * @param engine the owning engine's name
     */
    public TwistCommand(String name, String engine) {
        super(name, engine, Side.ROBOT, true);
    }

    /**
     * Sets the twist (loop thread; allocates nothing).
     *
     * @param linearX  forward speed, m/s, finite
     * @param angularZ turn rate about z, rad/s (positive: left), finite
     * @throws IllegalArgumentException for NaN or infinity
     */
    public void set(double linearX, double angularZ) {
        if (!Double.isFinite(linearX) || !Double.isFinite(angularZ)) {
            throw new IllegalArgumentException("twist '" + name() + "' must be finite, got " + linearX + ", " + angularZ);
        }
        linear = linearX;
        angular = angularZ;
        changed = true;
    }

    /** @return the last forward speed set, m/s */
    public double linearX() {
        return linear;
    }

    /** @return the last turn rate set, rad/s */
    public double angularZ() {
        return angular;
    }

    /**
     * Engine side: whether a twist was set since the last call, clearing the flag.
     *
     * @return true when the twist should be applied
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
        linear = 0;
        angular = 0;
        changed = false;
    }
}
