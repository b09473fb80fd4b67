package io.tandem.cli.cle;

import io.tandem.cle.Engine;
import io.tandem.cle.experiment.ExperimentFile;
import io.tandem.cle.experiment.ExperimentFileException;
import io.tandem.cle.experiment.ExperimentOverrides;
import io.tandem.cle.experiment.ExperimentRunner;
import io.tandem.cle.remote.EngineLauncher;
import io.tandem.cle.remote.EngineServer;
import io.tandem.cle.remote.EngineServerAddress;
import io.tandem.cli.TandemCli;
import io.tandem.cosim.process.ChildJvm;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tandem engine-server} (hidden): serves an experiment file's brain or world engine to a
 * {@code RemoteEngine} in another process (NRP-core's engine servers), the process that
 * {@code tandem cle --separate} starts through {@link #LAUNCHER}. Exit codes: 0 shut down by its
 * client, 1 failed (client lost, no client, engine build failed), 2 wrong arguments. Runs on the
 * calling thread.
 */
@Command(name = "engine-server", hidden = true, mixinStandardHelpOptions = true,
        description = "Serves an experiment's brain or world engine to a closed loop in another process (started by"
                + " 'tandem cle --separate').")
public final class EngineServerCommand implements Callable<Integer> {
    /** Starts {@code tandem engine-server} in a child JVM with this JVM's class path. */
    public static final EngineLauncher LAUNCHER = EngineLauncher.childJvm(TandemCli.class.getName(), List.of("engine-server"),
            List.of());

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    io.tandem.cli.internal.SecretFileOption secretFile;

    @Option(names = "--registry", required = true, paramLabel = "URI", description = "The registry (tandem://HOST:PORT).")
    String registry;

    @Option(names = "--simulation", required = true, paramLabel = "NAME", description = "The simulation to join.")
    String simulation;

    @Option(names = "--name", required = true, paramLabel = "PARTICIPANT", description = "This server's participant name.")
    String participant;

    @Option(names = "--engine", required = true, paramLabel = "NAME", description = "The served engine's name (the client's).")
    String engineName;

    @Option(names = "--attach-timeout-s", paramLabel = "S", defaultValue = "60",
            description = "How long to wait for the client to attach, s (default: ${DEFAULT-VALUE}).")
    long attachTimeoutS;

    @Option(names = "--exit-with-parent", description = "Exit when standard input ends (the parent process ended).")
    boolean exitWithParent;

    @Option(names = "--experiment", required = true, paramLabel = "FILE", description = "The experiment file.")
    Path experiment;

    @Option(names = "--set", paramLabel = "NAME=VALUE", description = "A parameter the client set (repeatable).")
    List<String> set = new ArrayList<>();

    @Parameters(index = "0", paramLabel = "ENGINE", description = "brain or world.")
    String engine;

    /** Used by picocli. */
    public EngineServerCommand() {
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (!engine.equals(ExperimentRunner.BRAIN) && !engine.equals(ExperimentRunner.WORLD)) {
            throw new ParameterException(spec.commandLine(), "ENGINE must be brain or world, got '" + engine + "'");
        }
        EngineServerAddress address;
        ExperimentOverrides overrides;
        try {
            address = new EngineServerAddress(registry, simulation, participant, engineName, attachTimeoutS);
            overrides = ExperimentOverrides.parse(set);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (exitWithParent) {
            ChildJvm.exitWhenParentEnds(() -> {
                err.println("engine server: the parent process ended; exiting");
                err.flush();
                System.exit(1);
            });
        }
        Engine served;
        try {
            served = ExperimentRunner.serverEngine(ExperimentFile.load(experiment, overrides), engine, engineName);
        } catch (ExperimentFileException | IllegalArgumentException | IllegalStateException e) {
            err.println("engine server: cannot build the " + engine + " engine of " + experiment + ": " + e.getMessage());
            return 1;
        }
        return EngineServer.serveProcess(served, address, line -> {
            err.println(line);
            err.flush();
        });
    }
}
