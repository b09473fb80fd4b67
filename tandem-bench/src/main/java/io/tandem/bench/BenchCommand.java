package io.tandem.bench;

import io.tandem.bench.cosim.PubSubCommand;
import io.tandem.bench.cosim.TimeSyncCommand;
import io.tandem.bench.physics.ChainCommand;
import io.tandem.bench.physics.PileCommand;
import io.tandem.bench.physics.RobotCommand;
import io.tandem.bench.physics.ScalingCommand;
import io.tandem.bench.physics.SpeedupCommand;
import io.tandem.bench.physics.SolversCommand;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tandem bench}: the parent of the benchmark scenarios. Add a scenario by listing its
 * command class in {@code subcommands}.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Measures Tandem's performance.",
        subcommands = {TimeSyncCommand.class, PubSubCommand.class, PileCommand.class, ChainCommand.class, SolversCommand.class,
            ScalingCommand.class, SpeedupCommand.class, RobotCommand.class, JmhCommand.class, WorldCommand.class, CleBenchCommand.class, BrainCommand.class, SoakCommand.class},
        commandListHeading = "%nBenchmarks:%n")
final class BenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing benchmark: choose one of " + spec.subcommands().keySet());
    }
}
