package io.tandem.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code tandem bench brain} runs a small network end to end and prints the fields. */
@Timeout(120)
class BrainBenchCommandTest {
    private static final Pattern JSON = Pattern.compile("\\{\"bench\":\"brain\",\"neurons\":300,\"synapses\":9000,"
            + "\"sim_s\":0\\.050,\"wall_s\":[0-9.]+,\"sim_s_per_wall_s\":[0-9.]+,\"spikes\":([0-9]+),\"mean_rate_hz\":([0-9.]+),"
            + "\"threads\":2,\"build_s\":[0-9.]+}");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void execute_smallNetworkJson_oneLineWithSpikesAndRate() {
        int code = BenchCli.run(out, err, "bench", "brain", "--neurons", "300", "--sim-ms", "50", "--warmup-ms", "20",
                "--threads", "2", "--json");

        assertThat(code).as("stderr: %s", err).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(1);
        Matcher m = JSON.matcher(lines.get(0));
        assertThat(m.matches()).as(lines.get(0)).isTrue();
        long spikes = Long.parseLong(m.group(1));
        double rate = Double.parseDouble(m.group(2));
        assertThat(spikes).isPositive();
        assertThat(rate).isCloseTo(spikes / 300.0 / 0.05, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void execute_human_printsSimulatedSecondsPerWallSecond() {
        assertThat(BenchCli.run(out, err, "bench", "brain", "--neurons", "100", "--sim-ms", "10")).isZero();
        assertThat(out.toString()).contains("brain: Brunel network of 100 neurons").contains("simulated s per wall s");
    }

    @Test
    void execute_tooFewNeurons_exits2NamingTheOption() {
        assertThat(BenchCli.run(out, err, "bench", "brain", "--neurons", "5")).isEqualTo(2);
        assertThat(err.toString()).contains("--neurons must be >= 10");
    }
}
