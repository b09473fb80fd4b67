package io.tandem.cosim.msg;

import io.tandem.cosim.ParticipantState;
import java.util.Objects;

/**
 * The sender's new lifecycle state (history 1: replayed to peers that join later).
 *
 * @param state  new state
 * @param reason why
 */
public record StatusUpdate(ParticipantState state, String reason) implements CosimMessage {
    /** Validates non-null fields. */
    public StatusUpdate {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
    }
}
