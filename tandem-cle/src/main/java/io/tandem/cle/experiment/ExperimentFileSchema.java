package io.tandem.cle.experiment;

import io.tandem.cle.internal.json.JsonValue;
import io.tandem.cle.internal.json.JsonValue.JsonArray;
import io.tandem.cle.internal.json.JsonValue.JsonBoolean;
import io.tandem.cle.internal.json.JsonValue.JsonNumber;
import io.tandem.cle.internal.json.JsonValue.JsonObject;
import io.tandem.cle.internal.json.JsonValue.JsonString;
import io.tandem.cosim.text.Suggestions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/*
 * Implementation notes.
 *
 * The schema of an experiment file, written once as data (the nodes below) and used twice:
 * check() walks a parsed file against it and reports every violation with its position, and
 * toJsonSchema() renders it as JSON Schema draft 2020-12 for editors and readers; the shipped
 * examples/experiments/experiment.schema.json is that rendering, kept equal by a test.
 *
 * Node kinds: Obj (closed, or open with a value schema for every extra key), Arr, Str (optionally
 * an enumeration), Num (number or integer with bounds), Bool, OneOf (alternatives told apart by
 * JSON type, or for objects by a tag key the object carries), Any (any value but null). Checks
 * that need more than the shape (selectors, colours, model names, timestep multiples, the world's
 * model names) are in ExperimentFileReader and BrainSpecReader, which run on a tree this check
 * passed.
 */

/** The experiment file's schema: the structure check and the JSON Schema rendering. */
final class ExperimentFileSchema {
    private ExperimentFileSchema() {
    }

    /** A schema node. */
    sealed interface Node permits Obj, Arr, Str, Num, Bool, OneOf, Any {
        /** @return what a value must be, as in "a number > 0" */
        String expected();

        /** @return the user documentation */
        String description();
    }

    /**
     * A key of an object.
     *
     * @param defaultValue the default for documentation (null: none, or described in the text)
     */
    record Field(String name, Node type, boolean required, Object defaultValue) {
    }

    /** An object; {@code extra} null means no other keys, else the schema of every other key's value. */
    record Obj(String description, List<Field> fields, Node extra, String tag) implements Node {
        Obj {
            fields = List.copyOf(fields);
        }

        Field field(String name) {
            for (Field f : fields) {
                if (f.name().equals(name)) {
                    return f;
                }
            }
            return null;
        }

        @Override
        public String expected() {
            return "an object";
        }
    }

    /** An array. */
    record Arr(String description, Node items, int minItems) implements Node {
        @Override
        public String expected() {
            return minItems > 0 ? "a non-empty array" : "an array";
        }
    }

    /** A string, optionally one of {@code choices}. */
    record Str(String description, List<String> choices) implements Node {
        Str {
            choices = List.copyOf(choices);
        }

        @Override
        public String expected() {
            if (choices.isEmpty()) {
                return "a string";
            }
            return choices.size() == 1 ? "\"" + choices.get(0) + "\"" : "one of " + String.join(", ", choices);
        }
    }

    /** A number; NaN bounds mean none. */
    record Num(String description, boolean integer, double min, boolean exclusiveMin) implements Node {
        @Override
        public String expected() {
            String what = integer ? "an integer" : "a number";
            if (Double.isNaN(min)) {
                return what;
            }
            return what + (exclusiveMin ? " > " : " >= ") + fmt(min);
        }
    }

    /** true or false. */
    record Bool(String description) implements Node {
        @Override
        public String expected() {
            return "true or false";
        }
    }

    /** One of several shapes: by JSON type, and among objects by the tag key the object carries. */
    record OneOf(String description, List<Node> alternatives, String expectedText) implements Node {
        OneOf {
            alternatives = List.copyOf(alternatives);
        }

        @Override
        public String expected() {
            return expectedText;
        }
    }

    /** Any value but null. */
    record Any(String description) implements Node {
        @Override
        public String expected() {
            return "a string, number, boolean, array or object";
        }
    }

    /** A violation: where and what. */
    record Problem(int line, int column, String message) {
    }

