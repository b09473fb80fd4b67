package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Postsynaptic potentials against closed forms (issue: alpha-PSP peak time and amplitude). */
class PspClosedFormTest {
    private static final double C_M = 250.0;
    private static final double TAU_M = 10.0;
    private static final double TAU_S = 2.0;
    private static final double E_L = -70.0;
    private static final double H = 0.1;
    private static final double SPIKE_MS = 1.0;
    private static final double DELAY_MS = 1.0;

    /** The alpha PSP of a PSC of peak {@code w} pA at {@code TAU_S}: V(t) - E_L, explicit form. */
    static double alphaPsp(double w, double t) {
        double a = 1 / TAU_M - 1 / TAU_S;
        double es = Math.exp(-t / TAU_S);
        double em = Math.exp(-t / TAU_M);
        return w * Math.E / (TAU_S * C_M) * (t * es / a - (es - em) / (a * a));
    }

    /** The exponential PSP of a PSC jump of {@code w} pA. */
    static double expPsp(double w, double t) {
        double a = 1 / TAU_M - 1 / TAU_S;
        return w / C_M * (Math.exp(-t / TAU_S) - Math.exp(-t / TAU_M)) / a;
    }

    /** The lower branch W_{-1} of Lambert's W on (-1/e, 0), by Halley's iteration. */
    static double lambertWm1(double x) {
        double w = Math.log(-x) - Math.log(-Math.log(-x));
        for (int i = 0; i < 50; i++) {
            double ew = Math.exp(w);
            double f = w * ew - x;
            double step = f / (ew * (w + 1) - (w + 2) * f / (2 * w + 2));
            w -= step;
            if (Math.abs(step) < 1e-15 * Math.abs(w)) {
                break;
            }
        }
        return w;
    }

    /**
     * The alpha-PSP peak time: dV/dt = 0 reduces to exp(-a t) = 1 - b t, a = 1/tau_m - 1/tau_s,
     * b = (tau_s - tau_m) / tau_s^2, whose non-zero root is t = (1 - u) / b with
     * u = -W_{-1}(-c e^{-c}) / c, c = tau_s / tau_m.
     */
    static double alphaPeakTime() {
        double b = (TAU_S - TAU_M) / (TAU_S * TAU_S);
        double c = TAU_S / TAU_M;
        double u = -lambertWm1(-c * Math.exp(-c)) / c;
        return (1 - u) / b;
    }

    private static SpikingNetwork oneSpike(String model, double w) {
        NetworkBuilder b = SpikingNetwork.builder();
        b.create(model, 1, Map.of("C_m", C_M, "tau_m", TAU_M, "tau_syn_ex", TAU_S, "tau_syn_in", TAU_S, "E_L", E_L,
                "V_th", 1e10));
        Population gen = b.create("spike_generator", 1);
        b.spikeTimesMs(gen, SPIKE_MS);
        b.connect(gen, Population.of(0), Connector.allToAll(), SynapseSpec.staticSynapse(w, DELAY_MS));
        return b.build();
    }

    @Test
    void alphaPeakTime_solvesTheStationaryCondition() {
        double t = alphaPeakTime();
        double a = 1 / TAU_M - 1 / TAU_S;
        double b = (TAU_S - TAU_M) / (TAU_S * TAU_S);
        assertThat(Math.exp(-a * t)).isCloseTo(1 - b * t, within(1e-9));
        // and it is a maximum of the closed form
        assertThat(alphaPsp(1, t)).isGreaterThan(alphaPsp(1, t - 0.01)).isGreaterThan(alphaPsp(1, t + 0.01));
        // tau_m 10, tau_syn 2: the peak comes about 6.6 ms after arrival
        assertThat(t).isBetween(6.0, 7.0);
    }

    @ParameterizedTest
    @ValueSource(doubles = {100.0, -60.0})
    void iafPscAlpha_singleSpike_pspMatchesClosedFormPeakTimeAndAmplitude(double w) {
        double arrival = SPIKE_MS + DELAY_MS;
        double tPeak = alphaPeakTime();
        double peak = alphaPsp(w, tPeak);
        double bestT = 0;
        double best = 0;
        try (SpikingNetwork net = oneSpike("iaf_psc_alpha", w)) {
            for (int k = 1; k <= 400; k++) {
                net.simulateSteps(1);
                double t = k * H;
                double expected = t < arrival + 1e-9 ? 0 : alphaPsp(w, t - arrival);
                double v = net.vm(0) - E_L;
                assertThat(v).as("t = %.1f ms", t).isCloseTo(expected, within(1e-12 + 1e-9 * Math.abs(expected)));
                if (Math.abs(v) > Math.abs(best)) {
                    best = v;
                    bestT = t - arrival;
                }
            }
        }
        // the largest grid sample sits within a step of the peak and within the grid's curvature of its height
        assertThat(bestT).isCloseTo(tPeak, within(H));
        assertThat(best).isCloseTo(peak, within(1e-3 * Math.abs(peak)));
        assertThat(Math.signum(best)).isEqualTo(Math.signum(w));
    }

    @Test
    void iafPscExp_singleSpike_pspMatchesClosedForm() {
        double w = 100.0;
        double arrival = SPIKE_MS + DELAY_MS;
        try (SpikingNetwork net = oneSpike("iaf_psc_exp", w)) {
            for (int k = 1; k <= 400; k++) {
                net.simulateSteps(1);
                double t = k * H;
                double expected = t < arrival + 1e-9 ? 0 : expPsp(w, t - arrival);
                assertThat(net.vm(0) - E_L).as("t = %.1f ms", t).isCloseTo(expected, within(1e-12 + 1e-9 * expected));
            }
            // the PSC jumped by w at arrival and decays with tau_syn
            assertThat(net.get(0, "I_syn_ex")).isCloseTo(w * Math.exp(-(400 * H - arrival) / TAU_S), within(1e-9));
        }
    }

    @Test
    void iafPscAlpha_equalTimeConstants_usesTheLimitPropagator() {
        // tau_m == tau_syn: the propagators' removable singularity; the PSP is then w e/(tau C) t^2/2 e^(-t/tau)
        NetworkBuilder b = SpikingNetwork.builder();
        b.create("iaf_psc_alpha", 1, Map.of("C_m", C_M, "tau_m", 5.0, "tau_syn_ex", 5.0, "E_L", 0.0, "V_reset", -1.0,
                "V_th", 1e10));
        Population gen = b.create("spike_generator", 1);
        b.spikeTimesMs(gen, 0.1);
        b.connect(gen, Population.of(0), Connector.allToAll(), SynapseSpec.staticSynapse(50.0, 0.1));
        try (SpikingNetwork net = b.build()) {
            net.simulate(200_000L);
            for (int k = 1; k <= 100; k++) {
                net.simulateSteps(1);
                double t = k * H;
                double expected = 50.0 * Math.E / (5.0 * C_M) * t * t / 2 * Math.exp(-t / 5.0);
                assertThat(net.vm(0)).isCloseTo(expected, within(1e-12));
            }
        }
    }
}
