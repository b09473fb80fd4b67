package io.tandem.world.sdf;

import io.tandem.world.Geometry;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import io.tandem.world.internal.SourceMessages;
import io.tandem.world.internal.XmlTree;
import io.tandem.world.internal.XmlTree.Element;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/*
 * Implementation notes.
 *
 * What is read (SDF 1.6 to 1.11, the subset worlds and typical robot models use): world name,
 * gravity, physics max_step_size and real_time_factor; models (static, pose with relative_to,
 * nested models flattened with scoped names, <frame>s); links (pose, inertial with pose and the
 * full tensor, collision and visual geometry box / sphere / cylinder / capsule / plane, friction
 * mu, diffuse colour); camera sensors (horizontal_fov, image width and height, clip, update_rate,
 * sensor and camera pose; other sensor types are reported and skipped); joints (revolute,
 * continuous, prismatic, ball, fixed; pose relative to the child link by default, axis xyz in the
 * joint frame, or the model frame with 1.6's use_parent_model_frame or 1.7's expressed_in, limits
 * with effort and velocity, damping); the gz::sim /
 * ignition::gazebo dummy plugin's <performer>s and <level>s (only the first such plugin, like
 * Gazebo's LevelManager).
 *
 * Joint controllers: gz-sim's DiffDrive, JointPositionController and JointController plugins in a
 * model become World.Controllers; the joints DiffDrive and JointController drive by velocity get a
 * velocity motor bounded by their <effort> (or DRIVE_EFFORT without one), as Gazebo commands their
 * velocity outright. The runner applies them (WorldRunner.setTwist, the initial commands).
 *
 * Velocity motors: SDF has no element for them (Gazebo drives joints from plugins), so a joint
 * opts in with Tandem's extension element <tandem:velocity_motor/> (SDF keeps and ignores custom
 * elements with a namespace prefix; declare xmlns:tandem on <sdf> for libsdformat). Its force
 * bound is the axis limit's <effort>, which must then be finite and > 0 (SDF's -1 means none);
 * <velocity> bounds the commanded speed. Only an explicit opt-in: plenty of models give an effort
 * for passive joints, which a motor with target 0 would turn into brakes.
 *
 * Frames: every named frame of a model scope (links, joints, nested models, <frame>s, __model__)
 * resolves to a pose in the model frame by following relative_to / attached_to, with cycle
 * detection. Top-level models may be placed relative_to an earlier model.
 *
 * Defaults as SDF's: gravity 0 0 -9.8, step 0.001 s, real-time factor 1, inertial mass 1 and
 * inertia identity, box size 1 1 1, sphere radius 1, cylinder radius 1 length 1, capsule radius
 * 0.5 length 1, friction mu 1, limits +-1e16 (treated as none). A geometry written without its
 * child element (Gazebo's own test worlds have <sphere>1</sphere>) gets SDF's default, with a
 * warning.
 *
 * Cables and deformable bodies: Tandem's extension elements <tandem:cable> and <tandem:deformable>
 * in the world (ElasticBodies), read after the models so that their anchors may name any model.
 *
 * Meshes (<mesh><uri>, <scale>): STL, OBJ and COLLADA files found as Gazebo finds them
 * (internal/MeshSources: model:// through GZ_SIM_RESOURCE_PATH and the folders above the naming
 * file, package:// through ROS_PACKAGE_PATH, relative paths from the naming file's folder); a
 * collision mesh collides as the convex hull of each part, a visual mesh is drawn by its
 * triangles. <submesh> is warned and the whole mesh used.
 *
 * Not supported, reported once per kind with file:line and skipped: geometry other than the above
 * (that collision or visual is dropped), plugins other than the level plugin, the joint
 * controllers above and the systems Tandem's pipeline replaces (physics, scene broadcaster, user
 * commands), actors. Refused, because the world would not run as written: joint kinds Tandem
 * does not simulate, a joint whose links are missing, malformed numbers, duplicate model names.
 */

/**
 * Loads SDF worlds into {@link World}s. Stateless; each call allocates the world. Thread-safe.
 */
public final class SdfLoader {
    private static final double SDF_LIMIT = 1e16;
    /** Tandem's extension element in a joint (see {@link World.Joint#MOTOR_ELEMENT}) */
    private static final String MOTOR_ELEMENT = World.Joint.MOTOR_ELEMENT;
    private static final Set<String> QUIET_WORLD_ELEMENTS = Set.of("scene", "light", "gui", "atmosphere",
            "spherical_coordinates", "magnetic_field", "wind", "audio", "physics", "gravity", "model", "plugin",
            "include", "actor", "frame", "joint");
    private static final Set<String> PIPELINE_SYSTEMS = Set.of("gz::sim::systems::Physics",
            "gz::sim::systems::SceneBroadcaster", "gz::sim::systems::UserCommands",
            "ignition::gazebo::systems::Physics", "ignition::gazebo::systems::SceneBroadcaster",
            "ignition::gazebo::systems::UserCommands");

    private final String file;
    /** errors and warnings at file:line, one line each (a name or text quoted from the file may hold line breaks) */
    private final SourceMessages messages;

    /** finds and reads the meshes the world names */
    private final io.tandem.world.internal.MeshSources meshes;
    /** the folder of the loaded file: relative mesh paths of its own elements start there */
    private final Path dir;

    private SdfLoader(String file, Consumer<String> warnings, List<Path> modelPath, Path dir) {
        this.file = file;
        this.messages = new SourceMessages(file, warnings);
        this.meshes = new io.tandem.world.internal.MeshSources(modelPath,
                io.tandem.world.internal.MeshSources.paths(System.getenv(), List.of("ROS_PACKAGE_PATH")));
        this.dir = dir;
    }

