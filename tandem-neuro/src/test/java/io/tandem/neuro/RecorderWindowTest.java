package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * NEST's recording windows: a spike_recorder's start, stop and origin (records spikes with times
 * in (origin + start, origin + stop]) and a multimeter's offset (samples at offset + k interval).
 *
 * <p>Known spike times come from relay neurons driven by a spike_generator: every generator spike
 * (time g, delay d) makes the relay fire at exactly g + d + h (checked against an unwindowed
 * recorder).
 */
class RecorderWindowTest {
    private static final double H = 0.1;
    private static final double DELAY = 1.0;
    private static final double[] GENERATOR_MS = {1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0};
    /** The relays' spike times: generator time + delay + h. */
    private static final double[] RELAY_MS = {2.1, 4.1, 6.1, 8.1, 10.1, 12.1, 14.1};

    /** A network of {@code relays} relay neurons fed by one spike_generator; returns the relay population. */
    private static Population relays(NetworkBuilder b, int relays) {
        Map<String, Double> p = new HashMap<>();
        p.put("tau_syn_ex", 0.1);
        p.put("t_ref", 0.5);
        Population n = b.create("iaf_psc_exp", relays, p);
        Population sg = b.create("spike_generator", 1);
        b.spikeTimesMs(sg, GENERATOR_MS);
        b.connect(sg, n, Connector.allToAll(), SynapseSpec.staticSynapse(1e5, DELAY));
        return n;
    }

    private static List<Double> expected(double tMin, double tMax) {
        List<Double> out = new ArrayList<>();
        for (double t : RELAY_MS) {
            if (t > tMin + 1e-9 && t <= tMax + 1e-9) {
                out.add(t);
            }
        }
        return out;
    }

