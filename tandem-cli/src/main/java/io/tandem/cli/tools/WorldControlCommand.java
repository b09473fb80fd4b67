package io.tandem.cli.tools;

import io.tandem.cli.internal.CliSupport;
import io.tandem.cli.internal.RegistryUris;
import io.tandem.cosim.Participant;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.rpc.RpcCallResultEvent;
import io.tandem.cosim.rpc.RpcCallStatus;
import io.tandem.cosim.rpc.RpcClient;
import io.tandem.cosim.rpc.RpcSpec;
import io.tandem.world.PoseRecorder;
import io.tandem.world.distributed.DistributedPrimary;
import io.tandem.world.distributed.ScenePoses;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tandem world-control WORLD pause|resume|step [N]|set-performer MODEL|twist MODEL V W|joint-target
 * MODEL::JOINT Q [QD]}: sends a command to the primary of a distributed world (which passes it on to
 * every secondary; a twist or joint target reaches the one simulating the model) and prints its answer. Retries while
 * the primary is not reachable yet, up to {@code --timeout-s}. {@code watch [N]} prints the next N
 * scenes the primary publishes (the first is the last one published) as CSV pose rows, in the
 * format of {@code tandem sim --record}. Runs on the calling thread.
 */
@Command(name = "world-control", mixinStandardHelpOptions = true,
        description = {"Pauses, resumes or single-steps a distributed world run by 'tandem sim --network-role primary', makes"
            + " a model a performer (Gazebo's level/set_performer), drives a robot (a twist, Gazebo's cmd_vel; a joint"
            + " target), or prints the scenes the primary publishes (every loaded model's pose, as CSV rows like --record's).",
            "Example: tandem world-control relay pause; tandem world-control relay step 10; tandem world-control relay resume;"
            + " tandem world-control relay set-performer crate_2; tandem world-control relay watch 5;"
            + " tandem world-control levels twist vehicle_blue 1.0 0.3; tandem world-control w joint-target arm::elbow 0.5"})
public final class WorldControlCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @picocli.CommandLine.Mixin
    io.tandem.cli.internal.SecretFileOption secretFile;

    @Parameters(index = "0", paramLabel = "WORLD", description = "The world's name (its <world name=...>).")
    private String world;

    @Parameters(index = "1", paramLabel = "COMMAND", description = "pause, resume, step, set-performer, twist, joint-target"
            + " or watch.")
    private String command;

    @Parameters(index = "2..*", paramLabel = "ARG", arity = "0..3",
            description = "step: iterations to run while paused (default: 1); watch: scenes to print (default: 1);"
                + " set-performer: the model that becomes a performer; twist: MODEL FORWARD (m/s) YAW_RATE (rad/s), for a"
                + " model with a DiffDrive plugin or planar coordinates; joint-target: MODEL::JOINT POSITION [VELOCITY],"
                + " for a robot in joint coordinates.")
    private java.util.List<String> arguments;

    /** @return the arguments joined by spaces, or null without any */
    private String argument() {
        return arguments == null || arguments.isEmpty() ? null : String.join(" ", arguments);
    }

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
        if (command.equalsIgnoreCase("watch")) {
            return watch();
        }
        byte[] call;
        try {
            call = DistributedPrimary.encodeControl(command, argument());
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
                client.callWithTimeout(call, TimeUnit.SECONDS.toNanos(2));
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

    /** Prints the next count scenes (the publisher's last one first), or fails after --timeout-s without one. */
    private int watch() throws InterruptedException {
        long count;
        try {
            count = argument() == null ? 1 : Long.parseLong(argument().trim());
        } catch (NumberFormatException e) {
            count = 0;
        }
        if (count < 1) {
            throw new ParameterException(spec.commandLine(), "watch needs a number N >= 1 of scenes, got '" + argument() + "'");
        }
        PrintWriter out = spec.commandLine().getOut();
        String uri = partition == null ? registry : registry + "?partition=" + partition;
        BlockingQueue<ScenePoses> scenes = new LinkedBlockingQueue<>();
        try (Participant p = CliSupport.connect(spec, uri, "tandem-world", "world-watch-" + ProcessHandle.current().pid())) {
            ScenePoses.subscribe(p, world, scenes::add);
            out.print(PoseRecorder.CSV_HEADER);
            for (long n = 0; n < count; n++) {
                ScenePoses s = scenes.poll(timeoutS, TimeUnit.SECONDS);
                if (s == null) {
                    throw new TandemException("no scene of world '" + world + "' arrived at " + uri + " within " + timeoutS
                            + " s: is 'tandem sim WORLD --network-role primary' running there (same --partition), with"
                            + " --scene-hz above 0?");
                }
                double t = s.simTimeNs() / 1e9;
                for (int i = 0; i < s.models().size(); i++) {
                    out.print(PoseRecorder.csvRow(s.iteration(), t, s.models().get(i), s.pose(i)));
                }
                out.flush();
            }
            return 0;
        }
    }
}
