package io.tandem.neuro;

import io.tandem.cosim.text.Suggestions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node models, named as in NEST, with their parameter names and NEST's defaults. Units are
 * NEST's: mV, pA, pF, nS, ms, Hz.
 *
 * <p>{@code V_m} is the initial membrane potential; unlike NEST's {@code iaf_cond_alpha} (whose
 * {@code V_m} stays at -70 mV when only {@code E_L} is changed) it defaults to {@code E_L} for
 * every neuron model. {@code t_ref} is rounded to whole resolution steps, as NEST does.
 *
 * <p>Generators and recorders have NEST's activity window {@link #WINDOW_PARAMETERS}:
 * {@code start} (default 0), {@code stop} (default +infinity) and {@code origin} (default 0), in
 * ms on the resolution grid with stop >= start; a device is active for times in
 * {@code (origin + start, origin + stop]} (see {@link SpikingNetwork} for the per-step rules): a
 * generator emits, a {@code spike_recorder} records spikes and a {@code multimeter} samples only
 * at such times. The multimeter also has NEST 3's {@code offset} (ms, default 0, a multiple of
 * the resolution >= 0): the time of its first sample, the next ones following every
 * {@code interval}.
 *
 * <p>Immutable and thread-safe.
 */
public enum NodeModel {
    /** Leaky integrate-and-fire neuron, alpha-shaped current synapses, exact integration (NEST {@code iaf_psc_alpha}). */
    IAF_PSC_ALPHA("iaf_psc_alpha", Kind.NEURON, new String[] {
        "C_m", "E_L", "I_e", "V_reset", "V_th", "V_min", "t_ref", "tau_m", "tau_syn_ex", "tau_syn_in", "V_m"},
        new double[] {250.0, -70.0, 0.0, -70.0, -55.0, Double.NEGATIVE_INFINITY, 2.0, 10.0, 2.0, 2.0, Double.NaN}),
    /** Leaky integrate-and-fire neuron, exponential current synapses, exact integration (NEST {@code iaf_psc_exp}). */
    IAF_PSC_EXP("iaf_psc_exp", Kind.NEURON, new String[] {
        "C_m", "E_L", "I_e", "V_reset", "V_th", "t_ref", "tau_m", "tau_syn_ex", "tau_syn_in", "V_m"},
        new double[] {250.0, -70.0, 0.0, -70.0, -55.0, 2.0, 10.0, 2.0, 2.0, Double.NaN}),
    /** Leaky integrate-and-fire neuron, alpha-shaped conductances, adaptive RKF45 (NEST {@code iaf_cond_alpha}). */
    IAF_COND_ALPHA("iaf_cond_alpha", Kind.NEURON, new String[] {
        "V_th", "V_reset", "t_ref", "g_L", "C_m", "E_ex", "E_in", "E_L", "tau_syn_ex", "tau_syn_in", "I_e", "V_m"},
        new double[] {-55.0, -60.0, 2.0, 16.6667, 250.0, 0.0, -85.0, -70.0, 0.2, 2.0, 0.0, Double.NaN}),
    /**
     * Independent Poisson spike trains, one per target; {@code rate} in Hz, active in
     * {@code (origin + start, origin + stop]} ms (NEST {@code poisson_generator}).
     */
    POISSON_GENERATOR("poisson_generator", Kind.STIMULATOR, new String[] {"rate", "start", "stop", "origin"},
        new double[] {0.0, 0.0, Double.POSITIVE_INFINITY, 0.0}),
    /**
     * A constant current; {@code amplitude} in pA, acting in {@code (origin + start, origin + stop]}
     * ms (NEST {@code dc_generator}).
     */
    DC_GENERATOR("dc_generator", Kind.STIMULATOR, new String[] {"amplitude", "start", "stop", "origin"},
        new double[] {0.0, 0.0, Double.POSITIVE_INFINITY, 0.0}),
    /**
     * Spikes at given times on the grid, relative to {@code origin}, set with
     * {@link NetworkBuilder#spikeTimesMs}; only those in {@code (origin + start, origin + stop]} ms
     * are emitted (NEST {@code spike_generator}).
     */
    SPIKE_GENERATOR("spike_generator", Kind.STIMULATOR, new String[] {"start", "stop", "origin"},
        new double[] {0.0, Double.POSITIVE_INFINITY, 0.0}),
    /**
     * Records the spikes of the neurons connected to it whose times are in
     * {@code (origin + start, origin + stop]} ms (NEST {@code spike_recorder}).
     */
    SPIKE_RECORDER("spike_recorder", Kind.RECORDER, new String[] {"start", "stop", "origin"},
        new double[] {0.0, Double.POSITIVE_INFINITY, 0.0}),
    /**
     * Samples state variables of the neurons it is connected to (as the source:
     * {@code connect(multimeter, neurons)}) at the times {@code offset + k * interval} ms
     * (k = 0, 1, ...; with the default offset 0, at the multiples of {@code interval} after 0)
     * that lie in {@code (origin + start, origin + stop]}; the variables are set with
     * {@link NetworkBuilder#recordFrom} (NEST {@code multimeter}).
     */
    MULTIMETER("multimeter", Kind.RECORDER, new String[] {"interval", "start", "stop", "origin", "offset"},
        new double[] {1.0, 0.0, Double.POSITIVE_INFINITY, 0.0, 0.0});

