package io.tandem.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class CosimDemoCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return TandemCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    }

    @Test
    void call_defaults_exits0AndPrintsReport() {
        int code = run("demo", "cosim");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("3 coordinated participants").contains("system states seen by the monitor")
                .contains("ok: every participant reached SHUTDOWN");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void call_customStepSizes_runsOneParticipantPerSize() {
        int code = run("demo", "cosim", "--step-sizes-ms", "2,3", "--duration-ms", "6");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("2 coordinated participants (p1 every 2 ms, p2 every 3 ms), 6 ms")
                .contains("t=     3 ms  p2  step    1  received p1#0@0ms p1#1@2ms");
    }

    @Test
    void call_zeroDuration_exits2WithMessage() {
        int code = run("demo", "cosim", "--duration-ms", "0");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("duration must be > 0");
    }

    @Test
    void call_nonNumericStepSize_exits2NamingValue() {
        int code = run("demo", "cosim", "--step-sizes-ms", "1,x");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("'x'");
    }
}
