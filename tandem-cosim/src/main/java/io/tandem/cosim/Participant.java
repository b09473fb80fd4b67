package io.tandem.cosim;

import io.tandem.cosim.internal.ParticipantCore;
import io.tandem.cosim.pubsub.DataMessageHandler;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.DataSubscriber;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.cosim.rpc.RpcCallHandler;
import io.tandem.cosim.rpc.RpcCallResultHandler;
import io.tandem.cosim.rpc.RpcClient;
import io.tandem.cosim.rpc.RpcServer;
import io.tandem.cosim.rpc.RpcSpec;
import java.util.function.Consumer;

/**
 * A member of a simulation (SIL Kit's {@code IParticipant}). Connecting blocks until every
 * participant connected earlier is known. Each participant has one thread on which all its
 * handlers run, one at a time.
 *
 * <p>Methods are safe from any thread unless stated otherwise.
 */
public interface Participant extends AutoCloseable {

    /**
     * Connects a participant.
     *
     * @param registryUri     {@code tandem+inproc://NAME} (in-process) or a networked registry URI
     * @param simulationName  the simulation to join; names on one registry are isolated
     * @param participantName unique within the simulation
     * @return the connected participant
     * @throws ParticipantNameTakenException if the name is taken in this simulation
     * @throws TandemException               if no registry answers at the URI
     * @throws IllegalArgumentException      for a malformed URI or unknown scheme, or empty names
     */
    static Participant connect(String registryUri, String simulationName, String participantName) {
        return ParticipantCore.connect(registryUri, simulationName, participantName);
    }

    /** @return this participant's name */
    String name();

    /** @return the simulation name */
    String simulationName();

    /**
     * @param controllerName name of this publisher
     * @param spec           topic, media type, labels
     * @param history        0 or 1: with 1, subscribers that match later receive the last message
     * @return the publisher
     * @throws ConfigurationException if history is not 0 or 1
     */
    DataPublisher createDataPublisher(String controllerName, PubSubSpec spec, int history);

    /**
     * @param controllerName name of this subscriber
     * @param spec           topic, media type (empty: any), labels
     * @param handler        receives the messages on this participant's thread
     * @return the subscriber
     */
    DataSubscriber createDataSubscriber(String controllerName, PubSubSpec spec, DataMessageHandler handler);

    /**
     * @param controllerName name of this client
     * @param spec           function name, media type (empty: any), labels
     * @param handler        receives the results on this participant's thread
     * @return the client
     */
    RpcClient createRpcClient(String controllerName, RpcSpec spec, RpcCallResultHandler handler);

    /**
     * @param controllerName name of this server
     * @param spec           function name, media type, labels
     * @param handler        serves the calls on this participant's thread
     * @return the server
     */
    RpcServer createRpcServer(String controllerName, RpcSpec spec, RpcCallHandler handler);

    /**
     * Creates the lifecycle service (once per participant).
     *
     * @param mode coordinated or autonomous, non-null
     * @return the service
     * @throws ConfigurationException if called twice
     */
    LifecycleService createLifecycleService(OperationMode mode);

    /** @return the system monitor of this participant (one per participant) */
    SystemMonitor createSystemMonitor();

    /** @return the system controller of this participant (one per participant) */
    SystemController createSystemController();

    /** @param handler called with a participant's name when it connects */
    void addParticipantConnectedHandler(Consumer<String> handler);

    /** @param handler called with a participant's name when it disconnects */
    void addParticipantDisconnectedHandler(Consumer<String> handler);

    /**
     * Tells when this participant loses its connection to the registry, and with it to the
     * simulation: the registry crashed, was killed or closed, or cannot be reached. After that the
     * participant receives nothing more and what it sends is dropped; every peer is reported
     * disconnected (in {@link ParticipantState#ERROR} with the reason "Connection Lost"), and a
     * {@link OperationMode#COORDINATED coordinated} lifecycle ends (see {@link LifecycleService}).
     * Which registry losses a transport can see is its own: a {@code tandem://} participant loses
     * its registry when the registry process ends; an in-process ({@code tandem+inproc://})
     * participant never does (it stays connected to its peers when its registry closes).
     *
     * <p>The handler runs once, on this participant's thread; added after the loss it runs at
     * once. Allocates only when called. Safe from any thread.
     *
     * @param handler called with a message naming this participant and the registry URI (not null)
     */
    void addConnectionLostHandler(Consumer<String> handler);

    /**
     * @return whether this participant is still connected to its registry: false once it has
     *         lost the connection (see {@link #addConnectionLostHandler}) or was closed
     */
    boolean isConnected();

    /**
     * @param participantName a participant
     * @return whether it is connected to this simulation
     */
    boolean isParticipantConnected(String participantName);

    /**
     * Says that this participant expects no message for about {@code durationNs} from now, for
     * example while its peers run a step it knows takes that long. Until then its transport may
     * stop polling and its thread park instead of spinning and yielding, which leaves the CPUs to
     * the processes doing the work; a message arriving meanwhile is handled when the time is up at
     * the latest (a message from this process's own threads wakes it at once). A later call
     * replaces the hint; 0 clears it. Only a hint: nothing is lost whatever the duration, a message
     * is only delayed. Does not allocate. Safe from any thread.
     *
     * @param durationNs how long to expect quiet, ns, {@code >= 0}
     * @throws IllegalArgumentException if durationNs is negative
     */
    void expectQuietFor(long durationNs);

    /** Leaves the simulation and stops this participant's thread. Idempotent. */
    @Override
    void close();
}
