package io.tandem.physics;

/** A step produced a NaN or infinite state; the state is left as it was before the step. */
public final class SimulationDivergedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message names the body, the step and the likely cause */
    public SimulationDivergedException(String message) {
        super(message);
    }
}
