package io.tandem.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TandemCliTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return TandemCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    }

    @Test
    void execute_unknownSubcommand_exits2AndNamesToken() {
        int code = run("nosuchcommand");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("'nosuchcommand'").contains("Try 'tandem --help'");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void execute_unknownOption_exits2AndNamesOption() {
        int code = run("demo", "cosim", "--no-such-flag");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--no-such-flag").contains("Try 'tandem demo cosim --help'");
    }

    @Test
    void execute_noArguments_exits2AndListsCommands() {
        int code = run();

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("missing command").contains("demo");
    }

    @Test
    void execute_help_exits0AndListsBuiltInAndContributedCommands() {
        int code = run("--help");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("Usage: tandem").contains("demo").contains("test-echo");
    }

    @Test
    void execute_version_printsProjectVersion() {
        int code = run("--version");

        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("tandem ").doesNotContain("${").doesNotContain("unknown");
    }

    @Test
    void execute_contributedCommand_runsItWithItsExitCode() {
        assertThat(run("test-echo", "hello", "world")).isZero();
        assertThat(out.toString()).isEqualToIgnoringNewLines("hello world");

        assertThat(run("test-echo", "fail")).isEqualTo(3);
    }

    @Test
    void execute_commandContributedUnderDemo_runsIt() {
        int code = run("demo", "test-echo", "nested");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("nested");
    }

    @Test
    void execute_demoWithoutName_exits2() {
        int code = run("demo");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("missing demo").contains("cosim");
    }
}
