package io.tandem.cli.internal;

import picocli.CommandLine.Option;

/**
 * {@code --registry URI} of the tools that connect to a running registry, {@link RegistryUris#DEFAULT}
 * unless given, checked by {@link RegistryUris.Connect}; a picocli {@code @Mixin}. Set by picocli
 * when the command line is parsed.
 */
public final class RegistryOption {
    @Option(names = "--registry", paramLabel = "URI", defaultValue = RegistryUris.DEFAULT,
            converter = RegistryUris.Connect.class, description = "Registry to connect to (default: ${DEFAULT-VALUE}).")
    String uri;

    /** Used by picocli. */
    public RegistryOption() {
    }

    /** @return the registry's URI, checked */
    public String uri() {
        return uri;
    }
}
