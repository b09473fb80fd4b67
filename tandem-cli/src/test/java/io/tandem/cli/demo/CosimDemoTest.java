package io.tandem.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.SystemState;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class CosimDemoTest {

    @Test
    void run_defaultConfig_everyParticipantShutsDown() {
        CosimDemoReport report = CosimDemo.run(CosimDemoConfig.defaults());

        assertThat(report.failure()).isNull();
        assertThat(report.finalStates()).containsOnlyKeys("p1", "p2", "p3");
        assertThat(report.finalStates().values()).containsOnly(ParticipantState.SHUTDOWN);
        assertThat(report.systemStates()).startsWith(SystemState.INVALID).endsWith(SystemState.SHUTDOWN)
                .contains(SystemState.RUNNING, SystemState.STOPPING);
        assertThat(report.participantStates().get("p2")).contains(ParticipantState.RUNNING)
                .endsWith(ParticipantState.SHUTDOWN);
    }

    @Test
    void run_defaultConfig_logsEveryStepBeforeTheEnd() {
        CosimDemoReport report = CosimDemo.run(CosimDemoConfig.defaults());

        // 20 ms at 1, 2 and 5 ms steps
        assertThat(report.steps()).filteredOn(s -> s.name().equals("p1")).hasSize(20);
        assertThat(report.steps()).filteredOn(s -> s.name().equals("p2")).hasSize(10);
        assertThat(report.steps()).filteredOn(s -> s.name().equals("p3")).hasSize(4);
        assertThat(report.steps()).allMatch(s -> s.nowNs() < 20_000_000);
    }

    @Test
    void run_defaultConfig_stepTakesMessagesStampedBeforeIt() {
        CosimDemoReport report = CosimDemo.run(CosimDemoConfig.defaults());

        assertThat(report.lines()).contains(
                "t=     1 ms  p1  step    1  received p2#0@0ms p3#0@0ms",
                "t=     5 ms  p3  step    1  received p1#0@0ms p2#0@0ms p1#1@1ms p1#2@2ms p2#1@2ms p1#3@3ms"
                        + " p1#4@4ms p2#2@4ms");
    }

    @Test
    void run_repeated_printsIdenticalLines() {
        List<String> first = CosimDemo.run(CosimDemoConfig.defaults()).lines();

        for (int i = 0; i < 5; i++) {
            assertThat(CosimDemo.run(CosimDemoConfig.defaults()).lines()).isEqualTo(first);
        }
    }

    @Test
    void run_durationNotMultipleOfFirstStep_stopsAtFirstStepAfterEnd() {
        CosimDemoReport report = CosimDemo.run(new CosimDemoConfig(7_000_000, List.of(3_000_000L, 1_000_000L), 10_000));

        assertThat(report.failure()).isNull();
        // p1 steps at 0, 3, 6 and stops at 9; p2 logs 0..6
        assertThat(report.steps()).filteredOn(s -> s.name().equals("p1")).hasSize(3);
        assertThat(report.steps()).filteredOn(s -> s.name().equals("p2")).hasSize(7);
    }

    @Test
    void constructor_zeroStepSize_throwsNamingIt() {
        assertThatThrownBy(() -> new CosimDemoConfig(1, List.of(1L, 0L), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step sizes must be > 0");
    }

    @Test
    void constructor_tooManyParticipants_throws() {
        assertThatThrownBy(() -> new CosimDemoConfig(1, List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 9 step sizes");
    }

    @Test
    void ms_fraction_printsTrimmedDecimals() {
        assertThat(CosimDemoReport.ms(20_000_000)).isEqualTo("20");
        assertThat(CosimDemoReport.ms(1_500_000)).isEqualTo("1.5");
        assertThat(CosimDemoReport.ms(1)).isEqualTo("0.000001");
    }
}
