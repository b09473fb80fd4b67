package io.tandem.cli;

import io.tandem.cli.cle.CleCommand;
import io.tandem.cli.cle.EngineServerCommand;
import io.tandem.cli.demo.DemoCommand;
import io.tandem.cli.sim.SimCommand;
import io.tandem.cli.spi.CommandProvider;
import io.tandem.cli.tools.ControllerCommand;
import io.tandem.cli.tools.MonitorCommand;
import io.tandem.cli.tools.RegistryCommand;
import io.tandem.cli.tools.WorldControlCommand;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code tandem} command. Built-in subcommands ({@code demo}, {@code sim}, {@code registry},
 * {@code monitor}, {@code controller}) are declared here; every other
 * subcommand comes from a {@link CommandProvider} found with {@link ServiceLoader}, so this module
 * does not depend on the modules that contribute them.
 *
 * <p>Exit codes: 0 success, 1 failure while running a command, 2 invalid command line (unknown
 * subcommand or option, bad value). Not thread-safe: build and run a command line on one thread.
 */
@Command(
        name = "tandem",
        mixinStandardHelpOptions = true,
        versionProvider = TandemVersion.class,
        description = "Distributed, time-synchronized simulation of robots, bodies and brains.",
        subcommands = {DemoCommand.class, SimCommand.class, RegistryCommand.class, MonitorCommand.class, ControllerCommand.class,
            WorldControlCommand.class, CleCommand.class, EngineServerCommand.class, io.tandem.cli.view.ViewCommand.class},
        commandListHeading = "%nCommands:%n")
public final class TandemCli implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /** Used by picocli; use {@link #newCommandLine()} to get a runnable command tree. */
    public TandemCli() {
    }

    /**
     * Fails with a usage error: {@code tandem} needs a subcommand.
     *
     * @return never returns normally
     */
    @Override
    public Integer call() {
        List<String> shown = new ArrayList<>();
        spec.subcommands().forEach((name, c) -> {
            if (!c.getCommandSpec().usageMessage().hidden()) {
                shown.add(name);
            }
        });
        throw new ParameterException(spec.commandLine(), "missing command: choose one of " + shown);
    }

    /**
     * Builds the full command tree: the built-in commands plus every {@link CommandProvider} on the
     * class path, contributed commands sorted by name. Allocates; call once per run.
     *
     * @return the configured top-level command line (picocli's default output streams)
     * @throws IllegalStateException if a provider names an unknown parent or a taken name
     */
    public static CommandLine newCommandLine() {
        CommandLine root = new CommandLine(new TandemCli());
        List<Contribution> contributions = new ArrayList<>();
        Iterator<CommandProvider> it = ServiceLoader.load(CommandProvider.class).iterator();
        while (true) {
            CommandProvider provider;
            try {
                if (!it.hasNext()) {
                    break;
                }
                provider = it.next();
            } catch (ServiceConfigurationError e) {
                // a broken provider must not take the whole command down
                root.getErr().println("tandem: skipping a command provider that failed to load: " + e.getMessage());
                continue;
            }
            Object command = provider.command();
            CommandLine sub = command instanceof CommandLine cl ? cl : new CommandLine(command);
            contributions.add(new Contribution(provider.parent().trim(), sub));
        }
        contributions.sort(Comparator.comparing(Contribution::parent).thenComparing(c -> c.command().getCommandName()));
        for (Contribution c : contributions) {
            CommandLine parent = resolve(root, c.parent());
            String name = c.command().getCommandName();
            if (parent.getSubcommands().containsKey(name)) {
                throw new IllegalStateException("two commands are named '" + qualified(c.parent(), name)
                        + "'; a CommandProvider contributes a command whose name is taken");
            }
            parent.addSubcommand(name, c.command());
        }
        // enum values as users type them: --solver pgs, --solver SUB_ADMM
        root.setCaseInsensitiveEnumValuesAllowed(true);
        root.setParameterExceptionHandler(TandemCli::onParameterError);
        root.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            String msg = ex.getMessage() == null ? ex.toString() : ex.getMessage();
            // user errors are one line, without a stack trace
            cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": error: " + msg.replaceAll("\\s*[\\r\\n]+\\s*", " "));
            // a world, robot or mesh file that cannot run as written is bad input, as a bad option is
            return ex instanceof io.tandem.world.WorldFormatException ? CommandLine.ExitCode.USAGE : CommandLine.ExitCode.SOFTWARE;
        });
        return root;
    }

    /**
     * Runs {@code tandem} with the given arguments and streams.
     *
     * @param out  standard output (results); not closed, flushed before returning
     * @param err  error output (usage errors); not closed, flushed before returning
     * @param args the command line, not modified
     * @return the exit code: 0 ok, 1 command failed, 2 invalid command line or input file
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = newCommandLine();
        cl.setOut(out);
        cl.setErr(err);
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /**
     * Entry point: runs {@code tandem} on standard output and error, then exits the JVM with the
     * command's exit code.
     *
     * @param args the command line
     */
    public static void main(String... args) {
        CommandLine cl;
        try {
            cl = newCommandLine();
        } catch (RuntimeException e) {
            new PrintWriter(System.err, true).println("tandem: error: " + e.getMessage());
            System.exit(CommandLine.ExitCode.SOFTWARE);
            return;
        }
        int code;
        try {
            code = cl.execute(args);
        } catch (OutOfMemoryError e) {
            // one line, not the JVM's stack trace: how much there was and how to give more
            long max = Runtime.getRuntime().maxMemory();
            new PrintWriter(System.err, true).printf(java.util.Locale.ROOT, "tandem: error: out of memory (the JVM may use"
                    + " %.1f GB of heap): give it more, e.g. JAVA_OPTS=-Xmx%dg%n", max / 1e9, Math.max(2, 2 * (max >> 30)));
            System.exit(CommandLine.ExitCode.SOFTWARE);
            return;
        }
        cl.getOut().flush();
        cl.getErr().flush();
        System.exit(code);
    }

    private static CommandLine resolve(CommandLine root, String parentPath) {
        CommandLine current = root;
        if (parentPath.isEmpty()) {
            return current;
        }
        for (String name : parentPath.split("\\s+")) {
            CommandLine next = current.getSubcommands().get(name);
            if (next == null) {
                throw new IllegalStateException("a CommandProvider names parent command '" + parentPath
                        + "', but 'tandem " + parentPath + "' does not exist (no subcommand '" + name + "')");
            }
            current = next;
        }
        return current;
    }

    private static String qualified(String parent, String name) {
        return parent.isEmpty() ? "tandem " + name : "tandem " + parent + " " + name;
    }

    /** Prints a short error naming the bad token, suggestions, and where to find help. */
    private static int onParameterError(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(cmd.getColorScheme().errorText("tandem: " + ex.getMessage()));
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        CommandLine helpful = cmd;
        while (helpful.getCommandSpec().findOption("--help") == null && helpful.getParent() != null) {
            helpful = helpful.getParent();
        }
        err.println("Try '" + helpful.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    private record Contribution(String parent, CommandLine command) {
    }
}
