package io.tandem.cle;

/**
 * The NRP's {@code dc_source} device: a NEST {@code dc_generator} whose amplitude transfer
 * functions set. A command device: an amplitude set in loop step k acts from the engine's next
 * sync on.
 */
public final class DcSource extends ScalarCommand {
    /**
     * @param name   device name
     * @param engine the owning engine's name
     * @param initialAmplitudePa the generator's amplitude at time 0, pA
     */
    public DcSource(String name, String engine, double initialAmplitudePa) {
        super(name, engine, Side.BRAIN, initialAmplitudePa);
    }

    /**
     * Sets the current from the engine's next sync on (loop thread; allocates nothing).
     *
     * @param pA amplitude, finite
     * @throws IllegalArgumentException for NaN or infinity
     */
    public void setAmplitude(double pA) {
        if (!Double.isFinite(pA)) {
            throw new IllegalArgumentException("dc source '" + name() + "': amplitude must be finite, got " + pA);
        }
        set(pA);
    }

    /** @return the last amplitude set, pA */
    public double amplitude() {
        return value();
    }
}
