package io.tandem.cosim.internal;

import io.tandem.cosim.spi.Transport;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds the transport for a registry URI. Thread-safe; allocates. */
public final class Transports {
    private static final Transport INPROC = new InprocTransport();

    private Transports() {
    }

    /** system property: the partition of participants whose registry URI names none */
    public static final String PARTITION_PROP = "tandem.partition";

    /**
     * The partition a registry URI names ({@code ?partition=NAME}), else the {@code tandem.partition}
     * system property, else none. Partitions keep groups that use the same simulation names on one
     * registry apart (like gz-transport's GZ_PARTITION).
     *
     * @return the partition, "" for none
     * @throws IllegalArgumentException for a malformed query or partition name
     */
    public static String partition(URI uri) {
        String p = System.getProperty(PARTITION_PROP, "");
        String q = uri.getRawQuery();
        if (q != null && !q.isEmpty()) {
            for (String kv : q.split("&")) {
                if (kv.startsWith("partition=")) {
                    p = kv.substring("partition=".length());
                } else {
                    throw new IllegalArgumentException("registry URI '" + uri + "': unknown query '" + kv
                            + "'; the only one is ?partition=NAME");
                }
            }
        }
        if (!p.isEmpty() && !p.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("partition '" + p + "' must be letters, digits, '.', '_' or '-'");
        }
        return p;
    }

    /** @return the URI without its query (what the transport sees) */
    public static URI withoutQuery(URI uri) {
        if (uri.getRawQuery() == null) {
            return uri;
        }
        try {
            return new URI(uri.getScheme(), uri.getRawAuthority(), uri.getRawPath(), null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("malformed registry URI '" + uri + "': " + e.getMessage(), e);
        }
    }

    /**
     * @param uri a registry URI
     * @return the parsed URI
     * @throws IllegalArgumentException if it is null, empty or malformed
     */
    public static URI parse(String uri) {
        if (uri == null || uri.isBlank()) {
            throw new IllegalArgumentException(
                    "registry URI must not be empty; use tandem+inproc://NAME or tandem://HOST:PORT");
        }
        try {
            URI parsed = new URI(uri);
            if (parsed.getScheme() == null) {
                throw new IllegalArgumentException("registry URI '" + uri
                        + "' has no scheme; use tandem+inproc://NAME or tandem://HOST:PORT");
            }
            return parsed;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("malformed registry URI '" + uri + "': " + e.getMessage(), e);
        }
    }

    /**
     * @param uri a parsed registry URI
     * @return the transport serving its scheme
     * @throws IllegalArgumentException if no transport serves the scheme
     */
    public static Transport forScheme(URI uri) {
        String scheme = uri.getScheme();
        if (INPROC.scheme().equalsIgnoreCase(scheme)) {
            return INPROC;
        }
        List<String> known = new ArrayList<>();
        known.add(INPROC.scheme());
        for (Transport t : ServiceLoader.load(Transport.class)) {
            if (t.scheme().equalsIgnoreCase(scheme)) {
                return t;
            }
            known.add(t.scheme());
        }
        throw new IllegalArgumentException("unknown registry URI scheme '" + scheme + "' in '" + uri
                + "'; known schemes: " + String.join(", ", known)
                + (scheme.equalsIgnoreCase("tandem") ? " (tandem:// needs the tandem-net module on the class path)" : ""));
    }
}
