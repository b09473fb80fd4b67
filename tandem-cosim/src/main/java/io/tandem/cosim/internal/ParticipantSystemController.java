package io.tandem.cosim.internal;

import io.tandem.cosim.SystemController;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The system controller of one participant; a view of its core. */
final class ParticipantSystemController implements SystemController {
    private final ParticipantCore core;

    ParticipantSystemController(ParticipantCore core) {
        this.core = core;
    }

    @Override
    public void setWorkflowConfiguration(List<String> requiredParticipantNames) {
        if (requiredParticipantNames == null || requiredParticipantNames.isEmpty()) {
            throw new IllegalArgumentException("the workflow configuration needs at least one required participant name");
        }
        Set<String> seen = new HashSet<>();
        for (String n : requiredParticipantNames) {
            if (n == null || n.isBlank()) {
                throw new IllegalArgumentException("required participant names must not be null or empty: "
                        + requiredParticipantNames);
            }
            if (!seen.add(n)) {
                throw new IllegalArgumentException("required participant '" + n + "' is listed twice in "
                        + requiredParticipantNames);
            }
        }
        core.setWorkflowConfigurationFromController(List.copyOf(requiredParticipantNames));
    }

    @Override
    public void abortSimulation() {
        core.abortFromController();
    }
}
