package io.tandem.cli;

import io.tandem.cli.spi.CommandProvider;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** A test provider: contributes {@code tandem test-echo WORDS...} (and {@code tandem demo test-echo}). */
public final class EchoCommandProvider implements CommandProvider {

    /** Used by the service loader. */
    public EchoCommandProvider() {
    }

    @Override
    public Object command() {
        return new EchoCommand();
    }

    /** The same command under {@code tandem demo}. */
    public static final class UnderDemo implements CommandProvider {
        /** Used by the service loader. */
        public UnderDemo() {
        }

        @Override
        public Object command() {
            return new EchoCommand();
        }

        @Override
        public String parent() {
            return "demo";
        }
    }

    @Command(name = "test-echo", mixinStandardHelpOptions = true, description = "Prints its arguments (test only).")
    static final class EchoCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "WORD")
        List<String> words = List.of();

        @Override
        public Integer call() {
            spec.commandLine().getOut().println(String.join(" ", words));
            return words.contains("fail") ? 3 : 0;
        }
    }
}