    // ---- building blocks

    private static final double NONE = Double.NaN;

    static Field req(String name, Node type) {
        return new Field(name, type, true, null);
    }

    static Field opt(String name, Node type, Object defaultValue) {
        return new Field(name, type, false, defaultValue);
    }

    static Obj obj(String description, Field... fields) {
        return new Obj(description, List.of(fields), null, null);
    }

    static Obj map(String description, Node values) {
        return new Obj(description, List.of(), values, null);
    }

    static Str str(String description, String... choices) {
        return new Str(description, List.of(choices));
    }

    static Num positive(String description) {
        return new Num(description, false, 0, true);
    }

    static Num number(String description) {
        return new Num(description, false, NONE, false);
    }

    static Num integer(String description, double min) {
        return new Num(description, true, min, false);
    }

    // ---- the experiment file

    /** Device types: the NRP's device names. */
    static final List<String> DEVICE_TYPES = List.of("poisson", "dc_source", "leaky_integrator_alpha",
            "leaky_integrator_exp", "spike_recorder", "multimeter");

    static final Node SELECTOR = new OneOf("Nodes of the brain: a selector string (\"sensors\", \"sensors[4]\","
            + " \"sensors[0:3:2]\", \"sensors[0,2]\", \"sensors[1:] + go_on\": population or view names with Python"
            + " indexing, joined by '+') or {\"population\": name, \"ids\": [positions]}.",
            List.of(str("A selector: NAME, NAME[i], NAME[a:b], NAME[a:b:step], NAME[i,j,...], joined by '+'."
                            + " Positions are 0-based within the named population or view; negative positions count"
                            + " from the end as in Python."),
                    obj("Positions of one population or view.",
                            req("population", str("A population, view or device name.")),
                            opt("ids", new Arr("0-based positions (default: all).", integer("A position.", 0), 0), null))),
            "a selector string like \"sensors[0:2]\" or {\"population\": ..., \"ids\": [...]}");

    static final Node COLOR = new OneOf("A colour: a name (red, green, blue, white, black, gray, grey, yellow, cyan,"
            + " magenta, orange) or \"r g b\" with each in 0..1, or [r, g, b].",
            List.of(str("A colour name or \"r g b\" in 0..1."),
                    new Arr("[r, g, b], each in 0..1.", number("A component in 0..1."), 3)),
            "a colour name like \"red\", \"r g b\" in 0..1, or [r, g, b]");

    static final Node PARAMETER_VALUE = new OneOf("A parameter's default value.",
            List.of(str("A string value."), number("A number value."), new Bool("A boolean value.")),
            "a string, number or boolean");

    static final Obj PARAMS_NUMBERS = map("Model parameters by NEST name, in NEST units (mV, pA, pF, nS, ms, Hz);"
            + " generators, spike_recorders and multimeters also take NEST's start, stop and origin (ms, multiples of"
            + " the resolution, stop >= start): active (emitting, recording, sampling) for times in (origin + start,"
            + " origin + stop]; a multimeter also takes interval (ms, default 1) and offset (ms, default 0, >= 0, a"
            + " multiple of the resolution): it samples at offset + k interval.", number("A parameter value."));

    static final Obj POPULATION = obj("Neurons (or other nodes) created together, like NEST's Create(model, n, params).",
            req("name", str("The population's name (selectors refer to it).")),
            req("model", str("The NEST model name: iaf_psc_alpha, iaf_psc_exp, iaf_cond_alpha, poisson_generator,"
                    + " dc_generator, spike_generator, spike_recorder (a multimeter is a device: it needs"
                    + " record_from).")),
            req("n", integer("How many nodes.", 1)),
            opt("params", PARAMS_NUMBERS, null));

    static final Obj SYNAPSE = new Obj("The synapse (NEST's syn_spec): model, weight (pA onto current-based"
            + " neurons, nS onto conductance-based ones; negative is inhibitory), delay_ms, and the model's other"
            + " parameters by NEST name (tsodyks_synapse: U, tau_psc, tau_rec, tau_fac, x, y, u).",
            List.of(opt("model", str("The synapse model.", "static_synapse", "tsodyks_synapse"), "static_synapse"),
                    opt("weight", number("The weight."), 1.0),
                    opt("delay_ms", positive("The delay (ms), a multiple of the resolution."), 1.0)),
            number("A synapse parameter by NEST name."), null);

