package io.tandem.cle.experiment;

import io.tandem.cle.internal.json.JsonValue;
import io.tandem.cle.internal.json.JsonValue.JsonArray;
import io.tandem.cle.internal.json.JsonValue.JsonBoolean;
import io.tandem.cle.internal.json.JsonValue.JsonNumber;
import io.tandem.cle.internal.json.JsonValue.JsonObject;
import io.tandem.cle.internal.json.JsonValue.JsonString;
import io.tandem.cle.internal.json.JsonValue.Member;
import io.tandem.neuro.Connector;
import io.tandem.neuro.NetworkBuilder;
import io.tandem.neuro.NodeModel;
import io.tandem.neuro.Population;
import io.tandem.neuro.SpikingNetwork;
import io.tandem.neuro.SynapseSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/*
 * Implementation notes.
 *
 * Selectors. A selector names nodes of the brain by the names defined so far: populations (node
 * ids in creation order), views, and earlier devices. Grammar:
 *
 *   selector := term ('+' term)*
 *   term     := NAME | NAME '[' index ']'
 *   index    := INT | INT (',' INT)+ | [INT] ':' [INT] [':' [INT]]
 *
 * Positions are 0-based within the named selection; negative positions count from the end and
 * slices have Python's meaning (sensors[0:3:2] is the BIBI's sensors[slice(0, 3, 2)]), except
 * that a start or stop outside the selection is an error rather than clamped, a step must be
 * >= 1, and a selection may not name a node twice or be empty.
 *
 * Connections see populations and views (they are made before the devices exist); devices also
 * see the devices before them.
 */

/** Reads the "brain" member of a schema-checked experiment into a {@link BrainSpec}. */
final class BrainSpecReader {
    /** The leaky integrator's parameters (the NRP's LeakyIntegratorAlpha / BraitenbergBrain). */
    static final Map<String, Double> LEAKY_PARAMS = leakyParams();
    /** The leaky integrator's default weight (NRP-core's brain_devices.py). */
    static final double LEAKY_WEIGHT = 10.0;

    private final ExperimentFileReader r;
    private final Map<String, Population> names = new LinkedHashMap<>();
    private final Map<String, Member> definedAt = new LinkedHashMap<>();

    BrainSpecReader(ExperimentFileReader reader) {
        this.r = reader;
    }

