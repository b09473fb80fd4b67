package io.tandem.cosim;

import java.util.List;

/** Sets simulation-wide parameters and sends system commands (SIL Kit's system controller). */
public interface SystemController {
    /**
     * Sets the names of the required participants for the whole simulation (also for participants
     * that join later). Set it once, from one participant.
     *
     * @param requiredParticipantNames required participants, non-empty, no duplicates
     */
    void setWorkflowConfiguration(List<String> requiredParticipantNames);

    /** Aborts every participant with a lifecycle, this one included. */
    void abortSimulation();
}