    static final Node RULE = new OneOf("The connection rule (NEST's conn_spec).",
            List.of(str("all_to_all or one_to_one.", "all_to_all", "one_to_one"),
                    obj("Each target draws fixed_indegree sources at random (seeded by the brain's seed).",
                            req("fixed_indegree", integer("Sources per target.", 0)),
                            opt("allow_autapses", new Bool("Whether a neuron may connect to itself."), true),
                            opt("allow_multapses", new Bool("Whether a pair may connect more than once."), true))),
            "\"all_to_all\", \"one_to_one\" or {\"fixed_indegree\": k}");

    static final Obj CONNECTION = obj("A projection, like NEST's Connect(pre, post, conn_spec, syn_spec).",
            req("from", SELECTOR),
            req("to", SELECTOR),
            opt("rule", RULE, "all_to_all"),
            opt("synapse", SYNAPSE, null));

    static final Obj DEVICE = obj("A device the transfer functions read or write (the NRP's brain devices),"
            + " created after the populations in file order. poisson: one poisson_generator connected all-to-all to"
            + " the targets (independent trains per target), params {\"rate\": Hz}; dc_source: one dc_generator,"
            + " params {\"amplitude\": pA}; leaky_integrator_alpha / _exp: one iaf_psc_alpha / iaf_psc_exp per target"
            + " that never fires (V_th 1e10, C_m 1000 pF, tau_m 10 ms, tau_syn 2 ms, E_L 0, V_reset 0, t_ref 0.1 ms),"
            + " fed one-to-one with weight 10 by default, read as V_m; spike_recorder: one recorder of every target;"
            + " multimeter: one NEST multimeter connected to every target (as the source, as NEST connects it),"
            + " sampling record_from every params.interval ms (default 1) from params.offset ms (default 0: the first"
            + " multiple of the interval). Generators, spike_recorders and multimeters take NEST's start, stop and origin"
            + " (ms) in params.",
            req("name", str("The device's name (transfer functions and selectors refer to it).")),
            req("type", str("The device type.", DEVICE_TYPES.toArray(new String[0]))),
            req("targets", SELECTOR),
            opt("weight", number("The weight of the device's connections (default 1; 10 for leaky integrators)."),
                    null),
            opt("delay_ms", positive("The delay of the device's connections (ms; default: the resolution)."), null),
            opt("params", PARAMS_NUMBERS, null),
            opt("record_from", new Arr("multimeter only (required): the state variables to sample, by NEST name: V_m (mV)"
                    + " for every neuron model, I_syn_ex and I_syn_in (pA) for iaf_psc_alpha and iaf_psc_exp, g_ex and g_in"
                    + " (nS) for iaf_cond_alpha.", str("A state variable."), 1), null));

    static final Obj BUILTIN_BRAIN = new Obj("A brain from tandem-neuro's library.",
            List.of(req("builtin", str("braitenberg: the Husky Braitenberg brain (BraitenbergBrain); brunel: the"
                            + " Brunel balanced network (BrunelNetwork).", "braitenberg", "brunel")),
                    opt("seed", integer("The seed of every random number of the brain.", 0), 1),
                    opt("neurons", integer("brunel only: the number of neurons.", 10), 10000),
                    opt("threads", integer("Update threads (results do not depend on them).", 1), 1),
                    opt("record_spikes", new Bool("brunel only: whether to add a spike recorder on every neuron."),
                            true),
                    opt("brunel_neurons", integer("braitenberg only: add a Brunel balanced network of this many"
                            + " neurons beside the Braitenberg brain, not connected to it (a heavier brain, for timing).",
                            0), 0)),
            null, "builtin");

