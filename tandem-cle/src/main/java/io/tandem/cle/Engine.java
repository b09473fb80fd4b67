package io.tandem.cle;

import io.tandem.cle.device.Device;
import java.util.List;

/**
 * A simulator the closed loop steps (the NRP's brain and robot adapters, NRP-core's engine
 * clients): it advances for a given simulated duration and exchanges data with transfer functions
 * through its {@link Device}s. Implementations: {@link io.tandem.cle.engine.BrainEngine} (a spiking network) and
 * {@link io.tandem.cle.engine.WorldEngine} (a world runner).
 *
 * <p>Call sequence, driven by {@link ClosedLoop}: {@link #device} while the loop is built; then
 * {@link #initialize()} and {@link #publishOutputs()} once; then at each of the engine's sync
 * points {@link #applyInputs()} (loop thread) followed by {@link #advance} and
 * {@link #publishOutputs()} (the engine's own thread in {@link SyncMode#PARALLEL}, the loop thread
 * in {@link SyncMode#SERIAL}). Calls never overlap, and each happens-before the next, so an engine
 * needs no locking. {@link #advance}, {@link #publishOutputs()} and {@link #applyInputs()} should
 * allocate nothing.
 */
public interface Engine extends AutoCloseable {
    /** @return the engine's name, unique in a closed loop */
    String name();

    /**
     * @return the engine's own step, ns: it advances only by whole multiples of it (the world's
     *         physics step, the network's resolution)
     */
    long timestepNs();

    /** @return the engine's simulated time, ns */
    long timeNs();

    /**
     * The device of this name and type, created on first request and the same instance afterwards.
     * Called while the loop is built (loop thread); allocates.
     *
     * @param name the device's name
     * @param type the device class wanted
     * @param <D>  the device type
     * @return the device, or null when the engine has no device of this name
     * @throws IllegalArgumentException when it has one of this name but of another type, or the
     *                                  name cannot be served (naming the reason)
     */
    <D extends Device> D device(String name, Class<D> type);

    /** @return a description of the devices the engine can serve, for error messages */
    List<String> deviceNames();

    /** Prepares the engine for time 0 (loop thread, once, before the first step). */
    void initialize();

    /** Applies the command devices' last values to the engine (loop thread, engine idle, at each sync). */
    void applyInputs();

    /**
     * Advances the simulation (blocking).
     *
     * @param durationNs a positive multiple of {@link #timestepNs()}
     */
    void advance(long durationNs);

    /** Writes the engine's state into the back buffers of its reading devices (after initialize, reset and each advance). */
    void publishOutputs();

    /** Returns the engine to time 0 with its initial state (loop thread, engine idle); devices are cleared by the loop. */
    void reset();

    /** Releases the engine's resources; idempotent. */
    @Override
    void close();
}
