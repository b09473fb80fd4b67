package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The LIF models against closed forms (issue: membrane response to a DC current, f-I curve, rheobase). */
class IafClosedFormTest {
    private static final double C_M = 250.0;
    private static final double TAU_M = 10.0;
    private static final double E_L = -70.0;
    private static final double V_TH = -55.0;
    private static final double V_RESET = -70.0;
    private static final double T_REF = 2.0;
    private static final double H = 0.1;
    /** (V_th - E_L) C_m / tau_m: the smallest current that fires. */
    private static final double RHEOBASE_PA = (V_TH - E_L) * C_M / TAU_M;

    private static Map<String, Double> lif(double iE, double vTh) {
        Map<String, Double> p = new HashMap<>();
        p.put("C_m", C_M);
        p.put("tau_m", TAU_M);
        p.put("E_L", E_L);
        p.put("V_th", vTh);
        p.put("V_reset", V_RESET);
        p.put("t_ref", T_REF);
        p.put("I_e", iE);
        return p;
    }

    private static double dcResponse(double iPa, double tMs) {
        return E_L + iPa * TAU_M / C_M * (1 - Math.exp(-tMs / TAU_M));
    }

    @ParameterizedTest
    @ValueSource(strings = {"iaf_psc_alpha", "iaf_psc_exp"})
    void simulate_constantIe_matchesClosedFormAtEveryStep(String model) {
        double iE = 300.0;
        NetworkBuilder b = SpikingNetwork.builder();
        int n = b.create(model, 1, lif(iE, 1e10)).first();
        try (SpikingNetwork net = b.build()) {
            for (int k = 1; k <= 2000; k++) {
                net.simulateSteps(1);
                assertThat(net.vm(n)).as("t = %d steps", k).isCloseTo(dcResponse(iE, k * H), within(1e-10));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"iaf_psc_alpha", "iaf_psc_exp"})
    void dcGenerator_currentActsFromDelayPlusOneStep_matchesClosedForm(String model) {
        double amp = 200.0;
        double delayMs = 1.0;
        NetworkBuilder b = SpikingNetwork.builder();
        int n = b.create(model, 1, lif(0, 1e10)).first();
        Population dc = b.create("dc_generator", 1, Map.of("amplitude", amp));
        b.connect(dc, Population.of(n), Connector.allToAll(), SynapseSpec.staticSynapse(1.0, delayMs));
        try (SpikingNetwork net = b.build()) {
            double onset = delayMs + H;
            for (int k = 1; k <= 1000; k++) {
                net.simulateSteps(1);
                double t = k * H;
                double expected = t < onset - 1e-9 ? E_L : dcResponse(amp, t - onset);
                assertThat(net.vm(n)).as("t = %.1f ms", t).isCloseTo(expected, within(1e-10));
            }
            // a new amplitude applies from the next run, after the same latency: the current in flight still arrives
            net.setAmplitude(dc.first(), 0.0);
            for (int k = 1001; k <= 1011; k++) {
                net.simulateSteps(1);
                assertThat(net.vm(n)).isCloseTo(dcResponse(amp, k * H - onset), within(1e-10));
            }
            double v1 = net.vm(n);
            for (int k = 1; k <= 100; k++) {
                net.simulateSteps(1);
                assertThat(net.vm(n)).isCloseTo(E_L + (v1 - E_L) * Math.exp(-k * H / TAU_M), within(1e-10));
            }
        }
    }

    /** The first spike time and the inter-spike interval of a LIF neuron driven by a constant current. */
    private static double[] measurePeriod(String model, double iE, double simMs) {
        NetworkBuilder b = SpikingNetwork.builder();
        int n = b.create(model, 1, lif(iE, V_TH)).first();
        Population rec = b.create("spike_recorder", 1);
        b.connect(Population.of(n), rec);
        try (SpikingNetwork net = b.build()) {
            net.simulate((long) (simMs * 1e6));
            List<Double> t = Spikes.drain(net, rec.first()).timesMsOf(n);
            if (t.isEmpty()) {
                return new double[] {Double.NaN, Double.NaN, 0};
            }
            double isi = t.size() < 2 ? Double.NaN : (t.get(t.size() - 1) - t.get(0)) / (t.size() - 1);
            return new double[] {t.get(0), isi, t.size()};
        }
    }

    @ParameterizedTest
    @CsvSource({"iaf_psc_alpha,400", "iaf_psc_alpha,500", "iaf_psc_alpha,800", "iaf_psc_alpha,1500", "iaf_psc_exp,400",
        "iaf_psc_exp,1000"})
    void simulate_aboveRheobase_periodMatchesFiCurveWithinOneStep(String model, double iE) {
        double r = TAU_M / C_M;
        // time from V_reset to V_th under the current, continuous
        double tFire = TAU_M * Math.log((r * iE + E_L - V_RESET) / (r * iE + E_L - V_TH));
        double[] m = measurePeriod(model, iE, 1000);
        // starting at E_L = V_reset, the first spike comes after tFire, rounded up to the grid
        assertThat(m[0]).isCloseTo(tFire, within(H + 1e-9));
        assertThat(m[0]).isGreaterThanOrEqualTo(tFire - 1e-9);
        assertThat(m[1]).isCloseTo(T_REF + tFire, within(H + 1e-9));
    }

    @ParameterizedTest
    @ValueSource(strings = {"iaf_psc_alpha", "iaf_psc_exp"})
    void simulate_atRheobase_firesOnlyAbove(String model) {
        assertThat(RHEOBASE_PA).isEqualTo(375.0);
        assertThat(measurePeriod(model, RHEOBASE_PA - 1, 2000)[2]).isZero();
        assertThat(measurePeriod(model, RHEOBASE_PA - 1e-3, 2000)[2]).isZero();
        assertThat(measurePeriod(model, RHEOBASE_PA + 1, 2000)[2]).isPositive();
    }
}
