package io.tandem.cli.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Checks registry URIs on the command line ({@code tandem://HOST:PORT}) before anything starts, so
 * a malformed one is a usage error (exit code 2) naming the value and the expected form. Host names
 * are resolved later, by the transport. Stateless.
 */
public final class RegistryUris {
    /** the default registry URI of every command: loopback, SIL Kit's port */
    public static final String DEFAULT = "tandem://127.0.0.1:8500";

    private RegistryUris() {
    }

    /**
     * @param value     the option value
     * @param allowPort0 whether port 0 (any free port) is allowed (registries only)
     * @return the value, trimmed
     * @throws TypeConversionException naming the value and the expected form
     */
    static String check(String value, boolean allowPort0) {
        String v = value.trim();
        String form = " must be tandem://HOST:PORT" + (allowPort0 ? "" : "[?partition=NAME]") + ", e.g. " + DEFAULT;
        URI uri;
        try {
            uri = new URI(v);
        } catch (URISyntaxException e) {
            throw new TypeConversionException("'" + v + "' is not a URI (" + e.getReason() + "); a registry URI" + form);
        }
        if (uri.getScheme() == null || !uri.getScheme().toLowerCase(Locale.ROOT).equals("tandem")) {
            throw new TypeConversionException("'" + v + "' is not a tandem:// URI; a registry URI" + form);
        }
        // participants may name a partition (?partition=NAME); a registry listens for every partition
        boolean queryOk = uri.getQuery() == null || (!allowPort0 && uri.getQuery().matches("partition=[A-Za-z0-9._-]+"));
        if (uri.getHost() == null || uri.getPort() < 0 || uri.getUserInfo() != null || !queryOk
                || uri.getFragment() != null || (uri.getPath() != null && !uri.getPath().isEmpty()
                && !uri.getPath().equals("/"))) {
            throw new TypeConversionException("'" + v + "'" + form);
        }
        if (uri.getPort() > 65535) {
            throw new TypeConversionException("port " + uri.getPort() + " of '" + v + "' is out of range (1-65535)");
        }
        if (uri.getPort() == 0 && !allowPort0) {
            throw new TypeConversionException("'" + v + "' has port 0: give the registry's port, e.g. " + DEFAULT);
        }
        return v;
    }

    /** Converts the URI a registry listens on; port 0 picks a free port. */
    public static final class Listen implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            return check(value, true);
        }
    }

    /** Converts the URI of a registry to connect to; the port is required. */
    public static final class Connect implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            return check(value, false);
        }
    }
}
