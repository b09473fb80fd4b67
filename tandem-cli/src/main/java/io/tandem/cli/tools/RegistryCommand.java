package io.tandem.cli.tools;

import io.tandem.cli.internal.CliSupport;
import io.tandem.cli.internal.RegistryUris;
import io.tandem.cli.internal.StopSignal;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.spi.RegistryEndpoint;
import io.tandem.net.AeronTransport;
import io.tandem.net.NetConfig;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tandem registry}: runs a {@code tandem://} registry (SIL Kit's {@code sil-kit-registry})
 * with its Aeron media driver until Ctrl-C or SIGTERM, then closes it, which removes the driver's
 * directory. Runs on the calling thread; not thread-safe.
 */
@Command(
        name = "registry",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the registry of tandem:// simulations until Ctrl-C.",
            "Participants, monitors and controllers on this host connect to it; it hosts the Aeron media driver"
                + " they exchange messages through, in a directory it removes on exit (and on start, if a crashed"
                + " run left it). Listens on loopback unless --listen names another interface."
        })
public final class RegistryCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @picocli.CommandLine.Mixin
    io.tandem.cli.internal.SecretFileOption secretFile;

    @Option(names = "--listen", paramLabel = "URI", defaultValue = RegistryUris.DEFAULT, converter = RegistryUris.Listen.class,
            description = "URI to listen on, tandem://HOST:PORT; port 0 picks a free port (default: ${DEFAULT-VALUE}).")
    private String listen;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Parent directory of the media driver's directory (default: /dev/shm/tandem-USER, or"
                + " java.io.tmpdir/tandem-USER without /dev/shm).")
    private Path dir;

    @Option(names = "--peer", paramLabel = "URI", split = ",",
            description = "Another host's registry, tandem://HOST:PORT (repeat or comma-separate): this registry joins"
                + " their group, and participants of different registries talk over Aeron UDP. Start the registries"
                + " one after the other, before any participant.")
    private java.util.List<String> peers = new java.util.ArrayList<>();

    /** Used by picocli. */
    public RegistryCommand() {
    }

    /**
     * Starts the registry, prints where it listens, waits for Ctrl-C, closes it.
     *
     * @return 0 after a clean stop
     * @throws TandemException if the registry cannot start (e.g. the port is taken); names the URI
     */
    @Override
    public Integer call() throws InterruptedException {
        NetConfig config = CliSupport.netConfig();
        if (dir != null || !peers.isEmpty()) {
            NetConfig.Builder b = config.toBuilder();
            if (dir != null) {
                b.registryDirectory(dir.toAbsolutePath());
            }
            if (!peers.isEmpty()) {
                b.peers(peers);
            }
            try {
                config = b.build();
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "invalid value for option '--peer': " + e.getMessage());
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        try (StopSignal stop = StopSignal.onShutdown()) {
            RegistryEndpoint registry;
            try {
                registry = new AeronTransport(config).startRegistry(URI.create(listen));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "invalid value for option '--listen': " + e.getMessage());
            } catch (TandemException e) {
                throw portInUse(e);
            }
            try {
                out.println("tandem registry: listening on " + registry.uri()
                        + (dir == null ? "" : " (media driver under " + dir.toAbsolutePath() + ")") + "; Ctrl-C stops it");
                out.flush();
                String why = stop.requested().get();
                out.println("tandem registry: " + why + "; closing " + registry.uri());
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            } finally {
                registry.close();
                out.flush();
            }
        }
        return 0;
    }

    /** @return a one-line error; for a taken port, one that names the port and the fix */
    private TandemException portInUse(TandemException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException) {
                URI uri = URI.create(listen);
                return new TandemException("cannot listen on " + listen + ": port " + uri.getPort() + " is in use"
                        + " (another registry or program listens there); stop it or choose another port, e.g. --listen"
                        + " tandem://" + uri.getHost() + ":" + (uri.getPort() == 65535 ? 8500 : uri.getPort() + 1), e);
            }
        }
        return new TandemException(CliSupport.oneLine(e.getMessage()), e);
    }
}
