package io.tandem.cosim;

/**
 * The lifecycle state of one participant, with SIL Kit's numeric wire codes.
 *
 * <p>Immutable; safe on any thread.
 */
public enum ParticipantState {
    /** Before {@code startLifecycle}; also the state of a participant without a lifecycle. */
    INVALID(0),
    /** Services are created and announced. */
    SERVICES_CREATED(10),
    /** Waiting for pending discovery to complete. */
    COMMUNICATION_INITIALIZING(20),
    /** Communication with every known peer is set up. */
    COMMUNICATION_INITIALIZED(30),
    /** The communication-ready handler has run. */
    READY_TO_RUN(40),
    /** Simulating; virtual time advances. */
    RUNNING(50),
    /** Paused by the participant itself. */
    PAUSED(60),
    /** Stop requested; the stop handler runs. */
    STOPPING(70),
    /** Stop handler done. */
    STOPPED(80),
    /** An error was reported; only shutdown or abort leave it. */
    ERROR(90),
    /** The shutdown handler runs. */
    SHUTTING_DOWN(100),
    /** Final state. */
    SHUTDOWN(110),
    /** Abort in progress; the abort handler runs. */
    ABORTING(120);

    private final int code;

    ParticipantState(int code) {
        this.code = code;
    }

    /** @return SIL Kit's numeric code of this state (Invalid 0 ... Aborting 120) */
    public int code() {
        return code;
    }

    /**
     * @param code a numeric state code
     * @return the state with that code
     * @throws IllegalArgumentException if no state has that code
     */
    public static ParticipantState fromCode(int code) {
        for (ParticipantState s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("no ParticipantState has code " + code + " (valid: 0, 10, ..., 120)");
    }
}
