package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * tsodyks_synapse over a regular spike train against the model's recursion, written here from
 * the equations of Tsodyks, Uziel, Markram (2000) as NEST documents them: between spikes
 * dy/dt = -y/tau_psc, dz/dt = y/tau_psc - z/tau_rec, x = 1 - y - z, u decays with tau_fac; at a
 * spike u += U (1 - u), then u x moves from x to y and the PSC jumps by weight u x.
 */
class TsodyksSynapseTest {
    private static final double H = 0.1;
    private static final double W = 100.0;
    private static final double DELAY = 1.0;
    private static final double TAU_TARGET = 3.0;

    /** The reference amplitudes for spikes at {@code times} (ms). */
    static List<Double> recursion(List<Double> times, double u0, double tauPsc, double tauRec, double tauFac) {
        double y = 0;
        double z = 0;
        double u = 0;
        double last = 0;
        List<Double> amps = new ArrayList<>();
        for (double t : times) {
            double h = t - last;
            double ep = Math.exp(-h / tauPsc);
            double er = Math.exp(-h / tauRec);
            // exact solution of the linear (y, z) system over h
            double zNew = z * er + y / tauPsc * (ep - er) / (1 / tauRec - 1 / tauPsc);
            y *= ep;
            z = zNew;
            u = tauFac == 0 ? 0 : u * Math.exp(-h / tauFac);
            u += u0 * (1 - u);
            double x = 1 - y - z;
            double released = u * x;
            y += released;
            amps.add(W * released);
            last = t;
        }
        return amps;
    }

    /** Runs a presynaptic neuron forced to spike near {@code driveMs}; returns {spike times, PSC jumps seen by the target}. */
    private static List<List<Double>> run(double[] driveMs, Map<String, Double> tsodyks) {
        NetworkBuilder b = SpikingNetwork.builder();
        // the presynaptic neuron fires in the step after each huge, brief input
        Population pre = b.create("iaf_psc_exp", 1, Map.of("tau_syn_ex", 0.1, "t_ref", 5.0));
        Population post = b.create("iaf_psc_exp", 1, Map.of("tau_syn_ex", TAU_TARGET, "V_th", 1e10));
        Population gen = b.create("spike_generator", 1);
        b.spikeTimesMs(gen, driveMs);
        b.connect(gen, pre, Connector.allToAll(), SynapseSpec.staticSynapse(1e6, 0.1));
        Map<String, Double> p = new java.util.HashMap<>(tsodyks);
        p.put("weight", W);
        p.put("delay", DELAY);
        b.connect(pre, post, Connector.oneToOne(), SynapseSpec.of("tsodyks_synapse", p));
        Population rec = b.create("spike_recorder", 1);
        b.connect(pre, rec);
        List<Double> jumps = new ArrayList<>();
        List<Double> jumpTimes = new ArrayList<>();
        double p11 = Math.exp(-H / TAU_TARGET);
        try (SpikingNetwork net = b.build()) {
            double prev = 0;
            int steps = (int) Math.round((driveMs[driveMs.length - 1] + 5) / H);
            for (int k = 1; k <= steps; k++) {
                net.simulateSteps(1);
                double i = net.get(post.first(), "I_syn_ex");
                double jump = i - p11 * prev;
                if (jump > 1e-9) {
                    jumps.add(jump);
                    jumpTimes.add(k * H);
                }
                prev = i;
            }
            List<Double> spikes = Spikes.drain(net, rec.first()).timesMsOf(pre.first());
            return List.of(spikes, jumps, jumpTimes);
        }
    }

    private static double[] train(int n, double first, double interval) {
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = first + i * interval;
        }
        return t;
    }

    @Test
    void send_depressingTrain_matchesRecursionAndArrivesAfterTheDelay() {
        List<List<Double>> r = run(train(11, 10, 20), Map.of("U", 0.5, "tau_psc", 3.0, "tau_rec", 100.0, "tau_fac", 0.0));
        List<Double> spikes = r.get(0);
        List<Double> jumps = r.get(1);
        assertThat(spikes).hasSize(11);
        assertThat(jumps).hasSize(11);
        for (int i = 0; i < spikes.size(); i++) {
            assertThat(r.get(2).get(i)).isCloseTo(spikes.get(i) + DELAY, within(1e-9));
        }
        List<Double> expected = recursion(spikes, 0.5, 3.0, 100.0, 0.0);
        for (int i = 0; i < jumps.size(); i++) {
            assertThat(jumps.get(i)).as("spike %d", i).isCloseTo(expected.get(i), within(1e-9 * W));
        }
        // first release U w, then depression
        assertThat(jumps.get(0)).isCloseTo(0.5 * W, within(1e-9));
        assertThat(jumps.get(10)).isLessThan(0.6 * jumps.get(0));
    }

    @Test
    void send_shortTauPsc_approachesTheTwoStateSteadyState() {
        // with tau_psc << the interval, x before each spike follows x' = 1 - (1 - (1 - U) x) exp(-dt/tau_rec),
        // whose fixed point is (1 - E) / (1 - (1 - U) E), E = exp(-dt/tau_rec)
        double u0 = 0.5;
        double tauRec = 100.0;
        List<List<Double>> r = run(train(15, 10, 20), Map.of("U", u0, "tau_psc", 0.01, "tau_rec", tauRec, "tau_fac", 0.0));
        List<Double> spikes = r.get(0);
        List<Double> jumps = r.get(1);
        double x = 1;
        for (int i = 0; i < jumps.size(); i++) {
            if (i > 0) {
                double dt = spikes.get(i) - spikes.get(i - 1);
                x = 1 - (1 - (1 - u0) * x) * Math.exp(-dt / tauRec);
            }
            assertThat(jumps.get(i)).isCloseTo(W * u0 * x, within(1e-3 * W));
        }
        double e = Math.exp(-20.0 / tauRec);
        double xSteady = (1 - e) / (1 - (1 - u0) * e);
        assertThat(jumps.get(jumps.size() - 1)).isCloseTo(W * u0 * xSteady, within(1e-3 * W));
    }

    @Test
    void send_facilitatingSynapse_growsThenMatchesRecursion() {
        Map<String, Double> p = Map.of("U", 0.1, "tau_psc", 3.0, "tau_rec", 50.0, "tau_fac", 200.0);
        List<List<Double>> r = run(train(8, 10, 10), p);
        List<Double> jumps = r.get(1);
        List<Double> expected = recursion(r.get(0), 0.1, 3.0, 50.0, 200.0);
        assertThat(jumps).hasSize(8);
        for (int i = 0; i < jumps.size(); i++) {
            assertThat(jumps.get(i)).isCloseTo(expected.get(i), within(1e-9 * W));
        }
        assertThat(jumps.get(1)).isGreaterThan(jumps.get(0) * 1.3);
    }
}
