package io.tandem.neuro;

import io.tandem.neuro.internal.CompiledNetwork;
import io.tandem.neuro.internal.NetworkDraft;
import io.tandem.neuro.internal.RandomOps;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Builds a {@link SpikingNetwork} the way a NEST script does: set the resolution, seed and
 * threads, {@link #create} nodes, {@link #connect} them, then {@link #build()}. Every call
 * validates at once and throws {@link IllegalArgumentException} (bad values) or
 * {@link IllegalStateException} (calls out of order) with a message that names the offending
 * parameter, node or delay and the fix.
 *
 * <p>Units are NEST's: mV, pA, pF, nS, ms, Hz. Parameters go by NEST name
 * ({@code Map.of("V_th", -50.0)}), see {@link NodeModel#parameterNames()}. Node ids are 0-based
 * in creation order, neurons and devices alike.
 *
 * <pre>{@code
 * NetworkBuilder b = SpikingNetwork.builder().resolutionMs(0.1).seed(7);
 * Population n = b.create("iaf_psc_alpha", 100, Map.of("I_e", 376.0));
 * Population pg = b.create("poisson_generator", 1, Map.of("rate", 8000.0));
 * Population rec = b.create("spike_recorder", 1);
 * b.connect(pg, n, Connector.allToAll(), SynapseSpec.staticSynapse(87.8, 1.5));
 * b.connect(n, rec);
 * try (SpikingNetwork net = b.build()) { net.simulate(1_000_000_000L); }
 * }</pre>
 *
 * <p>Not thread-safe. Building allocates freely; the result does not share state with the
 * builder, which may go on to build more networks.
 */
public final class NetworkBuilder {
    /** NEST's default resolution, 0.1 ms. */
    public static final long DEFAULT_RESOLUTION_NS = 100_000L;
    /** The default seed. */
    public static final long DEFAULT_SEED = 1L;

    private long resolutionNs = DEFAULT_RESOLUTION_NS;
    private long seed = DEFAULT_SEED;
    private int threads = 1;
    private boolean randomConnections;
    private int connectCalls;
    private final NetworkDraft draft = new NetworkDraft();

    NetworkBuilder() {
    }

    /**
     * Sets the resolution (NEST's {@code resolution}), a whole number of ns; before any node is created.
     *
     * @throws IllegalArgumentException unless it is positive and whole in ns
     */
    public NetworkBuilder resolutionMs(double ms) {
        double ns = ms * 1e6;
        long rounded = Math.round(ns);
        if (!(ms > 0) || Math.abs(ns - rounded) > 1e-6 * Math.max(1.0, ns) || rounded < 1) {
            throw new IllegalArgumentException("resolution must be a positive whole number of nanoseconds, got " + ms + " ms");
        }
        return resolutionNs(rounded);
    }

    /** Sets the resolution in ns (default 100 000, i.e. 0.1 ms); before any node is created. */
    public NetworkBuilder resolutionNs(long ns) {
        if (ns <= 0) {
            throw new IllegalArgumentException("resolution must be > 0 ns, got " + ns);
        }
        if (draft.nodeCount() > 0) {
            throw new IllegalStateException("set the resolution before creating nodes (delays and spike times are checked"
                    + " against it as they are given)");
        }
        resolutionNs = ns;
        return this;
    }

    /** Sets the seed of every random number: Poisson trains and random connectors (default 1); before random connects. */
    public NetworkBuilder seed(long seed) {
        if (randomConnections && seed != this.seed) {
            throw new IllegalStateException("set the seed before the first fixed_indegree connect: those connections are"
                    + " drawn when connect is called");
        }
        this.seed = seed;
        return this;
    }

    /**
     * Sets the number of threads that update the network (default 1). Results are bitwise
     * identical for every thread count.
     */
    public NetworkBuilder threads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        this.threads = threads;
        return this;
    }

    /** @return the resolution in ms */
    public double resolutionMs() {
        return resolutionNs / 1e6;
    }

    /** @return the number of nodes created so far */
    public int nodeCount() {
        return draft.nodeCount();
    }

    /** Creates {@code n} nodes of a model (NEST name) with default parameters. */
    public Population create(String model, int n) {
        return create(NodeModel.fromNestName(model), n, Map.of());
    }

    /** Creates {@code n} nodes of a model (NEST name) with parameters by NEST name. */
    public Population create(String model, int n, Map<String, Double> params) {
        return create(NodeModel.fromNestName(model), n, params);
    }

    /**
     * Creates {@code n} nodes of {@code model}; {@code params} (NEST names, NEST units) override
     * NEST's defaults.
     *
     * @return the new nodes, a contiguous id range
     * @throws IllegalArgumentException for an unknown parameter or a value NEST rejects
     */
    public Population create(NodeModel model, int n, Map<String, Double> params) {
        if (n < 1) {
            throw new IllegalArgumentException("create needs n >= 1, got " + n + " for " + model);
        }
        double[] v = model.resolve(params);
        check(model, v);
        double[] w = window(model, v, draft.nodeCount(), n);
        int first;
        if (model.kind() == NodeModel.Kind.NEURON) {
            first = draft.addNeurons(model, n, v);
        } else if (model.kind() == NodeModel.Kind.STIMULATOR) {
            double value = model == NodeModel.SPIKE_GENERATOR ? 0.0 : v[0];
            first = draft.addDevices(model, n, value, w[0], w[1], w[2]);
        } else if (model == NodeModel.MULTIMETER) {
            first = draft.addMultimeters(n, v[model.parameterIndex("interval")], v[model.parameterIndex("offset")], w[0],
                    w[1], w[2]);
        } else {
            first = draft.addRecorders(n, w[0], w[1], w[2]);
        }
        int[] ids = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = first + i;
        }
        return new Population(ids, model);
    }

    /**
     * Checks the activity window (and a multimeter's interval and offset) of nodes about to be created.
     *
     * @return {start, stop, origin} in ms ({0, +inf, 0} for models without one)
     */
    private double[] window(NodeModel model, double[] v, int first, int n) {
        if (!model.hasActivityWindow()) {
            return new double[] {0.0, Double.POSITIVE_INFINITY, 0.0};
        }
        double[] w = {v[model.parameterIndex("start")], v[model.parameterIndex("stop")], v[model.parameterIndex("origin")]};
        ActivityWindow.check(model, first, n, w[0], w[1], w[2], resolutionMs());
        if (model == NodeModel.MULTIMETER) {
            String who = ActivityWindow.nodes(model, first, n);
            ActivityWindow.checkInterval(who, v[model.parameterIndex("interval")], resolutionMs());
            ActivityWindow.checkOffset(who, v[model.parameterIndex("offset")], resolutionMs());
        }
        return w;
    }

    private static void check(NodeModel model, double[] v) {
        String name = model.nestName();
        java.util.List<String> names = model.parameterNames();
        for (int i = 0; i < v.length; i++) {
            String p = names.get(i);
            if (NodeModel.WINDOW_PARAMETERS.contains(p) || "interval".equals(p) || "offset".equals(p)) {
                // checked with the node ids by window()
                continue;
            }
            boolean mayBeNaN = "V_m".equals(p);
            boolean mayBeInfinite = "V_min".equals(p);
            if (Double.isNaN(v[i]) && !mayBeNaN || Double.isInfinite(v[i]) && !mayBeInfinite) {
                throw new IllegalArgumentException(name + " parameter " + p + " must be finite, got " + v[i]);
            }
        }
        switch (model) {
            case IAF_PSC_ALPHA:
            case IAF_PSC_EXP:
                positive(model, names, v, "C_m", "pF");
                positive(model, names, v, "tau_m", "ms");
                positive(model, names, v, "tau_syn_ex", "ms");
                positive(model, names, v, "tau_syn_in", "ms");
                thresholds(model, names, v);
                break;
            case IAF_COND_ALPHA:
                positive(model, names, v, "C_m", "pF");
                positive(model, names, v, "g_L", "nS");
                positive(model, names, v, "tau_syn_ex", "ms");
                positive(model, names, v, "tau_syn_in", "ms");
                thresholds(model, names, v);
                break;
            case POISSON_GENERATOR:
                if (v[0] < 0) {
                    throw new IllegalArgumentException(name + " rate must be >= 0 Hz, got " + v[0]);
                }
                break;
            case DC_GENERATOR:
            case SPIKE_GENERATOR:
            case SPIKE_RECORDER:
            case MULTIMETER:
                break;
        }
    }

    private static void positive(NodeModel m, java.util.List<String> names, double[] v, String p, String unit) {
        double x = v[names.indexOf(p)];
        if (!(x > 0)) {
            throw new IllegalArgumentException(m.nestName() + " parameter " + p + " must be > 0 " + unit + ", got " + x);
        }
    }

    private static void thresholds(NodeModel m, java.util.List<String> names, double[] v) {
        double tRef = v[names.indexOf("t_ref")];
        if (tRef < 0) {
            throw new IllegalArgumentException(m.nestName() + " parameter t_ref must be >= 0 ms, got " + tRef);
        }
        double vth = v[names.indexOf("V_th")];
        double vReset = v[names.indexOf("V_reset")];
        if (!(vReset < vth)) {
            throw new IllegalArgumentException(m.nestName() + " needs V_reset < V_th (NEST's rule), got V_reset " + vReset
                    + " mV, V_th " + vth + " mV");
        }
    }

    /**
     * Sets the spike times of {@code spike_generator} nodes (NEST's {@code spike_times}), in ms,
     * each a positive multiple of the resolution, relative to the generator's {@code origin} (as
     * NEST adds it); a spike at t is emitted when origin + start &lt; origin + t &lt;= origin + stop
     * and reaches a target at origin + t + delay. Repeated times give spikes of multiplicity > 1.
     *
     * @param timesMs spike times. Not modified.
     */
    public NetworkBuilder spikeTimesMs(Population generators, double... timesMs) {
        double h = resolutionMs();
        long[] steps = new long[timesMs.length];
        for (int i = 0; i < timesMs.length; i++) {
            double t = timesMs[i];
            long k = Math.round(t / h);
            if (!Double.isFinite(t) || k < 1 || Math.abs(k * h - t) > 1e-9 * Math.max(1.0, t)) {
                throw new IllegalArgumentException("spike time " + t + " ms must be a positive multiple of the resolution "
                        + h + " ms (e.g. " + (Math.max(1, k) * h) + ")");
            }
            steps[i] = k - 1;
        }
        Arrays.sort(steps);
        for (int id : generators.idsNoCopy()) {
            node(id, "spikeTimesMs");
            if (draft.model(id) != NodeModel.SPIKE_GENERATOR) {
                throw new IllegalArgumentException("node " + id + " is a " + draft.model(id) + ", not a spike_generator:"
                        + " spike times go to spike_generator nodes");
            }
            draft.setSpikeEmitSteps(id, steps);
        }
        return this;
    }

    /**
     * Sets the state variables {@code multimeter} nodes record (NEST's {@code record_from}), by
     * NEST name: {@code V_m} for every neuron model, {@code I_syn_ex} and {@code I_syn_in} for
     * {@code iaf_psc_alpha} and {@code iaf_psc_exp}, {@code g_ex} and {@code g_in} for
     * {@code iaf_cond_alpha} (see {@link NodeModel#recordables()}). Call it before connecting the
     * multimeters; connecting checks that every target has every variable.
     *
     * @param variables the variables, in the order the samples list them. Not modified.
     * @throws IllegalArgumentException for an unknown or repeated name (naming the valid ones),
     *                                  none, or a node that is not a multimeter
     * @throws IllegalStateException    for a multimeter already connected (NEST fixes
     *                                  {@code record_from} once it is)
     */
    public NetworkBuilder recordFrom(Population multimeters, String... variables) {
        java.util.List<String> valid = new java.util.ArrayList<>();
        for (NodeModel m : NodeModel.values()) {
            for (String r : m.recordables()) {
                if (!valid.contains(r)) {
                    valid.add(r);
                }
            }
        }
        if (variables.length == 0) {
            throw new IllegalArgumentException("record_from needs at least one variable; valid: " + valid);
        }
        for (int i = 0; i < variables.length; i++) {
            String v = variables[i];
            if (!valid.contains(v)) {
                String close = NodeModel.closest(v == null ? "" : v, valid);
                throw new IllegalArgumentException("unknown record_from variable '" + v + "'; valid: " + valid
                        + " (V_m for every neuron model, I_syn_ex and I_syn_in for iaf_psc_alpha and iaf_psc_exp, g_ex and"
                        + " g_in for iaf_cond_alpha)" + (close == null ? "" : "; did you mean '" + close + "'?"));
            }
            for (int j = 0; j < i; j++) {
                if (variables[j].equals(v)) {
                    throw new IllegalArgumentException("record_from names '" + v + "' twice: list each variable once");
                }
            }
        }
        for (int id : multimeters.idsNoCopy()) {
            node(id, "recordFrom");
            if (draft.model(id) != NodeModel.MULTIMETER) {
                throw new IllegalArgumentException("node " + id + " is a " + draft.model(id) + ", not a multimeter:"
                        + " record_from is set on multimeter nodes");
            }
            if (draft.meterConnections(id) > 0) {
                throw new IllegalStateException("multimeter node " + id + " is already connected: set record_from before"
                        + " connecting it (NEST fixes record_from once a multimeter is connected)");
            }
        }
        for (int id : multimeters.idsNoCopy()) {
            draft.setRecordFrom(id, variables);
        }
        return this;
    }

    /** Connects {@code pre} to {@code post} all-to-all with NEST's default static synapse (weight 1, delay 1 ms). */
    public NetworkBuilder connect(Population pre, Population post) {
        return connect(pre, post, Connector.allToAll(), SynapseSpec.of(SynapseSpec.Model.STATIC, Map.of()));
    }

    /**
     * Connects by NEST names, e.g. {@code connect(a, b, "all_to_all", "tsodyks_synapse",
     * Map.of("weight", 0.15, "delay", 0.1, "U", 1.0))}.
     */
    public NetworkBuilder connect(Population pre, Population post, String rule, String synapseModel,
            Map<String, Double> synapseParams) {
        return connect(pre, post, Connector.of(rule), SynapseSpec.of(synapseModel, synapseParams));
    }

    /**
     * Connects {@code pre} to {@code post} with a rule and a synapse (NEST's {@code Connect}).
     * Neurons connect to neurons (static or tsodyks synapses), stimulators to neurons (static
     * synapses: the weight scales the spikes or the current), neurons to spike recorders and
     * multimeters to neurons (NEST's {@code Connect(multimeter, neurons)}; the synapse is ignored
     * for both recorders).
     *
     * @throws IllegalArgumentException for unknown node ids, a pairing NEST would reject, a delay
     *                                  below or off the resolution grid, or mismatched sizes
     */
    public NetworkBuilder connect(Population pre, Population post, Connector conn, SynapseSpec syn) {
        int[] src = pre.idsNoCopy();
        int[] tgt = post.idsNoCopy();
        for (int id : src) {
            node(id, "connect source");
        }
        for (int id : tgt) {
            node(id, "connect target");
        }
        int delaySteps = delaySteps(syn.delayMs());
        int tsodyks = -1;
        if (syn.model() == SynapseSpec.Model.TSODYKS) {
            tsodyks = -2; // registered on first use by a neuron pair
        }
        // the kinds of every pair are checked before anything is added
        checkKinds(src, tgt, syn);
        checkRecordFrom(src, tgt);
        long planned = switch (conn.rule()) {
            case ALL_TO_ALL -> (long) src.length * tgt.length;
            case ONE_TO_ONE -> src.length;
            case FIXED_INDEGREE -> (long) conn.indegree() * tgt.length;
        };
        checkRoom(planned);
        int call = connectCalls++;
        switch (conn.rule()) {
            case ALL_TO_ALL:
                for (int s : src) {
                    for (int t : tgt) {
                        if (s != t || conn.allowAutapses()) {
                            tsodyks = pair(s, t, syn, delaySteps, tsodyks);
                        }
                    }
                }
                break;
            case ONE_TO_ONE:
                if (src.length != tgt.length) {
                    throw new IllegalArgumentException("one_to_one needs equal sizes, got " + src.length + " sources and "
                            + tgt.length + " targets: use all_to_all or select matching slices");
                }
                for (int i = 0; i < src.length; i++) {
                    tsodyks = pair(src[i], tgt[i], syn, delaySteps, tsodyks);
                }
                break;
            case FIXED_INDEGREE:
                fixedIndegree(src, tgt, conn, syn, delaySteps, tsodyks, call);
                break;
        }
        return this;
    }

    /** The most synapses one network holds (int indices). */
    static final long MAX_SYNAPSES = Integer.MAX_VALUE - 8;
    /**
     * Heap bytes per synapse while a network is built (the draft's growing arrays, then the
     * compiled ones): measured, a Brunel network of 30 000 neurons (9e7 synapses) failed in a 4 GB
     * heap and was built in an 8 GB one.
     */
    static final long BUILD_BYTES_PER_SYNAPSE = 70;

    /**
     * Refuses a connect that would take the network beyond what it can hold or this JVM's heap
     * could build, before anything is added (rather than an OutOfMemoryError minutes later).
     */
    private void checkRoom(long planned) {
        long total = draft.synapseCount() + planned;
        if (total > MAX_SYNAPSES) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "the network would hold %.3g synapses,"
                    + " more than the %d one network holds: make it smaller (fewer neurons or a lower indegree)",
                    (double) total, MAX_SYNAPSES));
        }
        long need = total * BUILD_BYTES_PER_SYNAPSE;
        long heap = Runtime.getRuntime().maxMemory();
        if (need > heap) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "the network would hold %.3g synapses,"
                    + " about %.1f GB of heap while it is built (%d bytes each), and this JVM may use %.1f GB: give it more"
                    + " (JAVA_OPTS=-Xmx%dg) or make the network smaller", (double) total, need / 1e9, BUILD_BYTES_PER_SYNAPSE,
                    heap / 1e9, (long) Math.ceil(need * 1.25 / (1L << 30))));
        }
    }

    private int fixedIndegree(int[] src, int[] tgt, Connector conn, SynapseSpec syn, int delaySteps, int tsodyks, int call) {
        int k = conn.indegree();
        if (k == 0) {
            return tsodyks;
        }
        if (src.length == 0) {
            throw new IllegalArgumentException("fixed_indegree(" + k + ") needs at least one source, got an empty population");
        }
        if (!conn.allowMultapses() && k > src.length - (conn.allowAutapses() ? 0 : 1)) {
            throw new IllegalArgumentException("fixed_indegree(" + k + ") without multapses needs at least " + k
                    + " distinct sources per target, the population has " + src.length + ": allow multapses or lower k");
        }
        randomConnections = true;
        boolean[] taken = conn.allowMultapses() ? null : new boolean[src.length];
        int[] drawn = new int[k];
        for (int t : tgt) {
            SplittableRandom rng = new SplittableRandom(RandomOps.streamState(seed, 0x10000L + call, t));
            for (int i = 0; i < k; i++) {
                int j;
                do {
                    j = rng.nextInt(src.length);
                } while (!conn.allowAutapses() && src[j] == t || taken != null && taken[j]);
                if (taken != null) {
                    taken[j] = true;
                }
                drawn[i] = j;
                tsodyks = pair(src[j], t, syn, delaySteps, tsodyks);
            }
            if (taken != null) {
                for (int i = 0; i < k; i++) {
                    taken[drawn[i]] = false;
                }
            }
        }
        return tsodyks;
    }

    private void checkKinds(int[] src, int[] tgt, SynapseSpec syn) {
        // one representative per model on each side: O(|src| + |tgt|), not per pair
        int[] srcOf = representatives(src);
        int[] tgtOf = representatives(tgt);
        for (int s : srcOf) {
            for (int t : tgtOf) {
                if (s >= 0 && t >= 0) {
                    checkPair(s, t, syn);
                }
            }
        }
    }

    /** Every multimeter source must have record_from, and every target model each of its variables. */
    private void checkRecordFrom(int[] src, int[] tgt) {
        int[] tgtOf = null;
        for (int s : src) {
            if (draft.model(s) != NodeModel.MULTIMETER) {
                continue;
            }
            String[] vars = draft.recordFrom(s);
            if (vars == null) {
                throw new IllegalArgumentException("multimeter node " + s + " has no record_from: call recordFrom(multimeter,"
                        + " \"V_m\", ...) before connecting it");
            }
            if (tgtOf == null) {
                tgtOf = representatives(tgt);
            }
            for (int t : tgtOf) {
                if (t < 0 || draft.model(t).kind() != NodeModel.Kind.NEURON) {
                    continue;
                }
                NodeModel mt = draft.model(t);
                for (String v : vars) {
                    if (!mt.recordables().contains(v)) {
                        throw new IllegalArgumentException("multimeter node " + s + " records '" + v + "', which " + mt
                                + " node " + t + " does not have; " + mt + " can record " + mt.recordables());
                    }
                }
            }
        }
    }

    private int[] representatives(int[] ids) {
        int[] rep = new int[NodeModel.values().length];
        Arrays.fill(rep, -1);
        for (int id : ids) {
            int m = draft.model(id).ordinal();
            if (rep[m] < 0) {
                rep[m] = id;
            }
        }
        return rep;
    }

    private void checkPair(int s, int t, SynapseSpec syn) {
        NodeModel ms = draft.model(s);
        NodeModel mt = draft.model(t);
        if (ms.kind() == NodeModel.Kind.NEURON && mt.kind() == NodeModel.Kind.NEURON) {
            return;
        }
        if (ms.kind() == NodeModel.Kind.STIMULATOR && mt.kind() == NodeModel.Kind.NEURON) {
            if (syn.model() != SynapseSpec.Model.STATIC) {
                throw new IllegalArgumentException(ms + " node " + s + " connects through static_synapse only, got "
                        + syn.model().nestName() + ": use SynapseSpec.staticSynapse(weight, delay)");
            }
            return;
        }
        if (ms.kind() == NodeModel.Kind.NEURON && mt == NodeModel.SPIKE_RECORDER) {
            return;
        }
        if (ms == NodeModel.MULTIMETER && mt.kind() == NodeModel.Kind.NEURON) {
            return;
        }
        String hint = mt == NodeModel.MULTIMETER ? " (a multimeter is the source, as in NEST: connect(multimeter, neurons))"
                : ms == NodeModel.MULTIMETER ? " (a multimeter records neurons only)"
                : mt.kind() == NodeModel.Kind.STIMULATOR ? " (stimulators only send: connect them as the source)"
                : ms == NodeModel.SPIKE_RECORDER ? " (a spike_recorder only receives: connect neurons to it)"
                : ms.kind() == NodeModel.Kind.STIMULATOR ? " (stimulators drive neurons only)" : "";
        throw new IllegalArgumentException("cannot connect " + ms + " node " + s + " to " + mt + " node " + t + hint);
    }

    private int pair(int s, int t, SynapseSpec syn, int delaySteps, int tsodyks) {
        NodeModel ms = draft.model(s);
        NodeModel mt = draft.model(t);
        if (mt == NodeModel.SPIKE_RECORDER) {
            draft.addRecording(s, t);
        } else if (ms == NodeModel.MULTIMETER) {
            draft.addSampling(s, t);
        } else if (ms.kind() == NodeModel.Kind.STIMULATOR) {
            draft.addDeviceConnection(s, t, syn.weight(), delaySteps);
        } else {
            if (tsodyks == -2) {
                tsodyks = draft.addTsodyksSpec(new double[] {syn.get("U"), syn.get("tau_psc"), syn.get("tau_rec"),
                    syn.get("tau_fac"), syn.get("x"), syn.get("y"), syn.get("u")});
            }
            draft.addSynapse(s, t, syn.weight(), delaySteps, tsodyks);
        }
        return tsodyks;
    }

    private int delaySteps(double delayMs) {
        double h = resolutionMs();
        long k = Math.round(delayMs / h);
        if (delayMs < h - 1e-12) {
            throw new IllegalArgumentException("delay " + delayMs + " ms is below the resolution " + h
                    + " ms (the minimum delay): use at least " + h + " ms");
        }
        if (Math.abs(k * h - delayMs) > 1e-9 * Math.max(1.0, delayMs)) {
            throw new IllegalArgumentException("delay " + delayMs + " ms is not a multiple of the resolution " + h
                    + " ms: use " + String.format(Locale.ROOT, "%.6g", Math.floor(delayMs / h) * h) + " or "
                    + String.format(Locale.ROOT, "%.6g", Math.ceil(delayMs / h) * h) + " ms");
        }
        if (k > 1_000_000) {
            throw new IllegalArgumentException("delay " + delayMs + " ms is longer than 10^6 resolution steps: the ring"
                    + " buffers would not fit; use a coarser resolution or a shorter delay");
        }
        return (int) k;
    }

    private void node(int id, String what) {
        if (id < 0 || id >= draft.nodeCount()) {
            throw new IllegalArgumentException(what + ": no node " + id + " (the network has nodes 0.." + (draft.nodeCount() - 1)
                    + ")");
        }
    }

    /**
     * Compiles the network and starts its worker threads (threads - 1 of them).
     *
     * @return a network at time 0; close it to stop its threads
     */
    public SpikingNetwork build() {
        int partitions = Math.max(1, Math.min(threads, countNeurons()));
        CompiledNetwork m = draft.compile(resolutionNs, seed, partitions);
        return new SpikingNetwork(m);
    }

    private int countNeurons() {
        int n = 0;
        for (int i = 0; i < draft.nodeCount(); i++) {
            if (draft.model(i).kind() == NodeModel.Kind.NEURON) {
                n++;
            }
        }
        return n;
    }
}
