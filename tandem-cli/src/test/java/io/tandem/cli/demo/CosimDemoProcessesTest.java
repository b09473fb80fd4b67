package io.tandem.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The demo with each participant in its own JVM prints exactly the in-process demo's report. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CosimDemoProcessesTest {

    private static String run(StringWriter err, String... args) {
        StringWriter out = new StringWriter();
        int code = TandemCli.execute(new PrintWriter(out), new PrintWriter(err), args);
        assertThat(code).as("exit code; stderr: %s", err).isZero();
        return out.toString();
    }

    @Test
    void call_processes_printsTheInProcessReport() {
        StringWriter err = new StringWriter();
        String inProcess = run(new StringWriter(), "demo", "cosim", "--step-sizes-ms", "1,3", "--duration-ms", "6");

        String acrossProcesses = run(err, "demo", "cosim", "--processes", "--step-sizes-ms", "1,3", "--duration-ms", "6");

        assertThat(acrossProcesses).isEqualTo(inProcess).contains("t=     3 ms  p2  step    1  received p1#0@0ms p1#1@1ms p1#2@2ms")
                .contains("ok: every participant reached SHUTDOWN");
        assertThat(err.toString()).isEmpty();
    }
}