    static final Obj NEST_BRAIN = obj("A brain written as data, NEST-style: populations, views, connections and"
                    + " devices, built in that order.",
            opt("resolution_ms", positive("NEST's resolution (ms)."), 0.1),
            opt("seed", integer("The seed of every random number of the brain.", 0), 1),
            opt("threads", integer("Update threads (results do not depend on them).", 1), 1),
            req("populations", new Arr("The populations, created in this order (node ids follow it).", POPULATION, 1)),
            opt("views", map("Named selections of existing nodes (the NRP BIBI's populations, e.g. \"record\": "
                    + "\"sensors + go_on + actors\").", SELECTOR), null),
            opt("connections", new Arr("The projections, made in this order.", CONNECTION, 0), null),
            opt("devices", new Arr("The devices, created after the populations in this order.", DEVICE, 0), null));

    static final Node BRAIN = new OneOf("The brain: {\"builtin\": ...} or a NEST-style description.",
            List.of(BUILTIN_BRAIN, NEST_BRAIN),
            "{\"builtin\": \"braitenberg\"} or {\"populations\": [...], ...}");

    static final String SYNC_STEP_TEXT = "How often the engine exchanges data with the loop (ms; NRP-core's"
            + " EngineTimestep): a whole multiple of the loop step, default the loop step. Between syncs it runs on; its"
            + " transfer functions run only at its syncs.";

    static final Obj ENGINES = obj("The engines and the loop (defaults as the NRP CLE's).",
            opt("loop_step_ms", positive("The closed loop's step (ms): transfer functions run once per loop step;"
                    + " the NRP CLE's 20 ms."), 20.0),
            opt("mode", str("parallel: the engines step concurrently while the transfer functions run (the CLE's"
                    + " ClosedLoopEngine); serial: one after another (its serialized fallback). The CLI's --mode"
                    + " overrides it.", "parallel", "serial"), "parallel"),
            opt("physics", obj("The physics engine.",
                    opt("timestep_ms", positive("The physics step (ms); default the world's max_step_size. The loop"
                            + " step must be a whole multiple of it."), null),
                    opt("sync_step_ms", positive(SYNC_STEP_TEXT), null)), null),
            opt("brain", obj("The brain engine.",
                    opt("timestep_ms", positive("How far the brain runs per call (ms), a multiple of its resolution;"
                            + " default the loop step. The loop step must be a whole multiple of it."), null),
                    opt("sync_step_ms", positive(SYNC_STEP_TEXT), null)), null));

    static final Obj TRANSFER_FUNCTION = obj("A transfer function: a class the engine loads, with its parameters.",
            req("class", str("The fully qualified class name, e.g. io.tandem.cle.tf.EyeSensorTransmit.")),
            opt("name", str("A name for logs and timings (default: the class's simple name); unique."), null),
            opt("priority", integer("Higher runs first within a loop step; ties keep file order.", NONE), 0),
            opt("active", new Bool("Whether the transfer function runs (NRP-core's IsActive)."), true),
            opt("params", map("Parameters for the class (strings, numbers, booleans, arrays, objects).",
                    new Any("A parameter value.")), null));

    static final Obj DRIVE = obj("A skid-steer (differential) drive of the robot: a twist command (the device named"
                    + " after the robot model) becomes wheel speeds left = (v - w * half_track_m) * wheel_gain and"
                    + " right = (v + w * half_track_m) * wheel_gain, rad/s (the NRP Husky TF's conversion).",
            req("left_wheels", new Arr("The left wheels' joints, scoped (model::joint).", str("A joint."), 1)),
            req("right_wheels", new Arr("The right wheels' joints, scoped (model::joint).", str("A joint."), 1)),
            opt("half_track_m", positive("Half the distance between the left and right wheels (m)."), 0.275),
            opt("wheel_gain", positive("Wheel speed per m/s of a wheel's ground speed (rad/m; the NRP's 7)."), 7.0));

    static final Obj ROBOT = obj("What the run records and measures about the robot.",
            req("model", str("The robot's model in the world: its pose is recorded every loop step.")),
            opt("target", str("A model in the world: the run reports the robot's final distance to it"
                    + " (final_distance_to_<target>_m)."), null),
            opt("drive", DRIVE, null));

