package io.tandem.bench.cosim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --registry-uri} and {@code --launcher} of the multi-process co-simulation benchmarks:
 * measure across hosts (or network namespaces standing in for them) on registries that already run,
 * one per host, starting each participant JVM under its host's launcher (e.g. {@code ip netns exec
 * ns1}); participant i joins registry i mod R. A picocli {@code @Mixin}; set when the command line
 * is parsed.
 */
public final class HostsOption {
    @Option(names = "--registry-uri", paramLabel = "URI", split = ",",
            description = "aeron: running registries to use, one per host, the first one this process's (instead of"
                + " starting --registries on loopback); participant i joins the (i mod R)-th.")
    List<String> registryUris = new ArrayList<>();

    @Option(names = "--launcher", paramLabel = "CMD",
            description = "aeron, with --registry-uri: the command that starts a JVM on each registry's host, in the"
                + " same order, repeated (e.g. --launcher - --launcher 'ip netns exec ns1'; '-' for none).")
    List<String> launchers = new ArrayList<>();

    /** Used by picocli. */
    public HostsOption() {
    }

    /** @return whether running registries were given */
    boolean external() {
        return !registryUris.isEmpty();
    }

    /**
     * @return the launcher prefix of the JVMs of the {@code index}-th registry's host (empty: none)
     * @throws IllegalArgumentException if launchers are given without registries or in another number
     */
    List<String> launcher(int index) {
        check();
        if (launchers.isEmpty()) {
            return List.of();
        }
        String l = launchers.get(index % launchers.size()).trim();
        return l.equals("-") || l.isEmpty() ? List.of() : Arrays.asList(l.split("\\s+"));
    }

    /** @throws IllegalArgumentException if the options do not fit together */
    void check() {
        if (!launchers.isEmpty() && launchers.size() != registryUris.size()) {
            throw new IllegalArgumentException("give one --launcher per --registry-uri (" + registryUris.size()
                    + " registries, " + launchers.size() + " launchers)");
        }
        for (String u : registryUris) {
            if (!u.startsWith("tandem://")) {
                throw new IllegalArgumentException("--registry-uri must be tandem://HOST:PORT, got '" + u + "'");
            }
        }
    }
}
