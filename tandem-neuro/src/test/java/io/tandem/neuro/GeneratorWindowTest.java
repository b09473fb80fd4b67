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
 * NEST's device activity windows (start, stop, origin) on the three generators. Arrivals are
 * counted through iaf_psc_exp targets whose synaptic current never decays (tau_syn_ex 1e9 ms,
 * weight 1: I_syn_ex counts the spikes that have arrived), polled after every step.
 */
class GeneratorWindowTest {
    private static final double H = 0.1;
    private static final double C_M = 250.0;
    private static final double TAU_M = 10.0;
    private static final double E_L = -70.0;
    private static final int TARGETS = 50;

    private static Map<String, Double> passive() {
        Map<String, Double> p = new HashMap<>();
        p.put("C_m", C_M);
        p.put("tau_m", TAU_M);
        p.put("E_L", E_L);
        p.put("V_th", 1e10);
        p.put("V_reset", E_L);
        return p;
    }

    /** V of a passive LIF at rest at t = 0 with current {@code amp} acting over (on, off] ms (the closed form). */
    private static double dcStep(double amp, double on, double off, double t) {
        if (t <= on) {
            return E_L;
        }
        double r = TAU_M / C_M;
        double end = Math.min(t, off);
        double v = amp * r * (1 - Math.exp(-(end - on) / TAU_M));
        return t <= off ? E_L + v : E_L + v * Math.exp(-(t - off) / TAU_M);
    }

    @ParameterizedTest
    @ValueSource(strings = {"iaf_psc_alpha", "iaf_psc_exp"})
    void dcGenerator_startStop_drivesTheMembraneLikeADcStepInClosedForm(String model) {
        double amp = 300.0;
        double start = 2.0;
        double stop = 7.0;
        double origin = 1.0;
        for (double delay : new double[] {0.1, 1.0}) {
            NetworkBuilder b = SpikingNetwork.builder();
            int n = b.create(model, 1, passive()).first();
            Population dc = b.create("dc_generator", 1, Map.of("amplitude", amp, "start", start, "stop", stop,
                    "origin", origin));
            b.connect(dc, Population.of(n), Connector.allToAll(), SynapseSpec.staticSynapse(1.0, delay));
            try (SpikingNetwork net = b.build()) {
                // NEST's current-generator rule: on for a duration stop - start, from origin + start + delay
                double on = origin + start + delay;
                double off = origin + stop + delay;
                for (int k = 1; k <= 200; k++) {
                    net.simulateSteps(1);
                    double t = k * H;
                    assertThat(net.vm(n)).as("%s, delay %.1f, t = %.1f ms", model, delay, t)
                            .isCloseTo(dcStep(amp, on, off, t), within(1e-10));
                }
                assertThat(net.vm(n)).isGreaterThan(E_L);
            }
        }
    }

    @Test
    void dcGenerator_defaultWindow_unchangedFromNoWindow() {
        // start 0: the current acts from delay + h, as before windows existed (NEST has no step before 0)
        NetworkBuilder b = SpikingNetwork.builder();
        int n = b.create("iaf_psc_exp", 1, passive()).first();
        Population dc = b.create("dc_generator", 1, Map.of("amplitude", 100.0));
        b.connect(dc, Population.of(n), Connector.allToAll(), SynapseSpec.staticSynapse(1.0, 0.5));
        try (SpikingNetwork net = b.build()) {
            assertThat(net.get(dc.first(), "stop")).isEqualTo(Double.POSITIVE_INFINITY);
            for (int k = 1; k <= 100; k++) {
                net.simulateSteps(1);
                assertThat(net.vm(n)).isCloseTo(dcStep(100.0, 0.6, Double.POSITIVE_INFINITY, k * H), within(1e-10));
            }
        }
    }

    /** Poisson trains onto counting targets: one generator, all-to-all, delay 0.1 ms. */
    private static SpikingNetwork counters(Map<String, Double> generator, long seed, int threads) {
        NetworkBuilder b = SpikingNetwork.builder().seed(seed).threads(threads);
        Population n = b.create("iaf_psc_exp", TARGETS, Map.of("tau_syn_ex", 1e9, "V_th", 1e10));
        Population pg = b.create("poisson_generator", 1, generator);
        b.connect(pg, n, Connector.allToAll(), SynapseSpec.staticSynapse(1.0, H));
        return b.build();
    }

    /** Runs {@code steps} steps; returns the spikes that arrived at all targets in each (index k: arrived by (k + 1) h). */
    private static int[] arrivals(SpikingNetwork net, int steps) {
        int[] out = new int[steps];
        double before = total(net);
        for (int k = 0; k < steps; k++) {
            net.simulateSteps(1);
            double now = total(net);
            out[k] = (int) Math.rint(now - before);
            before = now;
        }
        return out;
    }