    /**
     * Heap a world of {@code fileBytes} bytes of SDF takes to load and step: measured, a world of
     * 10^5 one-sphere models (28 MB) failed in a 512 MB heap and ran in 1 GB, so about 32 times
     * the file.
     */
    public static final long HEAP_PER_SDF_BYTE = 32;

    /**
     * @param world    the file, for the message
     * @param fileBytes its size
     * @param maxHeap  the heap this JVM may use ({@code Runtime.maxMemory()})
     * @return why a world file is too large for this JVM's heap (the size, the heap it needs and
     *         the -Xmx to give), or null when it fits: said before loading, instead of an
     *         OutOfMemoryError minutes in
     */
    public static String heapShortfall(Path world, long fileBytes, long maxHeap) {
        long need = fileBytes * HEAP_PER_SDF_BYTE;
        if (need <= maxHeap) {
            return null;
        }
        return String.format(Locale.ROOT, "%s is %s of SDF: loading and stepping it takes about %s of heap, and this JVM may"
                        + " use %s: give it more (JAVA_OPTS=-Xmx%dg ./tandem ...) or split the world",
                world, bytes(fileBytes), bytes(need), bytes(maxHeap), (long) Math.ceil(need * 1.25 / (1L << 30)));
    }

    /** @return a size for people: MB below a GB, else GB with one decimal */
    private static String bytes(long n) {
        return n < 1_000_000_000L ? String.format(Locale.ROOT, "%.0f MB", n / 1e6) : String.format(Locale.ROOT, "%.1f GB", n / 1e9);
    }

    /**
     * Loads a world file.
     *
     * @param path     the SDF file
     * @param warnings receives one line per unsupported element kind ("file:line: ...")
     * @return the world
     * @throws WorldFormatException when the file is missing, not XML, or describes a world that
     *                              cannot run as written (the message names file, line and fix)
     */
    public static World load(Path path, Consumer<String> warnings) {
        return load(path, warnings, in -> in);
    }

    /**
     * {@link #load(Path, Consumer)}, reading the file through a wrapper (e.g. one that counts the
     * bytes read to show progress).
     *
     * @param wrap wraps the file's stream; the wrapper is closed after reading
     */
    public static World load(Path path, Consumer<String> warnings, java.util.function.UnaryOperator<InputStream> wrap) {
        return XmlTree.readFile(path, "an .sdf world file", wrap, in -> load(in, path.toString(), warnings));
    }

    /**
     * Loads a world from a stream.
     *
     * @param in       the SDF document, read to its end (not closed)
     * @param source   a name for messages (a file path or resource name)
     * @param warnings receives one line per unsupported element kind
     * @return the world
     * @throws WorldFormatException as {@link #load(Path, Consumer)}
     */
    public static World load(InputStream in, String source, Consumer<String> warnings) {
        return load(in, source, warnings, IncludeResolver.modelPath(System.getenv()));
    }

    /**
     * {@link #load(Path, Consumer)} with the folders that {@code model://} includes are looked up in
     * given (instead of GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH and SDF_PATH).
     *
     * @param modelPath model folders, in lookup order
     */
    public static World load(Path path, Consumer<String> warnings, List<Path> modelPath) {
        return XmlTree.readFile(path, "an .sdf world file", in -> in, in -> load(in, path.toString(), warnings, modelPath));
    }

    /**
     * Loads a world from a stream, resolving includes through the given model folders; relative
     * include paths start from the folder of {@code source} (when it names a file) or the working
     * directory.
     */
    private static World load(InputStream in, String source, Consumer<String> warnings, List<Path> modelPath) {
        Element root = XmlTree.parseOrRefuse(in, source);
        Path dir;
        try {
            Path parent = Path.of(source).toAbsolutePath().getParent();
            dir = parent == null ? Path.of("").toAbsolutePath() : parent;
        } catch (RuntimeException e) {
            dir = Path.of("").toAbsolutePath();
        }
        SdfLoader loader = new SdfLoader(source, warnings, modelPath, dir);
        if (root.name.equals("sdf")) {
            for (Element w : root.children("world")) {
                new IncludeResolver(source, modelPath, warnings).expand(w, dir);
            }
        }
        return loader.world(root);
    }

