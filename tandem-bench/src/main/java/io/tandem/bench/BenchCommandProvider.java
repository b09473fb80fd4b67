package io.tandem.bench;

import io.tandem.cli.spi.CommandProvider;

/**
 * Contributes {@code tandem bench} to the command line (listed in
 * {@code META-INF/services/io.tandem.cli.spi.CommandProvider}). Stateless; allocates one command
 * object per call.
 */
public final class BenchCommandProvider implements CommandProvider {

    /** Used by the service loader. */
    public BenchCommandProvider() {
    }

    /** @return a new {@code bench} command */
    @Override
    public Object command() {
        return new BenchCommand();
    }
}