    static final Obj OUTPUTS = obj("Output file names, relative to the run's output folder.",
            opt("spikes", str("Spike trains of every spike_recorder device (CSV: time_ms, recorder, node), in time"
                    + " order."), "spikes.csv"),
            opt("trajectory", str("The robot model's pose per loop step (CSV)."), "trajectory.csv"),
            opt("multimeter", str("Samples of every multimeter device (CSV: time_ms, multimeter, node, then one column"
                    + " per recorded variable), written when the brain has a multimeter."), "multimeter.csv"));

    static final Obj VIEW = obj("What 'tandem cle --view' shows (its --view-plot and --follow take precedence).",
            opt("plots", new Arr("Rolling 10 s plots of the world's signals: MODEL::JOINT (its position, rad or m),"
                    + " MODEL::JOINT/velocity, MODEL/x, MODEL/y or MODEL/z (m). Default: the robot's x and y.",
                    str("A signal."), 1), null),
            opt("follow", str("The model the camera follows (default: the robot)."), null));

    static final Obj WORLD = obj("The world: an SDF file and its visual colour overrides.",
            req("file", str("The SDF world file, relative to this experiment file.")),
            opt("visual_colors", map("Model name to colour: every visual of the model takes that colour.", COLOR),
                    null));

    /** The whole file. */
    static final Obj EXPERIMENT = obj("A Tandem closed-loop experiment (the NRP's experiment and BIBI files,"
                    + " NRP-core's simulation_config.json). String values may use ${name} for a declared parameter"
                    + " (a whole-string ${name} takes the parameter's type; $${ writes ${); the schema applies after"
                    + " substitution.",
            opt("$schema", str("The JSON Schema of this file, for editors; ignored."), null),
            req("name", str("The experiment's name.")),
            opt("description", str("What the experiment shows."), ""),
            opt("parameters", map("Parameters with their defaults, used as ${name} in string values and set with"
                    + " --set name=value.", PARAMETER_VALUE), null),
            req("world", WORLD),
            req("brain", BRAIN),
            opt("engines", ENGINES, null),
            req("timeout_s", positive("How long the experiment runs, in simulated seconds (NRP's"
                    + " SimulationTimeout).")),
            opt("transfer_functions", new Arr("The transfer functions.", TRANSFER_FUNCTION, 0), null),
            opt("robot", ROBOT, null),
            opt("outputs", OUTPUTS, null),
            opt("view", VIEW, null));

    // ---- the check

    /**
     * Checks {@code value} (named {@code name} at {@code line:column}) against {@code node}.
     *
     * @param out receives the violations. Modified.
     */
    static void check(JsonValue value, Node node, String name, int line, int column, List<Problem> out) {
        if (node instanceof OneOf o) {
            Node alt = pick(o, value);
            if (alt == null) {
                out.add(new Problem(line, column, name + " must be " + o.expected() + ", got " + JsonValue.describe(value)));
                return;
            }
            check(value, alt, name, line, column, out);
        } else if (node instanceof Obj o) {
            if (!(value instanceof JsonObject jo)) {
                out.add(typeProblem(name, o, value, line, column));
                return;
            }
            checkObject(jo, o, name, out);
        } else if (node instanceof Arr a) {
            if (!(value instanceof JsonArray ja)) {
                out.add(typeProblem(name, a, value, line, column));
                return;
            }
            if (ja.items().size() < a.minItems()) {
                out.add(new Problem(line, column, name + " needs at least " + a.minItems() + " item"
                        + (a.minItems() == 1 ? "" : "s") + ", got " + ja.items().size()));
            }
            for (int i = 0; i < ja.items().size(); i++) {
                JsonValue item = ja.items().get(i);
                check(item, a.items(), quoteless(name) + "[" + i + "]", item.line(), item.column(), out);
            }
        } else if (node instanceof Str s) {
            if (!(value instanceof JsonString js)) {
                out.add(typeProblem(name, s, value, line, column));
                return;
            }
            if (!s.choices().isEmpty() && !s.choices().contains(js.value())) {
                String close = closest(js.value(), s.choices());
                out.add(new Problem(line, column, name + " must be " + s.expected() + ", got " + JsonValue.describe(js)
                        + (close == null ? "" : " (did you mean \"" + close + "\"?)")));
            }
        } else if (node instanceof Num n) {
            if (!(value instanceof JsonNumber jn)) {
                out.add(typeProblem(name, n, value, line, column));
                return;
            }
            boolean bad = n.integer() && !jn.isIntegral();
            if (!Double.isNaN(n.min())) {
                bad |= n.exclusiveMin() ? !(jn.value() > n.min()) : !(jn.value() >= n.min());
            }
            if (bad) {
                out.add(typeProblem(name, n, value, line, column));
            }
        } else if (node instanceof Bool b) {
            if (!(value instanceof JsonBoolean)) {
                out.add(typeProblem(name, b, value, line, column));
            }
        } else if (node instanceof Any) {
            if (value instanceof JsonValue.JsonNull) {
                out.add(new Problem(line, column, name + " must not be null: give a value or leave the key out"));
            }
        }
    }

