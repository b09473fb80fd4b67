package io.tandem.cosim;

import java.util.Objects;

/**
 * A participant's latest lifecycle state, as seen by system monitors.
 *
 * @param participantName the participant
 * @param state           its state
 * @param reason          why it entered the state (never null)
 */
public record ParticipantStatus(String participantName, ParticipantState state, String reason) {
    /** Validates non-null fields. */
    public ParticipantStatus {
        Objects.requireNonNull(participantName, "participantName");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
    }
}
