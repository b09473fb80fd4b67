package io.tandem.cle.device;

/**
 * A reading device holding one number, double-buffered (see {@link Device}): the engine side
 * stores into the back buffer, the loop latches it at the engine's sync. The shared part of
 * {@link LeakyIntegrator} and {@link PopulationRate}; allocates nothing.
 */
abstract class ScalarReading extends Device {
    private double front;
    private double back;

    ScalarReading(String name, String engine, Side side) {
        super(name, engine, side, false);
    }

    /** @return the value at the start of the loop step (loop thread) */
    final double front() {
        return front;
    }

    /** Engine side: the value after an advance (the engine's thread). */
    final void store(double value) {
        back = value;
        published = true;
    }

    @Override
    final void swap() {
        front = back;
    }

    @Override
    final void clearBuffers() {
        front = 0;
        back = 0;
        published = false;
    }
}
