package io.tandem.neuro;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sparse random balanced network of Brunel (2000), as NEST's {@code brunel_alpha_nest}
 * example builds it, scaled to {@code neurons}: 80 % excitatory and 20 % inhibitory
 * {@code iaf_psc_alpha} neurons (C_m 250 pF, tau_m 20 ms, tau_syn 0.5 ms, t_ref 2 ms, E_L 0,
 * V_reset 0, V_th 20 mV), each receiving a fixed indegree of 10 % of each population, PSP
 * amplitude J = 0.1 mV (excitatory) and -g J with g = 5 (inhibitory), delay 1.5 ms, and
 * independent Poisson background at eta = 2 times the threshold rate.
 *
 * <p>Node ids: excitatory {@code [0, 0.8 n)}, inhibitory {@code [0.8 n, n)}, the Poisson
 * generator {@code n}, and with {@code recordSpikes} a spike recorder {@code n + 1} on every
 * neuron.
 *
 * <p>Stateless; building allocates (about 24 bytes per synapse while building, 16 after).
 */
public final class BrunelNetwork {
    /** Connection probability. */
    public static final double EPSILON = 0.1;
    /** Relative inhibitory strength. */
    public static final double G = 5.0;
    /** Background rate relative to the threshold rate. */
    public static final double ETA = 2.0;
    /** Excitatory PSP amplitude (mV). */
    public static final double J_MV = 0.1;
    /** Synaptic delay (ms). */
    public static final double DELAY_MS = 1.5;
    private static final double TAU_M = 20.0;
    private static final double TAU_SYN = 0.5;
    private static final double C_M = 250.0;
    private static final double THETA = 20.0;

    private BrunelNetwork() {
    }

    /**
     * Builds the network at resolution 0.1 ms.
     *
     * @param neurons      total neurons (at least 10)
     * @param threads      update threads
     * @param seed         seed of the connectivity and the background
     * @param recordSpikes whether to add a spike recorder on every neuron (node {@code neurons + 1})
     */
    public static SpikingNetwork build(int neurons, int threads, long seed, boolean recordSpikes) {
        NetworkBuilder b = SpikingNetwork.builder().seed(seed).threads(threads);
        define(b, neurons, recordSpikes);
        return b.build();
    }

    /**
     * Adds the network to a builder (after whatever it holds; node ids then start at
     * {@code b.nodeCount()} instead of 0, in the same order as {@link #build}).
     *
     * @param b            the builder. Modified.
     * @param neurons      total neurons (at least 10)
     * @param recordSpikes whether to add a spike recorder on every neuron
     * @return the neurons (excitatory then inhibitory)
     */
    public static Population define(NetworkBuilder b, int neurons, boolean recordSpikes) {
        if (neurons < 10) {
            throw new IllegalArgumentException("the Brunel network needs at least 10 neurons, got " + neurons);
        }
        int ne = (int) Math.round(0.8 * neurons);
        int ni = neurons - ne;
        int ce = (int) Math.round(EPSILON * ne);
        int ci = (int) Math.round(EPSILON * ni);
        double jEx = J_MV / pspPeakPerPa();
        double jIn = -G * jEx;
        double nuTh = THETA / (J_MV * ce * TAU_M);
        double rateHz = 1000.0 * ETA * nuTh * ce;

        Map<String, Double> p = new LinkedHashMap<>();
        p.put("C_m", C_M);
        p.put("tau_m", TAU_M);
        p.put("tau_syn_ex", TAU_SYN);
        p.put("tau_syn_in", TAU_SYN);
        p.put("t_ref", 2.0);
        p.put("E_L", 0.0);
        p.put("V_reset", 0.0);
        p.put("V_m", 0.0);
        p.put("V_th", THETA);
        Population exc = b.create("iaf_psc_alpha", ne, p);
        Population inh = b.create("iaf_psc_alpha", ni, p);
        Population all = exc.concat(inh);
        Population noise = b.create("poisson_generator", 1, Map.of("rate", rateHz));
        SynapseSpec excitatory = SynapseSpec.staticSynapse(jEx, DELAY_MS);
        b.connect(noise, all, Connector.allToAll(), excitatory);
        b.connect(exc, all, Connector.fixedIndegree(ce), excitatory);
        b.connect(inh, all, Connector.fixedIndegree(ci), SynapseSpec.staticSynapse(jIn, DELAY_MS));
        if (recordSpikes) {
            b.connect(all, b.create("spike_recorder", 1));
        }
        return all;
    }

    /** @return the background rate (Hz) for {@code neurons} */
    public static double backgroundRateHz(int neurons) {
        int ce = (int) Math.round(EPSILON * Math.round(0.8 * neurons));
        return 1000.0 * ETA * THETA / (J_MV * ce * TAU_M) * ce;
    }

    /** The peak of the PSP of a 1 pA alpha PSC (mV): the closed form maximised by golden-section search. */
    static double pspPeakPerPa() {
        double lo = 0;
        double hi = 10 * TAU_M;
        double r = (Math.sqrt(5) - 1) / 2;
        for (int i = 0; i < 200; i++) {
            double m1 = hi - r * (hi - lo);
            double m2 = lo + r * (hi - lo);
            if (psp(m1) < psp(m2)) {
                lo = m1;
            } else {
                hi = m2;
            }
        }
        return psp((lo + hi) / 2);
    }

    private static double psp(double t) {
        double a = 1 / TAU_M - 1 / TAU_SYN;
        double es = Math.exp(-t / TAU_SYN);
        double em = Math.exp(-t / TAU_M);
        return Math.E / (TAU_SYN * C_M) * (t * es / a - (es - em) / (a * a));
    }
}
