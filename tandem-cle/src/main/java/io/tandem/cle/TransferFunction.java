package io.tandem.cle;

import io.tandem.cle.device.DeviceBinder;

/**
 * A transfer function in plain Java (the NRP's Robot2Neuron and Neuron2Robot TFs, NRP-core's
 * TransceiverFunctions). Write a class: declare the {@link #kind()}, map typed devices in
 * {@link #bind} (keep the handles in fields), and read and write them in {@link #run}; keep any
 * state between steps in fields too:
 *
 * <pre>{@code
 * public final class LinearTwist implements TransferFunction {
 *     private LeakyIntegrator left, right;
 *     private TwistCommand twist;
 *     public LinearTwist(Map<String, Object> params) { }
 *     public TransferFunctionKind kind() { return TransferFunctionKind.NEURON_TO_ROBOT; }
 *     public void bind(DeviceBinder d) {
 *         left = d.leakyIntegrator("left_wheel_neuron");
 *         right = d.leakyIntegrator("right_wheel_neuron");
 *         twist = d.twist("husky");
 *     }
 *     public void run(long timeNs, long iteration) {
 *         twist.set(20 * Math.min(left.voltage(), right.voltage()), 100 * (right.voltage() - left.voltage()));
 *     }
 * }
 * }</pre>
 *
 * or use {@link #of} with a lambda. To be named in an experiment file, a class needs a public
 * constructor taking {@code java.util.Map<String, Object>} (the file's {@code params}) or a public
 * no-argument one ({@link TransferFunctions#instantiate}).
 *
 * <p>Semantics: the closed loop runs the transfer functions of loop step k on the loop thread in
 * descending {@link #priority()} (registration order among equals), reading what the engines
 * published at the start of step k; the commands they write reach their engine at its next sync
 * point. A transfer function is linked to the engine it commands and runs only in the loop steps
 * in which that engine syncs (NRP-core's FTI loop); one that commands nothing runs every loop
 * step. {@link #run} should allocate nothing.
 */
public interface TransferFunction {
    /** @return the direction: which side it reads and which side it commands */
    TransferFunctionKind kind();

    /** @return the priority: higher runs first (default 0) */
    default int priority() {
        return 0;
    }

    /** @return a name for messages and timings (default: the simple class name) */
    default String name() {
        return getClass().getSimpleName();
    }

    /**
     * Maps the devices (loop thread, once, while the loop is built; may allocate).
     *
     * @param devices looks devices up by name and type
     */
    void bind(DeviceBinder devices);

    /**
     * One loop step (loop thread; should allocate nothing).
     *
     * @param timeNs    the simulated time at the start of the loop step, ns: the time of the data read
     * @param iteration the loop step's index, from 0
     */
    void run(long timeNs, long iteration);

    /** Forgets state kept between steps (when the loop is reset); default: nothing. */
    default void reset() {
    }

    /** The body of a lambda transfer function: one loop step. */
    @FunctionalInterface
    interface Body {
        /**
         * @param timeNs    the loop step's start, ns
         * @param iteration the loop step's index
         */
        void run(long timeNs, long iteration);
    }

    /** Binds a lambda transfer function's devices and returns its body (which captures them). */
    @FunctionalInterface
    interface Binding {
        /**
         * @param devices looks devices up
         * @return the per-step body
         */
        Body bind(DeviceBinder devices);
    }

    /**
     * A transfer function from a lambda:
     *
     * <pre>{@code
     * TransferFunction.of(TransferFunctionKind.NEURON_TO_ROBOT, "linear_twist", 0, d -> {
     *     LeakyIntegrator l = d.leakyIntegrator("left_wheel_neuron"), r = d.leakyIntegrator("right_wheel_neuron");
     *     TwistCommand twist = d.twist("husky");
     *     return (t, k) -> twist.set(20 * Math.min(l.voltage(), r.voltage()), 100 * (r.voltage() - l.voltage()));
     * });
     * }</pre>
     *
     * @param kind     direction
     * @param name     name for messages
     * @param priority higher runs first
     * @param binding  maps the devices and returns the per-step body
     * @return the transfer function (binds once; not reusable in two loops)
     */
    static TransferFunction of(TransferFunctionKind kind, String name, int priority, Binding binding) {
        return new LambdaTransferFunction(kind, name, priority, binding);
    }
}