    private World world(Element root) {
        if (!root.name.equals("sdf")) {
            throw error(root, "the root element is <" + root.name + ">, expected <sdf>: is this an SDF file?");
        }
        String version = root.attribute("version");
        if (version != null && !version.matches("1\\.(6|7|8|9|10|11)")) {
            warn(root, "version", "SDF version " + version + " is outside 1.6-1.11; reading it as SDF 1.11");
        }
        List<Element> worlds = root.children("world");
        if (worlds.isEmpty()) {
            throw error(root, "no <world> in this file; Tandem runs worlds (a model-only file cannot run by itself)");
        }
        if (worlds.size() > 1) {
            warn(worlds.get(1), "world", "more than one <world>: only the first, '" + worlds.get(0).attribute("name") + "', is used");
        }
        Element w = worlds.get(0);
        String worldName = w.attribute("name") == null ? "default" : w.attribute("name");
        double[] g = {0, 0, -9.8};
        Element gravity = w.child("gravity");
        if (gravity != null) {
            g = vector(gravity, 3);
        }
        long stepNs = 1_000_000;
        double rtf = 1;
        Element physics = w.child("physics");
        if (physics != null) {
            Element step = physics.child("max_step_size");
            if (step != null) {
                double s = number(step);
                if (!(s >= 1e-9) || !(s <= MAX_STEP_S)) {
                    throw error(step, "max_step_size must be between 1e-9 s (1 ns) and " + MAX_STEP_S + " s, got " + s);
                }
                stepNs = Math.round(s * 1e9);
            }
            Element r = physics.child("real_time_factor");
            if (r != null) {
                rtf = number(r);
                if (rtf < 0) {
                    throw error(r, "real_time_factor must be >= 0 (0: as fast as possible), got " + rtf);
                }
            }
        }
        Map<String, Pose> worldFrames = new HashMap<>();
        worldFrames.put("world", Pose.IDENTITY);
        List<World.Model> models = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<World.Performer> performers = new ArrayList<>();
        List<World.Level> levels = new ArrayList<>();
        boolean levelPlugin = false;
        List<Element> elastic = new ArrayList<>();
        for (Element e : w.children) {
            switch (e.name) {
                // read once every model and level is known (an anchor may name a later model)
                case World.Cable.ELEMENT, World.Deformable.ELEMENT -> elastic.add(e);
                case "model" -> {
                    World.Model m = model(e, worldFrames);
                    if (!names.add(m.name())) {
                        throw error(e, "a second model named '" + m.name() + "': model names must be unique in a world");
                    }
                    worldFrames.put(m.name(), m.pose());
                    models.add(m);
                }
                case "actor" -> warn(e, "actor", "<actor> is not supported: skipped");
                case "plugin" -> {
                    String pname = e.attribute("name") == null ? "" : e.attribute("name");
                    if (pname.equals("gz::sim") || pname.equals("ignition::gazebo")) {
                        if (levelPlugin) {
                            warn(e, "plugin2", "a second " + pname + " plugin: only the first is read (as in Gazebo)");
                        } else {
                            levelPlugin = true;
                            levelPlugin(e, performers, levels);
                        }
                    } else if (!PIPELINE_SYSTEMS.contains(pname)) {
                        warn(e, "plugin:" + pname, "plugin '" + pname + "' (" + e.attribute("filename")
                                + ") is not supported: skipped");
                    }
                }
                default -> {
                    if (!QUIET_WORLD_ELEMENTS.contains(e.name)) {
                        warn(e, "world:" + e.name, "<" + e.name + "> is not supported: skipped");
                    }
                }
            }
        }
        // performers must follow a model of this world (Gazebo warns and ignores them)
        List<World.Performer> kept = new ArrayList<>();
        for (World.Performer p : performers) {
            if (!names.contains(p.ref())) {
                messages.warnEveryTime(file + ":" + p.line() + ": performer '" + p.name() + "' refers to model '" + p.ref()
                        + "', which this world does not have: it will not adhere to levels");
            } else {
                kept.add(p);
            }
        }
        // a level's <ref> to a model the world lacks (a typo, most often) loads nothing: say so
        for (World.Level l : levels) {
            for (String ref : l.refs()) {
                if (!names.contains(ref)) {
                    messages.warnEveryTime(file + ":" + l.line() + ": level '" + l.name() + "' refers to model '" + ref
                            + "', which this world does not have: that <ref> loads nothing (check the name)");
                }
            }
        }
        ElasticBodies reader = new ElasticBodies(this, dir, models, levels);
        List<World.Cable> cables = new ArrayList<>();
        List<World.Deformable> deformables = new ArrayList<>();
        for (Element e : elastic) {
            if (e.name.equals(World.Cable.ELEMENT)) {
                cables.add(reader.cable(e));
            } else {
                deformables.add(reader.deformable(e));
            }
        }
        return new World(worldName, file, g[0], g[1], g[2], stepNs, rtf, models, kept, levels, levelPlugin, cables, deformables);
    }

    private void levelPlugin(Element plugin, List<World.Performer> performers, List<World.Level> levels) {
        for (Element e : plugin.children) {
            switch (e.name) {
                case "performer" -> {
                    String name = required(e, "name");
                    Element ref = e.child("ref");
                    if (ref == null || ref.text().isEmpty()) {
                        throw error(e, "performer '" + name + "' needs a <ref> naming the model it follows");
                    }
                    double[] size = box(e, "performer '" + name + "'");
                    performers.add(new World.Performer(name, ref.text(), size[0], size[1], size[2], e.line));
                }
                case "level" -> {
                    String name = required(e, "name");
                    double[] size;
                    try {
                        size = box(e, "level '" + name + "'");
                    } catch (WorldFormatException notABox) {
                        messages.warnEveryTime(notABox.getMessage() + "; the level is skipped (as in Gazebo)");
                        continue;
                    }
                    Pose pose = e.child("pose") == null ? Pose.IDENTITY : pose(e.child("pose"));
                    double buffer = 0;
                    Element b = e.child("buffer");
                    if (b != null) {
                        buffer = number(b);
                        if (buffer < 0) {
                            warn(b, "buffer" + b.line, "level '" + name + "': negative buffer " + buffer + " clamped to 0");
                            buffer = 0;
                        }
                    }
                    List<String> refs = new ArrayList<>();
                    for (Element r : e.children("ref")) {
                        refs.add(r.text());
                    }
                    levels.add(new World.Level(name, pose.x(), pose.y(), pose.z(), size[0], size[1], size[2], buffer, refs, e.line));
                }
                default -> warn(e, "levelplugin:" + e.name, "<" + e.name + "> in the level plugin is not supported: skipped");
            }
        }
    }

    /** The box size of a performer's or level's geometry. */
    private double[] box(Element e, String what) {
        Element geometry = e.child("geometry");
        Element box = geometry == null ? null : geometry.child("box");
        if (box == null || box.child("size") == null) {
            throw error(e, what + " needs <geometry><box><size>x y z</size></box></geometry> (only boxes are supported)");
        }
        double[] s = vector(box.child("size"), 3);
        if (!(s[0] >= 0 && s[1] >= 0 && s[2] >= 0)) {
            throw error(box, what + ": box sizes must be >= 0 m");
        }
        return s;
    }

    // ---------------------------------------------------------------- models

