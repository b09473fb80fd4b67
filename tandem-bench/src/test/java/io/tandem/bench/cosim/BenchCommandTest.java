package io.tandem.bench.cosim;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.bench.BenchCli;
import io.tandem.bench.PngCheck;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class BenchCommandTest {
    private static final Pattern JSON_LINE = Pattern.compile(
            "\\{\"transport\":\"inproc\",\"participants\":2,\"steps\":50,\"steps_per_s\":[0-9]+\\.[0-9],\"run\":[12],.*}");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return BenchCli.run(out, err, args);
    }

    private static <T> T parse(Class<T> type, String... args) {
        return BenchCli.parse(type, args);
    }

    @Test
    void help_benchOnClassPath_isListedByTandem() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("bench").contains("demo");
    }

    @Test
    void execute_benchWithoutName_exits2ListingBenchmarks() {
        assertThat(run("bench")).isEqualTo(2);
        assertThat(err.toString()).contains("missing benchmark").contains("timesync").contains("jmh");
    }

    @Test
    void parse_timesyncDefaults_matchSilKitComparison() {
        TimeSyncCommand c = parse(TimeSyncCommand.class, "bench", "timesync");

        assertThat(c.participants).containsExactly(2, 4, 8);
        assertThat(c.steps).isEqualTo(10_000);
        assertThat(c.runs).isEqualTo(3);
        assertThat(c.json).isFalse();
    }

    @Test
    void parse_timesyncOptions_splitsParticipantList() {
        TimeSyncCommand c = parse(TimeSyncCommand.class, "bench", "timesync", "--participants", "3,16", "--steps", "500",
                "--runs", "5", "--json");

        assertThat(c.participants).containsExactly(3, 16);
        assertThat(c.steps).isEqualTo(500);
        assertThat(c.runs).isEqualTo(5);
        assertThat(c.json).isTrue();
    }

    @Test
    void execute_timesyncZeroRuns_exits2NamingTheProblem() {
        assertThat(run("bench", "timesync", "--runs", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("runs must be >= 1");
    }

    @Test
    void execute_timesyncUnknownFlag_exits2NamingIt() {
        assertThat(run("bench", "timesync", "--bogus")).isEqualTo(2);
        assertThat(err.toString()).contains("--bogus");
    }

    @Test
    void execute_tinyJsonRun_printsOnlyOneJsonObjectPerRun() {
        int code = run("bench", "timesync", "--participants", "2", "--steps", "50", "--runs", "2", "--warmup-runs", "0",
                "--json");

        assertThat(code).isZero();
        assertThat(out.toString().lines()).hasSize(2).allMatch(l -> JSON_LINE.matcher(l).matches());
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void run_smallScenario_firstParticipantExecutesExactlyTheSteps() throws Exception {
        TimeSyncResult r = TimeSyncScenario.run(3, 25, "bench-test-small", 30_000);

        assertThat(r.participants()).isEqualTo(3);
        assertThat(r.steps()).isEqualTo(25);
        assertThat(r.runNs()).isPositive();
    }

    /** --plot: steps/s against N beside SIL Kit's figures, a PNG of its size with something drawn; the JSON lines unchanged. */
    @Test
    void plot_timesync_writesAPngOfTheMeasuredPoints(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("timesync.png");
        int code = run("bench", "timesync", "--participants", "2,4", "--steps", "200", "--runs", "2", "--warmup-runs", "0",
                "--json", "--plot", png.toString());

        assertThat(code).as("stderr: %s", err).isZero();
        assertThat(out.toString().lines()).as("only the runs' JSON objects").hasSize(4).allMatch(l -> l.startsWith("{"));
        PngCheck.assertFigure(png, 900, 600);
    }

    @Test
    void plot_timesyncNotPng_exits2InOneLineBeforeRunning(@TempDir Path dir) {
        Path svg = dir.resolve("timesync.svg");
        assertThat(run("bench", "timesync", "--participants", "2", "--steps", "50", "--plot", svg.toString())).isEqualTo(2);
        assertThat(err.toString().lines().findFirst()).hasValueSatisfying(l -> assertThat(l)
                .contains("tandem: --plot takes a .png file, got '" + svg + "'"));
        assertThat(err.toString()).doesNotContain("Exception");
        assertThat(out.toString()).isEmpty();
        assertThat(svg).doesNotExist();
    }
}