    private static String quoteless(String name) {
        return name.startsWith("\"") && name.endsWith("\"") ? name.substring(1, name.length() - 1) : name;
    }

    private static Problem typeProblem(String name, Node n, JsonValue v, int line, int column) {
        String hint = "";
        if (v instanceof JsonString s && (n instanceof Num || n instanceof Bool)) {
            hint = n instanceof Num ? " (write the number without quotes)" : " (write true or false without quotes)";
            if (s.value().contains("${")) {
                hint = " (a ${parameter} in a larger string stays a string: write \"${name}\" alone)";
            }
        }
        return new Problem(line, column, name + " must be " + n.expected() + ", got " + JsonValue.describe(v) + hint);
    }

    private static Node pick(OneOf o, JsonValue v) {
        Node fallback = null;
        for (Node alt : o.alternatives()) {
            boolean typeMatches = alt instanceof Obj ? v instanceof JsonObject
                    : alt instanceof Arr ? v instanceof JsonArray
                    : alt instanceof Str ? v instanceof JsonString
                    : alt instanceof Num ? v instanceof JsonNumber
                    : alt instanceof Bool ? v instanceof JsonBoolean
                    : !(v instanceof JsonValue.JsonNull);
            if (!typeMatches) {
                continue;
            }
            if (alt instanceof Obj obj && obj.tag() != null) {
                if (((JsonObject) v).member(obj.tag()) != null) {
                    return alt;
                }
                continue;
            }
            if (fallback == null) {
                fallback = alt;
            }
        }
        return fallback;
    }

    private static void checkObject(JsonObject jo, Obj o, String name, List<Problem> out) {
        List<String> known = new ArrayList<>();
        for (Field f : o.fields()) {
            known.add(f.name());
        }
        for (JsonValue.Member m : jo.members().values()) {
            Field f = o.field(m.key());
            String memberName = "\"" + m.key() + "\"";
            if (f != null) {
                check(m.value(), f.type(), memberName, m.line(), m.column(), out);
            } else if (o.extra() != null) {
                check(m.value(), o.extra(), memberName, m.line(), m.column(), out);
            } else {
                String close = closest(m.key(), known);
                out.add(new Problem(m.line(), m.column(), "unknown key " + memberName + " in " + name
                        + (close == null ? "" : "; did you mean \"" + close + "\"?")
                        + (known.isEmpty() ? "" : " (valid keys: " + String.join(", ", known) + ")")));
            }
        }
        for (Field f : o.fields()) {
            if (f.required() && jo.member(f.name()) == null) {
                out.add(new Problem(jo.line(), jo.column(), name + " is missing the required key \"" + f.name()
                        + "\": " + lowerFirst(descriptionOf(f.type()))));
            }
        }
    }

    private static String descriptionOf(Node n) {
        return n.description();
    }

    private static String lowerFirst(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }

