package io.tandem.cosim;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A participant's lifecycle (SIL Kit's state machine). Handlers run on the participant's thread;
 * set them before {@link #startLifecycle()}. An exception thrown by a communication-ready,
 * starting or stop handler moves the participant to {@link ParticipantState#ERROR}.
 *
 * <p><b>Lost participants.</b> A participant that disconnects without reaching Shutdown (it was
 * killed, crashed, was cut off, or was closed early) is reported by every peer in
 * {@link ParticipantState#ERROR} with the reason "Connection Lost"; if it was required, the
 * system state becomes {@link SystemState#ERROR} (as in SIL Kit). Beyond SIL Kit, whose
 * coordinated participants then wait for good with virtual time halted, a
 * {@link OperationMode#COORDINATED coordinated} lifecycle that has started and is not yet
 * stopping ends by itself: it enters {@link ParticipantState#ERROR} with a reason naming the lost
 * participant ({@code "participant 'NAME' lost its connection ..."}), then shuts down on SIL Kit's
 * path out of Error: {@link ParticipantState#SHUTTING_DOWN} (the shutdown handler runs, the stop
 * handler does not) and {@link ParticipantState#SHUTDOWN}, where the future of
 * {@link #startLifecycle()} completes. The same happens when this participant loses its own
 * connection to the registry (see {@link Participant#addConnectionLostHandler}); the reason then
 * names the registry. A lifecycle that was already in Error shuts down. Stopping, stopped,
 * aborting and shut-down lifecycles are not affected, nor are {@link OperationMode#AUTONOMOUS
 * autonomous} ones and losses of participants that are not required: they keep SIL Kit's
 * behaviour. To tell such an end from a normal one, watch the participant's own status (a
 * {@link SystemMonitor} status handler sees its Error and the reason).
 */
public interface LifecycleService {
    /**
     * Creates the time-sync service of this lifecycle (once).
     *
     * @return the service
     * @throws ConfigurationException if called twice or after {@link #startLifecycle()}
     */
    TimeSyncService createTimeSyncService();

    /**
     * Starts the lifecycle: announces the services and walks the states.
     *
     * @return completes with the final state ({@link ParticipantState#SHUTDOWN}) once shut down,
     *         also after the end a lost required participant or a lost registry forces on a
     *         coordinated lifecycle (see the class notes); completes exceptionally if the
     *         participant is closed before
     * @throws IllegalStateException if called twice
     */
    CompletableFuture<ParticipantState> startLifecycle();

    /**
     * Stops the simulation of this participant (Running or Paused: Stopping, Stopped, Shutdown;
     * Error: shutdown; elsewhere ignored with a warning). Safe from any thread.
     *
     * @param reason recorded in the participant status
     */
    void stop(String reason);

    /**
     * Pauses a running participant. Safe from any thread.
     *
     * @param reason recorded in the participant status
     * @throws IllegalStateException if not Running (the participant also enters Error)
     */
    void pause(String reason);

    /**
     * Continues a paused participant. Safe from any thread.
     *
     * @throws IllegalStateException if not Paused (the participant also enters Error)
     */
    void continueSimulation();

    /**
     * Moves the participant to Error (ignored with a warning before {@link #startLifecycle()}, and
     * while shutting down, aborting or shut down, which end in Shutdown anyway). Safe from any
     * thread.
     *
     * @param reason recorded in the participant status
     */
    void reportError(String reason);

    /** @return the current state; safe from any thread */
    ParticipantState state();

    /** @return the operation mode given at creation */
    OperationMode operationMode();

    /** @param handler runs when communication is ready, before ReadyToRun */
    void setCommunicationReadyHandler(Runnable handler);

    /**
     * Sets a handler after which the participant stays CommunicationInitialized until
     * {@link #completeCommunicationReadyHandlerAsync()} is called.
     *
     * @param handler runs when communication is ready
     */
    void setCommunicationReadyHandlerAsync(Runnable handler);

    /** Completes the asynchronous communication-ready handler; safe from any thread. */
    void completeCommunicationReadyHandlerAsync();

    /** @param handler runs before Running, for participants without time sync */
    void setStartingHandler(Runnable handler);

    /** @param handler runs in Stopping */
    void setStopHandler(Runnable handler);

    /** @param handler runs in ShuttingDown; its exceptions are ignored */
    void setShutdownHandler(Runnable handler);

    /** @param handler runs in Aborting with the state before the abort */
    void setAbortHandler(Consumer<ParticipantState> handler);
}
