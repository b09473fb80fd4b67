package io.tandem.cle;

/**
 * The NRP's {@code dc_source} device: a NEST {@code dc_generator} whose amplitude transfer
 * functions set. A command device: an amplitude set in loop step k acts from the engine's next
 * sync on.
 */
public final class DcSource extends Device {
    private final double initialAmplitudePa;
    private double amplitudePa;
    private boolean changed;

    /**
     * @param name               device name
     * @param engine             the owning engine's name
     * @param initialAmplitudePa the generator's amplitude at time 0, pA
     */
    public DcSource(String name, String engine, double initialAmplitudePa) {
        super(name, engine, Side.BRAIN, true);
        this.initialAmplitudePa = initialAmplitudePa;
        this.amplitudePa = initialAmplitudePa;
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
        amplitudePa = pA;
        changed = true;
    }

    /** @return the amplitude at time 0, pA (a remote engine's mirror device is built with it) */
    double initialAmplitudePa() {
        return initialAmplitudePa;
    }

    /** @return the last amplitude set, pA */
    public double amplitude() {
        return amplitudePa;
    }

    /**
     * Engine side: whether an amplitude was set since the last call, clearing the flag.
     *
     * @return true when {@link #amplitude()} should be applied
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
    void clear() {
        amplitudePa = initialAmplitudePa;
        changed = false;
    }
}
