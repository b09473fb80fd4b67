package io.tandem.cosim;

import java.util.function.Consumer;

/**
 * Observes the lifecycle states of all participants and the system state. Handlers run on the
 * observing participant's thread.
 */
public interface SystemMonitor {
    /**
     * Adds a status handler; it is called at once with the known statuses of connected
     * participants, then with every change.
     *
     * @param handler status handler
     */
    void addParticipantStatusHandler(Consumer<ParticipantStatus> handler);

    /**
     * Adds a system-state handler; it is called at once with the current system state.
     *
     * @param handler system-state handler
     */
    void addSystemStateHandler(Consumer<SystemState> handler);

    /** @return the current system state; safe from any thread */
    SystemState systemState();

    /**
     * @param participantName a participant
     * @return its last known status, or {@code null} if none is known
     */
    ParticipantStatus participantStatus(String participantName);

    /** @param handler called with a participant's name when it connects */
    void addParticipantConnectedHandler(Consumer<String> handler);

    /** @param handler called with a participant's name when it disconnects */
    void addParticipantDisconnectedHandler(Consumer<String> handler);

    /**
     * @param participantName a participant
     * @return whether it is connected; safe from any thread
     */
    boolean isParticipantConnected(String participantName);
}