    /** A top-level model, with world frames of earlier models for relative_to. */
    private World.Model model(Element e, Map<String, Pose> worldFrames) {
        String name = required(e, "name");
        Pose pose = Pose.IDENTITY;
        Element p = e.child("pose");
        if (p != null) {
            String rel = p.attribute("relative_to");
            Pose base = Pose.IDENTITY;
            if (rel != null && !rel.isEmpty()) {
                base = worldFrames.get(rel);
                if (base == null) {
                    throw error(p, "model '" + name + "': relative_to='" + rel + "' names no earlier model of this world");
                }
            }
            pose = base.compose(pose(p));
        }
        boolean isStatic = flag(e.child("static"));
        List<World.Link> links = new ArrayList<>();
        List<World.Joint> joints = new ArrayList<>();
        List<Element> plugins = new ArrayList<>();
        flatten(e, name, pose, "", isStatic, links, joints, plugins);
        List<World.Controller> controllers = new ArrayList<>();
        for (Element p2 : plugins) {
            World.Controller c = controller(p2, name, joints);
            if (c != null) {
                controllers.add(c);
            }
        }
        // SDF's self_collide: the model's, or any of its own links' (Tandem decides per model)
        boolean selfCollide = flag(e.child("self_collide"));
        for (Element l : e.children("link")) {
            selfCollide |= flag(l.child("self_collide"));
        }
        return new World.Model(name, isStatic, pose, links, motorize(joints, controllers), e.line,
                messages.coordinates(e.child(World.Model.COORDINATES_ELEMENT)), controllers, selfCollide);
    }

    /** Adds a model scope's links and joints (nested models recursively) with scoped names. */
    private void flatten(Element model, String modelName, Pose modelPose, String prefix, boolean isStatic,
                         List<World.Link> links, List<World.Joint> joints, List<Element> plugins) {
        Frames frames = new Frames(model, modelName);
        for (Element e : model.children) {
            switch (e.name) {
                case "link" -> links.add(link(e, prefix, modelPose.compose(frames.pose(required(e, "name"))), isStatic));
                case "model" -> {
                    String nested = required(e, "name");
                    Pose nestedPose = modelPose.compose(frames.pose(nested));
                    flatten(e, modelName, nestedPose, prefix + nested + "::", isStatic || flag(e.child("static")), links, joints,
                            plugins);
                }
                case "plugin" -> {
                    String pname = e.attribute("name");
                    if (controllerKind(e) != null) {
                        // read once the model's joints are known (model())
                        plugins.add(e);
                    } else {
                        warn(e, "plugin:" + pname, "plugin '" + pname + "' (" + e.attribute("filename") + ") is not supported: skipped");
                    }
                }
                default -> {
                    // joints after all links of the scope (below); pose, static, frame are read elsewhere
                }
            }
        }
        for (Element e : model.children("joint")) {
            joints.add(joint(e, modelName, prefix, modelPose, frames, links));
        }
    }

    private World.Link link(Element e, String prefix, Pose worldPose, boolean isStatic) {
        String name = prefix + required(e, "name");
        World.Inertial inertial = new World.Inertial(1, Pose.IDENTITY, 1, 0, 0, 1, 0, 1);
        Element in = e.child("inertial");
        if (in != null) {
            double mass = in.child("mass") == null ? 1 : number(in.child("mass"));
            if (!(mass > 0)) {
                throw error(in, "link '" + name + "': mass must be > 0 kg, got " + mass);
            }
            Pose ip = in.child("pose") == null ? Pose.IDENTITY : pose(in.child("pose"));
            Element t = in.child("inertia");
            double[] v = {1, 0, 0, 1, 0, 1};
            if (t != null) {
                String[] keys = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
                for (int k = 0; k < 6; k++) {
                    Element c = t.child(keys[k]);
                    if (c != null) {
                        v[k] = number(c);
                    }
                }
            }
            inertial = new World.Inertial(mass, ip, v[0], v[1], v[2], v[3], v[4], v[5]);
            // a moving link needs a positive definite inertia
            if (!isStatic && !inertial.positiveDefinite()) {
                throw error(t == null ? in : t, "link '" + name + "': the inertia tensor is not positive definite (ixx " + v[0]
                        + ", iyy " + v[3] + ", izz " + v[5] + ", ixy " + v[1] + ", ixz " + v[2] + ", iyz " + v[4]
                        + " kg m^2); give positive moments ixx, iyy, izz larger than the products, or make the model static");
            }
        }
        List<World.Collision> collisions = new ArrayList<>();
        for (Element c : e.children("collision")) {
            Geometry g = geometry(c, name);
            if (g != null) {
                collisions.add(new World.Collision(c.attribute("name"), localPose(c), g, friction(c)));
            }
        }
        List<World.Visual> visuals = new ArrayList<>();
        for (Element v : e.children("visual")) {
            Geometry g = geometry(v, name);
            if (g != null) {
                visuals.add(new World.Visual(v.attribute("name"), localPose(v), g, colour(v)));
            }
        }
        List<World.Camera> cameras = new ArrayList<>();
        for (Element sensor : e.children("sensor")) {
            String type = sensor.attribute("type") == null ? "" : sensor.attribute("type");
            if (type.equals("camera")) {
                cameras.add(camera(sensor, name));
            } else {
                warn(sensor, "sensor:" + type, "<sensor type=\"" + type + "\"> is not supported (only camera): skipped");
            }
        }
        return new World.Link(name, worldPose, inertial, collisions, visuals, e.line, cameras);
    }

