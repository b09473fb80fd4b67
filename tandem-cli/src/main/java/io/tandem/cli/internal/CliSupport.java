package io.tandem.cli.internal;

import io.tandem.cosim.Participant;
import io.tandem.cosim.TandemException;
import io.tandem.net.NetConfig;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** What the simulation commands share: connecting with one-line errors, waiting on futures. Stateless. */
public final class CliSupport {
    private CliSupport() {
    }

    /**
     * Connects a participant; a user error becomes a one-line message.
     *
     * @param spec        the command (for usage errors)
     * @param registryUri the registry, already checked by {@link RegistryUris}
     * @param simulation  simulation name
     * @param name        participant name
     * @return the connected participant
     * @throws ParameterException for a URI the transport rejects (e.g. an unknown host): exit code 2
     * @throws TandemException    if no registry answers, the name is taken or the versions differ: exit code 1
     */
    public static Participant connect(CommandSpec spec, String registryUri, String simulation, String name) {
        netConfig();
        try {
            return Participant.connect(registryUri, simulation, name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), oneLine(e.getMessage()));
        } catch (TandemException e) {
            throw new TandemException(oneLine(e.getMessage()), e);
        }
    }

    /**
     * @return the transport configuration from the {@code tandem.net.*} system properties
     * @throws TandemException naming a property with an invalid value
     */
    public static NetConfig netConfig() {
        try {
            return NetConfig.fromSystemProperties();
        } catch (IllegalArgumentException e) {
            throw new TandemException("invalid system property: " + oneLine(e.getMessage()), e);
        }
    }

    /** @return the message on one line (user errors print one line) */
    public static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*[\\r\\n]+\\s*", " ").trim();
    }

    /**
     * Waits for a future up to a bound.
     *
     * @return its value, or {@code null} on timeout or failure
     */
    public static <T> T await(CompletableFuture<T> f, long timeoutMs) throws InterruptedException {
        try {
            return f.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
    }
}
