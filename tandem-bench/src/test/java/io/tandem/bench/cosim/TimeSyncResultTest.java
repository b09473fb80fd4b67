package io.tandem.bench.cosim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TimeSyncResultTest {

    @Test
    void stepsPerSecond_tenThousandStepsInQuarterSecond_is40k() {
        TimeSyncResult r = new TimeSyncResult(2, 10_000, 1_000_000, 250_000_000, 2_000_000);

        assertThat(r.stepsPerSecond()).isCloseTo(40_000, within(1e-6));
    }

    @Test
    void toJsonLine_typicalRun_isOneObjectWithRequiredFieldsFirst() {
        TimeSyncResult r = new TimeSyncResult(4, 10_000, 3_100_000, 20_000_000, 1_500_000);

        String line = r.toJsonLine(2);

        assertThat(line).isEqualTo("{\"transport\":\"inproc\",\"participants\":4,\"steps\":10000,"
                + "\"steps_per_s\":500000.0,\"run\":2,\"run_s\":0.020000,\"setup_s\":0.003100,\"teardown_s\":0.001500}");
        assertThat(line).doesNotContain("\n").startsWith("{").endsWith("}");
    }
}
