package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reproducibility (issue: same seed, identical spike trains; different seed, different trains)
 * and the house rule that threads and run splitting change nothing, bit for bit (a differential
 * test of parallel against serial stepping).
 */
class DeterminismTest {
    private static final int NEURONS = 600;
    private static final long RUN_NS = 300_000_000L;

    private static Spikes run(long seed, int threads, int chunks) {
        try (SpikingNetwork net = BrunelNetwork.build(NEURONS, threads, seed, true)) {
            for (int c = 0; c < chunks; c++) {
                net.simulate(RUN_NS / chunks);
            }
            Spikes s = Spikes.drain(net, NEURONS + 1);
            assertThat((long) s.senders.size()).isEqualTo(net.totalSpikes());
            return s;
        }
    }

    @Test
    void simulate_sameSeed_identicalSpikeTrains() {
        Spikes a = run(42, 1, 1);
        Spikes b = run(42, 1, 1);
        // the network is active, so identity is not vacuous
        assertThat(a.senders.size()).isGreaterThan(1000);
        assertThat(b.senders).isEqualTo(a.senders);
        assertThat(b.timesNs).isEqualTo(a.timesNs);
    }

    @Test
    void simulate_differentSeed_differentSpikeTrains() {
        Spikes a = run(42, 1, 1);
        Spikes b = run(43, 1, 1);
        assertThat(b.senders).isNotEqualTo(a.senders);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void simulate_anyThreadCount_bitwiseIdenticalToOneThread(int threads) {
        Spikes serial = run(7, 1, 1);
        Spikes parallel = run(7, threads, 1);
        assertThat(parallel.senders).isEqualTo(serial.senders);
        assertThat(parallel.timesNs).isEqualTo(serial.timesNs);
    }

    @Test
    void simulate_splitIntoShortRuns_identicalToOneRun() {
        Spikes whole = run(9, 2, 1);
        Spikes split = run(9, 2, 30);
        assertThat(split.senders).isEqualTo(whole.senders);
        assertThat(split.timesNs).isEqualTo(whole.timesNs);
    }

    /** Brunel with windowed generators of every kind and a multimeter; returns spikes and samples. */
    private static Object[] windowedRun(int threads, int chunks) {
        NetworkBuilder b = SpikingNetwork.builder().seed(21).threads(threads);
        Population neurons = BrunelNetwork.define(b, 400, true);
        int recorder = b.nodeCount() - 1;
        Population burst = b.create("poisson_generator", 2, Map.of("rate", 4000.0, "start", 30.0, "stop", 80.0,
                "origin", 10.0));
        b.connect(burst, neurons.slice(0, 200), Connector.allToAll(), SynapseSpec.staticSynapse(20.0, 1.5));
        Population dc = b.create("dc_generator", 1, Map.of("amplitude", 150.0, "start", 100.0, "stop", 150.3));
        b.connect(dc, neurons.slice(100, 400), Connector.allToAll(), SynapseSpec.staticSynapse(1.0, 1.5));
        Population sg = b.create("spike_generator", 1, Map.of("origin", 50.0, "stop", 100.0));
        b.spikeTimesMs(sg, 1.0, 20.0, 20.0, 49.9, 50.0, 50.1, 120.0);
        b.connect(sg, neurons, Connector.allToAll(), SynapseSpec.staticSynapse(40.0, 2.0));
        Population mm = b.create("multimeter", 1, Map.of("interval", 0.5, "start", 25.0, "stop", 250.0));
        b.recordFrom(mm, "V_m", "I_syn_ex", "I_syn_in");
        b.connect(mm, neurons.slice(3, 400, 29));
        try (SpikingNetwork net = b.build()) {
            for (int c = 0; c < chunks; c++) {
                net.simulate(RUN_NS / chunks);
            }
            return new Object[] {Spikes.drain(net, recorder), net.samples(mm.first())};
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void simulate_windowedGeneratorsAndMultimeter_anyThreadCountAndSplitBitwiseIdentical(int threads) {
        Object[] serial = windowedRun(1, 1);
        Object[] parallel = windowedRun(threads, 12);
        Spikes a = (Spikes) serial[0];
        Spikes b = (Spikes) parallel[0];
        assertThat(a.senders.size()).isGreaterThan(1000);
        assertThat(b.senders).isEqualTo(a.senders);
        assertThat(b.timesNs).isEqualTo(a.timesNs);
        MultimeterSamples sa = (MultimeterSamples) serial[1];
        MultimeterSamples sb = (MultimeterSamples) parallel[1];
        assertThat(sa.size()).isPositive();
        assertThat(sb.timesMs()).isEqualTo(sa.timesMs());
        assertThat(sb.senders()).isEqualTo(sa.senders());
        for (String v : sa.recordFrom()) {
            assertThat(sb.values(v)).isEqualTo(sa.values(v));
        }
    }

    @Test
    void reset_thenRerun_repeatsTheRunAndTheVoltages() {
        try (SpikingNetwork net = BrunelNetwork.build(NEURONS, 2, 5, true)) {
            net.simulate(RUN_NS);
            Spikes first = Spikes.drain(net, NEURONS + 1);
            double v = net.vm(17);
            net.reset();
            assertThat(net.timeNs()).isZero();
            assertThat(net.totalSpikes()).isZero();
            assertThat(net.vm(17)).isZero();
            net.simulate(RUN_NS);
            Spikes second = Spikes.drain(net, NEURONS + 1);
            assertThat(second.senders).isEqualTo(first.senders);
            assertThat(second.timesNs).isEqualTo(first.timesNs);
            assertThat(net.vm(17)).isEqualTo(v);
        }
    }

    @Test
    void build_brunel_hasTheDocumentedShapeAndFiresIrregularly() {
        try (SpikingNetwork net = BrunelNetwork.build(1000, 1, 3, false)) {
            assertThat(net.neuronCount()).isEqualTo(1000);
            // every neuron receives 80 excitatory and 20 inhibitory synapses
            assertThat(net.synapseCount()).isEqualTo(1000L * 100);
            assertThat(net.model(1000)).isEqualTo(NodeModel.POISSON_GENERATOR);
            net.simulate(500_000_000L);
            double rate = net.totalSpikes() / 1000.0 / 0.5;
            // the asynchronous irregular regime of Brunel (2000) at g = 5, eta = 2: tens of Hz
            assertThat(rate).isBetween(5.0, 100.0);
        }
    }
}