    /** A camera sensor: Gazebo's SDF camera with SDF's defaults (60 degrees, 320 x 240, clip 0.1 to 100 m). */
    private World.Camera camera(Element sensor, String link) {
        String name = required(sensor, "name");
        Pose pose = localPose(sensor);
        Element c = sensor.child("camera");
        double fov = 1.047;
        int width = 320;
        int height = 240;
        double near = 0.1;
        double far = 100;
        if (c != null) {
            if (c.child("pose") != null) {
                pose = pose.compose(localPose(c));
            }
            if (c.child("horizontal_fov") != null) {
                fov = number(c.child("horizontal_fov"));
            }
            Element image = c.child("image");
            if (image != null) {
                width = image.child("width") == null ? width : integer(image.child("width"));
                height = image.child("height") == null ? height : integer(image.child("height"));
                Element format = image.child("format");
                if (format != null && !format.text().equals("R8G8B8") && !format.text().equals("RGB_INT8")) {
                    warn(format, "camera_format", "camera '" + name + "': image format " + format.text()
                            + " is not supported: rendered as R8G8B8");
                }
            }
            Element clip = c.child("clip");
            if (clip != null) {
                near = clip.child("near") == null ? near : number(clip.child("near"));
                far = clip.child("far") == null ? far : number(clip.child("far"));
            }
        }
        double rate = sensor.child("update_rate") == null ? 0 : number(sensor.child("update_rate"));
        try {
            return new World.Camera(name, pose, fov, width, height, near, far, rate, sensor.line);
        } catch (IllegalArgumentException bad) {
            throw error(sensor, "link '" + link + "': " + bad.getMessage());
        }
    }

    /** A collision's or visual's pose in its link (relative_to other frames is not supported there). */
    private Pose localPose(Element e) {
        Element p = e.child("pose");
        if (p == null) {
            return Pose.IDENTITY;
        }
        String rel = p.attribute("relative_to");
        if (rel != null && !rel.isEmpty()) {
            warn(p, "relative_to_shape", "relative_to on a collision or visual pose is read as relative to its link");
        }
        return pose(p);
    }

    private double friction(Element collision) {
        Element s = collision.child("surface");
        Element f = s == null ? null : s.child("friction");
        Element ode = f == null ? null : f.child("ode");
        Element mu = ode == null ? null : ode.child("mu");
        if (mu == null) {
            return 1;
        }
        double v = number(mu);
        if (!(v >= 0)) {
            throw error(mu, "friction mu must be >= 0, got " + v);
        }
        return Math.min(v, 1e6);
    }

    private double[] colour(Element visual) {
        Element m = visual.child("material");
        Element d = m == null ? null : m.child("diffuse");
        if (d == null) {
            return new double[] {0.7, 0.7, 0.7, 1};
        }
        double[] c = vector(d, -1);
        return c.length >= 4 ? new double[] {c[0], c[1], c[2], c[3]}
                : c.length == 3 ? new double[] {c[0], c[1], c[2], 1} : new double[] {0.7, 0.7, 0.7, 1};
    }

    /** The geometry of a collision or visual, or null (reported) if unsupported. */
    private Geometry geometry(Element owner, String link) {
        Element g = owner.child("geometry");
        if (g == null || g.children.isEmpty()) {
            throw error(owner, "<" + owner.name + "> '" + owner.attribute("name") + "' of link '" + link + "' has no <geometry>");
        }
        Element s = g.children.get(0);
        switch (s.name) {
            case "box" -> {
                double[] size = s.child("size") == null ? defaulted(s, "size", new double[] {1, 1, 1}) : vector(s.child("size"), 3);
                return new Geometry.Box(positive(s, size[0]), positive(s, size[1]), positive(s, size[2]));
            }
            case "sphere" -> {
                double r = s.child("radius") == null ? defaulted(s, "radius", new double[] {1})[0] : number(s.child("radius"));
                return new Geometry.Sphere(positive(s, r));
            }
            case "cylinder", "capsule" -> {
                double r = s.child("radius") == null ? (s.name.equals("cylinder") ? 1 : 0.5) : number(s.child("radius"));
                double l = s.child("length") == null ? 1 : number(s.child("length"));
                return s.name.equals("cylinder") ? new Geometry.Cylinder(positive(s, r), positive(s, l))
                        : new Geometry.Capsule(positive(s, r), positive(s, l));
            }
            case "plane" -> {
                double[] n = s.child("normal") == null ? new double[] {0, 0, 1} : vector(s.child("normal"), 3);
                double len = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                if (!(len > 0)) {
                    throw error(s, "plane normal must be non-zero");
                }
                double[] size = s.child("size") == null ? new double[] {1, 1} : vector(s.child("size"), 2);
                return new Geometry.Plane(n[0] / len, n[1] / len, n[2] / len, size[0], size[1]);
            }
            case "mesh" -> {
                Element uri = s.child("uri");
                if (uri == null || uri.text().isEmpty()) {
                    throw error(s, "<mesh> needs a <uri> (model://NAME/meshes/FILE, or a path to an .stl, .obj or .dae file)");
                }
                double[] scale = s.child("scale") == null ? new double[] {1, 1, 1} : vector(s.child("scale"), 3);
                for (double v : scale) {
                    if (!(v != 0) || !Double.isFinite(v)) {
                        throw error(s.child("scale"), "<scale> factors must be finite and non-zero, got " + v);
                    }
                }
                if (s.child("submesh") != null) {
                    warn(s.child("submesh"), "submesh", "<submesh> is not supported: the whole mesh is used");
                }
                Path base = uri.source != null && Path.of(uri.source).getParent() != null
                        ? Path.of(uri.source).toAbsolutePath().getParent() : dir;
                return meshes.load(uri.text(), base, scale, messages.where(uri) + ": ");
            }
            default -> {
                warn(s, "geometry:" + s.name, "<" + s.name + "> geometry is not supported: that " + owner.name
                        + " is skipped (use box, sphere, cylinder, capsule, plane or mesh)");
                return null;
            }
        }
    }

    private double[] defaulted(Element shape, String child, double[] value) {
        if (!shape.text().isEmpty()) {
            warn(shape, "defaulted:" + shape.name, "<" + shape.name + ">" + shape.text() + "</" + shape.name + "> has no <"
                    + child + ">: the text is ignored and SDF's default is used, as Gazebo does");
        }
        return value;
    }

    /** The largest shape dimension accepted, m: beyond it the collision geometry loses its precision. */
    static final double MAX_DIMENSION = 1e6;

