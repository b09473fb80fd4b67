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

    /** Stops the registry; connected participants stay connected to each other. Idempotent. */
    @Override
    public void close() {
        endpoint.close();
    }
}