    private static void assertTimes(List<Double> actual, List<Double> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i)).isCloseTo(expected.get(i), within(1e-9));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void spikeRecorder_window_recordsExactlyTheSpikesInOriginPlusStartToOriginPlusStop(int threads) {
        NetworkBuilder b = SpikingNetwork.builder().threads(threads);
        Population n = relays(b, 2);
        Population all = b.create("spike_recorder", 1);
        // t_min = 4.1 (a spike there is excluded), t_max = 12.1 (a spike there is included)
        Population windowed = b.create("spike_recorder", 1, Map.of("origin", 2.0, "start", 2.1, "stop", 10.1));
        Population startOnly = b.create("spike_recorder", 1, Map.of("start", 8.1));
        Population empty = b.create("spike_recorder", 1, Map.of("start", 6.0, "stop", 6.0));
        for (Population r : List.of(all, windowed, startOnly, empty)) {
            b.connect(n, r);
        }
        try (SpikingNetwork net = b.build()) {
            // split into runs that do not line up with the spikes: the window does not depend on them
            for (int i = 0; i < 13; i++) {
                net.simulate(1_300_000L);
            }
            Spikes ref = Spikes.drain(net, all.first());
            Spikes w = Spikes.drain(net, windowed.first());
            Spikes s = Spikes.drain(net, startOnly.first());
            for (int id : n.ids()) {
                assertTimes(ref.timesMsOf(id), expected(0.0, Double.POSITIVE_INFINITY));
                assertTimes(w.timesMsOf(id), List.of(6.1, 8.1, 10.1, 12.1));
                assertTimes(s.timesMsOf(id), expected(8.1, Double.POSITIVE_INFINITY));
            }
            assertThat(net.recordedSpikes(windowed.first())).isEqualTo(2 * 4L);
            assertThat(net.recordedSpikes(empty.first())).isZero();
            // the neurons fire all the same: the window changes only what is recorded
            assertThat(net.totalSpikes()).isEqualTo(2L * RELAY_MS.length);
            assertThat(net.get(windowed.first(), "origin")).isEqualTo(2.0);
            assertThat(net.get(windowed.first(), "start")).isEqualTo(2.1);
            assertThat(net.get(windowed.first(), "stop")).isEqualTo(10.1);
            assertThat(net.get(all.first(), "stop")).isEqualTo(Double.POSITIVE_INFINITY);
        }
    }

    @Test
    void spikeRecorder_windowSetAtRunTime_appliesFromThenOn() {
        NetworkBuilder b = SpikingNetwork.builder();
        Population n = relays(b, 1);
        Population rec = b.create("spike_recorder", 1);
        b.connect(n, rec);
        try (SpikingNetwork net = b.build()) {
            net.simulate(6_000_000L);
            assertTimes(Spikes.drain(net, rec.first()).timesMsOf(n.first()), List.of(2.1, 4.1));
            // at 6 ms: record only (9, 12]: the spike at 8.1 is skipped, 10.1 recorded, 12.1 and 14.1 not
            net.set(rec.first(), "start", 9.0);
            net.set(rec.first(), "stop", 12.0);
            assertThatThrownBy(() -> net.set(rec.first(), "stop", 8.0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("spike_recorder node " + rec.first() + ": stop 8 ms is before start 9 ms");
            net.simulate(10_000_000L);
            assertTimes(Spikes.drain(net, rec.first()).timesMsOf(n.first()), List.of(10.1));
            // reset restores the built (default) window
            net.reset();
            assertThat(net.get(rec.first(), "start")).isZero();
            net.simulate(16_000_000L);
            assertTimes(Spikes.drain(net, rec.first()).timesMsOf(n.first()), expected(0.0, Double.POSITIVE_INFINITY));
        }
    }

    @Test
    void spikeRecorder_originSetAtRunTime_movesTheWindow() {
        NetworkBuilder b = SpikingNetwork.builder();
        Population n = relays(b, 1);
        Population rec = b.create("spike_recorder", 1, Map.of("stop", 2.0));
        b.connect(n, rec);
        try (SpikingNetwork net = b.build()) {
            net.simulate(5_000_000L);
            assertThat(net.pendingSpikes(rec.first())).isZero();
            net.set(rec.first(), "origin", 6.1); // (6.1, 8.1]: 8.1 only
            net.simulate(11_000_000L);
            assertTimes(Spikes.drain(net, rec.first()).timesMsOf(n.first()), List.of(8.1));
        }
    }

    @Test
    void spikeRecorder_badWindow_refusedWithTheValueAndTheFix() {
        NetworkBuilder b = SpikingNetwork.builder();
        b.create("iaf_psc_alpha", 1);
        assertThatThrownBy(() -> b.create("spike_recorder", 1, Map.of("start", 0.05)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spike_recorder node 1: start 0.05 ms is not a multiple of the resolution 0.1 ms")
                .hasMessageContaining("use 0 or 0.1 ms");
        assertThatThrownBy(() -> b.create("spike_recorder", 2, Map.of("start", 5.0, "stop", 4.0)))
                .hasMessageContaining("spike_recorder nodes 1..2: stop 4 ms is before start 5 ms");
        assertThatThrownBy(() -> b.create("spike_recorder", 1, Map.of("origin", -1.0)))
                .hasMessageContaining("spike_recorder node 1: origin must be >= 0 ms, got -1 ms");
        assertThatThrownBy(() -> b.create("spike_recorder", 1, Map.of("strat", 1.0)))
                .hasMessageContaining("unknown parameter 'strat' for spike_recorder")
                .hasMessageContaining("did you mean 'start'?");
        Population rec = b.create("spike_recorder", 1);
        try (SpikingNetwork net = b.build()) {
            assertThatThrownBy(() -> net.set(rec.first(), "start", 0.33))
                    .hasMessageContaining("start 0.33 ms is not a multiple of the resolution 0.1 ms");
            assertThatThrownBy(() -> net.get(rec.first(), "interval"))
                    .hasMessageContaining("has no 'interval'; it has [start, stop, origin] and n_events");
            assertThat(net.get(rec.first(), "start")).isZero();
        }
    }

    // multimeter offset

    private static Map<String, Double> passive(double iE) {
        Map<String, Double> p = new HashMap<>();
        p.put("C_m", 250.0);
        p.put("tau_m", 10.0);
        p.put("E_L", -70.0);
        p.put("V_th", 1e10);
        p.put("V_reset", -70.0);
        p.put("I_e", iE);
        return p;
    }

    private static double dcResponse(double iPa, double tMs) {
        return -70.0 + iPa * 10.0 / 250.0 * (1 - Math.exp(-tMs / 10.0));
    }

    /**
     * A multimeter on two passive neurons under a constant current; a synapse of {@code delayMs}
     * between them sets the slice length (min_delay). Runs in pieces of {@code runNs}.
     */
    private static MultimeterSamples sampled(Map<String, Double> meter, double delayMs, long runNs, int runs, int threads) {
        NetworkBuilder b = SpikingNetwork.builder().threads(threads);
        Population n = b.create("iaf_psc_exp", 2, passive(300.0));
        b.connect(n.get(0), n.get(1), Connector.oneToOne(), SynapseSpec.staticSynapse(0.0, delayMs));
        Population mm = b.create("multimeter", 1, meter);
        b.recordFrom(mm, "V_m");
        b.connect(mm, n);
        try (SpikingNetwork net = b.build()) {
            for (int i = 0; i < runs; i++) {
                net.simulate(runNs);
            }
            return net.samples(mm.first());
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.1, 0.3, 0.7, 10.0})
    void multimeter_offset_samplesAtOffsetThenEveryInterval(double delayMs) {
        for (int threads : new int[] {1, 2}) {
            // 20 ms in runs of 1.3 ms (16 runs, 20.8 ms): samples at 0.3, 1.3, ..., 20.3
            MultimeterSamples s = sampled(Map.of("interval", 1.0, "offset", 0.3), delayMs, 1_300_000L, 16, threads);
            assertThat(s.size()).isEqualTo(2 * 21);
            for (int i = 0; i < s.size(); i++) {
                double t = 0.3 + i / 2;
                assertThat(s.timesMs()[i]).isCloseTo(t, within(1e-9));
                assertThat(s.senders()[i]).isEqualTo(i % 2);
                assertThat(s.values("V_m")[i]).as("t = %.1f ms", t).isCloseTo(dcResponse(300.0, t), within(1e-10));
            }
        }
    }

    @Test
    void multimeter_offsetBeyondTheIntervalAndAWindow_samplesOnlyOffsetPlusMultiplesInTheWindow() {
        // offset 2.5: nothing at 0.5 or 1.5; window (3, 6]: 3.5, 4.5, 5.5
        MultimeterSamples s = sampled(Map.of("interval", 1.0, "offset", 2.5, "start", 3.0, "stop", 6.0), 0.2,
                700_000L, 12, 1);
        assertThat(s.timesMs()).containsExactly(3.5, 3.5, 4.5, 4.5, 5.5, 5.5);
        // an offset on the window's edge: 3.0 is not in (3, 6], 4.0, 5.0 and 6.0 are
        MultimeterSamples edge = sampled(Map.of("interval", 1.0, "offset", 3.0, "start", 3.0, "stop", 6.0), 0.2,
                700_000L, 12, 1);
        assertThat(edge.timesMs()).containsExactly(4.0, 4.0, 5.0, 5.0, 6.0, 6.0);
    }

    @Test
    void multimeter_offsetZero_samplesAsWithoutOne() {
        MultimeterSamples none = sampled(Map.of("interval", 0.3), 0.5, 900_000L, 10, 1);
        MultimeterSamples zero = sampled(Map.of("interval", 0.3, "offset", 0.0), 0.5, 900_000L, 10, 1);
        assertThat(zero.timesMs()).containsExactly(none.timesMs());
        assertThat(zero.values("V_m")).containsExactly(none.values("V_m"));
        assertThat(none.timesMs()[0]).isCloseTo(0.3, within(1e-12));
    }

    @Test
    void multimeter_badOffset_refusedWithTheValueAndTheFix() {
        NetworkBuilder b = SpikingNetwork.builder();
        b.create("iaf_psc_alpha", 1);
        assertThatThrownBy(() -> b.create("multimeter", 1, Map.of("offset", -0.5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multimeter node 1: offset -0.5 ms must be >= 0 ms")
                .hasMessageContaining("use 0 (the default) or a positive multiple of the resolution 0.1 ms");
        assertThatThrownBy(() -> b.create("multimeter", 1, Map.of("offset", 0.25)))
                .hasMessageContaining("multimeter node 1: offset 0.25 ms is not a multiple of the resolution 0.1 ms")
                .hasMessageContaining("use 0.2 or 0.3 ms");
        assertThatThrownBy(() -> b.create("multimeter", 1, Map.of("offset", Double.NaN)))
                .hasMessageContaining("multimeter node 1: offset must be a finite number of ms");
        assertThatThrownBy(() -> b.create("multimeter", 1, Map.of("offset", Double.POSITIVE_INFINITY)))
                .hasMessageContaining("offset must be a finite number of ms");
        Population mm = b.create("multimeter", 1, Map.of("offset", 1.5));
        try (SpikingNetwork net = b.build()) {
            assertThat(net.get(mm.first(), "offset")).isCloseTo(1.5, within(1e-12));
            assertThatThrownBy(() -> net.set(mm.first(), "offset", 2.0))
                    .hasMessageContaining("cannot set 'offset' of multimeter node 1: it is fixed once the network is built");
        }
    }
}
