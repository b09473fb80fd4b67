package io.tandem.cosim.spi;

import java.net.URI;

/**
 * A transport carries membership and messages between the participants of a simulation. It is
 * chosen by the registry URI's scheme; implementations are found with {@link java.util.ServiceLoader}
 * (the in-process one, {@code tandem+inproc}, is built in).
 *
 * <p>Implementations are thread-safe.
 */
public interface Transport {
    /** @return the URI scheme this transport serves, e.g. {@code tandem+inproc} */
    String scheme();

    /**
     * Starts a registry: the discovery point of the simulations that connect to its URI.
     *
     * @param uri where to listen
     * @return the running registry
     * @throws io.tandem.cosim.TandemException if it cannot be started (names the URI and cause)
     */
    RegistryEndpoint startRegistry(URI uri);

    /**
     * Joins a simulation. Before this returns, {@link TransportListener#onPeerJoined} has been
     * called for every participant already in the simulation. A member that has been told of the
     * newcomer can already send to it: nothing sent to the newcomer after that is lost.
     *
     * @param registryUri     the registry
     * @param simulationName  the simulation
     * @param participantName unique in the simulation
     * @param listener        receives membership and messages
     * @return the session
     * @throws io.tandem.cosim.ParticipantNameTakenException if the name is taken
     * @throws io.tandem.cosim.TandemException               if the registry cannot be reached
     */
    TransportSession join(URI registryUri, String simulationName, String participantName, TransportListener listener);
}