    private double positive(Element e, double v) {
        if (!(v > 0) || !(v <= MAX_DIMENSION)) {
            throw error(e, "<" + e.name + "> dimensions must be > 0 and at most " + MAX_DIMENSION + " m (1000 km), got " + v
                    + "; for an unbounded floor use a <plane>");
        }
        return v;
    }

    private World.Joint joint(Element e, String modelName, String prefix, Pose modelPose, Frames frames, List<World.Link> links) {
        String name = prefix + required(e, "name");
        String type = required(e, "type").toLowerCase(Locale.ROOT);
        World.JointKind kind = switch (type) {
            case "revolute" -> World.JointKind.REVOLUTE;
            case "continuous" -> World.JointKind.CONTINUOUS;
            case "prismatic" -> World.JointKind.PRISMATIC;
            case "ball" -> World.JointKind.BALL;
            case "fixed" -> World.JointKind.FIXED;
            default -> throw error(e, "joint '" + name + "' of model '" + modelName + "' has type '" + type
                    + "', which Tandem does not simulate (revolute, continuous, prismatic, ball, fixed)");
        };
        String parent = linkRef(e, "parent", name, modelName, prefix, links);
        String child = linkRef(e, "child", name, modelName, prefix, links);
        if ("world".equals(child)) {
            throw error(e, "joint '" + name + "': the child cannot be the world");
        }
        Pose jointWorld = modelPose.compose(frames.pose(e.attribute("name")));
        double[] axis = {0, 0, 1};
        double lower = Double.NEGATIVE_INFINITY;
        double upper = Double.POSITIVE_INFINITY;
        double damping = 0;
        double friction = 0;
        double effort = Double.POSITIVE_INFINITY;
        double velocityLimit = Double.POSITIVE_INFINITY;
        Element a = e.child("axis");
        if (a != null) {
            Element xyz = a.child("xyz");
            if (xyz != null) {
                axis = vector(xyz, 3);
                String expressed = xyz.attribute("expressed_in");
                boolean modelFrame = flag(a.child("use_parent_model_frame")) || "__model__".equals(expressed);
                Pose frame;
                if (modelFrame) {
                    frame = modelPose;
                } else if (expressed != null && !expressed.isEmpty()) {
                    frame = modelPose.compose(frames.pose(expressed));
                } else {
                    frame = jointWorld;
                }
                axis = frame.rotate(axis[0], axis[1], axis[2]);
            } else {
                axis = jointWorld.rotate(0, 0, 1);
            }
            Element limit = a.child("limit");
            if (limit != null) {
                if (limit.child("lower") != null) {
                    lower = number(limit.child("lower"));
                }
                if (limit.child("upper") != null) {
                    upper = number(limit.child("upper"));
                }
                // SDF's -1 (any negative value): no bound
                if (limit.child("effort") != null && number(limit.child("effort")) >= 0) {
                    effort = number(limit.child("effort"));
                }
                if (limit.child("velocity") != null && number(limit.child("velocity")) >= 0) {
                    velocityLimit = number(limit.child("velocity"));
                }
            }
            Element dyn = a.child("dynamics");
            if (dyn != null && dyn.child("friction") != null) {
                friction = number(dyn.child("friction"));
                if (!(friction >= 0)) {
                    throw error(dyn, "joint '" + name + "': friction must be >= 0, got " + friction);
                }
            }
            if (dyn != null && dyn.child("damping") != null) {
                damping = number(dyn.child("damping"));
                if (!(damping >= 0)) {
                    throw error(dyn, "joint '" + name + "': damping must be >= 0, got " + damping);
                }
            }
        } else {
            axis = jointWorld.rotate(0, 0, 1);
        }
        double len = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        if (!(len > 1e-12)) {
            throw error(e, "joint '" + name + "': axis must be non-zero");
        }
        if (lower <= -SDF_LIMIT || kind == World.JointKind.CONTINUOUS) {
            lower = Double.NEGATIVE_INFINITY;
        }
        if (upper >= SDF_LIMIT || kind == World.JointKind.CONTINUOUS) {
            upper = Double.POSITIVE_INFINITY;
        }
        if (lower > upper) {
            throw error(e, "joint '" + name + "': lower limit " + lower + " is above upper limit " + upper);
        }
        boolean motor = e.child(MOTOR_ELEMENT) != null;
        if (motor) {
            checkMotor(e, name, kind, effort, velocityLimit);
        }
        return new World.Joint(name, kind, parent, child, jointWorld, axis[0] / len, axis[1] / len, axis[2] / len,
                lower, upper, damping, e.line, effort, velocityLimit, motor, friction);
    }

    /** the most torque (force) of a wheel or joint a Gazebo controller drives by velocity when the file gives none, N m (N) */
    static final double DRIVE_EFFORT = 1e4;

    /** @return "diff_drive", "joint_position" or "joint_velocity" for gz-sim's systems of those names, else null */
    private static String controllerKind(Element plugin) {
        String name = plugin.attribute("name") == null ? "" : plugin.attribute("name");
        String file = plugin.attribute("filename") == null ? "" : plugin.attribute("filename");
        String id = name + " " + file;
        if (id.contains("DiffDrive") || id.contains("diff-drive-system")) {
            return "diff_drive";
        }
        if (id.contains("JointPositionController") || id.contains("joint-position-controller-system")) {
            return "joint_position";
        }
        if (id.contains("JointController") || id.contains("joint-controller-system")) {
            return "joint_velocity";
        }
        return null;
    }

