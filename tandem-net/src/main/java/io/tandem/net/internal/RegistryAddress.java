package io.tandem.net.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * A parsed {@code tandem://host:port} registry URI.
 *
 * @param uri     the URI as given
 * @param address resolved host and port (port 0: any free port, registries only)
 */
record RegistryAddress(URI uri, InetSocketAddress address) {
    static final String SCHEME = "tandem";

    /**
     * @param uri a registry URI
     * @return the parsed address
     * @throws IllegalArgumentException if it is not {@code tandem://host:port} or the host is unknown
     */
    static RegistryAddress parse(URI uri) {
        if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("'" + uri + "' is not a " + SCHEME + ":// URI");
        }
        String host = uri.getHost();
        int port = uri.getPort();
        if (host == null || port < 0 || (uri.getPath() != null && !uri.getPath().isEmpty() && !uri.getPath().equals("/"))
                || uri.getQuery() != null || uri.getUserInfo() != null) {
            throw new IllegalArgumentException("registry URI '" + uri + "' must be " + SCHEME
                    + "://HOST:PORT, e.g. tandem://127.0.0.1:8500");
        }
        if (port > 65535) {
            throw new IllegalArgumentException("port " + port + " of registry URI '" + uri + "' is out of range (0-65535)");
        }
        try {
            return new RegistryAddress(uri, new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "' in registry URI '" + uri + "'", e);
        }
    }

    /** @return {@code tandem://host:port} with the given port */
    String uriWithPort(int port) {
        String host = uri.getHost();
        return SCHEME + "://" + host + ":" + port;
    }

    @Override
    public String toString() {
        return uri.toString();
    }
}
