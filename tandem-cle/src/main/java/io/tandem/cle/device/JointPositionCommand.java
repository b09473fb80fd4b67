package io.tandem.cle.device;

/**
 * A joint position command (the Gazebo joint DataPack's position target, JointPositionController's
 * command) for a joint of a robot in joint coordinates: the target of its implicit joint-space PD
 * controller, with the gains to track it. A command device: a target set in loop step k acts from
 * the engine's next sync on.
 */
public final class JointPositionCommand extends Device {
    private double position;
    private double velocity;
    private double kp = Double.NaN;
    private double kd = Double.NaN;
    private boolean changed;

    /**
     * @param name   the joint's scoped name (model::joint)
     * @param engine the owning engine's name
     */
    public JointPositionCommand(String name, String engine) {
        super(name, engine, Side.ROBOT, true);
    }

    /**
     * Sets the joint's target (loop thread; allocates nothing).
     *
     * @param radians  rad (m for a prismatic joint), finite
     * @param velocity rad/s (m/s), finite: the target's own rate (0 to hold)
     * @throws IllegalArgumentException for NaN or infinity
     */
    public void setTarget(double radians, double velocity) {
        if (!Double.isFinite(radians) || !Double.isFinite(velocity)) {
            throw new IllegalArgumentException("joint '" + name() + "': target must be finite, got " + radians + ", " + velocity);
        }
        position = radians;
        this.velocity = velocity;
        changed = true;
    }

    /** {@link #setTarget(double, double)} holding still at the target. */
    public void setTarget(double radians) {
        setTarget(radians, 0);
    }

    /**
     * Sets the controller's gains with the next target (loop thread; allocates nothing); until
     * set, the joint keeps the gains it has.
     *
     * @param kp N m/rad (N/m), finite, at least 0
     * @param kd N m s/rad (N s/m), finite, at least 0
     */
    public void setGains(double kp, double kd) {
        if (!(kp >= 0) || !(kd >= 0) || Double.isInfinite(kp) || Double.isInfinite(kd)) {
            throw new IllegalArgumentException("joint '" + name() + "': gains must be finite and >= 0, got " + kp + ", " + kd);
        }
        this.kp = kp;
        this.kd = kd;
        changed = true;
    }

    /** @return the last target set, rad or m */
    public double position() {
        return position;
    }

    /** @return the last target velocity set, rad/s or m/s */
    public double velocity() {
        return velocity;
    }

    /** @return the gains set (NaN until set) */
    public double kp() {
        return kp;
    }

    /** @return the derivative gain set (NaN until set) */
    public double kd() {
        return kd;
    }

    /**
     * Engine side: whether a target or gains were set since the last call, clearing the flag.
     *
     * @return true when the command should be applied
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
        position = 0;
        velocity = 0;
        kp = Double.NaN;
        kd = Double.NaN;
        changed = false;
    }
}
