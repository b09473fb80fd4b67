package io.tandem.bench.cosim;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.bench.BenchCli;
import io.tandem.net.NetConfig;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The multi-process benchmarks on tiny runs: their JSON, the summary with CPU use, and that no
 * child JVM outlives a run. No timing is asserted.
 */
@Timeout(120)
class AeronBenchCommandTest {
    private static final Pattern AERON_LINE = Pattern.compile("\\{\"transport\":\"aeron\",\"participants\":2,\"processes\":2,"
            + "\"steps\":50,\"steps_per_s\":[0-9]+\\.[0-9],\"run\":1,.*\"registries\":1,\"idle\":\"backoff\","
            + "\"cpu_per_s_mean\":[0-9.]+,.*\"idle_cpu_per_s_mean\":[0-9.]+,.*}");
    private static final Pattern PUBSUB_LINE = Pattern.compile("\\{\"transport\":\"aeron\",\"processes\":2,\"registries\":2,"
            + "\"idle\":\"backoff\",\"messages\":200,\"payload_bytes\":8,\"run\":1,\"rtt_median_us\":[0-9.]+,"
            + "\"rtt_p90_us\":[0-9.]+,\"rtt_p99_us\":[0-9.]+,.*\"echo_cpu_per_s\":[0-9.]+}");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return BenchCli.run(out, err, args);
    }

    private static <T> T parse(Class<T> type, String... args) {
        return BenchCli.parse(type, args);
    }

    @AfterEach
    void noChildOutlivesTheCommand() {
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList()).isEmpty();
    }

    @Test
    void parse_timesyncProcessesAlias_setsTheParticipantCounts() {
        TimeSyncCommand c = parse(TimeSyncCommand.class, "bench", "timesync", "--transport", "aeron", "--processes", "2,8",
                "--registries", "2", "--idle", "busy-spin");

        assertThat(c.participants).containsExactly(2, 8);
        assertThat(c.transport).isEqualTo("aeron");
        assertThat(c.registries).isEqualTo(2);
        assertThat(TimeSyncCommand.parseIdle(c.idle)).isEqualTo(NetConfig.Idle.BUSY_SPIN);
    }

    @Test
    void execute_timesyncUnknownTransportOrIdle_exits2NamingIt() {
        assertThat(run("bench", "timesync", "--transport", "carrier-pigeon")).isEqualTo(2);
        assertThat(run("bench", "timesync", "--transport", "aeron", "--idle", "nap")).isEqualTo(2);
        assertThat(err.toString()).contains("carrier-pigeon").contains("'nap'");
    }

    @Test
    void execute_registryUrisWithAnotherNumberOfLaunchersOrNotTandem_exits2NamingIt() {
        assertThat(run("bench", "timesync", "--transport", "aeron", "--registry-uri", "tandem://127.0.0.1:1,tandem://127.0.0.1:2",
                "--launcher", "-")).isEqualTo(2);
        assertThat(err.toString()).contains("give one --launcher per --registry-uri (2 registries, 1 launchers)");
        assertThat(run("bench", "pubsub", "--registry-uri", "http://example.org")).isEqualTo(2);
        assertThat(err.toString()).contains("--registry-uri must be tandem://HOST:PORT");
    }

    /** Across hosts: running registries, participant JVMs started under a launcher (there, one that fails). */
    @Test
    void execute_tinyRunsOnARunningRegistryUnderALauncher_theLauncherStartsTheParticipants() throws Exception {
        try (io.tandem.cosim.Registry registry = io.tandem.cosim.Registry.start("tandem://127.0.0.1:0")) {
            assertThat(run("bench", "timesync", "--transport", "aeron", "--registry-uri", registry.uri(), "--launcher", "env",
                    "--processes", "2", "--steps", "50", "--runs", "1", "--warmup-runs", "0", "--idle-ms", "0", "--json"))
                    .as("stderr: %s", err).isZero();
            assertThat(out.toString().lines()).hasSize(1).allMatch(l -> AERON_LINE.matcher(l).matches());
            assertThat(run("bench", "pubsub", "--registry-uri", registry.uri(), "--launcher", "env", "--messages", "100",
                    "--runs", "1", "--warmup-runs", "0")).as("stderr: %s", err).isZero();
            // a launcher that starts nothing: the participants never answer
            assertThat(run("bench", "pubsub", "--registry-uri", registry.uri(), "--launcher", "false", "--messages", "100",
                    "--runs", "1", "--warmup-runs", "0", "--timeout-s", "5")).isEqualTo(1);
            assertThat(err.toString()).contains("tandem bench pubsub: failed");
        }
    }

    @Test
    void execute_tinyAeronRun_printsOneJsonObjectWithProcessesAndCpu() {
        int code = run("bench", "timesync", "--transport", "aeron", "--processes", "2", "--steps", "50", "--runs", "1",
                "--warmup-runs", "0", "--idle-ms", "50", "--json");

        assertThat(code).as("stderr: %s", err).isZero();
        assertThat(out.toString().lines()).hasSize(1).allMatch(l -> AERON_LINE.matcher(l).matches());
    }

    @Test
    void execute_tinyAeronRunTable_showsCpuColumns() {
        int code = run("bench", "timesync", "--transport", "aeron", "--processes", "2", "--steps", "50", "--runs", "1",
                "--warmup-runs", "0", "--idle-ms", "0");

        assertThat(code).as("stderr: %s", err).isZero();
        assertThat(out.toString()).contains("goal (issue 4)", "cpu/s run", "cpu/s idle", "80,000-109,890");
    }

    @Test
    void execute_tinyPubSubOverTwoRegistries_printsRoundTripsAsJson() {
        int code = run("bench", "pubsub", "--transport", "aeron", "--registries", "2", "--messages", "200", "--runs", "1",
                "--warmup-runs", "0", "--json");

        assertThat(code).as("stderr: %s", err).isZero();
        assertThat(out.toString().lines()).hasSize(1).allMatch(l -> PUBSUB_LINE.matcher(l).matches());
    }

    @Test
    void execute_tinyPubSubInProcess_printsTheSummary() {
        int code = run("bench", "pubsub", "--transport", "inproc", "--messages", "200", "--runs", "2", "--warmup-runs", "0");

        assertThat(code).as("stderr: %s", err).isZero();
        assertThat(out.toString()).contains("run 2/2", "round trip median", "SIL Kit 5.0.8: 18-40 us");
    }

    @Test
    void quantile_nearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(PubSubScenario.quantile(sorted, 0.5)).isEqualTo(5);
        assertThat(PubSubScenario.quantile(sorted, 0.99)).isEqualTo(10);
        assertThat(List.of(PubSubScenario.quantile(sorted, 0.0))).containsExactly(1L);
    }
}
