package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** NEST's multimeter: sample times, values against closed forms and the neurons' own state, windows, validation. */
class MultimeterTest {
    private static final double H = 0.1;
    private static final double C_M = 250.0;
    private static final double TAU_M = 10.0;
    private static final double E_L = -70.0;

    private static Map<String, Double> passive(double iE) {
        Map<String, Double> p = new HashMap<>();
        p.put("C_m", C_M);
        p.put("tau_m", TAU_M);
        p.put("E_L", E_L);
        p.put("V_th", 1e10);
        p.put("V_reset", E_L);
        p.put("I_e", iE);
        return p;
    }

    private static double dcResponse(double iPa, double tMs) {
        return E_L + iPa * TAU_M / C_M * (1 - Math.exp(-tMs / TAU_M));
    }

    @ParameterizedTest
    @ValueSource(strings = {"iaf_psc_alpha", "iaf_psc_exp"})
    void vmSamples_constantCurrent_equalTheClosedFormAtEverySampledTime(String model) {
        double iE = 300.0;
        NetworkBuilder b = SpikingNetwork.builder();
        Population n = b.create(model, 3, passive(iE));
        Population mm = b.create("multimeter", 1, Map.of("interval", 0.5));
        b.recordFrom(mm, "V_m");
        b.connect(mm, n);
        try (SpikingNetwork net = b.build()) {
            net.simulate(100_000_000L);
            MultimeterSamples s = net.samples(mm.first());
            // 200 sample times (0.5, 1.0, ..., 100 ms), one row per neuron each, in connection order
            assertThat(s.size()).isEqualTo(600);
            double[] t = s.timesMs();
            int[] senders = s.senders();
            double[] vm = s.values("V_m");
            for (int i = 0; i < s.size(); i++) {
                assertThat(t[i]).isCloseTo(0.5 * (i / 3 + 1), within(1e-12));
                assertThat(senders[i]).isEqualTo(n.id(i % 3));
                assertThat(vm[i]).as("t = %.1f ms", t[i]).isCloseTo(dcResponse(iE, t[i]), within(1e-10));
            }
        }
    }

    @Test
    void vmSamples_dcGeneratorStep_equalTheClosedFormAtEverySampledTime() {
        double amp = 200.0;
        NetworkBuilder b = SpikingNetwork.builder();
        Population n = b.create("iaf_psc_exp", 1, passive(0));
        Population dc = b.create("dc_generator", 1, Map.of("amplitude", amp, "start", 5.0));
        b.connect(dc, n, Connector.allToAll(), SynapseSpec.staticSynapse(1.0, 0.1));
        Population mm = b.create("multimeter", 1, Map.of("interval", H));
        b.recordFrom(mm, "V_m");
        b.connect(mm, n);
        try (SpikingNetwork net = b.build()) {
            net.simulate(50_000_000L);
            MultimeterSamples s = net.samples(mm.first());
            assertThat(s.size()).isEqualTo(500);
            double[] t = s.timesMs();
            double[] vm = s.values("V_m");
            for (int i = 0; i < s.size(); i++) {
                // the current acts from start + delay = 5.1 ms
                double expected = t[i] <= 5.1 + 1e-9 ? E_L : dcResponse(amp, t[i] - 5.1);
                assertThat(vm[i]).as("t = %.1f ms", t[i]).isCloseTo(expected, within(1e-10));
            }
        }
    }

    @Test
    void samples_synapticCurrentsAndConductances_equalTheNeuronsStateAtThatTime() {
        NetworkBuilder b = SpikingNetwork.builder();
        Population psc = b.create("iaf_psc_alpha", 2, Map.of("I_e", 400.0));
        Population cond = b.create("iaf_cond_alpha", 2, Map.of("I_e", 300.0));
        b.connect(psc, cond, Connector.allToAll(), SynapseSpec.staticSynapse(2.0, 0.5));
        b.connect(cond, psc, Connector.allToAll(), SynapseSpec.staticSynapse(-30.0, 0.3));
        Population pg = b.create("poisson_generator", 1, Map.of("rate", 3000.0));
        b.connect(pg, psc.concat(cond), Connector.allToAll(), SynapseSpec.staticSynapse(5.0, 0.1));
        Population m1 = b.create("multimeter", 1, Map.of("interval", 0.2));
        b.recordFrom(m1, "I_syn_in", "V_m", "I_syn_ex");
        b.connect(m1, psc);
        Population m2 = b.create("multimeter", 1, Map.of("interval", 0.3));
        b.recordFrom(m2, "g_ex", "g_in", "V_m");
        b.connect(m2, cond);
        try (SpikingNetwork net = b.build()) {
            List<double[]> expected1 = new ArrayList<>();
            List<double[]> expected2 = new ArrayList<>();
            for (int k = 1; k <= 600; k++) {
                net.simulateSteps(1);
                for (int id : psc.ids()) {
                    if (k % 2 == 0) {
                        expected1.add(new double[] {k * H, id, net.get(id, "I_syn_in"), net.vm(id), net.get(id, "I_syn_ex")});
                    }
                }
                for (int id : cond.ids()) {
                    if (k % 3 == 0) {
                        expected2.add(new double[] {k * H, id, net.get(id, "g_ex"), net.get(id, "g_in"), net.vm(id)});
                    }
                }
            }
            assertThat(net.totalSpikes()).isPositive();
            check(net.samples(m1.first()), expected1, "I_syn_in", "V_m", "I_syn_ex");
            check(net.samples(m2.first()), expected2, "g_ex", "g_in", "V_m");
            // the sampled values are not trivially zero
            assertThat(Arrays.stream(net.samples(m1.first()).values("I_syn_in")).min().getAsDouble()).isNegative();
            assertThat(Arrays.stream(net.samples(m2.first()).values("g_ex")).max().getAsDouble()).isPositive();
        }
    }

