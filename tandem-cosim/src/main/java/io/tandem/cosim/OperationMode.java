package io.tandem.cosim;

/**
 * How a participant's lifecycle relates to the rest of the simulation.
 *
 * <p>Immutable; safe on any thread.
 */
public enum OperationMode {
    /**
     * Follows the system state; must be in the workflow configuration's required list; starts its
     * virtual time at 0 and stops when any required participant stops.
     */
    COORDINATED(10),
    /** Walks its lifecycle on its own; may join a running simulation late and leave early. */
    AUTONOMOUS(20);

    private final int code;

    OperationMode(int code) {
        this.code = code;
    }

    /** @return SIL Kit's numeric code (Coordinated 10, Autonomous 20) */
    public int code() {
        return code;
    }
}
