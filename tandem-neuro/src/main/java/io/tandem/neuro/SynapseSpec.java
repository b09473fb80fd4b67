package io.tandem.neuro;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The synapse of a {@link NetworkBuilder#connect} call (NEST's {@code syn_spec}): the model,
 * {@code weight} (pA for current-based targets, nS for conductance-based ones; the sign picks the
 * excitatory or inhibitory input as in NEST) and {@code delay} (ms, a whole number of resolution
 * steps, at least one step).
 *
 * <p>{@code tsodyks_synapse} (NEST's model after Tsodyks, Uziel and Markram 2000) adds {@code U},
 * {@code tau_psc}, {@code tau_rec}, {@code tau_fac} (ms) and the initial {@code x}, {@code y},
 * {@code u}; the weight delivered at a spike is {@code weight * u * x}. Defaults are NEST's:
 * weight 1, delay 1 ms, U 0.5, tau_psc 3, tau_rec 800, tau_fac 0, x 1, y 0, u 0.
 *
 * <p>Immutable and thread-safe.
 */
public final class SynapseSpec {
    /** The synapse models. */
    public enum Model {
        /** NEST {@code static_synapse}: a fixed weight and delay. */
        STATIC("static_synapse", List.of("weight", "delay")),
        /** NEST {@code tsodyks_synapse}: short-term depression and facilitation. */
        TSODYKS("tsodyks_synapse", List.of("weight", "delay", "U", "tau_psc", "tau_rec", "tau_fac", "x", "y", "u"));

        private final String nestName;
        private final List<String> parameterNames;

        Model(String nestName, List<String> parameterNames) {
            this.nestName = nestName;
            this.parameterNames = parameterNames;
        }

        /** @return the NEST name */
        public String nestName() {
            return nestName;
        }

        /** @return the accepted parameter names (immutable) */
        public List<String> parameterNames() {
            return parameterNames;
        }
    }

    private static final double[] DEFAULTS = {1.0, 1.0, 0.5, 3.0, 800.0, 0.0, 1.0, 0.0, 0.0};

    private final Model model;
    // weight, delay, U, tau_psc, tau_rec, tau_fac, x, y, u
    private final double[] values;

    private SynapseSpec(Model model, double[] values) {
        this.model = model;
        this.values = values;
    }

    /** @return a {@code static_synapse} with {@code weight} and {@code delayMs} */
    public static SynapseSpec staticSynapse(double weight, double delayMs) {
        return of(Model.STATIC, Map.of("weight", weight, "delay", delayMs));
    }

    /**
     * @return a {@code tsodyks_synapse} with NEST's initial state (x 1, y 0, u 0)
     */
    public static SynapseSpec tsodyks(double weight, double delayMs, double u, double tauPscMs, double tauRecMs,
            double tauFacMs) {
        Map<String, Double> p = new LinkedHashMap<>();
        p.put("weight", weight);
        p.put("delay", delayMs);
        p.put("U", u);
        p.put("tau_psc", tauPscMs);
        p.put("tau_rec", tauRecMs);
        p.put("tau_fac", tauFacMs);
        return of(Model.TSODYKS, p);
    }

    /**
     * A synapse by NEST model name and parameters, e.g. {@code of("tsodyks_synapse", Map.of("U", 1.0))}.
     *
     * @throws IllegalArgumentException for an unknown model or parameter, or a value NEST rejects
     */
    public static SynapseSpec of(String nestModel, Map<String, Double> params) {
        for (Model m : Model.values()) {
            if (m.nestName.equals(nestModel)) {
                return of(m, params);
            }
        }
        throw new IllegalArgumentException("unknown synapse model '" + nestModel + "'; known: static_synapse, tsodyks_synapse");
    }

    /** A synapse of {@code model} with {@code params} (NEST names), the rest NEST's defaults. */
    public static SynapseSpec of(Model model, Map<String, Double> params) {
        double[] v = DEFAULTS.clone();
        for (Map.Entry<String, Double> e : params.entrySet()) {
            int i = model.parameterNames.indexOf(e.getKey());
            if (i < 0) {
                String close = NodeModel.closest(e.getKey(), model.parameterNames);
                throw new IllegalArgumentException("unknown parameter '" + e.getKey() + "' for " + model.nestName + "; known: "
                        + model.parameterNames + (close == null ? "" : " (did you mean '" + close + "'?)"));
            }
            if (e.getValue() == null || Double.isNaN(e.getValue())) {
                throw new IllegalArgumentException("parameter '" + e.getKey() + "' of " + model.nestName + " must be a number");
            }
            v[i] = e.getValue();
        }
        check(model, v);
        return new SynapseSpec(model, v);
    }

    private static void check(Model model, double[] v) {
        String n = model.nestName;
        if (!Double.isFinite(v[0])) {
            throw new IllegalArgumentException(n + " weight must be finite, got " + v[0]);
        }
        if (!(v[1] > 0) || !Double.isFinite(v[1])) {
            throw new IllegalArgumentException(n + " delay must be > 0 ms (at least one resolution step), got " + v[1]);
        }
        if (model != Model.TSODYKS) {
            return;
        }
        if (v[2] < 0 || v[2] > 1) {
            throw new IllegalArgumentException(n + " U must be in [0, 1], got " + v[2]);
        }
        if (!(v[3] > 0)) {
            throw new IllegalArgumentException(n + " tau_psc must be > 0 ms, got " + v[3]);
        }
        if (!(v[4] > 0)) {
            throw new IllegalArgumentException(n + " tau_rec must be > 0 ms, got " + v[4]);
        }
        if (v[3] == v[4]) {
            throw new IllegalArgumentException(n + " tau_psc must differ from tau_rec (the propagator is singular), both "
                    + v[3] + " ms: change one slightly");
        }
        if (v[5] < 0) {
            throw new IllegalArgumentException(n + " tau_fac must be >= 0 ms, got " + v[5]);
        }
        if (v[6] < 0 || v[7] < 0 || v[6] + v[7] > 1) {
            throw new IllegalArgumentException(n + " needs x >= 0, y >= 0 and x + y <= 1, got x " + v[6] + ", y " + v[7]);
        }
        if (v[8] < 0 || v[8] > 1) {
            throw new IllegalArgumentException(n + " u must be in [0, 1], got " + v[8]);
        }
    }

    /** @return the model */
    public Model model() {
        return model;
    }

    /** @return the weight (pA or nS; negative is inhibitory) */
    public double weight() {
        return values[0];
    }

    /** @return the delay in ms */
    public double delayMs() {
        return values[1];
    }

    /**
     * @return the value of parameter {@code name} (NEST name)
     * @throws IllegalArgumentException if the model has no such parameter
     */
    public double get(String name) {
        int i = model.parameterNames.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("unknown parameter '" + name + "' for " + model.nestName);
        }
        return values[i];
    }

    /** @return this spec with another weight */
    public SynapseSpec withWeight(double weight) {
        double[] v = values.clone();
        v[0] = weight;
        check(model, v);
        return new SynapseSpec(model, v);
    }

    /** @return this spec with another delay (ms) */
    public SynapseSpec withDelayMs(double delayMs) {
        double[] v = values.clone();
        v[1] = delayMs;
        check(model, v);
        return new SynapseSpec(model, v);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(model.nestName).append('{');
        for (int i = 0; i < model.parameterNames.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(model.parameterNames.get(i)).append('=').append(values[i]);
        }
        return sb.append('}').toString();
    }
}
