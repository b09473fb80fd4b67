package io.tandem.cli.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tandem demo world}: the README's main job. Runs the embedded example world
 * {@code relay.sdf} (examples/worlds) distributed on this machine: a primary with two local
 * secondaries; rover_a's secondary takes rover_b over with its level at about iteration 2460.
 * It is {@code tandem sim relay.sdf --network-role primary --local-secondaries 2}, on a copy of
 * the world in a temporary folder (removed afterwards). Runs on the calling thread.
 */
@Command(name = "world", mixinStandardHelpOptions = true,
        description = {"Runs the example world relay.sdf distributed over a primary and local secondaries, with a"
                + " handover; prints progress and a summary (real-time factor, iterations, handovers).",
            "Same as: tandem sim examples/worlds/relay.sdf --network-role primary --local-secondaries 2 --iterations 3000"})
public final class WorldDemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--iterations", description = "Iterations (default: ${DEFAULT-VALUE}; the handover comes at about 2460).",
            defaultValue = "3000")
    long iterations;

    @Option(names = "--local-secondaries", paramLabel = "N", description = "Secondaries (default: ${DEFAULT-VALUE}).",
            defaultValue = "2")
    int secondaries;

    @Option(names = "--standalone", description = "Run the world in this process instead (levels on), to compare.")
    boolean standalone;

    @Option(names = "--record", paramLabel = "FILE", description = "Record the poses (.csv, .jsonl or .mcap).")
    Path record;

    @Override
    public Integer call() throws IOException {
        Path dir = Files.createTempDirectory("tandem-demo-world");
        Path world = dir.resolve("relay.sdf");
        try (InputStream in = WorldDemoCommand.class.getResourceAsStream("/io/tandem/cli/worlds/relay.sdf")) {
            if (in == null) {
                throw new UncheckedIOException(new IOException("relay.sdf is missing from this build of tandem"));
            }
            Files.copy(in, world);
            List<String> args = new ArrayList<>(List.of("sim", world.toString(), "--iterations", Long.toString(iterations)));
            if (standalone) {
                args.add("--levels");
            } else {
                args.addAll(List.of("--network-role", "primary", "--local-secondaries", Integer.toString(secondaries)));
            }
            if (record != null) {
                args.addAll(List.of("--record", record.toString()));
            }
            CommandLine root = spec.commandLine();
            while (root.getParent() != null) {
                root = root.getParent();
            }
            return root.execute(args.toArray(String[]::new));
        } finally {
            Files.deleteIfExists(world);
            Files.deleteIfExists(dir);
        }
    }
}
