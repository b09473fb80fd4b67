package io.tandem.cle.experiment;

import io.tandem.cle.SyncMode;
import io.tandem.cle.experiment.ExperimentFileSchema.Problem;
import io.tandem.cle.internal.json.JsonException;
import io.tandem.cle.internal.json.JsonParser;
import io.tandem.cle.internal.json.JsonValue;
import io.tandem.cle.internal.json.JsonValue.JsonArray;
import io.tandem.cle.internal.json.JsonValue.JsonBoolean;
import io.tandem.cle.internal.json.JsonValue.JsonNumber;
import io.tandem.cle.internal.json.JsonValue.JsonObject;
import io.tandem.cle.internal.json.JsonValue.JsonString;
import io.tandem.cle.internal.json.JsonValue.Member;
import io.tandem.cle.internal.json.YamlReader;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import io.tandem.world.sdf.SdfLoader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * Reading runs in stages, each on the output of the one before, and stops after a stage that
 * found problems (so one mistake does not cascade into many messages):
 *   1. JSON (JsonParser) or, for a .yaml/.yml file, YAML (YamlReader, snakeyaml-engine building the
 *      same tree): the first syntax error, with its position;
 *   2. parameters: the "parameters" object's shape, then the --set overrides (unknown names,
 *      values of the wrong type);
 *   3. substitution of ${name} in every string value outside "parameters"; a string that is
 *      exactly "${name}" becomes the parameter's value with its type, so "${seed}" can stand for
 *      a number; substituted values carry a note that messages show ("from ${screen_color}, set by
 *      --set screen_color=purple");
 *   4. the schema (ExperimentFileSchema): every violation;
 *   5. meaning: paths, colours, the world's model names and step, timestep multiples, selectors
 *      and the brain's models and parameters (BrainSpecReader): every problem;
 *   6. the brain on a scratch network builder (BrainSpec.Nest.validate): the first problem.
 */

/** Reads one experiment file into an {@link ExperimentFile}. Single use, not thread-safe. */
final class ExperimentFileReader {
    private static final Logger LOG = LoggerFactory.getLogger(ExperimentFileReader.class);

    /** Colour names and their RGB. */
    static final Map<String, double[]> COLORS = colors();

    private final Path file;
    private final ExperimentOverrides overrides;
    private final List<Problem> problems = new ArrayList<>();
    /** name to value, defaults overridden */
    private final Map<String, Param> params = new LinkedHashMap<>();

    /** A parameter's effective value, the text substituted into larger strings, and the note for messages. */
    private record Param(JsonValue value, String text, String note) {
    }

    ExperimentFileReader(Path file, ExperimentOverrides overrides) {
        this.file = file;
        this.overrides = overrides;
    }

    static String readText(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (NoSuchFileException e) {
            throw new ExperimentFileException(new ExperimentFileLocation(file, 0, 0),
                    "no such file; give the path of an experiment .json or .yaml file", e);
        } catch (CharacterCodingException e) {
            throw new ExperimentFileException(new ExperimentFileLocation(file, 0, 0),
                    "not UTF-8 text: save the file as UTF-8", e);
        } catch (IOException e) {
            throw new ExperimentFileException(new ExperimentFileLocation(file, 0, 0), "cannot read it: " + e, e);
        }
    }

    ExperimentFileLocation loc(int line, int column) {
        return new ExperimentFileLocation(file, line, column);
    }

    ExperimentFileLocation loc(Member m) {
        return loc(m.line(), m.column());
    }

    int problemCount() {
        return problems.size();
    }

    void problem(int line, int column, String message) {
        problems.add(new Problem(line, column, message));
    }

    void problem(Member m, String message) {
        problem(m.line(), m.column(), message);
    }

    private void failIfProblems() {
        if (problems.isEmpty()) {
            return;
        }
        List<Problem> sorted = new ArrayList<>(problems);
        sorted.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
        List<String> lines = new ArrayList<>();
        for (Problem p : sorted) {
            String s = loc(p.line(), p.column()) + ": " + p.message();
            if (!lines.contains(s)) {
                lines.add(s);
            }
        }
        Problem first = sorted.get(0);
        throw new ExperimentFileException(loc(first.line(), first.column()), lines, null);
    }

    /** @return whether {@code file} is read as YAML: its name ends in .yaml or .yml (any case) */
    static boolean isYaml(Path file) {
        Path name = file.getFileName();
        String n = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".yaml") || n.endsWith(".yml");
    }

    ExperimentFile read(String text) {
        boolean yaml = isYaml(file);
        JsonValue root;
        try {
            root = yaml ? YamlReader.parse(text) : JsonParser.parse(text);
        } catch (JsonException e) {
            throw new ExperimentFileException(loc(e.line(), e.column()), e.problem(), e);
        }
        if (!(root instanceof JsonObject top)) {
            throw new ExperimentFileException(loc(root.line(), root.column()), (yaml
                    ? "an experiment file is one mapping (name: ..., world: ..., brain: ..., timeout_s: ...); got "
                    : "an experiment file is one JSON object, {\"name\": ..., \"world\": ..., \"brain\": ...,"
                            + " \"timeout_s\": ...}; got ") + root.typeName());
        }
        readParameters(top);
        failIfProblems();
        JsonObject doc = (JsonObject) substitute(top, true);
        failIfProblems();
        ExperimentFileSchema.check(doc, ExperimentFileSchema.EXPERIMENT, "the experiment", doc.line(), doc.column(),
                problems);
        failIfProblems();
        ExperimentFile result = convert(doc);
        failIfProblems();
        if (result.brain() instanceof BrainSpec.Nest nest) {
            nest.validate();
        }
        LOG.debug("{}: experiment '{}', {} transfer functions, loop step {} ns, timeout {} ns", file, result.name(),
                result.transferFunctions().size(), result.engines().loopStepNs(), result.timeoutNs());
        return result;
    }

    // ---- parameters and substitution

    private void readParameters(JsonObject top) {
        Member pm = top.member("parameters");
        if (pm != null) {
            ExperimentFileSchema.Field f = ExperimentFileSchema.EXPERIMENT.field("parameters");
            ExperimentFileSchema.check(pm.value(), f.type(), "\"parameters\"", pm.line(), pm.column(), problems);
            if (!problems.isEmpty()) {
                return;
            }
            for (Member m : ((JsonObject) pm.value()).members().values()) {
                if (!isName(m.key())) {
                    problem(m, "parameter name \"" + m.key() + "\" must be letters, digits and '_' (not starting with a"
                            + " digit), so that ${" + m.key() + "} is unambiguous");
                }
                params.put(m.key(), new Param(m.value(), textOf(m.value()), "from ${" + m.key() + "}"));
            }
        }
        for (Map.Entry<String, String> o : overrides.values().entrySet()) {
            String name = o.getKey();
            String setText = "--set " + name + "=" + o.getValue();
            Param declared = params.get(name);
            ExperimentFileLocation at = pm == null ? loc(0, 0) : loc(pm);
            if (declared == null) {
                String close = ExperimentFileSchema.closest(name, new ArrayList<>(params.keySet()));
                problem(at.line(), at.column(), setText + ": unknown parameter \"" + name + "\"; "
                        + (params.isEmpty() ? "the experiment declares no parameters (add it to \"parameters\")"
                                : "declared: " + String.join(", ", params.keySet()))
                        + (close == null ? "" : " (did you mean \"" + close + "\"?)"));
                continue;
            }
            String note = "from ${" + name + "}, set by " + setText;
            JsonValue d = declared.value();
            String v = o.getValue();
            if (d instanceof JsonNumber) {
                double x;
                try {
                    x = Double.parseDouble(v.trim());
                } catch (NumberFormatException e) {
                    x = Double.NaN;
                }
                if (!Double.isFinite(x) || v.trim().isEmpty() || Character.isLetter(v.trim().charAt(v.trim().length() - 1))) {
                    problem(at.line(), at.column(), setText + ": \"" + name + "\" is a number (default "
                            + declared.text() + "): give a number, e.g. --set " + name + "=" + declared.text());
                    continue;
                }
                params.put(name, new Param(new JsonNumber(v.trim(), x, d.line(), d.column(), note), v.trim(), note));
            } else if (d instanceof JsonBoolean) {
                String t = v.trim().toLowerCase(Locale.ROOT);
                if (!t.equals("true") && !t.equals("false")) {
                    problem(at.line(), at.column(), setText + ": \"" + name + "\" is true or false (default "
                            + declared.text() + ")");
                    continue;
                }
                params.put(name, new Param(new JsonBoolean(t.equals("true"), d.line(), d.column(), note), t, note));
            } else {
                params.put(name, new Param(new JsonString(v, d.line(), d.column(), note), v, note));
            }
        }
    }

    private static String textOf(JsonValue v) {
        if (v instanceof JsonString s) {
            return s.value();
        }
        if (v instanceof JsonNumber n) {
            return n.text();
        }
        return Boolean.toString(((JsonBoolean) v).value());
    }

    static boolean isName(String s) {
        if (s.isEmpty() || !(Character.isLetter(s.charAt(0)) || s.charAt(0) == '_')) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_')) {
                return false;
            }
        }
        return true;
    }

    private JsonValue substitute(JsonValue v, boolean top) {
        if (v instanceof JsonObject o) {
            Map<String, Member> out = new LinkedHashMap<>();
            for (Member m : o.members().values()) {
                JsonValue nv = top && m.key().equals("parameters") ? m.value() : substitute(m.value(), false);
                out.put(m.key(), new Member(m.key(), m.line(), m.column(), nv));
            }
            return new JsonObject(out, o.line(), o.column());
        }
        if (v instanceof JsonArray a) {
            List<JsonValue> out = new ArrayList<>();
            for (JsonValue item : a.items()) {
                out.add(substitute(item, false));
            }
            return new JsonArray(out, a.line(), a.column());
        }
        if (v instanceof JsonString s && s.value().indexOf('$') >= 0) {
            return substituteString(s);
        }
        return v;
    }

    private JsonValue substituteString(JsonString s) {
        String t = s.value();
        StringBuilder sb = new StringBuilder();
        List<String> notes = new ArrayList<>();
        int i = 0;
        while (i < t.length()) {
            if (t.startsWith("$${", i)) {
                sb.append("${");
                i += 3;
            } else if (t.startsWith("${", i)) {
                int end = t.indexOf('}', i + 2);
                if (end < 0) {
                    problem(s.line(), s.column(), "unterminated ${ in " + JsonValue.describe(s) + ": close it with '}'"
                            + " (write $${ for a literal ${)");
                    return s;
                }
                String name = t.substring(i + 2, end).trim();
                Param p = params.get(name);
                if (p == null) {
                    String close = ExperimentFileSchema.closest(name, new ArrayList<>(params.keySet()));
                    problem(s.line(), s.column() + 1 + i, "unknown parameter ${" + name + "}; "
                            + (params.isEmpty() ? "declare it in \"parameters\" with a default"
                                    : "declared: " + String.join(", ", params.keySet()))
                            + (close == null ? "" : " (did you mean ${" + close + "}?)"));
                    return s;
                }
                if (i == 0 && end == t.length() - 1) {
                    return withPosition(p, s.line(), s.column());
                }
                sb.append(p.text());
                notes.add(p.note());
                i = end + 1;
            } else {
                sb.append(t.charAt(i));
                i++;
            }
        }
        return new JsonString(sb.toString(), s.line(), s.column(), notes.isEmpty() ? s.note() : String.join("; ", notes));
    }

    private static JsonValue withPosition(Param p, int line, int column) {
        JsonValue v = p.value();
        if (v instanceof JsonNumber n) {
            return new JsonNumber(n.text(), n.value(), line, column, p.note());
        }
        if (v instanceof JsonBoolean b) {
            return new JsonBoolean(b.value(), line, column, p.note());
        }
        return new JsonString(((JsonString) v).value(), line, column, p.note());
    }

    // ---- meaning

    private ExperimentFile convert(JsonObject doc) {
        String name = ((JsonString) doc.get("name")).value();
        String description = doc.get("description") == null ? "" : ((JsonString) doc.get("description")).value();
        Map<String, Object> paramValues = new LinkedHashMap<>();
        for (Map.Entry<String, Param> e : params.entrySet()) {
            paramValues.put(e.getKey(), toJava(e.getValue().value(), null));
        }
        ExperimentFile.WorldSpec world = world(doc.member("world"));
        BrainSpec brain = new BrainSpecReader(this).read(doc.member("brain"));
        ExperimentFile.Engines engines = engines(doc.member("engines"), world, brain);
        Member timeout = doc.member("timeout_s");
        long timeoutNs = Math.round(((JsonNumber) timeout.value()).value() * 1e9);
        if (timeoutNs <= 0) {
            problem(timeout, "\"timeout_s\" must be at least 1 ns");
        }
        List<ExperimentFile.TransferFunctionEntry> tfs = transferFunctions(doc.get("transfer_functions"));
        Optional<ExperimentFile.Robot> robot = robot(doc.member("robot"), world);
        ExperimentFile.Outputs outputs = outputs(doc.get("outputs"));
        ExperimentFile.View view = view(doc.get("view"));
        if (!problems.isEmpty()) {
            return null;
        }
        return new ExperimentFile(file, name, description, paramValues, world, brain, engines, timeoutNs, tfs, robot,
                outputs, view);
    }

    /** @return whether the world file is too large for this JVM's heap (a problem then names the -Xmx) */
    private boolean tooBig(Member fm, Path world) {
        String why;
        try {
            why = SdfLoader.heapShortfall(world, Files.size(world), Runtime.getRuntime().maxMemory());
        } catch (java.io.IOException e) {
            return false; // loading says why it cannot read it
        }
        if (why != null) {
            problem(fm, why);
        }
        return why != null;
    }

    private ExperimentFile.WorldSpec world(Member wm) {
        JsonObject w = (JsonObject) wm.value();
        Member fm = w.member("file");
        String given = ((JsonString) fm.value()).value();
        Path abs;
        try {
            abs = resolve(given);
        } catch (InvalidPathException e) {
            problem(fm, "\"file\" " + JsonValue.describe(fm.value()) + " is not a valid path: " + e.getReason());
            return null;
        }
        World sdf = null;
        if (!Files.isRegularFile(abs)) {
            problem(fm, "world file " + JsonValue.describe(fm.value()) + " not found: " + abs + " does not exist"
                    + " (a relative path is resolved against the experiment file's folder)");
        } else if (tooBig(fm, abs)) {
            return null;
        } else {
            try {
                // a URDF robot is a world of its own, as 'tandem sim ROBOT.urdf' runs it
                sdf = io.tandem.world.urdf.UrdfLoader.isUrdf(abs)
                        ? io.tandem.world.urdf.UrdfLoader.load(abs, warning -> LOG.debug("{}", warning))
                        : SdfLoader.load(abs, warning -> LOG.debug("{}", warning));
            } catch (WorldFormatException e) {
                problem(fm, "the world file does not load: " + e.getMessage());
            }
        }
        List<ExperimentFile.VisualColor> colors = new ArrayList<>();
        Member cm = w.member("visual_colors");
        if (cm != null) {
            for (Member m : ((JsonObject) cm.value()).members().values()) {
                if (sdf != null) {
                    checkModel(sdf, m, m.key(), "\"visual_colors\"");
                }
                double[] rgb = color(m);
                if (rgb != null) {
                    colors.add(new ExperimentFile.VisualColor(m.key(), rgb[0], rgb[1], rgb[2], loc(m)));
                }
            }
        }
        return sdf == null ? null : new ExperimentFile.WorldSpec(abs, sdf, colors);
    }

    /** @return the path resolved against the experiment file's folder, absolute and normalized */
    Path resolve(String given) {
        Path p = Path.of(given);
        Path dir = file.toAbsolutePath().getParent();
        return (p.isAbsolute() || dir == null ? p : dir.resolve(p)).toAbsolutePath().normalize();
    }

    private boolean checkModel(World sdf, Member m, String model, String where) {
        if (sdf.model(model).isPresent()) {
            return true;
        }
        List<String> names = new ArrayList<>();
        for (World.Model x : sdf.models()) {
            names.add(x.name());
        }
        String close = ExperimentFileSchema.closest(model, names);
        problem(m, where + ": the world " + fileName(sdf) + " has no model \"" + model + "\""
                + (close == null ? "" : "; did you mean \"" + close + "\"?") + " (models: " + String.join(", ", names) + ")");
        return false;
    }

    private static String fileName(World sdf) {
        Path p = Path.of(sdf.source()).getFileName();
        return p == null ? sdf.source() : p.toString();
    }

    /** @return the colour of member {@code m}, or null after reporting a problem */
    private double[] color(Member m) {
        JsonValue v = m.value();
        String hint = ": use a name (" + String.join(", ", COLORS.keySet()) + ") or \"r g b\" with each in 0..1, like"
                + " \"1 0.5 0\"";
        if (v instanceof JsonArray a) {
            if (a.items().size() != 3) {
                problem(m, "colour " + JsonValue.describe(a) + " needs exactly 3 components [r, g, b]");
                return null;
            }
            double[] rgb = new double[3];
            for (int i = 0; i < 3; i++) {
                rgb[i] = ((JsonNumber) a.items().get(i)).value();
            }
            return inUnitRange(m, v, rgb, hint) ? rgb : null;
        }
        String t = ((JsonString) v).value().trim().toLowerCase(Locale.ROOT);
        double[] named = COLORS.get(t);
        if (named != null) {
            return named.clone();
        }
        String[] parts = t.isEmpty() ? new String[0] : t.split("[\\s,]+");
        if (parts.length == 3) {
            double[] rgb = new double[3];
            try {
                for (int i = 0; i < 3; i++) {
                    rgb[i] = Double.parseDouble(parts[i]);
                }
            } catch (NumberFormatException e) {
                problem(m, "colour " + JsonValue.describe(v) + " is not a colour" + hint);
                return null;
            }
            return inUnitRange(m, v, rgb, hint) ? rgb : null;
        }
        String close = ExperimentFileSchema.closest(t, new ArrayList<>(COLORS.keySet()));
        problem(m, "colour " + JsonValue.describe(v) + " is not a colour" + (close == null ? "" : " (did you mean \""
                + close + "\"?)") + hint);
        return null;
    }

    private boolean inUnitRange(Member m, JsonValue v, double[] rgb, String hint) {
        for (double c : rgb) {
            if (!(c >= 0 && c <= 1)) {
                boolean bytes = rgb[0] <= 255 && rgb[1] <= 255 && rgb[2] <= 255 && c > 1;
                problem(m, "colour " + JsonValue.describe(v) + ": components must be in 0..1"
                        + (bytes ? " (divide 0..255 values by 255)" : hint));
                return false;
            }
        }
        return true;
    }

    private static Map<String, double[]> colors() {
        Map<String, double[]> m = new LinkedHashMap<>();
        m.put("red", new double[] {1, 0, 0});
        m.put("green", new double[] {0, 1, 0});
        m.put("blue", new double[] {0, 0, 1});
        m.put("white", new double[] {1, 1, 1});
        m.put("black", new double[] {0, 0, 0});
        m.put("gray", new double[] {0.5, 0.5, 0.5});
        m.put("grey", new double[] {0.5, 0.5, 0.5});
        m.put("yellow", new double[] {1, 1, 0});
        m.put("cyan", new double[] {0, 1, 1});
        m.put("magenta", new double[] {1, 0, 1});
        m.put("orange", new double[] {1, 0.5, 0});
        return Collections.unmodifiableMap(m);
    }

    /** @return ms as whole ns, or -1 after reporting a problem */
    long nanos(Member m, String key) {
        double ms = ((JsonNumber) m.value()).value();
        double ns = ms * 1e6;
        long rounded = Math.round(ns);
        if (rounded < 1 || Math.abs(ns - rounded) > 1e-6 * Math.max(1.0, ns)) {
            problem(m, "\"" + key + "\" must be a whole number of nanoseconds > 0, got " + JsonValue.describe(m.value())
                    + " ms");
            return -1;
        }
        return rounded;
    }

    private ExperimentFile.Engines engines(Member em, ExperimentFile.WorldSpec world, BrainSpec brain) {
        JsonObject e = em == null ? new JsonObject(Map.of(), 0, 0) : (JsonObject) em.value();
        Member loopM = e.member("loop_step_ms");
        long loop = loopM == null ? ExperimentFile.Engines.DEFAULT_LOOP_STEP_NS : nanos(loopM, "loop_step_ms");
        SyncMode mode = e.get("mode") == null ? SyncMode.PARALLEL : SyncMode.parse(((JsonString) e.get("mode")).value());
        Member physM = e.get("physics") == null ? null : ((JsonObject) e.get("physics")).member("timestep_ms");
        Member brainM = e.get("brain") == null ? null : ((JsonObject) e.get("brain")).member("timestep_ms");
        long phys = physM != null ? nanos(physM, "timestep_ms") : world != null ? world.sdf().stepSizeNs() : -1;
        long brainStep = brainM != null ? nanos(brainM, "timestep_ms") : loop;
        if (loop <= 0 || phys <= 0 || brainStep <= 0) {
            return null;
        }
        int before = problems.size();
        if (physM != null && world != null && phys != world.sdf().stepSizeNs()) {
            problem(physM.line(), physM.column(), "the physics engine steps at the world's max_step_size, "
                    + ms(world.sdf().stepSizeNs()) + " in " + fileName(world.sdf()) + ", not " + ms(phys)
                    + ": set timestep_ms to " + ExperimentFileSchema.fmt(world.sdf().stepSizeNs() / 1e6)
                    + " or leave it out");
        }
        int line = loopM != null ? loopM.line() : em != null ? em.line() : 0;
        int col = loopM != null ? loopM.column() : em != null ? em.column() : 0;
        if (loop % phys != 0) {
            String what = physM != null ? "the physics timestep_ms " + ms(phys)
                    : "the world's physics step " + ms(phys) + " (max_step_size in " + fileName(world.sdf()) + ")";
            problem(physM != null ? physM.line() : line, physM != null ? physM.column() : col, "the loop step "
                    + ms(loop) + " is not a whole multiple of " + what + " (the NRP's \"dt is not multiple of the physics"
                    + " time step\"): make loop_step_ms " + multiples(loop, phys));
        }
        if (loop % brainStep != 0) {
            problem(brainM.line(), brainM.column(), "the loop step " + ms(loop) + " is not a whole multiple of the brain"
                    + " timestep_ms " + ms(brainStep) + ": make loop_step_ms " + multiples(loop, brainStep));
        }
        if (brain != null && brainStep % brain.resolutionNs() != 0) {
            int l = brainM != null ? brainM.line() : line;
            int c = brainM != null ? brainM.column() : col;
            problem(l, c, "the brain's timestep " + ms(brainStep) + " is not a whole multiple of its resolution "
                    + ms(brain.resolutionNs()) + ": use " + multiples(brainStep, brain.resolutionNs()));
        }
        long physSync = syncStep(e.get("physics"), loop, "physics");
        long brainSync = syncStep(e.get("brain"), loop, "brain");
        return problems.size() != before || physSync <= 0 || brainSync <= 0 ? null
                : new ExperimentFile.Engines(phys, brainStep, loop, mode, physSync, brainSync);
    }

    /** @return an engine's sync step (default the loop step), or -1 after reporting a problem */
    private long syncStep(JsonValue engine, long loop, String which) {
        Member m = engine == null ? null : ((JsonObject) engine).member("sync_step_ms");
        if (m == null) {
            return loop;
        }
        long ns = nanos(m, "sync_step_ms");
        if (ns <= 0) {
            return -1;
        }
        if (ns % loop != 0) {
            problem(m.line(), m.column(), "the " + which + " sync_step_ms " + ms(ns) + " is not a whole multiple of the loop"
                    + " step " + ms(loop) + ": use " + multiples(ns, loop));
            return -1;
        }
        return ns;
    }

    static String ms(long ns) {
        return ExperimentFileSchema.fmt(ns / 1e6) + " ms";
    }

    private static String multiples(long value, long step) {
        long lo = value / step * step;
        long hi = lo + step;
        return lo > 0 ? ms(lo) + " or " + ms(hi) : ms(hi);
    }

    private List<ExperimentFile.TransferFunctionEntry> transferFunctions(JsonValue v) {
        List<ExperimentFile.TransferFunctionEntry> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        Map<String, ExperimentFileLocation> names = new LinkedHashMap<>();
        for (JsonValue item : ((JsonArray) v).items()) {
            JsonObject tf = (JsonObject) item;
            Member cm = tf.member("class");
            String cls = ((JsonString) cm.value()).value();
            if (!isClassName(cls) || cls.endsWith(".py")) {
                String hint = cls.endsWith(".py") ? " (NRP's Python files do not run here: name the Java class, e.g."
                        + " io.tandem.cle.tf.EyeSensorTransmit)" : " (like io.tandem.cle.tf.EyeSensorTransmit)";
                problem(cm, "\"class\" " + JsonValue.describe(cm.value()) + " is not a Java class name" + hint);
            }
            Member nm = tf.member("name");
            String name = nm == null ? cls.substring(cls.lastIndexOf('.') + 1) : ((JsonString) nm.value()).value();
            Member at = nm == null ? cm : nm;
            ExperimentFileLocation first = names.putIfAbsent(name, loc(at));
            if (first != null) {
                problem(at, "transfer function name \"" + name + "\" is used twice (first at " + first.line() + ":"
                        + first.column() + "): give each a distinct \"name\"");
            }
            Member pm = tf.member("priority");
            int priority = 0;
            if (pm != null) {
                double p = ((JsonNumber) pm.value()).value();
                if (Math.abs(p) > Integer.MAX_VALUE) {
                    problem(pm, "\"priority\" must fit an int, got " + JsonValue.describe(pm.value()));
                } else {
                    priority = (int) p;
                }
            }
            boolean active = tf.get("active") == null || ((JsonBoolean) tf.get("active")).value();
            Map<String, Object> tfParams = new LinkedHashMap<>();
            Member params = tf.member("params");
            if (params != null) {
                for (Member m : ((JsonObject) params.value()).members().values()) {
                    Object value = toJava(m.value(), m);
                    if (value != null) {
                        tfParams.put(m.key(), value);
                    }
                }
            }
            out.add(new ExperimentFile.TransferFunctionEntry(cls, name, priority, active, tfParams,
                    loc(tf.line(), tf.column())));
        }
        return out;
    }

    static boolean isClassName(String s) {
        String[] parts = s.split("\\.", -1);
        for (String p : parts) {
            if (p.isEmpty() || !Character.isJavaIdentifierStart(p.charAt(0))) {
                return false;
            }
            for (int i = 1; i < p.length(); i++) {
                if (!Character.isJavaIdentifierPart(p.charAt(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** @return String, Double, Boolean, or an unmodifiable List/Map of those; null after reporting a null */
    private Object toJava(JsonValue v, Member owner) {
        if (v instanceof JsonString s) {
            return s.value();
        }
        if (v instanceof JsonNumber n) {
            return n.value();
        }
        if (v instanceof JsonBoolean b) {
            return b.value();
        }
        if (v instanceof JsonArray a) {
            List<Object> out = new ArrayList<>();
            for (JsonValue item : a.items()) {
                Object o = toJava(item, owner);
                if (o == null) {
                    return null;
                }
                out.add(o);
            }
            return Collections.unmodifiableList(out);
        }
        if (v instanceof JsonObject o) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Member m : o.members().values()) {
                Object x = toJava(m.value(), m);
                if (x == null) {
                    return null;
                }
                out.put(m.key(), x);
            }
            return Collections.unmodifiableMap(out);
        }
        problem(v.line(), v.column(), "null is not a parameter value"
                + (owner == null ? "" : " (in \"" + owner.key() + "\")") + ": leave the key out or give a value");
        return null;
    }

    private Optional<ExperimentFile.Robot> robot(Member rm, ExperimentFile.WorldSpec world) {
        if (rm == null) {
            return Optional.empty();
        }
        JsonObject r = (JsonObject) rm.value();
        Member mm = r.member("model");
        String model = ((JsonString) mm.value()).value();
        Member tm = r.member("target");
        String target = tm == null ? null : ((JsonString) tm.value()).value();
        if (world != null) {
            checkModel(world.sdf(), mm, model, "\"robot\"");
            if (tm != null) {
                checkModel(world.sdf(), tm, target, "\"robot\" target");
            }
        }
        if (model.equals(target)) {
            problem(tm, "the target \"" + target + "\" is the robot itself: name another model (e.g. red_screen)");
        }
        Optional<ExperimentFile.Drive> drive = Optional.empty();
        if (r.get("drive") != null) {
            JsonObject d = (JsonObject) r.get("drive");
            drive = Optional.of(new ExperimentFile.Drive(joints(d.get("left_wheels")), joints(d.get("right_wheels")),
                    d.get("half_track_m") == null ? 0.275 : ((JsonNumber) d.get("half_track_m")).value(),
                    d.get("wheel_gain") == null ? 7.0 : ((JsonNumber) d.get("wheel_gain")).value()));
        }
        return Optional.of(new ExperimentFile.Robot(model, Optional.ofNullable(target), drive));
    }

    private static List<String> joints(JsonValue v) {
        List<String> out = new ArrayList<>();
        for (JsonValue item : ((JsonArray) v).items()) {
            out.add(((JsonString) item).value());
        }
        return out;
    }

    private ExperimentFile.Outputs outputs(JsonValue v) {
        if (v == null) {
            return ExperimentFile.Outputs.DEFAULT;
        }
        JsonObject o = (JsonObject) v;
        String spikes = outputName(o.member("spikes"), ExperimentFile.Outputs.DEFAULT.spikes());
        String trajectory = outputName(o.member("trajectory"), ExperimentFile.Outputs.DEFAULT.trajectory());
        String multimeter = outputName(o.member("multimeter"), ExperimentFile.Outputs.DEFAULT.multimeter());
        String[] keys = {"spikes", "trajectory", "multimeter"};
        String[] names = {spikes, trajectory, multimeter};
        for (int i = 0; i < names.length; i++) {
            for (int j = i + 1; j < names.length; j++) {
                if (names[i] != null && names[i].equals(names[j])) {
                    problem(o.line(), o.column(), "\"" + keys[i] + "\" and \"" + keys[j] + "\" are the same file \""
                            + names[i] + "\": give them different names");
                }
            }
        }
        return spikes == null || trajectory == null || multimeter == null ? null
                : new ExperimentFile.Outputs(spikes, trajectory, multimeter);
    }

    /** The view section (checked by the schema; the names are checked against the world when the viewer starts). */
    private static ExperimentFile.View view(JsonValue v) {
        if (!(v instanceof JsonObject o)) {
            return ExperimentFile.View.DEFAULT;
        }
        List<String> plots = new ArrayList<>();
        Member p = o.member("plots");
        if (p != null && p.value() instanceof JsonArray a) {
            for (JsonValue e : a.items()) {
                plots.add(((JsonString) e).value());
            }
        }
        Member f = o.member("follow");
        return new ExperimentFile.View(plots, f == null ? Optional.empty() : Optional.of(((JsonString) f.value()).value()));
    }

    private String outputName(Member m, String defaultName) {
        if (m == null) {
            return defaultName;
        }
        String s = ((JsonString) m.value()).value();
        Path p;
        try {
            p = Path.of(s);
        } catch (InvalidPathException e) {
            problem(m, "\"" + m.key() + "\" " + JsonValue.describe(m.value()) + " is not a valid file name: "
                    + e.getReason());
            return null;
        }
        boolean up = false;
        for (Path part : p) {
            up |= part.toString().equals("..");
        }
        if (s.isBlank() || p.isAbsolute() || up) {
            problem(m, "\"" + m.key() + "\" must be a file name relative to the output folder (no absolute path, no"
                    + " \"..\"), got " + JsonValue.describe(m.value()));
            return null;
        }
        return s;
    }
}