    /**
     * One of gz-sim's joint controllers (World.Controller) with its parameters; the joints it names
     * must be the model's revolute, continuous or prismatic joints. Parameters Tandem does not use
     * (topics, odometry, PID integral terms, limits of the command) are warned once and ignored.
     */
    private World.Controller controller(Element p, String model, List<World.Joint> joints) {
        String kind = controllerKind(p);
        java.util.function.Function<Element, String> joint = j -> {
            String n = j.text().trim();
            for (World.Joint wj : joints) {
                if (wj.name().equals(n) || wj.name().endsWith("::" + n)) {
                    if (wj.kind() == World.JointKind.BALL || wj.kind() == World.JointKind.FIXED) {
                        throw error(j, "<" + j.name + "> '" + n + "' is a " + wj.kind().name().toLowerCase(Locale.ROOT)
                                + " joint: the controller needs a revolute, continuous or prismatic joint");
                    }
                    return wj.name();
                }
            }
            List<String> names = new ArrayList<>();
            for (World.Joint wj : joints) {
                names.add(wj.name());
            }
            throw error(j, "<" + j.name + "> names joint '" + n + "', which model '" + model + "' does not have; it has " + names);
        };
        Set<String> used = Set.of("left_joint", "right_joint", "wheel_separation", "wheel_radius", "joint_name", "p_gain",
                "d_gain", "initial_position", "initial_velocity");
        for (Element c : p.children) {
            if (!used.contains(c.name)) {
                warn(c, "controller:" + c.name, "<" + c.name + "> of " + p.attribute("name") + " is not used by Tandem: ignored");
            }
        }
        switch (kind) {
            case "diff_drive" -> {
                List<String> left = new ArrayList<>();
                List<String> right = new ArrayList<>();
                for (Element j : p.children("left_joint")) {
                    left.add(joint.apply(j));
                }
                for (Element j : p.children("right_joint")) {
                    right.add(joint.apply(j));
                }
                if (left.isEmpty() || right.isEmpty()) {
                    throw error(p, "DiffDrive needs a <left_joint> and a <right_joint>");
                }
                double separation = number(p, "wheel_separation", 1.0);
                double radius = number(p, "wheel_radius", 0.2);
                if (!(separation > 0) || !(radius > 0)) {
                    throw error(p, "DiffDrive needs <wheel_separation> and <wheel_radius> > 0, got " + separation + ", " + radius);
                }
                return new World.DiffDrive(left, right, separation, radius, p.line);
            }
            case "joint_position" -> {
                Element j = p.child("joint_name");
                if (j == null) {
                    throw error(p, "JointPositionController needs a <joint_name>");
                }
                return new World.JointPositionController(joint.apply(j), number(p, "p_gain", 1), number(p, "d_gain", 0),
                        number(p, "initial_position", 0), p.line);
            }
            default -> {
                Element j = p.child("joint_name");
                if (j == null) {
                    throw error(p, "JointController needs a <joint_name>");
                }
                return new World.JointVelocityController(joint.apply(j), number(p, "initial_velocity", 0), p.line);
            }
        }
    }

