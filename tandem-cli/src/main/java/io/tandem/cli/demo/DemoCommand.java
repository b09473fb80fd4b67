package io.tandem.cli.demo;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tandem demo}: the parent of the built-in demonstrations. Other modules add demos under it
 * with a {@link io.tandem.cli.spi.CommandProvider} whose {@code parent()} is {@code "demo"}.
 *
 * <p>Runs on the calling thread; not thread-safe.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Runs a built-in demonstration.",
        subcommands = {CosimDemoCommand.class, io.tandem.cli.sim.WorldDemoCommand.class},
        commandListHeading = "%nDemos:%n")
public final class DemoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /** Used by picocli. */
    public DemoCommand() {
    }

    /**
     * Fails with a usage error: a demo must be named.
     *
     * @return never returns normally
     */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing demo: choose one of " + spec.subcommands().keySet());
    }
}
