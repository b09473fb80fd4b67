package io.tandem.cli.tools;

import io.tandem.cli.internal.CliSupport;
import io.tandem.cli.internal.RegistryUris;
import io.tandem.cosim.Participant;
import io.tandem.cosim.RpcCallResultEvent;
import io.tandem.cosim.RpcCallStatus;
import io.tandem.cosim.RpcClient;
import io.tandem.cosim.RpcSpec;
import io.tandem.cosim.TandemException;
import io.tandem.world.DistributedPrimary;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tandem world-control WORLD pause|resume|step [N]}: sends a command to the primary of a
 * distributed world (which passes it on to every secondary) and prints its answer. Retries while
 * the primary is not reachable yet, up to {@code --timeout-s}. Runs on the calling thread.
 */
@Command(name = "world-control", mixinStandardHelpOptions = true,
        description = {"Pauses, resumes or single-steps a distributed world run by 'tandem sim --network-role primary'.",
            "Example: tandem world-control relay pause; tandem world-control relay step 10; tandem world-control relay resume"})
public final class WorldControlCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WORLD", description = "The world's name (its <world name=...>).")
    private String world;

    @Parameters(index = "1", paramLabel = "COMMAND", description = "pause, resume or step.")
    private String command;

    @Parameters(index = "2", paramLabel = "N", arity = "0..1", defaultValue = "1",
            description = "step only: iterations to run while paused (default: ${DEFAULT-VALUE}).")
    private long count;

    @Option(names = "--registry", paramLabel = "URI", defaultValue = RegistryUris.DEFAULT,
            converter = RegistryUris.Connect.class, description = "The run's registry (default: ${DEFAULT-VALUE}).")
    private String registry;

    @Option(names = "--partition", paramLabel = "NAME", description = "The run's partition, if it has one.")
    private String partition;

    @Option(names = "--timeout-s", paramLabel = "S", defaultValue = "10",
            description = "How long to try to reach the primary (default: ${DEFAULT-VALUE}).")
    private long timeoutS;

    /** Used by picocli. */
    public WorldControlCommand() {
    }

    @Override
    public Integer call() throws InterruptedException {
        byte[] argument;
        try {
            argument = DistributedPrimary.encodeControl(command, count);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        String uri = partition == null ? registry : registry + "?partition=" + partition;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        try (Participant p = CliSupport.connect(spec, uri, "tandem-world", "world-control-" + ProcessHandle.current().pid())) {
            while (true) {
                CompletableFuture<RpcCallResultEvent> result = new CompletableFuture<>();
                RpcClient client = p.createRpcClient("control-" + System.nanoTime(),
                        RpcSpec.of(DistributedPrimary.controlFunction(world), ""), result::complete);
                client.callWithTimeout(argument, TimeUnit.SECONDS.toNanos(2));
                RpcCallResultEvent r;
                try {
                    r = result.get(5, TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    r = null;
                }
                if (r != null && r.status() == RpcCallStatus.SUCCESS) {
                    String reply = new String(r.data(), StandardCharsets.UTF_8);
                    out.println(world + ": " + reply);
                    return reply.startsWith("accepted") ? 0 : 1;
                }
                if (System.nanoTime() > deadline) {
                    throw new TandemException("no primary of world '" + world + "' answered at " + uri + " within " + timeoutS
                            + " s: is 'tandem sim WORLD --network-role primary' running there (same --partition)?");
                }
                Thread.sleep(200);
            }
        }
    }
}