    private static double total(SpikingNetwork net) {
        double c = 0;
        for (int i = 0; i < TARGETS; i++) {
            c += net.get(i, "I_syn_ex");
        }
        return c;
    }

    @Test
    void poissonGenerator_window_spikesOnlyInsideWithTheRateInside() {
        double rate = 2000.0;
        // active for spike times in (origin + start, origin + stop] = (30, 60] ms
        try (SpikingNetwork net = counters(Map.of("rate", rate, "start", 20.0, "stop", 50.0, "origin", 10.0), 17, 1)) {
            int[] a = arrivals(net, 1000);
            int inside = 0;
            for (int k = 0; k < a.length; k++) {
                // arrival by (k + 1) h: spike time (k + 1) h - delay = k h
                double spikeMs = k * H;
                if (spikeMs <= 30.0 + 1e-9 || spikeMs > 60.0 + 1e-9) {
                    assertThat(a[k]).as("spikes at %.1f ms, outside the window", spikeMs).isZero();
                } else {
                    inside += a[k];
                }
            }
            // hard edges: the first and last steps of the window are active (10 spikes expected in each)
            assertThat(a[301]).as("spikes at 30.1 ms").isPositive();
            assertThat(a[600]).as("spikes at 60.0 ms").isPositive();
            double expected = TARGETS * rate * 30.0 * 1e-3;
            assertThat((double) inside).isCloseTo(expected, within(4 * Math.sqrt(expected)));
        }
    }

    @Test
    void poissonGenerator_defaultWindow_drawsFromTheFirstStep() {
        try (SpikingNetwork net = counters(Map.of("rate", 20_000.0), 3, 1)) {
            int[] a = arrivals(net, 3);
            // spikes of the first step (time 0.1 ms) arrive by 0.2 ms: 100 expected
            assertThat(a[0]).isZero();
            assertThat(a[1]).isPositive();
        }
    }

    @Test
    void setStop_atRunTime_takesEffectFromTheNextStep() {
        try (SpikingNetwork net = counters(Map.of("rate", 5000.0), 8, 2)) {
            int pg = TARGETS;
            int[] first = arrivals(net, 200);
            assertThat(first[199]).isPositive();
            // now at 20 ms: stop at 20 ms emits nothing from the next step on; the spikes of 20 ms still arrive
            net.set(pg, "stop", 20.0);
            int[] after = arrivals(net, 100);
            assertThat(after[0]).as("spikes of 20.0 ms, in flight").isPositive();
            for (int k = 1; k < after.length; k++) {
                assertThat(after[k]).as("step %d after the change", k).isZero();
            }
            // moving stop later (now 30 ms) resumes the train from the next step, up to the new stop
            net.set(pg, "stop", 40.0);
            int[] resumed = arrivals(net, 150);
            assertThat(resumed[1]).isPositive();
            assertThat(resumed[100]).as("spikes of 40.0 ms").isPositive();
            for (int k = 101; k < resumed.length; k++) {
                assertThat(resumed[k]).isZero();
            }
            assertThat(net.get(pg, "stop")).isEqualTo(40.0);
            // reset restores the built window
            net.reset();
            assertThat(net.get(pg, "stop")).isEqualTo(Double.POSITIVE_INFINITY);
        }
    }

    @Test
    void setStartAndOrigin_atRunTime_pauseAndShiftTheTrain() {
        try (SpikingNetwork net = counters(Map.of("rate", 5000.0), 9, 1)) {
            int pg = TARGETS;
            net.set(pg, "origin", 5.0);
            net.set(pg, "start", 5.0);
            int[] a = arrivals(net, 200);
            // active for spikes after 10 ms: they arrive from 10.2 ms on
            for (int k = 0; k <= 100; k++) {
                assertThat(a[k]).isZero();
            }
            assertThat(a[101]).isPositive();
            assertThat(net.get(pg, "origin")).isEqualTo(5.0);
        }
    }

    /** Times (ms) at which spikes from {@code times} with {@code params} arrive at a counting target, delay 0.1 ms. */
    private static List<Double> spikeGeneratorArrivals(Map<String, Double> params, double... times) {
        NetworkBuilder b = SpikingNetwork.builder();
        int n = b.create("iaf_psc_exp", 1, Map.of("tau_syn_ex", 1e9, "V_th", 1e10)).first();
        Population sg = b.create("spike_generator", 1, params);
        b.spikeTimesMs(sg, times);
        b.connect(sg, Population.of(n), Connector.allToAll(), SynapseSpec.staticSynapse(1.0, H));
        List<Double> arrived = new ArrayList<>();
        try (SpikingNetwork net = b.build()) {
            double before = 0;
            for (int k = 1; k <= 300; k++) {
                net.simulateSteps(1);
                double c = net.get(n, "I_syn_ex");
                for (int i = 0; i < Math.rint(c - before); i++) {
                    arrived.add(Math.rint(k * H * 10) / 10);
                }
                before = c;
            }
        }
        return arrived;
    }

