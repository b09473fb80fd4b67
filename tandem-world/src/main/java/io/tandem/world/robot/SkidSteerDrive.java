package io.tandem.world.robot;

import io.tandem.world.WorldRunner;
import java.util.ArrayList;
import java.util.List;

/**
 * Drives a wheeled base from a twist: linear speed forward (m/s) and angular speed about z
 * (rad/s, positive turns left) become wheel speeds by the differential-drive rule
 * <pre>
 *   left  = (linear - angular * halfTrack) * gain
 *   right = (linear + angular * halfTrack) * gain
 * </pre>
 * applied to every wheel joint of each side. With {@code gain = 1 / wheelRadius} that is the
 * exact rolling kinematics ({@link Builder#wheelRadius}); {@link Builder#nrpHusky()} is the
 * NRP Husky Braitenberg experiment's configuration (NRP-core {@code mot_tf.py}): half track
 * 0.275 m and gain 7 rad/m, NRP's constant, about 1.16 times 1 / 0.165 m, the Husky's wheel
 * radius, so a twist gives somewhat more speed than it asks for (before slip).
 *
 * <p>Wheel joints are revolute joints with a velocity motor whose axis points to the robot's
 * left (SDF {@code <xyz>0 1 0</xyz>} in a base whose x is forward): a positive speed rolls the
 * robot forward. {@link #setTwist} allocates nothing; use it on the runner's stepping thread.
 */
public final class SkidSteerDrive {
    /** NRP Husky: half the wheel track, m */
    public static final double NRP_HALF_TRACK = 0.275;
    /** NRP Husky: wheel speed per unit of forward speed, rad/m */
    public static final double NRP_GAIN = 7;

    private final WorldRunner runner;
    private final int[] left;
    private final int[] right;
    private final double halfTrack;
    private final double gain;
    private double lastLeft;
    private double lastRight;

    private SkidSteerDrive(Builder b) {
        this.runner = b.runner;
        this.halfTrack = b.halfTrack;
        this.gain = b.gain;
        this.left = new int[b.leftWheels.size()];
        this.right = new int[b.rightWheels.size()];
        for (int i = 0; i < left.length; i++) {
            left[i] = b.leftWheels.get(i);
        }
        for (int i = 0; i < right.length; i++) {
            right[i] = b.rightWheels.get(i);
        }
    }

    /**
     * @param runner the world whose wheel joints to drive
     * @return a builder (half track and gain unset: give both, or {@link Builder#nrpHusky()})
     */
    public static Builder builder(WorldRunner runner) {
        if (runner == null) {
            throw new IllegalArgumentException("runner must not be null");
        }
        return new Builder(runner);
    }

    /**
     * @param linear    forward speed, m/s
     * @param angular   turn rate about z, rad/s (positive: left)
     * @param halfTrack half the distance between the left and right wheels, m
     * @param gain      wheel speed per forward speed, rad/m
     * @return the left wheels' speed, rad/s
     */
    public static double leftWheelSpeed(double linear, double angular, double halfTrack, double gain) {
        return (linear - angular * halfTrack) * gain;
    }

    /** @return the right wheels' speed, rad/s, for the same arguments as {@link #leftWheelSpeed} */
    public static double rightWheelSpeed(double linear, double angular, double halfTrack, double gain) {
        return (linear + angular * halfTrack) * gain;
    }

    /**
     * Sets every wheel's target speed from a twist (from the next physics step on). Allocates nothing.
     *
     * @param linear  forward speed, m/s
     * @param angular turn rate about z, rad/s (positive: left)
     */
    public void setTwist(double linear, double angular) {
        lastLeft = leftWheelSpeed(linear, angular, halfTrack, gain);
        lastRight = rightWheelSpeed(linear, angular, halfTrack, gain);
        for (int h : left) {
            runner.setJointVelocity(h, lastLeft);
        }
        for (int h : right) {
            runner.setJointVelocity(h, lastRight);
        }
    }

