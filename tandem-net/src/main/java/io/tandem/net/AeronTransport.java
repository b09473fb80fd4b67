package io.tandem.net;

import io.tandem.cosim.TandemException;
import io.tandem.cosim.spi.RegistryEndpoint;
import io.tandem.cosim.spi.Transport;
import io.tandem.cosim.spi.TransportListener;
import io.tandem.cosim.spi.TransportSession;
import io.tandem.net.internal.NetRegistry;
import io.tandem.net.internal.NetSession;
import java.net.URI;

/**
 * The {@code tandem://host:port} transport: Aeron carries every message between participants
 * (over IPC through their registry's media driver; over UDP between participants of different
 * registries, see {@link NetConfig#peers()}), a JGroups group whose initial host is the registry
 * carries membership and failure detection (a killed participant is reported lost in well under
 * a second). A participant's own thread polls its Aeron subscriptions while it is awake
 * ({@link io.tandem.cosim.spi.TransportSession#poll()}), a transport thread per participant while it
 * sleeps. Found by {@link java.util.ServiceLoader}; construct it directly to pass a
 * {@link NetConfig}.
 *
 * <p>Every JVM using it needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}
 * (Aeron's Agrona 2 reads memory through {@code jdk.internal.misc.Unsafe}).
 *
 * <p>Thread-safe; immutable.
 */
public final class AeronTransport implements Transport {
    /** the URI scheme served */
    public static final String SCHEME = "tandem";
    /** the wire protocol version this build speaks */
    public static final int PROTOCOL_VERSION = 2;

    private final NetConfig config;

    /** With the configuration from system properties ({@link NetConfig#fromSystemProperties()}). */
    public AeronTransport() {
        this(NetConfig.fromSystemProperties());
    }

    /** @param config the configuration (not modified) */
    public AeronTransport(NetConfig config) {
        this.config = java.util.Objects.requireNonNull(config, "config");
    }

    /** @return the configuration */
    public NetConfig config() {
        return config;
    }

    @Override
    public String scheme() {
        return SCHEME;
    }

    /**
     * Starts a registry: a JGroups member bound to the URI's host and port, and an Aeron media
     * driver in a per-registry directory (removed on close, and on start if a crashed run left it).
     *
     * @param uri {@code tandem://host:port}; port 0 picks a free port (see {@link RegistryEndpoint#uri()})
     */
    @Override
    public RegistryEndpoint startRegistry(URI uri) {
        requireUnsafeAccess();
        return NetRegistry.start(uri, config, PROTOCOL_VERSION);
    }

    @Override
    public TransportSession join(URI registryUri, String simulationName, String participantName, TransportListener listener) {
        requireUnsafeAccess();
        return NetSession.join(registryUri, simulationName, participantName, listener, config, PROTOCOL_VERSION);
    }

    private static void requireUnsafeAccess() {
        Module agrona = org.agrona.concurrent.UnsafeBuffer.class.getModule();
        if (!Object.class.getModule().isExported("jdk.internal.misc", agrona)) {
            throw new TandemException("the tandem:// transport needs the JVM option "
                    + "--add-exports java.base/jdk.internal.misc=" + (agrona.isNamed() ? agrona.getName() : "ALL-UNNAMED")
                    + " (Aeron's Agrona reads memory through jdk.internal.misc.Unsafe)");
        }
    }
}