    @Test
    void spikeGenerator_origin_shiftsTimesAndDropsThoseOutsideTheWindow() {
        double[] times = {1.0, 2.0, 3.0, 4.0, 5.0};
        // times are relative to origin: 11..15 ms, each arriving one delay later
        assertThat(spikeGeneratorArrivals(Map.of("origin", 10.0), times)).containsExactly(11.1, 12.1, 13.1, 14.1, 15.1);
        // (origin + start, origin + stop] = (12, 14]: 12 is dropped (start excluded), 14 kept (stop included)
        assertThat(spikeGeneratorArrivals(Map.of("origin", 10.0, "start", 2.0, "stop", 4.0), times))
                .containsExactly(13.1, 14.1);
        assertThat(spikeGeneratorArrivals(Map.of("start", 2.0, "stop", 4.0), times)).containsExactly(3.1, 4.1);
        assertThat(spikeGeneratorArrivals(Map.of("stop", 0.0), times)).isEmpty();
    }

    @Test
    void create_badWindow_rejectedNamingTheNodeAndTheFix() {
        NetworkBuilder b = SpikingNetwork.builder();
        b.create("iaf_psc_alpha", 2);
        assertThatThrownBy(() -> b.create("poisson_generator", 1, Map.of("start", 5.0, "stop", 4.0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("poisson_generator node 2")
                .hasMessageContaining("stop 4 ms is before start 5 ms")
                .hasMessageContaining("stop >= start");
        assertThatThrownBy(() -> b.create("dc_generator", 3, Map.of("stop", 5.05)))
                .hasMessageContaining("dc_generator nodes 2..4")
                .hasMessageContaining("stop 5.05 ms is not a multiple of the resolution 0.1 ms")
                .hasMessageContaining("use 5 or 5.1 ms");
        assertThatThrownBy(() -> b.create("spike_generator", 1, Map.of("origin", Double.NaN)))
                .hasMessageContaining("spike_generator node 2: origin must be a finite number of ms");
        assertThatThrownBy(() -> b.create("poisson_generator", 1, Map.of("start", -1.0)))
                .hasMessageContaining("start must be >= 0 ms");
        assertThatThrownBy(() -> b.create("poisson_generator", 1, Map.of("start", Double.POSITIVE_INFINITY)))
                .hasMessageContaining("start must be a finite number");
        assertThatThrownBy(() -> b.create("poisson_generator", 1, Map.of("stop", Double.NEGATIVE_INFINITY)))
                .hasMessageContaining("stop must be a number of ms or +infinity");
        assertThatThrownBy(() -> b.create("iaf_psc_alpha", 1, Map.of("stop", 5.0)))
                .hasMessageContaining("unknown parameter 'stop' for iaf_psc_alpha");
        // nothing was created by the failed calls
        assertThat(b.nodeCount()).isEqualTo(2);
    }

    @Test
    void set_badWindowAtRunTime_rejectedNamingTheNodeAndTheFix() {
        NetworkBuilder b = SpikingNetwork.builder();
        b.create("iaf_psc_alpha", 1);
        int pg = b.create("poisson_generator", 1, Map.of("start", 50.0, "stop", 60.0)).first();
        try (SpikingNetwork net = b.build()) {
            assertThatThrownBy(() -> net.set(pg, "start", 70.0))
                    .hasMessageContaining("poisson_generator node 1: stop 60 ms is before start 70 ms")
                    .hasMessageContaining("move stop before moving start");
            assertThatThrownBy(() -> net.set(pg, "stop", 60.05)).hasMessageContaining("use 60 or 60.1 ms");
            assertThatThrownBy(() -> net.set(pg, "origin", -5.0)).hasMessageContaining("origin must be >= 0 ms");
            assertThatThrownBy(() -> net.set(0, "stop", 1.0)).hasMessageContaining("cannot set 'stop' of iaf_psc_alpha");
            // the failed calls changed nothing; the order stop-then-start moves the window
            assertThat(net.get(pg, "start")).isEqualTo(50.0);
            net.set(pg, "stop", 80.0);
            net.set(pg, "start", 70.0);
            assertThat(net.get(pg, "start")).isEqualTo(70.0);
            assertThat(net.get(pg, "stop")).isEqualTo(80.0);
            net.set(pg, "stop", Double.POSITIVE_INFINITY);
            assertThat(net.get(pg, "stop")).isEqualTo(Double.POSITIVE_INFINITY);
        }
    }
}
