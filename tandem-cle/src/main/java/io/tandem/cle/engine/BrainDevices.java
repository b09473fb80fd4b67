package io.tandem.cle.engine;

import io.tandem.neuro.Connector;
import io.tandem.neuro.NetworkBuilder;
import io.tandem.neuro.Population;
import io.tandem.neuro.SynapseSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the NRP's brain devices on NEST node models, as the CLE's {@code brainsim/nest/devices}
 * does (shared/specs/nrp.md 1.6), into a {@link NetworkBuilder}; register the returned node ids
 * with {@link BrainEngine.Builder}. Units are NEST's. Stateless; every method allocates (build time).
 */
public final class BrainDevices {
    /** The NRP's Poisson device weight (nS for conductance targets, pA for current targets). */
    public static final double POISSON_WEIGHT = 0.15;
    /** The NRP's device delay, ms. */
    public static final double DEVICE_DELAY_MS = 0.1;
    /** The leaky integrators' input weight, pA. */
    public static final double INTEGRATOR_WEIGHT_PA = 10.0;
    /** The population-rate cell's rise time constant, ms (its synaptic time constant). */
    public static final double RATE_TAU_RISE_MS = 10.0;
    /** The population-rate cell's fall time constant, ms (its membrane time constant). */
    public static final double RATE_TAU_FALL_MS = 20.0;
    private static final double CELL_C_M = 1000.0;

    private BrainDevices() {
    }

    /**
     * A {@code poisson_generator} (rate 0) connected to every target with the NRP's weight 0.15
     * and delay 0.1 ms.
     *
     * @return the generator's node id
     */
    public static int addPoissonSource(NetworkBuilder b, Population targets) {
        return addPoissonSource(b, targets, POISSON_WEIGHT, DEVICE_DELAY_MS);
    }

    /**
     * @param b       the network being built. Modified.
     * @param targets neurons to drive
     * @param weight  synaptic weight (nS or pA by target model)
     * @param delayMs delay, ms
     * @return the generator's node id
     */
    public static int addPoissonSource(NetworkBuilder b, Population targets, double weight, double delayMs) {
        Population g = b.create("poisson_generator", 1);
        b.connect(g, targets, Connector.allToAll(), SynapseSpec.staticSynapse(weight, delayMs));
        return g.first();
    }

    /**
     * A {@code dc_generator} (amplitude 0) feeding every target with weight 1 (the amplitude is the current, pA).
     *
     * @return the generator's node id
     */
    public static int addDcSource(NetworkBuilder b, Population targets) {
        Population g = b.create("dc_generator", 1);
        b.connect(g, targets, Connector.allToAll(), SynapseSpec.staticSynapse(1.0, DEVICE_DELAY_MS));
        return g.first();
    }

    /**
     * The NRP's {@code leaky_integrator_alpha}: an {@code iaf_psc_alpha} cell that never fires
     * (V_th 1e10 mV), C_m 1000 pF, tau_m 10 ms, tau_syn 2 ms, E_L 0, fed by every neuron of
     * {@code neurons} with weight 10 pA, delay 0.1 ms. Read its V_m.
     *
     * @return the integrator's node id
     */
    public static int addLeakyIntegratorAlpha(NetworkBuilder b, Population neurons) {
        return integrator(b, neurons, "iaf_psc_alpha", 10.0);
    }

    /**
     * The NRP's {@code leaky_integrator_exp}: the same with an {@code iaf_psc_exp} cell, tau_m 20 ms.
     *
     * @return the integrator's node id
     */
    public static int addLeakyIntegratorExp(NetworkBuilder b, Population neurons) {
        return integrator(b, neurons, "iaf_psc_exp", 20.0);
    }

    private static int integrator(NetworkBuilder b, Population neurons, String model, double tauM) {
        Map<String, Double> p = cell(tauM, 2.0);
        Population cell = b.create(model, 1, p);
        b.connect(neurons, cell, Connector.allToAll(), SynapseSpec.staticSynapse(INTEGRATOR_WEIGHT_PA, DEVICE_DELAY_MS));
        return cell.first();
    }

    /**
     * The NRP's {@code population_rate}: an {@code iaf_psc_exp} cell that never fires, tau_syn
     * 10 ms (rise) and tau_m 20 ms (fall), C_m 1000 pF, fed by every neuron of {@code neurons}
     * with the weight that makes each spike's voltage response have area 1 / n mV s
     * (w = 1000 C_m / (n tau_m tau_syn) pA): its V_m in mV is the population's mean rate in Hz,
     * low-pass filtered.
     *
     * @return the cell's node id
     */
    public static int addPopulationRate(NetworkBuilder b, Population neurons) {
        if (neurons.size() == 0) {
            throw new IllegalArgumentException("a population rate needs at least one neuron");
        }
        Population cell = b.create("iaf_psc_exp", 1, cell(RATE_TAU_FALL_MS, RATE_TAU_RISE_MS));
        double w = 1000.0 * CELL_C_M / (neurons.size() * RATE_TAU_FALL_MS * RATE_TAU_RISE_MS);
        b.connect(neurons, cell, Connector.allToAll(), SynapseSpec.staticSynapse(w, DEVICE_DELAY_MS));
        return cell.first();
    }

    /**
     * A {@code spike_recorder} on every neuron of {@code neurons}.
     *
     * @return the recorder's node id
     */
    public static int addSpikeRecorder(NetworkBuilder b, Population neurons) {
        Population r = b.create("spike_recorder", 1);
        b.connect(neurons, r);
        return r.first();
    }

    private static Map<String, Double> cell(double tauM, double tauSyn) {
        Map<String, Double> p = new LinkedHashMap<>();
        p.put("V_th", 1e10);
        p.put("C_m", CELL_C_M);
        p.put("tau_m", tauM);
        p.put("tau_syn_ex", tauSyn);
        p.put("tau_syn_in", tauSyn);
        p.put("E_L", 0.0);
        p.put("V_reset", 0.0);
        p.put("t_ref", 0.1);
        p.put("I_e", 0.0);
        p.put("V_m", 0.0);
        return p;
    }
}