    private static Map<String, Double> leakyParams() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("V_th", 1e10);
        m.put("C_m", 1000.0);
        m.put("tau_m", 10.0);
        m.put("tau_syn_ex", 2.0);
        m.put("tau_syn_in", 2.0);
        m.put("E_L", 0.0);
        m.put("V_reset", 0.0);
        m.put("t_ref", 0.1);
        m.put("I_e", 0.0);
        m.put("V_m", 0.0);
        return m;
    }

    /** @return the brain, or null after reporting problems */
    BrainSpec read(Member bm) {
        JsonObject b = (JsonObject) bm.value();
        ExperimentFileLocation at = r.loc(bm);
        long seed = b.get("seed") == null ? NetworkBuilder.DEFAULT_SEED : (long) ((JsonNumber) b.get("seed")).value();
        int threads = b.get("threads") == null ? 1 : intOf(b.member("threads"));
        if (b.member("builtin") != null) {
            return builtin(b, at, seed, threads);
        }
        return nest(b, at, seed, threads);
    }

    private int intOf(Member m) {
        double v = ((JsonNumber) m.value()).value();
        if (v > Integer.MAX_VALUE) {
            r.problem(m, "\"" + m.key() + "\" must fit an int, got " + JsonValue.describe(m.value()));
            return 1;
        }
        return (int) v;
    }

    private BrainSpec builtin(JsonObject b, ExperimentFileLocation at, long seed, int threads) {
        String name = ((JsonString) b.get("builtin")).value();
        boolean brunel = "brunel".equals(name);
        for (String key : List.of("neurons", "record_spikes")) {
            Member m = b.member(key);
            if (m != null && !brunel) {
                r.problem(m, "\"" + key + "\" applies to the brunel brain only: remove it");
            }
        }
        Member bm = b.member("brunel_neurons");
        if (bm != null && brunel) {
            r.problem(bm, "\"brunel_neurons\" applies to the braitenberg brain only: for a Brunel network alone use"
                    + " \"neurons\"");
        }
        int brunelNeurons = bm == null ? 0 : intOf(bm);
        if (brunelNeurons != 0 && brunelNeurons < 10) {
            r.problem(bm, "\"brunel_neurons\" must be 0 (none) or at least 10, got " + brunelNeurons);
        }
        int neurons = b.get("neurons") == null ? 10_000 : intOf(b.member("neurons"));
        boolean record = b.get("record_spikes") == null || ((JsonBoolean) b.get("record_spikes")).value();
        return new BrainSpec.Builtin(name, seed, neurons, threads, record, brunelNeurons < 10 ? 0 : brunelNeurons, at);
    }

    private BrainSpec nest(JsonObject b, ExperimentFileLocation at, long seed, int threads) {
        int before = problemsMarker();
        long resolutionNs = NetworkBuilder.DEFAULT_RESOLUTION_NS;
        Member rm = b.member("resolution_ms");
        if (rm != null) {
            resolutionNs = r.nanos(rm, "resolution_ms");
        }
        if (resolutionNs <= 0) {
            return null;
        }
        double resolutionMs = resolutionNs / 1e6;
        int next = 0;
        List<BrainSpec.PopulationSpec> pops = new ArrayList<>();
        for (JsonValue item : ((JsonArray) b.get("populations")).items()) {
            JsonObject p = (JsonObject) item;
            Member nm = p.member("name");
            String name = ((JsonString) nm.value()).value();
            int n = intOf(p.member("n"));
            define(nm, name, Population.range(next, n));
            next += n;
            Member mm = p.member("model");
            NodeModel model = model(mm);
            if (model == NodeModel.MULTIMETER) {
                r.problem(mm, "declare a multimeter as a device, {\"name\": ..., \"type\": \"multimeter\", \"targets\":"
                        + " ..., \"record_from\": [\"V_m\"]}: it needs record_from and is connected to its targets");
                model = null;
            }
            Map<String, Double> params = numbers(p.member("params"));
            if (model != null && nodeParams(model, p.member("params"), params, resolutionNs, nm)) {
                pops.add(new BrainSpec.PopulationSpec(name, model, n, params, r.loc(p.line(), p.column())));
            }
        }
        List<BrainSpec.ViewSpec> views = new ArrayList<>();
        Member vm = b.member("views");
        if (vm != null) {
            for (Member m : ((JsonObject) vm.value()).members().values()) {
                Population sel = select(m.value(), m);
                if (sel != null) {
                    define(m, m.key(), sel);
                    views.add(new BrainSpec.ViewSpec(m.key(), text(m.value()), sel, r.loc(m)));
                }
            }
        }
        List<BrainSpec.ConnectionSpec> conns = new ArrayList<>();
        JsonValue cv = b.get("connections");
        for (JsonValue item : cv == null ? List.<JsonValue>of() : ((JsonArray) cv).items()) {
            JsonObject c = (JsonObject) item;
            Population from = select(c.get("from"), c.member("from"));
            Population to = select(c.get("to"), c.member("to"));
            Connector rule = rule(c.member("rule"));
            SynapseSpec syn = synapse(c.member("synapse"));
            if (from != null && to != null && rule != null && syn != null) {
                if (rule.rule() == Connector.Rule.ONE_TO_ONE && from.size() != to.size()) {
                    r.problem(c.line(), c.column(), "one_to_one needs as many sources as targets, got " + from.size()
                            + " (" + text(c.get("from")) + ") and " + to.size() + " (" + text(c.get("to"))
                            + "): select matching slices or use all_to_all");
                }
                conns.add(new BrainSpec.ConnectionSpec(text(c.get("from")), from, text(c.get("to")), to, rule, syn,
                        r.loc(c.line(), c.column())));
            }
        }
        List<BrainSpec.DeviceSpec> devices = new ArrayList<>();
        JsonValue dv = b.get("devices");
        for (JsonValue item : dv == null ? List.<JsonValue>of() : ((JsonArray) dv).items()) {
            JsonObject d = (JsonObject) item;
            BrainSpec.DeviceSpec spec = device(d, resolutionMs, resolutionNs);
            if (spec != null) {
                define(d.member("name"), spec.name(), Population.range(next, spec.nodeCount()));
                next += spec.nodeCount();
                devices.add(spec);
            }
        }
        if (problemsMarker() != before) {
            return null;
        }
        return new BrainSpec.Nest(resolutionNs, seed, threads, pops, views, conns, devices, at);
    }

    private int problemsMarker() {
        return r.problemCount();
    }

    private void define(Member at, String name, Population nodes) {
        if (!ExperimentFileReader.isName(name)) {
            r.problem(at, "name \"" + name + "\" must be letters, digits and '_' (not starting with a digit), so"
                    + " selectors can use it");
        }
        Member first = definedAt.get(name);
        if (first != null) {
            r.problem(at, "the name \"" + name + "\" is already used (at " + first.line() + ":" + first.column()
                    + "): populations, views and devices share one namespace; rename one");
            return;
        }
        definedAt.put(name, at);
        names.put(name, nodes);
    }

    private NodeModel model(Member mm) {
        try {
            return NodeModel.fromNestName(((JsonString) mm.value()).value());
        } catch (IllegalArgumentException e) {
            r.problem(mm, e.getMessage());
            return null;
        }
    }

    private static Map<String, Double> numbers(Member m) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (m != null) {
            for (Member p : ((JsonObject) m.value()).members().values()) {
                out.put(p.key(), ((JsonNumber) p.value()).value());
            }
        }
        return out;
    }

    /** Checks node parameters with the network builder's own messages; false after reporting problems. */
    private boolean nodeParams(NodeModel model, Member pm, Map<String, Double> params, long resolutionNs, Member owner) {
        boolean ok = true;
        if (pm != null) {
            for (Member p : ((JsonObject) pm.value()).members().values()) {
                if (!model.parameterNames().contains(p.key())) {
                    ok = false;
                    r.problem(p, builderMessage(model, Map.of(p.key(), ((JsonNumber) p.value()).value()), resolutionNs));
                }
            }
        }
        if (ok) {
            String msg = builderMessage(model, params, resolutionNs);
            if (msg != null) {
                r.problem(pm == null ? owner : pm, msg);
                ok = false;
            }
        }
        return ok;
    }

    /** @return the builder's message for creating one node of {@code model} with {@code params}, or null if fine */
    private static String builderMessage(NodeModel model, Map<String, Double> params, long resolutionNs) {
        try {
            SpikingNetwork.builder().resolutionNs(resolutionNs).create(model, 1, params);
            return null;
        } catch (IllegalArgumentException e) {
            // the scratch builder's node id means nothing in the file: the line says which node it is
            return e.getMessage().replace(model.nestName() + " node 0: ", model.nestName() + ": ");
        }
    }

    private Connector rule(Member m) {
        if (m == null) {
            return Connector.allToAll();
        }
        if (m.value() instanceof JsonString s) {
            return Connector.of(s.value());
        }
        JsonObject o = (JsonObject) m.value();
        Member k = o.member("fixed_indegree");
        boolean autapses = o.get("allow_autapses") == null || ((JsonBoolean) o.get("allow_autapses")).value();
        boolean multapses = o.get("allow_multapses") == null || ((JsonBoolean) o.get("allow_multapses")).value();
        return Connector.fixedIndegree(intOf(k), autapses, multapses);
    }

    private SynapseSpec synapse(Member m) {
        if (m == null) {
            return SynapseSpec.of(SynapseSpec.Model.STATIC, Map.of());
        }
        JsonObject o = (JsonObject) m.value();
        String modelName = o.get("model") == null ? "static_synapse" : ((JsonString) o.get("model")).value();
        SynapseSpec.Model model = "tsodyks_synapse".equals(modelName) ? SynapseSpec.Model.TSODYKS : SynapseSpec.Model.STATIC;
        Map<String, Double> params = new LinkedHashMap<>();
        boolean ok = true;
        for (Member p : o.members().values()) {
            if (p.key().equals("model")) {
                continue;
            }
            String key = p.key().equals("delay_ms") ? "delay" : p.key();
            double v = ((JsonNumber) p.value()).value();
            if (p.key().equals("delay")) {
                r.problem(p, "write the delay as \"delay_ms\" (milliseconds)");
                ok = false;
            } else if (!model.parameterNames().contains(key)) {
                ok = false;
                try {
                    SynapseSpec.of(model, Map.of(key, v));
                } catch (IllegalArgumentException e) {
                    r.problem(p, e.getMessage() + (model == SynapseSpec.Model.STATIC
                            && SynapseSpec.Model.TSODYKS.parameterNames().contains(key)
                            ? " (set \"model\": \"tsodyks_synapse\" for it)" : ""));
                }
            } else {
                params.put(key, v);
            }
        }
        if (!ok) {
            return null;
        }
        try {
            return SynapseSpec.of(model, params);
        } catch (IllegalArgumentException e) {
            r.problem(m, e.getMessage());
            return null;
        }
    }

    private BrainSpec.DeviceSpec device(JsonObject d, double resolutionMs, long resolutionNs) {
        Member nm = d.member("name");
        String name = ((JsonString) nm.value()).value();
        String type = ((JsonString) d.get("type")).value();
        Population targets = select(d.get("targets"), d.member("targets"));
        NodeModel model;
        Map<String, Double> params = new LinkedHashMap<>();
        double weight = 1.0;
        switch (type) {
            case "poisson":
                model = NodeModel.POISSON_GENERATOR;
                break;
            case "dc_source":
                model = NodeModel.DC_GENERATOR;
                break;
            case "leaky_integrator_alpha":
                model = NodeModel.IAF_PSC_ALPHA;
                params.putAll(LEAKY_PARAMS);
                weight = LEAKY_WEIGHT;
                break;
            case "leaky_integrator_exp":
                model = NodeModel.IAF_PSC_EXP;
                params.putAll(LEAKY_PARAMS);
                weight = LEAKY_WEIGHT;
                break;
            case "spike_recorder":
                model = NodeModel.SPIKE_RECORDER;
                break;
            case "multimeter":
                model = NodeModel.MULTIMETER;
                break;
            default:
                // the schema admits only the types above
                throw new IllegalStateException("unchecked device type " + type);
        }
        if (model == NodeModel.SPIKE_RECORDER) {
            for (String key : List.of("weight", "delay_ms")) {
                if (d.member(key) != null) {
                    r.problem(d.member(key), "a spike_recorder has no \"" + key + "\": remove it");
                }
            }
        }
        if (model == NodeModel.MULTIMETER) {
            for (String key : List.of("weight", "delay_ms")) {
                if (d.member(key) != null) {
                    r.problem(d.member(key), "a multimeter has no \"" + key + "\" (it samples, it sends nothing): remove"
                            + " it; its params are interval, offset, start, stop and origin");
                }
            }
        }
        List<String> recordFrom = recordFrom(d, model, nm);
        Member pm = d.member("params");
        params.putAll(numbers(pm));
        boolean ok = nodeParams(model, pm, params, resolutionNs, nm) && targets != null;
        if (d.get("weight") != null) {
            weight = ((JsonNumber) d.get("weight")).value();
        }
        double delayMs = d.get("delay_ms") == null ? resolutionMs : ((JsonNumber) d.get("delay_ms")).value();
        if (!ok) {
            return null;
        }
        if (recordFrom == null) {
            return null;
        }
        return new BrainSpec.DeviceSpec(name, type, model, text(d.get("targets")), targets, params, weight, delayMs,
                r.loc(d.line(), d.column()), recordFrom);
    }

    /** @return a multimeter's record_from (empty for other devices), or null after reporting problems */
    private List<String> recordFrom(JsonObject d, NodeModel model, Member owner) {
        Member rm = d.member("record_from");
        if (model != NodeModel.MULTIMETER) {
            if (rm != null) {
                r.problem(rm, "\"record_from\" is for multimeter devices: remove it, or set \"type\": \"multimeter\"");
                return null;
            }
            return List.of();
        }
        if (rm == null) {
            // at the device, as the schema reports a missing key at its object
            r.problem(d.line(), d.column(), "multimeter \"" + ((JsonString) owner.value()).value() + "\" needs"
                    + " \"record_from\": the variables to sample, e.g. [\"V_m\"] (" + recordables() + ")");
            return null;
        }
        List<String> out = new ArrayList<>();
        boolean ok = true;
        for (JsonValue item : ((JsonArray) rm.value()).items()) {
            String v = ((JsonString) item).value();
            if (!recordables().contains(v)) {
                String close = ExperimentFileSchema.closest(v, recordables());
                r.problem(item.line(), item.column(), "unknown record_from variable " + JsonValue.describe(item) + "; valid: "
                        + recordables() + " (V_m for every neuron model, I_syn_ex and I_syn_in for iaf_psc_alpha and"
                        + " iaf_psc_exp, g_ex and g_in for iaf_cond_alpha)" + (close == null ? "" : "; did you mean \""
                        + close + "\"?"));
                ok = false;
            } else if (out.contains(v)) {
                r.problem(item.line(), item.column(), "record_from names \"" + v + "\" twice: list each variable once");
                ok = false;
            } else {
                out.add(v);
            }
        }
        return ok ? out : null;
    }

    /** @return every variable some neuron model can record, in NodeModel order */
    private static List<String> recordables() {
        List<String> all = new ArrayList<>();
        for (NodeModel m : NodeModel.values()) {
            for (String v : m.recordables()) {
                if (!all.contains(v)) {
                    all.add(v);
                }
            }
        }
        return all;
    }

    // ---- selectors

    private static String text(JsonValue v) {
        if (v instanceof JsonString s) {
            return s.value();
        }
        JsonObject o = (JsonObject) v;
        String name = ((JsonString) o.get("population")).value();
        if (o.get("ids") == null) {
            return name;
        }
        StringBuilder sb = new StringBuilder(name).append('[');
        List<JsonValue> ids = ((JsonArray) o.get("ids")).items();
        for (int i = 0; i < ids.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(ExperimentFileSchema.fmt(((JsonNumber) ids.get(i)).value()));
        }
        return sb.append(']').toString();
    }

    /** @return the selected nodes, or null after reporting a problem */
    private Population select(JsonValue v, Member owner) {
        if (v instanceof JsonObject o) {
            Member pm = o.member("population");
            Population base = lookup(((JsonString) pm.value()).value(), pm.line(), pm.column());
            if (base == null) {
                return null;
            }
            if (o.get("ids") == null) {
                return base;
            }
            List<JsonValue> items = ((JsonArray) o.get("ids")).items();
            int[] ids = new int[items.size()];
            for (int i = 0; i < ids.length; i++) {
                JsonValue item = items.get(i);
                int pos = (int) Math.min(Integer.MAX_VALUE, ((JsonNumber) item).value());
                if (pos >= base.size()) {
                    r.problem(item.line(), item.column(), "position " + pos + " is outside " + JsonValue.describe(pm.value()) + " ("
                            + base.size() + " nodes, positions 0.." + (base.size() - 1) + ")");
                    return null;
                }
                ids[i] = base.id(pos);
            }
            return distinct(Population.of(ids), owner.line(), owner.column(), text(v));
        }
        JsonString s = (JsonString) v;
        return new SelectorParser(s).parse();
    }

    private Population lookup(String name, int line, int column) {
        Population p = names.get(name);
        if (p == null) {
            String close = ExperimentFileSchema.closest(name, new ArrayList<>(names.keySet()));
            r.problem(line, column, "unknown population \"" + name + "\"" + (close == null ? "" : "; did you mean \""
                    + close + "\"?") + (names.isEmpty() ? "" : " (defined so far: " + String.join(", ", names.keySet())
                    + "; connections see populations and views, devices also earlier devices)"));
        }
        return p;
    }

    private Population distinct(Population p, int line, int column, String text) {
        if (p.size() == 0) {
            r.problem(line, column, "selector \"" + text + "\" selects no nodes");
            return null;
        }
        int[] ids = p.ids();
        int[] sorted = ids.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                r.problem(line, column, "selector \"" + text + "\" names node " + sorted[i] + " twice: select each node"
                        + " once");
                return null;
            }
        }
        return p;
    }

    /** Parses one selector string; reports at the column of the offending character. */
    private final class SelectorParser {
        private final JsonString s;
        private final String t;
        private int i;

        SelectorParser(JsonString s) {
            this.s = s;
            this.t = s.value();
        }

        private void fail(int at, String message) {
            r.problem(s.line(), s.column() + 1 + at, "selector " + JsonValue.describe(s) + ": " + message);
        }

        Population parse() {
            Population all = null;
            while (true) {
                skip();
                int nameStart = i;
                while (i < t.length() && (Character.isLetterOrDigit(t.charAt(i)) || t.charAt(i) == '_')) {
                    i++;
                }
                if (i == nameStart) {
                    fail(i, i >= t.length() ? "a population name is missing at the end"
                            : "expected a population name at '" + t.charAt(i) + "' (selectors are like sensors[0:2] +"
                                    + " go_on)");
                    return null;
                }
                String name = t.substring(nameStart, i);
                Population base = names.get(name);
                if (base == null) {
                    lookup(name, s.line(), s.column() + 1 + nameStart);
                    return null;
                }
                skip();
                Population part = base;
                if (i < t.length() && t.charAt(i) == '[') {
                    int close = t.indexOf(']', i);
                    if (close < 0) {
                        fail(i, "missing ']'");
                        return null;
                    }
                    part = index(name, base, i + 1, close);
                    if (part == null) {
                        return null;
                    }
                    i = close + 1;
                    skip();
                }
                all = all == null ? part : all.concat(part);
                if (i >= t.length()) {
                    return distinct(all, s.line(), s.column(), t);
                }
                if (t.charAt(i) != '+') {
                    fail(i, "unexpected '" + t.charAt(i) + "': join selections with '+'");
                    return null;
                }
                i++;
            }
        }

        private void skip() {
            while (i < t.length() && t.charAt(i) == ' ') {
                i++;
            }
        }

        private Population index(String name, Population base, int from, int to) {
            String body = t.substring(from, to);
            int n = base.size();
            if (body.indexOf(':') >= 0) {
                String[] parts = body.split(":", -1);
                if (parts.length > 3) {
                    fail(from, "a slice has at most start:stop:step");
                    return null;
                }
                Integer start = integer(parts[0], from);
                Integer stop = integer(parts[1], from + parts[0].length() + 1);
                Integer step = parts.length == 3 ? integer(parts[2], from + parts[0].length() + parts[1].length() + 2)
                        : null;
                if (bad(start) || bad(stop) || bad(step)) {
                    return null;
                }
                int a = start == null ? 0 : start < 0 ? start + n : start;
                int b = stop == null ? n : stop < 0 ? stop + n : stop;
                int k = step == null ? 1 : step;
                if (k < 1) {
                    fail(from, "a slice step must be >= 1 (reversed slices are not supported)");
                    return null;
                }
                if (a < 0 || a > n || b < 0 || b > n) {
                    fail(from, "slice [" + body + "] is outside " + name + " (" + n + " nodes, positions 0.." + (n - 1)
                            + ")");
                    return null;
                }
                if (a >= b) {
                    fail(from, "slice [" + body + "] of " + name + " selects no nodes");
                    return null;
                }
                return base.slice(a, b, k);
            }
            String[] parts = body.split(",", -1);
            int[] ids = new int[parts.length];
            int at = from;
            for (int j = 0; j < parts.length; j++) {
                Integer p = integer(parts[j], at);
                if (p == null) {
                    fail(at, "a position is missing (write " + name + "[0,2] or " + name + "[0:2])");
                    return null;
                }
                if (bad(p)) {
                    return null;
                }
                int q = p < 0 ? p + n : p;
                if (q < 0 || q >= n) {
                    fail(at, "position " + p + " is outside " + name + " (" + n + " nodes, positions 0.." + (n - 1)
                            + ")");
                    return null;
                }
                ids[j] = base.id(q);
                at += parts[j].length() + 1;
            }
            return Population.of(ids);
        }

        private boolean bad(Integer x) {
            return x != null && x == Integer.MIN_VALUE;
        }

        /** @return the integer, null when blank, Integer.MIN_VALUE after reporting a problem */
        private Integer integer(String part, int at) {
            String p = part.trim();
            if (p.isEmpty()) {
                return null;
            }
            try {
                return Integer.parseInt(p);
            } catch (NumberFormatException e) {
                fail(at, "'" + p + "' is not an integer position");
                return Integer.MIN_VALUE;
            }
        }
    }
}
