package io.tandem.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code tandem bench cle} runs the Husky experiment briefly in both modes and prints the fields. */
@Timeout(120)
class CleBenchCommandTest {
    private static final Pattern JSON = Pattern.compile("\\{\"bench\":\"cle\",\"experiment\":\"Husky Braitenberg experiment\","
            + "\"mode\":\"(parallel|serial)\",\"runs\":1,\"steps\":10,\"wall_ms_per_step\":([0-9.]+),\"brain_ms_per_step\":([0-9.]+),"
            + "\"physics_ms_per_step\":([0-9.]+),\"tf_ms_per_step\":([0-9.]+),\"wall_over_max_engine\":([0-9.]+)}");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void execute_huskyBothModesJson_oneLinePerModeWithTheEnginesTimes() {
        int code = BenchCli.run(out, err, "bench", "cle", "--experiment", "../examples/experiments/husky-braitenberg.json",
                "--runs", "1", "--steps", "10", "--warmup-steps", "5", "--json");
        assertThat(code).as("stderr: %s", err).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(2);
        for (int i = 0; i < 2; i++) {
            Matcher m = JSON.matcher(lines.get(i));
            assertThat(m.matches()).as(lines.get(i)).isTrue();
            assertThat(m.group(1)).isEqualTo(i == 0 ? "parallel" : "serial");
            double wall = Double.parseDouble(m.group(2));
            double brain = Double.parseDouble(m.group(3));
            double physics = Double.parseDouble(m.group(4));
            assertThat(brain).isPositive();
            assertThat(physics).isPositive();
            // a step takes at least its slower engine
            assertThat(wall).isGreaterThanOrEqualTo(Math.max(brain, physics) * 0.999);
        }
    }

    @Test
    void execute_tooManySteps_usageErrorNamingTheLimit() {
        assertThat(BenchCli.run(out, err, "bench", "cle", "--experiment", "../examples/experiments/husky-braitenberg.json",
                "--steps", "100000")).isEqualTo(2);
        assertThat(err.toString()).contains("lower them");
    }
}
