package io.tandem.cle.tf;

import io.tandem.cle.TransferFunction;
import io.tandem.cle.TransferFunctionKind;
import io.tandem.cle.TransferFunctions;
import io.tandem.cle.device.DeviceBinder;
import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.TwistCommand;
import java.util.Map;

/**
 * The Husky Braitenberg experiment's {@code braitenberg_husky_linear_twist} TF
 * (shared/specs/nrp.md 3.1), a Neuron2Robot transfer function: the actor neurons' leaky-integrator
 * voltages become a twist,
 * <pre>
 *   linear.x  = 20 x min(V_left, V_right)
 *   angular.z = 100 x (V_right - V_left)
 * </pre>
 * which the world engine's skid-steer drive turns into wheel speeds ((forward -+ rot x 0.275) x 7,
 * NRP-core's {@code mot_tf.py}). Params (all optional): {@code left_wheel_neuron},
 * {@code right_wheel_neuron} (integrator device names, defaults as shown), {@code twist} (the
 * drive, default {@code husky}), {@code linear_gain} (20), {@code angular_gain} (100).
 * {@link #run} allocates nothing.
 */
public final class LinearTwist implements TransferFunction {
    private final String leftName;
    private final String rightName;
    private final String twistName;
    private final double linearGain;
    private final double angularGain;
    private LeakyIntegrator left;
    private LeakyIntegrator right;
    private TwistCommand twist;

    /** The TF with the NRP's defaults. */
    public LinearTwist() {
        this(Map.of());
    }

    /**
     * @param params see the class notes. Not modified.
     */
    public LinearTwist(Map<String, Object> params) {
        leftName = TransferFunctions.string(params, "left_wheel_neuron", "left_wheel_neuron");
        rightName = TransferFunctions.string(params, "right_wheel_neuron", "right_wheel_neuron");
        twistName = TransferFunctions.string(params, "twist", "husky");
        linearGain = TransferFunctions.number(params, "linear_gain", 20.0);
        angularGain = TransferFunctions.number(params, "angular_gain", 100.0);
    }

    @Override
    public TransferFunctionKind kind() {
        return TransferFunctionKind.NEURON_TO_ROBOT;
    }

    @Override
    public String name() {
        return "linear_twist";
    }

    @Override
    public void bind(DeviceBinder d) {
        left = d.leakyIntegrator(leftName);
        right = d.leakyIntegrator(rightName);
        twist = d.twist(twistName);
    }

    @Override
    public void run(long timeNs, long iteration) {
        double l = left.voltage();
        double r = right.voltage();
        twist.set(linearGain * Math.min(l, r), angularGain * (r - l));
    }
}
