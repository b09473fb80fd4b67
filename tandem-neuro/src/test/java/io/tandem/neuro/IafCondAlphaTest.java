package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * iaf_cond_alpha (adaptive RKF45 within each step) against the same equations integrated by a
 * slow reference: classic RK4 with 1000 fixed sub-steps per resolution step, with NEST's
 * clamping, threshold and input conventions written out independently here.
 */
class IafCondAlphaTest {
    private static final double H = 0.1;
    private static final int SUBSTEPS = 1000;

    /** NEST's iaf_cond_alpha defaults, I_e and V_th as given. */
    static final class Reference {
        final double vTh;
        final double vReset = -60;
        final int refSteps = 20;
        final double gL = 16.6667;
        final double cM = 250;
        final double eEx = 0;
        final double eIn = -85;
        final double eL = -70;
        final double tauEx = 0.2;
        final double tauIn = 2.0;
        final double iE;
        final double[] y = {-70, 0, 0, 0, 0};
        int r;
        final List<Integer> spikeSteps = new ArrayList<>();

        Reference(double vTh, double iE) {
            this.vTh = vTh;
            this.iE = iE;
        }

        double[] f(double[] s) {
            boolean refr = r > 0;
            double v = refr ? vReset : Math.min(s[0], vTh);
            double dv = refr ? 0 : (-gL * (v - eL) - s[2] * (v - eEx) - s[4] * (v - eIn) + iE) / cM;
            return new double[] {dv, -s[1] / tauEx, s[1] - s[2] / tauEx, -s[3] / tauIn, s[3] - s[4] / tauIn};
        }

        double[] axpy(double[] a, double c, double[] x) {
            double[] o = new double[5];
            for (int i = 0; i < 5; i++) {
                o[i] = a[i] + c * x[i];
            }
            return o;
        }

        void step(int s, double exIn, double inIn) {
            double dt = H / SUBSTEPS;
            for (int k = 0; k < SUBSTEPS; k++) {
                double[] k1 = f(y);
                double[] k2 = f(axpy(y, dt / 2, k1));
                double[] k3 = f(axpy(y, dt / 2, k2));
                double[] k4 = f(axpy(y, dt, k3));
                for (int i = 0; i < 5; i++) {
                    y[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
                }
            }
            if (r > 0) {
                r--;
                y[0] = vReset;
            } else if (y[0] >= vTh) {
                r = refSteps;
                y[0] = vReset;
                spikeSteps.add(s);
            }
            y[1] += Math.E / tauEx * exIn;
            y[3] += Math.E / tauIn * inIn;
        }
    }

    private static final double[] EX_TIMES = {5.0, 15.0, 15.5, 30.0};
    private static final double EX_W = 20.0;
    private static final double[] IN_TIMES = {10.0, 40.0};
    private static final double IN_W = -30.0;
    private static final double DELAY = 0.5;

    private static SpikingNetwork build(double vTh, double iE) {
        NetworkBuilder b = SpikingNetwork.builder();
        b.create("iaf_cond_alpha", 1, Map.of("V_th", vTh, "I_e", iE));
        Population ex = b.create("spike_generator", 1);
        Population in = b.create("spike_generator", 1);
        b.spikeTimesMs(ex, EX_TIMES);
        b.spikeTimesMs(in, IN_TIMES);
        b.connect(ex, Population.of(0), Connector.allToAll(), SynapseSpec.staticSynapse(EX_W, DELAY));
        b.connect(in, Population.of(0), Connector.allToAll(), SynapseSpec.staticSynapse(IN_W, DELAY));
        Population rec = b.create("spike_recorder", 1);
        b.connect(Population.of(0), rec);
        return b.build();
    }

    /** Input arriving in step s (read at its end): spikes at t arrive in step t/h - 1 + delay/h. */
    private static double arriving(double[] times, double w, int s) {
        double sum = 0;
        for (double t : times) {
            if (Math.round(t / H) - 1 + Math.round(DELAY / H) == s) {
                sum += w;
            }
        }
        return sum;
    }

    private static double maxDeviation(double vTh, double iE, int steps, List<Integer> spikeStepsOut, SpikingNetwork net) {
        Reference ref = new Reference(vTh, iE);
        double maxDev = 0;
        for (int s = 0; s < steps; s++) {
            net.simulateSteps(1);
            ref.step(s, arriving(EX_TIMES, EX_W, s), -arriving(IN_TIMES, IN_W, s));
            maxDev = Math.max(maxDev, Math.abs(net.vm(0) - ref.y[0]));
            assertThat(net.get(0, "g_ex")).isCloseTo(ref.y[2], within(1e-3));
            assertThat(net.get(0, "g_in")).isCloseTo(ref.y[4], within(1e-3));
        }
        spikeStepsOut.addAll(ref.spikeSteps);
        return maxDev;
    }

    @Test
    void simulate_conductanceInputBelowThreshold_tracksReferenceWithin50Microvolts() {
        try (SpikingNetwork net = build(50.0, 100.0)) {
            List<Integer> refSpikes = new ArrayList<>();
            double dev = maxDeviation(50.0, 100.0, 600, refSpikes, net);
            assertThat(dev).isLessThan(5e-5);
            // the inputs moved V by millivolts, so the comparison is not vacuous
            assertThat(refSpikes).isEmpty();
        }
    }

    @Test
    void simulate_alphaConductance_peaksAtTauSynWithTheWeight() {
        // one excitatory spike of w nS: g_ex(t) = w e/tau t exp(-t/tau), peak w at tau after arrival
        NetworkBuilder b = SpikingNetwork.builder();
        b.create("iaf_cond_alpha", 1, Map.of("tau_syn_ex", 2.0, "V_th", 50.0));
        Population gen = b.create("spike_generator", 1);
        b.spikeTimesMs(gen, 1.0);
        b.connect(gen, Population.of(0), Connector.allToAll(), SynapseSpec.staticSynapse(4.0, 1.0));
        try (SpikingNetwork net = b.build()) {
            net.simulate(2_000_000L);
            for (int k = 1; k <= 100; k++) {
                net.simulateSteps(1);
                double t = k * H;
                assertThat(net.get(0, "g_ex")).isCloseTo(4.0 * Math.E / 2.0 * t * Math.exp(-t / 2.0), within(1e-3));
            }
            assertThat(net.get(0, "g_in")).isZero();
        }
    }

    @Test
    void simulate_suprathresholdCurrentAndInput_spikesOnTheReferenceSteps() {
        double iE = 400.0;
        try (SpikingNetwork net = build(-55.0, iE)) {
            List<Integer> refSpikes = new ArrayList<>();
            double dev = maxDeviation(-55.0, iE, 1500, refSpikes, net);
            List<Double> spikes = Spikes.drain(net, 3).timesMsOf(0);
            assertThat(refSpikes).hasSizeGreaterThan(5);
            assertThat(spikes).hasSameSizeAs(refSpikes);
            for (int i = 0; i < spikes.size(); i++) {
                // a spike detected at the end of step s has time (s + 1) h
                assertThat(spikes.get(i)).isCloseTo((refSpikes.get(i) + 1) * H, within(1e-9));
            }
            assertThat(dev).isLessThan(5e-5);
        }
    }
}
