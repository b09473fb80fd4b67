package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * poisson_generator: mean rate, Poisson statistics, independent trains per target, rate changes
 * between runs. The events are counted through targets whose synaptic current never decays
 * (iaf_psc_exp with tau_syn_ex 1e9 ms and weight 1: I_syn_ex counts the arrivals).
 */
class PoissonGeneratorTest {
    private static final int TARGETS = 50;

    private static SpikingNetwork counters(double rateHz, long seed) {
        NetworkBuilder b = SpikingNetwork.builder().seed(seed);
        Population n = b.create("iaf_psc_exp", TARGETS, Map.of("tau_syn_ex", 1e9, "V_th", 1e10));
        Population pg = b.create("poisson_generator", 1, Map.of("rate", rateHz));
        b.connect(pg, n, Connector.allToAll(), SynapseSpec.staticSynapse(1.0, 0.1));
        return b.build();
    }

    private static double count(SpikingNetwork net, int target) {
        return net.get(target, "I_syn_ex");
    }

    @Test
    void simulate_1kHzForOneSecond_meanRateWithinFourSigma() {
        try (SpikingNetwork net = counters(1000.0, 11)) {
            net.simulate(1_000_000_000L);
            double total = 0;
            for (int i = 0; i < TARGETS; i++) {
                double c = count(net, i);
                // each target: Poisson with mean 1000 (minus the last 0.1 ms still in flight)
                assertThat(c).isCloseTo(1000, within(4 * Math.sqrt(1000)));
                total += c;
            }
            assertThat(total).isCloseTo(TARGETS * 1000.0, within(4 * Math.sqrt(TARGETS * 1000.0)));
        }
    }

    @Test
    void simulate_binnedCounts_havePoissonVarianceAndAreUncorrelatedAcrossTargets() {
        int bins = 2000;
        double[][] counts = new double[2][bins];
        try (SpikingNetwork net = counters(2000.0, 5)) {
            double[] last = new double[2];
            for (int k = 0; k < bins; k++) {
                net.simulate(1_000_000L);
                for (int i = 0; i < 2; i++) {
                    double c = count(net, i);
                    counts[i][k] = Math.rint(c - last[i]);
                    last[i] = c;
                }
            }
        }
        double[] mean = new double[2];
        double[] var = new double[2];
        double cov = 0;
        for (int i = 0; i < 2; i++) {
            for (double c : counts[i]) {
                mean[i] += c / bins;
            }
            for (double c : counts[i]) {
                var[i] += (c - mean[i]) * (c - mean[i]) / (bins - 1);
            }
        }
        for (int k = 0; k < bins; k++) {
            cov += (counts[0][k] - mean[0]) * (counts[1][k] - mean[1]) / (bins - 1);
        }
        // 2 events per 1 ms bin, Fano factor 1
        assertThat(mean[0]).isCloseTo(2.0, within(0.15));
        assertThat(var[0] / mean[0]).isCloseTo(1.0, within(0.15));
        assertThat(var[1] / mean[1]).isCloseTo(1.0, within(0.15));
        double corr = cov / Math.sqrt(var[0] * var[1]);
        // independent trains: |r| ~ 1/sqrt(bins) = 0.022
        assertThat(Math.abs(corr)).isLessThan(0.1);
    }

    @Test
    void simulate_highRate_meanMatchesThroughTheSplitSampler() {
        // 300 kHz is a mean of 30 per step: sampled as three inversions of mean 10
        try (SpikingNetwork net = counters(300_000.0, 3)) {
            net.simulate(100_000_000L);
            double total = 0;
            for (int i = 0; i < TARGETS; i++) {
                total += count(net, i);
            }
            double expected = TARGETS * 300_000.0 * 0.1;
            assertThat(total).isCloseTo(expected, within(4 * Math.sqrt(expected) + TARGETS * 30));
        }
    }

    @Test
    void setRate_betweenRuns_appliesToTheNextRun() {
        try (SpikingNetwork net = counters(0.0, 1)) {
            net.simulate(100_000_000L);
            assertThat(count(net, 0)).isZero();
            net.setRate(TARGETS, 5000.0);
            assertThat(net.rate(TARGETS)).isEqualTo(5000.0);
            net.simulate(100_000_000L);
            double c = count(net, 0);
            assertThat(c).isCloseTo(500, within(4 * Math.sqrt(500)));
            net.setRate(TARGETS, 0.0);
            // one step of arrivals is in flight (delay 0.1 ms)
            net.simulate(100_000_000L);
            assertThat(count(net, 0) - c).isLessThan(10);
        }
    }
}
