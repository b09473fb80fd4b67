package io.tandem.bench;

import io.tandem.cli.TandemCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine.ParseResult;

/** The bench tests' access to the {@code tandem} command line. */
public final class BenchCli {
    private BenchCli() {
    }

    /** Runs {@code tandem ARGS} in this JVM, capturing its output; returns the exit code. */
    public static int run(StringWriter out, StringWriter err, String... args) {
        return TandemCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    }

    /** Parses {@code tandem ARGS} and returns the innermost subcommand's object, options set. */
    public static <T> T parse(Class<T> type, String... args) {
        ParseResult result = TandemCli.newCommandLine().parseArgs(args);
        while (result.hasSubcommand()) {
            result = result.subcommand();
        }
        return type.cast(result.commandSpec().userObject());
    }
}