    /** @return the left wheels' speed of the last twist, rad/s (before any joint velocity limit) */
    public double leftSpeed() {
        return lastLeft;
    }

    /** @return the right wheels' speed of the last twist, rad/s */
    public double rightSpeed() {
        return lastRight;
    }

    /** @return half the wheel track, m */
    public double halfTrack() {
        return halfTrack;
    }

    /** @return wheel speed per forward speed, rad/m */
    public double gain() {
        return gain;
    }

    /** Names the wheel joints and the drive's constants; validates each when given. Not thread-safe. */
    public static final class Builder {
        private final WorldRunner runner;
        private final List<Integer> leftWheels = new ArrayList<>();
        private final List<Integer> rightWheels = new ArrayList<>();
        private double halfTrack = Double.NaN;
        private double gain = Double.NaN;

        private Builder(WorldRunner runner) {
            this.runner = runner;
        }

        /**
         * @param joints scoped names (model::joint) of the left side's wheel joints, each with a velocity motor
         * @return this
         * @throws IllegalArgumentException for an unknown joint (naming close matches)
         */
        public Builder leftWheels(String... joints) {
            add(leftWheels, joints);
            return this;
        }

        /**
         * @param joints scoped names of the right side's wheel joints
         * @return this
         */
        public Builder rightWheels(String... joints) {
            add(rightWheels, joints);
            return this;
        }

        private void add(List<Integer> side, String[] joints) {
            for (String j : joints) {
                int h = runner.jointHandle(j);
                // fails now, naming the joint, if it has no motor
                runner.setJointVelocity(h, runner.jointVelocityCommand(h));
                if (leftWheels.contains(h) || rightWheels.contains(h)) {
                    throw new IllegalArgumentException("wheel joint '" + j + "' is given twice");
                }
                side.add(h);
            }
        }

        /**
         * @param meters half the distance between the left and right wheels, &gt; 0
         * @return this
         */
        public Builder halfTrack(double meters) {
            if (!(meters > 0) || Double.isInfinite(meters)) {
                throw new IllegalArgumentException("half track must be a finite number > 0 m, got " + meters);
            }
            halfTrack = meters;
            return this;
        }

        /**
         * @param radPerMeter wheel speed per forward speed, &gt; 0 (1 / wheel radius for exact rolling)
         * @return this
         */
        public Builder gain(double radPerMeter) {
            if (!(radPerMeter > 0) || Double.isInfinite(radPerMeter)) {
                throw new IllegalArgumentException("gain must be a finite number > 0 rad/m, got " + radPerMeter);
            }
            gain = radPerMeter;
            return this;
        }

        /**
         * @param meters wheel radius, &gt; 0: sets the gain to its inverse (exact rolling)
         * @return this
         */
        public Builder wheelRadius(double meters) {
            if (!(meters > 0) || Double.isInfinite(meters)) {
                throw new IllegalArgumentException("wheel radius must be a finite number > 0 m, got " + meters);
            }
            return gain(1 / meters);
        }

        /** @return this, with the NRP Husky constants: half track 0.275 m, gain 7 rad/m */
        public Builder nrpHusky() {
            return halfTrack(NRP_HALF_TRACK).gain(NRP_GAIN);
        }

        /** @return the drive */
        public SkidSteerDrive build() {
            if (leftWheels.isEmpty() || rightWheels.isEmpty()) {
                throw new IllegalArgumentException("a skid-steer drive needs at least one left and one right wheel joint,"
                        + " got " + leftWheels.size() + " left and " + rightWheels.size() + " right");
            }
            if (Double.isNaN(halfTrack) || Double.isNaN(gain)) {
                throw new IllegalArgumentException("give the half track and the gain (halfTrack(m), gain(rad/m) or"
                        + " wheelRadius(m)), or nrpHusky() for NRP's 0.275 m and 7 rad/m");
            }
            return new SkidSteerDrive(this);
        }
    }
}