    /** What a node of a model does. */
    public enum Kind {
        /** A neuron: receives spikes and currents, emits spikes. */
        NEURON,
        /** A device that sends spikes or currents to neurons. */
        STIMULATOR,
        /** A device that records neurons. */
        RECORDER
    }

    /** The parameters of a device's activity window (ms), in this order: NEST's {@code start, stop, origin}. */
    public static final List<String> WINDOW_PARAMETERS = List.of("start", "stop", "origin");

    private final String nestName;
    private final Kind kind;
    private final List<String> parameterNames;
    private final double[] defaults;

    NodeModel(String nestName, Kind kind, String[] names, double[] defaults) {
        this.nestName = nestName;
        this.kind = kind;
        this.parameterNames = List.of(names);
        this.defaults = defaults;
    }

    /** @return the NEST model name, e.g. {@code "iaf_psc_alpha"} */
    public String nestName() {
        return nestName;
    }

    /** @return whether this is a neuron, a stimulator or a recorder */
    public Kind kind() {
        return kind;
    }

    /** @return the NEST parameter names this model accepts, in a fixed order (immutable) */
    public List<String> parameterNames() {
        return parameterNames;
    }

    /**
     * NEST's defaults. {@code V_m} is listed as NaN, meaning "E_L"; {@code stop} as
     * {@code Double.POSITIVE_INFINITY}, meaning never.
     *
     * @return a new map from parameter name to default value, in {@link #parameterNames()} order
     */
    public Map<String, Double> defaults() {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < defaults.length; i++) {
            m.put(parameterNames.get(i), defaults[i]);
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * The state variables a {@code multimeter} can record from a neuron of this model (NEST's
     * {@code recordables}): {@code V_m} (mV) for every neuron model, {@code I_syn_ex} and
     * {@code I_syn_in} (pA) for {@code iaf_psc_alpha} and {@code iaf_psc_exp}, {@code g_ex} and
     * {@code g_in} (nS) for {@code iaf_cond_alpha}; none for devices.
     *
     * @return the names (immutable)
     */
    public List<String> recordables() {
        switch (this) {
            case IAF_PSC_ALPHA:
            case IAF_PSC_EXP:
                return PSC_RECORDABLES;
            case IAF_COND_ALPHA:
                return COND_RECORDABLES;
            case POISSON_GENERATOR:
            case DC_GENERATOR:
            case SPIKE_GENERATOR:
            case SPIKE_RECORDER:
            case MULTIMETER:
                return List.of();
        }
        throw new AssertionError(this);
    }

    /** @return whether this model has NEST's {@code start}, {@code stop} and {@code origin} (ms) */
    public boolean hasActivityWindow() {
        return parameterNames.contains("origin");
    }

    private static final List<String> PSC_RECORDABLES = List.of("V_m", "I_syn_ex", "I_syn_in");
    private static final List<String> COND_RECORDABLES = List.of("V_m", "g_ex", "g_in");

    /** @return the index of {@code name} in {@link #parameterNames()}, or -1 */
    int parameterIndex(String name) {
        return parameterNames.indexOf(name);
    }

    /**
     * Parameter values in {@link #parameterNames()} order: defaults overridden by {@code params}.
     *
     * @throws IllegalArgumentException naming an unknown parameter, the known ones and the closest match
     */
    double[] resolve(Map<String, Double> params) {
        double[] v = defaults.clone();
        for (Map.Entry<String, Double> e : params.entrySet()) {
            int i = parameterIndex(e.getKey());
            if (i < 0) {
                throw new IllegalArgumentException(unknownParameter(e.getKey()));
            }
            if (e.getValue() == null) {
                throw new IllegalArgumentException("parameter '" + e.getKey() + "' of " + nestName + " is null: give a number");
            }
            v[i] = e.getValue();
        }
        return v;
    }

    String unknownParameter(String name) {
        String msg = "unknown parameter '" + name + "' for " + nestName + "; known: " + parameterNames;
        String[] pynn = PYNN_NAMES.get(name);
        if (pynn != null && parameterNames.contains(pynn[0])) {
            return msg + " (PyNN's '" + name + "' is NEST's '" + pynn[0] + "'" + pynn[1] + ")";
        }
        String close = closest(name, parameterNames);
        return close == null ? msg : msg + " (did you mean '" + close + "'?)";
    }

    /** PyNN cell parameter names and their NEST counterparts, with the unit change if any. */
    private static final Map<String, String[]> PYNN_NAMES = Map.ofEntries(
            Map.entry("v_thresh", new String[] {"V_th", ""}),
            Map.entry("v_reset", new String[] {"V_reset", ""}),
            Map.entry("v_rest", new String[] {"E_L", ""}),
            Map.entry("cm", new String[] {"C_m", ", in pF: multiply nF by 1000"}),
            Map.entry("tau_refrac", new String[] {"t_ref", ""}),
            Map.entry("tau_syn_E", new String[] {"tau_syn_ex", ""}),
            Map.entry("tau_syn_I", new String[] {"tau_syn_in", ""}),
            Map.entry("e_rev_E", new String[] {"E_ex", ""}),
            Map.entry("e_rev_I", new String[] {"E_in", ""}),
            Map.entry("i_offset", new String[] {"I_e", ", in pA: multiply nA by 1000"}),
            Map.entry("v", new String[] {"V_m", ""}));

    /**
     * The model with this NEST name.
     *
     * @throws IllegalArgumentException naming the known models
     */
    public static NodeModel fromNestName(String name) {
        for (NodeModel m : values()) {
            if (m.nestName.equals(name)) {
                return m;
            }
        }
        List<String> known = new ArrayList<>();
        for (NodeModel m : values()) {
            known.add(m.nestName);
        }
        String close = closest(name, known);
        throw new IllegalArgumentException("unknown model '" + name + "'; known: " + known
                + (close == null ? "" : " (did you mean '" + close + "'?)"));
    }

    /** The candidate within edit distance 3 (case-insensitive) of {@code s}, or null. */
    static String closest(String s, List<String> candidates) {
        // a longer spelling of a name ("V_thresh" for "V_th") counts as close
        return Suggestions.closest(s, candidates, 4,
                (a, b) -> a.startsWith(b) || b.startsWith(a) ? 1 : Suggestions.editDistance(a, b));
    }

    @Override
    public String toString() {
        return nestName;
    }
}
