package io.tandem.cosim.internal;

import io.tandem.cosim.ParticipantStatus;
import io.tandem.cosim.SystemMonitor;
import io.tandem.cosim.SystemState;
import java.util.Objects;
import java.util.function.Consumer;

/** The system monitor of one participant; a view of its core. */
final class ParticipantSystemMonitor implements SystemMonitor {
    private final ParticipantCore core;

    ParticipantSystemMonitor(ParticipantCore core) {
        this.core = core;
    }

    @Override
    public void addParticipantStatusHandler(Consumer<ParticipantStatus> handler) {
        core.addStatusHandler(Objects.requireNonNull(handler, "handler"));
    }

    @Override
    public void addSystemStateHandler(Consumer<SystemState> handler) {
        core.addSystemStateHandler(Objects.requireNonNull(handler, "handler"));
    }

    @Override
    public SystemState systemState() {
        return core.systemState();
    }

    @Override
    public ParticipantStatus participantStatus(String participantName) {
        return core.statusOf(Objects.requireNonNull(participantName, "participantName"));
    }

    @Override
    public void addParticipantConnectedHandler(Consumer<String> handler) {
        core.addParticipantConnectedHandler(handler);
    }

    @Override
    public void addParticipantDisconnectedHandler(Consumer<String> handler) {
        core.addParticipantDisconnectedHandler(handler);
    }

    @Override
    public boolean isParticipantConnected(String participantName) {
        return core.isParticipantConnected(participantName);
    }
}
