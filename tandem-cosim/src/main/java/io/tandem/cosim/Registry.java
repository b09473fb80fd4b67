package io.tandem.cosim;

import io.tandem.cosim.internal.Transports;
import io.tandem.cosim.spi.RegistryEndpoint;
import java.net.URI;

/**
 * The discovery point of a group of simulations (SIL Kit's registry). {@code tandem+inproc://NAME}
 * starts an in-process registry; other schemes come from transports on the class path.
 *
 * <p>Thread-safe.
 */
public final class Registry implements AutoCloseable {
    private final RegistryEndpoint endpoint;

    private Registry(RegistryEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * @param uri e.g. {@code tandem+inproc://bench}
     * @return the started registry
     * @throws IllegalArgumentException for a malformed URI or an unknown scheme
     * @throws TandemException          if a registry already runs at that URI
     */
    public static Registry start(String uri) {
        URI parsed = Transports.parse(uri);
        return new Registry(Transports.forScheme(parsed).startRegistry(parsed));
    }

    /** @return the URI participants connect to */
    public String uri() {
        return endpoint.uri();
    }

    /**
     * Stops the registry. Idempotent. What happens to the participants connected through it
     * depends on the transport:
     *
     * <ul>
     *   <li>{@code tandem+inproc://NAME}: nothing. They stay connected to each other, keep
     *       exchanging messages and see each other come and go; only new participants cannot
     *       connect (until a registry of that name starts again, which starts a new, empty group).
     *   <li>{@code tandem://HOST:PORT}: every participant loses its connection. The registry is
     *       the membership group's coordinator and hosts the media driver all messages pass
     *       through, so each participant loses every peer: its connection-lost handlers run
     *       ({@link Participant#addConnectionLostHandler}, naming the registry URI), each peer is
     *       reported disconnected in {@link ParticipantState#ERROR} "Connection Lost", the
     *       system state becomes {@link SystemState#ERROR} if a required participant was among
     *       them, and coordinated lifecycles end in Error and shut down (see
     *       {@link LifecycleService}). They cannot rejoin a new registry on the same URI:
     *       connect new participants. A crashed or killed registry has the same effect.
     * </ul>
     *
     * Called on any thread; blocks until the registry has stopped.
     */
    @Override
    public void close() {
        endpoint.close();
    }
}
