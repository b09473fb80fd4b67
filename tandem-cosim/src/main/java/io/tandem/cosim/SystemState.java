package io.tandem.cosim;

/**
 * The state of the whole simulation, derived from the states of the required participants
 * (SIL Kit's "earliest state" rule with Paused, Stopping, Error and Aborting dominant).
 * Codes are those of {@link ParticipantState}.
 *
 * <p>Immutable; safe on any thread.
 */
public enum SystemState {
    /** No workflow configuration yet, or a required participant has no known state. */
    INVALID(0),
    /** Every required participant has created its services. */
    SERVICES_CREATED(10),
    /** Every required participant is initializing communication or beyond. */
    COMMUNICATION_INITIALIZING(20),
    /** Every required participant has initialized communication or beyond. */
    COMMUNICATION_INITIALIZED(30),
    /** Every required participant is ready to run or running. */
    READY_TO_RUN(40),
    /** Every required participant is running. */
    RUNNING(50),
    /** A required participant paused. */
    PAUSED(60),
    /** A required participant is stopping. */
    STOPPING(70),
    /** Every required participant has stopped or is shutting down. */
    STOPPED(80),
    /** A required participant is in error or its connection was lost. */
    ERROR(90),
    /** Required participants are shutting down. */
    SHUTTING_DOWN(100),
    /** Every required participant has shut down. */
    SHUTDOWN(110),
    /** A required participant is aborting. */
    ABORTING(120);

    private final int code;

    SystemState(int code) {
        this.code = code;
    }

    /** @return SIL Kit's numeric code of this state */
    public int code() {
        return code;
    }

    /**
     * @param code a numeric state code
     * @return the state with that code
     * @throws IllegalArgumentException if no state has that code
     */
    public static SystemState fromCode(int code) {
        for (SystemState s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("no SystemState has code " + code + " (valid: 0, 10, ..., 120)");
    }
}
