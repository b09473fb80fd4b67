package io.tandem.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JmhCommandTest {
    @Test
    void parse_jmhArguments_passedThroughUnchangedInOrder() {
        JmhCommand c = BenchCli.parse(JmhCommand.class, "bench", "jmh", "TimeSyncBenchmark", "-f", "1", "-wi", "2", "-prof", "gc",
                "-p", "participants=2", "-h");

        assertThat(c.jmhArgs).containsExactly("TimeSyncBenchmark", "-f", "1", "-wi", "2", "-prof", "gc", "-p",
                "participants=2", "-h");
    }
}