    /** A plugin parameter as a finite number, or the default when absent. */
    private double number(Element plugin, String child, double otherwise) {
        Element c = plugin.child(child);
        if (c == null) {
            return otherwise;
        }
        try {
            double v = Double.parseDouble(c.text().trim());
            if (Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw error(c, "<" + child + "> must be a finite number, got '" + c.text().trim() + "'");
    }

    /**
     * The joints a DiffDrive or JointController drives by velocity get a velocity motor (Gazebo
     * commands their velocity outright): its bound is the joint's effort limit, or {@link #DRIVE_EFFORT}.
     */
    private static List<World.Joint> motorize(List<World.Joint> joints, List<World.Controller> controllers) {
        Set<String> driven = new java.util.HashSet<>();
        for (World.Controller c : controllers) {
            if (c instanceof World.DiffDrive d) {
                driven.addAll(d.leftJoints());
                driven.addAll(d.rightJoints());
            } else if (c instanceof World.JointVelocityController v) {
                driven.add(v.joint());
            }
        }
        if (driven.isEmpty()) {
            return joints;
        }
        List<World.Joint> out = new ArrayList<>();
        for (World.Joint j : joints) {
            if (driven.contains(j.name()) && !j.motor()) {
                double effort = j.effort() > 0 && Double.isFinite(j.effort()) ? j.effort() : DRIVE_EFFORT;
                j = new World.Joint(j.name(), j.kind(), j.parent(), j.child(), j.pose(), j.axisX(), j.axisY(), j.axisZ(),
                        j.lower(), j.upper(), j.damping(), j.line(), effort, j.velocityLimit(), true, j.friction());
            }
            out.add(j);
        }
        return out;
    }

    /** A motorized joint needs an axis and a finite effort (its force bound). */
    private void checkMotor(Element e, String name, World.JointKind kind, double effort, double velocityLimit) {
        if (kind == World.JointKind.BALL || kind == World.JointKind.FIXED) {
            throw error(e.child(MOTOR_ELEMENT), "joint '" + name + "' is " + kind.name().toLowerCase(Locale.ROOT)
                    + ": <" + MOTOR_ELEMENT + "> needs a revolute, continuous or prismatic joint");
        }
        if (!(effort > 0) || Double.isInfinite(effort)) {
            throw error(e.child(MOTOR_ELEMENT), "joint '" + name + "' has <" + MOTOR_ELEMENT + "> but no finite"
                    + " <axis><limit><effort> > 0: give the motor's most torque (N m) or force (N) there");
        }
        if (velocityLimit == 0) {
            throw error(e.child(MOTOR_ELEMENT), "joint '" + name + "' has <" + MOTOR_ELEMENT + "> but <limit><velocity>"
                    + " 0, so it could never move: remove the velocity limit or make it > 0");
        }
    }

    private String linkRef(Element joint, String which, String jointName, String modelName, String prefix, List<World.Link> links) {
        Element r = joint.child(which);
        if (r == null || r.text().isEmpty()) {
            throw error(joint, "joint '" + jointName + "' needs a <" + which + "> link");
        }
        String n = r.text();
        if (n.equals("world")) {
            return n;
        }
        for (String candidate : new String[] {prefix + n, n}) {
            for (World.Link l : links) {
                if (l.name().equals(candidate)) {
                    return candidate;
                }
            }
        }
        throw error(r, "joint '" + jointName + "' of model '" + modelName + "': " + which + " link '" + n
                + "' is not a link of this model (links: " + linkNames(links) + ")");
    }

    private static String linkNames(List<World.Link> links) {
        List<String> names = new ArrayList<>();
        for (World.Link l : links) {
            names.add(l.name());
        }
        return String.join(", ", names);
    }

    /**
     * The named frames of one model scope, resolved lazily to poses in the model frame.
     */
    private final class Frames {
        private final Map<String, Element> poseOf = new LinkedHashMap<>();
        private final Map<String, String> defaultBase = new HashMap<>();
        private final Map<String, Pose> resolved = new HashMap<>();
        private final Set<String> resolving = new HashSet<>();
        private final String modelName;

        Frames(Element model, String modelName) {
            this.modelName = modelName;
            resolved.put("__model__", Pose.IDENTITY);
            for (Element e : model.children) {
                String n = e.attribute("name");
                if (n == null) {
                    continue;
                }
                switch (e.name) {
                    case "link", "model" -> {
                        poseOf.put(n, e);
                        defaultBase.put(n, "__model__");
                    }
                    case "joint" -> {
                        poseOf.put(n, e);
                        Element child = e.child("child");
                        defaultBase.put(n, child == null ? "__model__" : child.text());
                    }
                    case "frame" -> {
                        poseOf.put(n, e);
                        String attached = e.attribute("attached_to");
                        defaultBase.put(n, attached == null || attached.isEmpty() ? "__model__" : attached);
                    }
                    default -> {
                    }
                }
            }
        }

        Pose pose(String name) {
            Pose p = resolved.get(name);
            if (p != null) {
                return p;
            }
            int scope = name.indexOf("::");
            if (scope > 0) {
                // a frame inside a nested model: that model's pose, then the frame within it
                String nested = name.substring(0, scope);
                Element ne = poseOf.get(nested);
                if (ne == null || !ne.name.equals("model")) {
                    throw new WorldFormatException(file + ": model '" + modelName + "': no nested model named '" + nested
                            + "' for frame '" + name + "'");
                }
                Pose result = pose(nested).compose(new Frames(ne, modelName).pose(name.substring(scope + 2)));
                resolved.put(name, result);
                return result;
            }
            Element e = poseOf.get(name);
            if (e == null) {
                throw new WorldFormatException(file + ": model '" + modelName + "': no frame named '" + name
                        + "' (frames: __model__, " + String.join(", ", poseOf.keySet()) + ")");
            }
            if (!resolving.add(name)) {
                throw error(e, "model '" + modelName + "': the frames around '" + name + "' are relative to each other in a cycle");
            }
            Element pe = e.child("pose");
            String base = defaultBase.get(name);
            Pose local = Pose.IDENTITY;
            if (pe != null) {
                String rel = pe.attribute("relative_to");
                if (rel != null && !rel.isEmpty()) {
                    base = rel;
                }
                local = SdfLoader.this.pose(pe);
            }
            if (e.name.equals("link") || e.name.equals("model")) {
                // SDF 1.6: links and nested models are relative to the model unless relative_to says otherwise
                base = pe != null && pe.attribute("relative_to") != null && !pe.attribute("relative_to").isEmpty()
                        ? pe.attribute("relative_to") : "__model__";
            }
            Pose result = pose(base).compose(local);
            resolving.remove(name);
            resolved.put(name, result);
            return result;
        }
    }

    // ---------------------------------------------------------------- values

    Pose pose(Element p) {
        double[] v = vector(p, 6);
        String degrees = p.attribute("degrees");
        double k = "true".equals(degrees) ? Math.PI / 180 : 1;
        return Pose.fromXyzRpy(v[0], v[1], v[2], v[3] * k, v[4] * k, v[5] * k);
    }

    /** Space-separated numbers; n < 0 accepts any count. */
    double[] vector(Element e, int n) {
        String t = e.text();
        String[] parts = t.isEmpty() ? new String[0] : t.split("\\s+");
        if (n >= 0 && parts.length != n) {
            throw error(e, "<" + e.name + "> needs " + n + " numbers, got '" + t + "'");
        }
        double[] v = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            v[i] = parse(e, parts[i]);
        }
        return v;
    }

    /** The longest step accepted, s: a rigid-body step beyond it is no simulation (and 10^300 s overflowed the ns clock). */
    static final double MAX_STEP_S = 3600;

    double number(Element e) {
        return parse(e, e.text());
    }

    int integer(Element e) {
        double v = number(e);
        if (v != Math.rint(v) || Math.abs(v) > 1 << 20) {
            throw error(e, "<" + e.name + "> needs a whole number up to 2^20, got '" + e.text() + "'");
        }
        return (int) v;
    }

    private double parse(Element e, String s) {
        try {
            double v = Double.parseDouble(s);
            if (!Double.isFinite(v)) {
                throw error(e, "<" + e.name + "> is " + s.trim() + "; give a finite number");
            }
            return v;
        } catch (NumberFormatException ex) {
            throw error(e, "<" + e.name + "> needs a number, got '" + s + "'");
        }
    }

    private boolean flag(Element e) {
        if (e == null) {
            return false;
        }
        String t = e.text().toLowerCase(Locale.ROOT);
        return t.equals("true") || t.equals("1");
    }

    String required(Element e, String attribute) {
        return messages.required(e, attribute);
    }

    WorldFormatException error(Element e, String message) {
        return messages.error(e, message);
    }

    /** Reports an unsupported element kind once per load. */
    void warn(Element e, String kind, String message) {
        messages.warn(e, kind, message);
    }
}
