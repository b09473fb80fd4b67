package io.tandem.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code bench soak}: what it samples and how it judges; the long run itself is a documented command, not a test. */
@Timeout(180)
class SoakCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @AfterEach
    void noChildOutlivesTheCommand() {
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList()).isEmpty();
    }

    private static SoakCommand.Series series(long[]... samples) {
        SoakCommand.Series s = new SoakCommand.Series("p");
        s.samples.addAll(Arrays.asList(samples));
        return s;
    }

    @Test
    void flat_afterTheWarmUp_judgesThreadsFilesAndMemory() {
        long[] start = {1, 1, 1};
        long[] warm = {200_000, 30, 20};
        assertThat(series(start, start, warm, new long[] {215_000, 30, 20}).flat()).as("5 % more memory").isTrue();
        assertThat(series(start, start, warm, new long[] {200_000, 31, 20}).flat()).as("a thread more").isFalse();
        assertThat(series(start, start, warm, new long[] {200_000, 30, 21}).flat()).as("a file more").isFalse();
        assertThat(series(start, start, warm, new long[] {300_000, 30, 20}).flat()).as("50 % more memory").isFalse();
        assertThat(series(start, start, warm, new long[] {150_000, 25, 18}).flat()).as("less").isTrue();
    }

    @Test
    void read_thisProcess_residentMemoryThreadsAndOpenFiles() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "/proc");
        long[] s = SoakCommand.read(ProcessHandle.current().pid());
        assertThat(s).isNotNull();
        assertThat(s[0]).as("resident kB").isGreaterThan(10_000);
        assertThat(s[1]).as("threads").isGreaterThan(1);
        assertThat(s[2]).as("open files").isGreaterThan(2);
        assertThat(SoakCommand.read(999_999_999L)).as("a process that does not run").isNull();
    }

    /** A short soak: every process of both runs reported, the distributed record equal to the standalone one. */
    @Test
    void execute_shortSoak_reportsEveryProcessAndEqualRecords() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "/proc");
        int code = BenchCli.run(out, err, "bench", "soak", "--iterations", "1500", "--steps", "5000", "--sample-ms", "100",
                "--json");
        assertThat(code).as("stderr:%n%s", err).isIn(0, 1);
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).filteredOn(l -> l.contains("\"run\":\"world\"")).hasSize(3)
                .allMatch(l -> l.contains("\"iterations\":1500,\"record_equal\":true"));
        assertThat(lines).filteredOn(l -> l.contains("\"process\":\"primary\"")).hasSize(1);
        assertThat(lines).filteredOn(l -> l.contains("\"run\":\"cosim\",\"participants\":8,\"steps\":5000")).hasSize(1);
        assertThat(lines).allMatch(l -> l.matches("\\{\"bench\":\"soak\",.*\"rss_mb_first\":[0-9.]+,\"rss_mb_warm\":[0-9.]+,\"rss_mb_end\":[0-9.]+,"
                + "\"rss_mb_max\":[0-9.]+,\"threads_warm\":[0-9]+,\"threads_end\":[0-9]+,\"fds_warm\":[0-9]+,\"fds_end\":[0-9]+,"
                + "\"flat\":(true|false)}"));
    }
}
