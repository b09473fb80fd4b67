package io.tandem.cosim.msg;

import java.util.List;

/**
 * The names of the required participants (history 1).
 *
 * @param requiredParticipantNames required participants
 */
public record WorkflowConfiguration(List<String> requiredParticipantNames) implements CosimMessage {
    /** Copies the list. */
    public WorkflowConfiguration {
        requiredParticipantNames = List.copyOf(requiredParticipantNames);
    }
}