    private static void check(MultimeterSamples s, List<double[]> expected, String... vars) {
        assertThat(s.recordFrom()).containsExactly(vars);
        assertThat(s.size()).isEqualTo(expected.size());
        double[] t = s.timesMs();
        int[] senders = s.senders();
        for (int i = 0; i < expected.size(); i++) {
            double[] e = expected.get(i);
            assertThat(t[i]).isCloseTo(e[0], within(1e-9));
            assertThat(senders[i]).isEqualTo((int) e[1]);
            for (int v = 0; v < vars.length; v++) {
                assertThat(s.values(vars[v])[i]).as("%s at %.1f ms", vars[v], e[0]).isEqualTo(e[2 + v]);
            }
        }
    }

    @Test
    void intervalAndWindow_onlyMultiplesInsideOriginPlusStartToOriginPlusStop() {
        NetworkBuilder b = SpikingNetwork.builder();
        Population n = b.create("iaf_psc_exp", 2, passive(100));
        Population mm = b.create("multimeter", 1, Map.of("interval", 1.0, "origin", 5.0, "start", 10.0, "stop", 20.0));
        b.recordFrom(mm, "V_m");
        b.connect(mm, n.get(1));
        b.connect(mm, n.get(0));
        try (SpikingNetwork net = b.build()) {
            // split into runs that end off the interval grid: sampling does not depend on the runs
            for (int i = 0; i < 30; i++) {
                net.simulate(1_300_000L);
            }
            MultimeterSamples s = net.samples(mm.first());
            // times in (15, 25], multiples of 1 ms: 16..25, each with neuron 1 then neuron 0 (connection order)
            assertThat(s.size()).isEqualTo(20);
            for (int i = 0; i < 20; i++) {
                assertThat(s.timesMs()[i]).isCloseTo(16.0 + i / 2, within(1e-9));
                assertThat(s.senders()[i]).isEqualTo(i % 2 == 0 ? 1 : 0);
            }
            // a later stop at run time extends the recording from the next step on
            net.set(mm.first(), "stop", 40.0);
            net.simulate(10_000_000L);
            // from 39 ms to 49 ms: samples at 40..45 ms (origin + stop), none for the times already past
            double[] t = net.samples(mm.first()).timesMs();
            assertThat(t).hasSize(2 * (10 + 6));
            assertThat(t[20]).isEqualTo(40.0);
            assertThat(t).endsWith(44.0, 44.0, 45.0, 45.0);
            assertThat(net.get(mm.first(), "interval")).isEqualTo(1.0);
            assertThat(net.get(mm.first(), "n_events")).isEqualTo(2 * 16.0);
        }
    }

    @Test
    void drainSamples_handsEveryRowOnceThenForgetsIt() {
        NetworkBuilder b = SpikingNetwork.builder();
        Population n = b.create("iaf_psc_alpha", 2, passive(300));
        Population mm = b.create("multimeter", 1, Map.of("interval", 0.5));
        b.recordFrom(mm, "V_m", "I_syn_ex");
        b.connect(mm, n);
        try (SpikingNetwork net = b.build()) {
            net.simulate(10_000_000L);
            MultimeterSamples before = net.samples(mm.first());
            List<double[]> rows = new ArrayList<>();
            int drained = net.drainSamples(mm.first(), (sender, timeNs, values, offset, count) ->
                    rows.add(new double[] {sender, timeNs / 1e6, values[offset], values[offset + count - 1]}));
            assertThat(drained).isEqualTo(40).isEqualTo(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                assertThat(rows.get(i)[0]).isEqualTo(before.senders()[i]);
                assertThat(rows.get(i)[1]).isEqualTo(before.timesMs()[i]);
                assertThat(rows.get(i)[2]).isEqualTo(before.values("V_m")[i]);
                assertThat(rows.get(i)[3]).isEqualTo(before.values("I_syn_ex")[i]);
            }
            assertThat(net.pendingSamples(mm.first())).isZero();
            assertThat(net.recordedSamples(mm.first())).isEqualTo(40);
            net.simulate(1_000_000L);
            assertThat(net.pendingSamples(mm.first())).isEqualTo(4);
            net.reset();
            assertThat(net.pendingSamples(mm.first())).isZero();
            assertThat(net.recordedSamples(mm.first())).isZero();
        }
    }

