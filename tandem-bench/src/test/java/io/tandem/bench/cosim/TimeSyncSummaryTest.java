package io.tandem.bench.cosim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TimeSyncSummaryTest {

    @Test
    void lines_twoParticipants_showsMedianMinMaxAndSilKitRange() {
        TimeSyncSummary s = new TimeSyncSummary();
        s.add(List.of(
                new TimeSyncResult(2, 10_000, 1_000_000, 40_000_000, 0),    // 250k
                new TimeSyncResult(2, 10_000, 2_000_000, 20_000_000, 0),    // 500k
                new TimeSyncResult(2, 10_000, 3_000_000, 25_000_000, 0)));  // 400k

        List<String> lines = s.lines();

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("median steps/s", "SIL Kit 5.0.8", "goal (5x)");
        assertThat(lines.get(1)).contains("400,000", "250,000", "500,000", "40,000-54,945", "200,000-274,725",
                "7.3x-10.0x", "goal met");
    }

    @Test
    void lines_unmeasuredSize_printsDashes() {
        TimeSyncSummary s = new TimeSyncSummary();
        s.add(List.of(new TimeSyncResult(3, 100, 0, 1_000_000, 0)));

        assertThat(s.lines().get(1)).contains("100,000").endsWith("-");
    }

    @Test
    void add_noRuns_throws() {
        assertThatThrownBy(() -> new TimeSyncSummary().add(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