    /** The candidate within edit distance 3 (case-insensitive; prefixes count as 1) of {@code s}, or null. */
    static String closest(String s, List<String> candidates) {
        // one- and two-letter names get no suggestion: every short name is "close"
        int below = s.length() <= 2 ? 1 : Math.min(4, Math.max(2, s.length() / 2 + 1));
        return Suggestions.closest(s, candidates, below, (a, b) -> {
            // a longer or shorter spelling counts as close, the nearer in length the closer
            boolean prefix = !a.isEmpty() && !b.isEmpty() && (a.startsWith(b) || b.startsWith(a));
            return a.equals(b) ? 0
                    : prefix ? (Math.abs(a.length() - b.length()) <= 1 ? 1 : 2) : Suggestions.editDistance(a, b);
        });
    }

    static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    // ---- JSON Schema rendering

    /** The schema's {@code $id}. */
    static final String SCHEMA_ID = "https://tandem.io/schemas/experiment.schema.json";

    /** @return the schema as JSON Schema draft 2020-12, as plain maps and lists (see JsonWriter) */
    static Map<String, Object> toJsonSchema() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("$id", SCHEMA_ID);
        root.put("title", "Tandem experiment file");
        root.putAll(render(EXPERIMENT));
        return root;
    }

    private static Map<String, Object> render(Node n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("description", n.description());
        if (n instanceof Obj o) {
            m.put("type", "object");
            Map<String, Object> props = new LinkedHashMap<>();
            List<Object> required = new ArrayList<>();
            for (Field f : o.fields()) {
                Map<String, Object> p = render(f.type());
                if (f.defaultValue() != null) {
                    p.put("default", f.defaultValue());
                }
                props.put(f.name(), p);
                if (f.required()) {
                    required.add(f.name());
                }
            }
            if (!props.isEmpty()) {
                m.put("properties", props);
            }
            if (!required.isEmpty()) {
                m.put("required", required);
            }
            m.put("additionalProperties", o.extra() == null ? Boolean.FALSE : render(o.extra()));
        } else if (n instanceof Arr a) {
            m.put("type", "array");
            m.put("items", render(a.items()));
            if (a.minItems() > 0) {
                m.put("minItems", a.minItems());
            }
            if (a == COLOR_ARRAY_MARKER) {
                m.put("maxItems", 3);
            }
        } else if (n instanceof Str s) {
            m.put("type", "string");
            if (!s.choices().isEmpty()) {
                m.put("enum", new ArrayList<Object>(s.choices()));
            }
        } else if (n instanceof Num num) {
            m.put("type", num.integer() ? "integer" : "number");
            if (!Double.isNaN(num.min())) {
                m.put(num.exclusiveMin() ? "exclusiveMinimum" : "minimum", num.min());
            }
        } else if (n instanceof Bool) {
            m.put("type", "boolean");
        } else if (n instanceof OneOf o) {
            List<Object> alts = new ArrayList<>();
            for (Node alt : o.alternatives()) {
                alts.add(render(alt));
            }
            m.put("oneOf", alts);
        } else if (n instanceof Any) {
            m.put("not", Map.of("type", "null"));
        }
        return m;
    }

    private static final Arr COLOR_ARRAY_MARKER = (Arr) ((OneOf) COLOR).alternatives().get(1);

    /** @return every key the schema names, as dotted paths ("engines.physics.timestep_ms") */
    static List<String> keyPaths() {
        List<String> out = new ArrayList<>();
        collect(EXPERIMENT, "", out);
        return out;
    }

    private static void collect(Node n, String prefix, List<String> out) {
        if (n instanceof Obj o) {
            for (Field f : o.fields()) {
                String p = prefix.isEmpty() ? f.name() : prefix + "." + f.name();
                out.add(p);
                collect(f.type(), p, out);
            }
            if (o.extra() != null) {
                collect(o.extra(), prefix + ".*", out);
            }
        } else if (n instanceof Arr a) {
            collect(a.items(), prefix + "[]", out);
        } else if (n instanceof OneOf o) {
            for (Node alt : o.alternatives()) {
                collect(alt, prefix, out);
            }
        }
    }
}