    @Test
    void recordFrom_unknownOrMissingVariable_rejectedNamingTheValidOnes() {
        NetworkBuilder b = SpikingNetwork.builder();
        Population psc = b.create("iaf_psc_alpha", 1);
        Population mm = b.create("multimeter", 1);
        assertThatThrownBy(() -> b.recordFrom(mm, "V_M"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown record_from variable 'V_M'")
                .hasMessageContaining("[V_m, I_syn_ex, I_syn_in, g_ex, g_in]")
                .hasMessageContaining("did you mean 'V_m'?");
        assertThatThrownBy(() -> b.recordFrom(mm)).hasMessageContaining("at least one variable");
        assertThatThrownBy(() -> b.recordFrom(mm, "V_m", "V_m")).hasMessageContaining("'V_m' twice");
        assertThatThrownBy(() -> b.recordFrom(psc, "V_m")).hasMessageContaining("not a multimeter");
        assertThatThrownBy(() -> b.connect(mm, psc)).hasMessageContaining("multimeter node 1 has no record_from");
        b.recordFrom(mm, "V_m", "g_ex");
        assertThatThrownBy(() -> b.connect(mm, psc))
                .hasMessageContaining("records 'g_ex', which iaf_psc_alpha node 0 does not have")
                .hasMessageContaining("iaf_psc_alpha can record [V_m, I_syn_ex, I_syn_in]");
        b.recordFrom(mm, "V_m");
        b.connect(mm, psc);
        assertThatThrownBy(() -> b.recordFrom(mm, "I_syn_ex")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already connected");
    }

    @Test
    void connect_wrongDirectionOrBadInterval_explained() {
        NetworkBuilder b = SpikingNetwork.builder();
        Population n = b.create("iaf_psc_alpha", 1);
        Population mm = b.create("multimeter", 1);
        Population pg = b.create("poisson_generator", 1);
        b.recordFrom(mm, "V_m");
        assertThatThrownBy(() -> b.connect(n, mm)).hasMessageContaining("a multimeter is the source");
        assertThatThrownBy(() -> b.connect(mm, pg)).hasMessageContaining("a multimeter records neurons only");
        assertThatThrownBy(() -> b.create("multimeter", 1, Map.of("interval", 0.25)))
                .hasMessageContaining("multimeter node 3: interval 0.25 ms is not a multiple of the resolution 0.1 ms")
                .hasMessageContaining("use 0.2 or 0.3 ms");
        assertThatThrownBy(() -> b.create("multimeter", 1, Map.of("interval", 0.0)))
                .hasMessageContaining("interval 0.0 ms must be at least the resolution 0.1 ms");
        b.connect(mm, n);
        try (SpikingNetwork net = b.build()) {
            assertThat(net.recordFrom(mm.first())).containsExactly("V_m");
            assertThatThrownBy(() -> net.set(mm.first(), "interval", 2.0)).hasMessageContaining("fixed once the network is built");
            assertThatThrownBy(() -> net.samples(mm.first()).values("g_ex")).hasMessageContaining("it records [V_m]");
            assertThatThrownBy(() -> net.drainSamples(n.first(), (s, t, v, o, c) -> { }))
                    .hasMessageContaining("not a multimeter");
        }
    }

    private static MultimeterSamples brunelSamples(int threads) {
        NetworkBuilder b = SpikingNetwork.builder().seed(4).threads(threads);
        Population neurons = BrunelNetwork.define(b, 400, false);
        Population mm = b.create("multimeter", 1, Map.of("interval", 0.3, "start", 20.0));
        b.recordFrom(mm, "V_m", "I_syn_ex", "I_syn_in");
        // targets spread over every partition, out of id order
        b.connect(mm, neurons.slice(0, 400, 37).concat(neurons.slice(5, 400, 91)), Connector.allToAll(),
                SynapseSpec.staticSynapse(1.0, 1.0));
        try (SpikingNetwork net = b.build()) {
            for (int i = 0; i < 7; i++) {
                net.simulate(15_000_000L);
            }
            assertThat(net.totalSpikes()).isPositive();
            return net.samples(mm.first());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void samples_anyThreadCount_bitwiseIdenticalToOneThread(int threads) {
        MultimeterSamples serial = brunelSamples(1);
        MultimeterSamples parallel = brunelSamples(threads);
        // multiples of 3 steps in (200, 1050], 16 targets each
        assertThat(serial.size()).isEqualTo((1050 / 3 - 200 / 3) * 16);
        assertThat(parallel.timesMs()).isEqualTo(serial.timesMs());
        assertThat(parallel.senders()).isEqualTo(serial.senders());
        for (String v : serial.recordFrom()) {
            assertThat(parallel.values(v)).as(v).isEqualTo(serial.values(v));
        }
    }
}
