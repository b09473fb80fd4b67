package io.tandem.cle.device;

/**
 * A typed handle on one piece of engine data that transfer functions read or write (the NRP's
 * devices and NRP-core's DataPacks). Reading devices ({@link LeakyIntegrator}, {@link CameraImage},
 * ...) are double-buffered: the engine's thread publishes into a back buffer after each advance,
 * and the closed loop latches it into the front buffer at the engine's next sync point, so a
 * transfer function of loop step k always reads the value at the start of that step, in both
 * {@link io.tandem.cle.SyncMode}s. Command devices ({@link PoissonSource}, {@link TwistCommand}, ...) keep the
 * last value a transfer function wrote; the engine applies it at its next sync point, from which
 * on it acts.
 *
 * <p>Sides: a transfer function's methods (getters of reading devices, setters of command devices)
 * are called on the loop thread; the engine-side methods ({@code publish}, {@code take...}) by the
 * owning engine, as each documents. Devices are created by engines, one per name; none of their
 * per-step methods allocates.
 */
public abstract class Device {
    /** Where a device's data lives: the brain or the robot (world). */
    public enum Side {
        /** a brain device (NEST devices: generators, integrators, recorders) */
        BRAIN,
        /** a robot device (sensors and actuators of the world) */
        ROBOT
    }

    private final String name;
    private final String engine;
    private final Side side;
    private final boolean command;
    /** set by the engine side's publish, cleared by latch */
    boolean published;

    Device(String name, String engine, Side side, boolean command) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a device needs a non-empty name");
        }
        if (engine == null || engine.isEmpty()) {
            throw new IllegalArgumentException("device '" + name + "' needs the name of its engine");
        }
        this.name = name;
        this.engine = engine;
        this.side = side;
        this.command = command;
    }

    /** @return the device's name, unique within its engine */
    public final String name() {
        return name;
    }

    /** @return the name of the engine that owns the device */
    public final String engine() {
        return engine;
    }

    /** @return whether the data lives in the brain or the robot */
    public final Side side() {
        return side;
    }

    /** @return true for a command device (transfer functions write it), false for a reading device */
    public final boolean isCommand() {
        return command;
    }

    /**
     * Makes the last published value the one transfer functions read. Called by the closed loop on
     * the loop thread while the owning engine is idle, at the engine's sync points; a no-op when
     * nothing was published since the last latch. Allocates nothing. Engine side: called by the
     * loop ({@code ClosedLoop}) and an engine server ({@code EngineServer}), never by transfer
     * functions.
     *
     * @return whether a value published since the last latch became the one read
     */
    public final boolean latch() {
        if (published) {
            published = false;
            swap();
            return true;
        }
        return false;
    }

    /** Copies (or swaps) the back buffer into the front buffer. */
    abstract void swap();

    /**
     * Returns to the values at time 0 (front and back buffers, commands). Engine side: loop thread
     * (or an engine server's thread), engine idle; never called by transfer functions.
     */
    public final void clear() {
        clearBuffers();
    }

    /** {@link #clear()}'s work, per device type. */
    abstract void clearBuffers();

    @Override
    public String toString() {
        return getClass().getSimpleName() + " '" + name + "' of engine '" + engine + "'";
    }
}
