package io.tandem.cle.remote;

import java.util.List;

/**
 * Where a launched engine server connects and what it is called: the part of an engine
 * server's command line that {@link RemoteEngine} decides, whatever program serves the engine.
 * Immutable.
 *
 * @param registry       the registry URI ({@code tandem://HOST:PORT})
 * @param simulation     the simulation the server joins
 * @param participant    the server's participant name
 * @param engine         the served engine's name
 * @param attachTimeoutS how long the server waits for its client to attach, s (at least 1)
 */
public record EngineServerAddress(String registry, String simulation, String participant, String engine,
                                  long attachTimeoutS) {
    /** Validates: every name non-empty, the timeout at least 1 s. */
    public EngineServerAddress {
        for (String[] f : new String[][] {{"registry", registry}, {"simulation", simulation},
            {"participant", participant}, {"engine", engine}}) {
            if (f[1] == null || f[1].isEmpty()) {
                throw new IllegalArgumentException("an engine server's " + f[0] + " must not be empty");
            }
        }
        if (attachTimeoutS < 1) {
            throw new IllegalArgumentException("an engine server's attach timeout must be >= 1 s, got " + attachTimeoutS);
        }
    }

    /**
     * @return the options every engine server takes ({@code tandem engine-server}'s): {@code --registry},
     *         {@code --simulation}, {@code --name}, {@code --engine}, {@code --attach-timeout-s} and
     *         {@code --exit-with-parent} (the server ends when its parent does)
     */
    public List<String> options() {
        return List.of("--registry", registry, "--simulation", simulation, "--name", participant, "--engine", engine,
                "--attach-timeout-s", Long.toString(attachTimeoutS), "--exit-with-parent");
    }
}
