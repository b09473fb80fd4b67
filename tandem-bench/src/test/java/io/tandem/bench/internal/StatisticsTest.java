package io.tandem.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatisticsTest {
    @Test
    void median_oddCount_isMiddleValue() {
        assertThat(Statistics.median(new double[] {3, 1, 2})).isEqualTo(2);
    }

    @Test
    void median_evenCount_averagesTheMiddleTwo() {
        assertThat(Statistics.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    }
}
