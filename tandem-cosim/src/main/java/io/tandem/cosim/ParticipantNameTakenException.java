package io.tandem.cosim;

/** A participant with the same name is already connected to the same simulation. */
public final class ParticipantNameTakenException extends TandemException {
    private static final long serialVersionUID = 1L;

    /** @param message names the participant and the simulation */
    public ParticipantNameTakenException(String message) {
        super(message);
    }
}
