package io.tandem.world.urdf;

import io.tandem.world.Geometry;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import io.tandem.world.internal.SourceMessages;
import io.tandem.world.internal.XmlTree;
import io.tandem.world.internal.XmlTree.Element;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
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
 * URDF (wiki.ros.org/urdf/XML) read the way Gazebo's libsdformat converts it (physics-wave2.md 3.2):
 *
 *  - the robot is one model in a world of its own (gravity -9.8 z, 1 ms steps, real time), as
 *    `gz sim robot.urdf` runs it; a link named "world" pins the links its joints hold;
 *  - a link's frame is its parent's composed with the joint's <origin> (R = Rz Ry Rx of rpy); the
 *    joint sits at the child's origin, its <axis> (default 1 0 0) in that frame;
 *  - fixed joints are lumped (Gazebo's default): the child's mass, visuals and collisions move into
 *    the parent, keeping the total mass, the centre of mass and the inertia
 *      m = sum m_i, c = sum m_i c_i / m, I = sum [R_i I_i R_i^T + m_i (|d_i|^2 1 - d_i d_i^T)], d_i = c_i - c;
 *    <gazebo reference="JOINT"><preserveFixedJoint>true</preserveFixedJoint></gazebo> keeps the joint;
 *  - a link without mass that would move is refused (Gazebo drops it and its subtree with "link[x]
 *    has no <inertial> block defined"); a massless link welded to the world gets SDF's default
 *    inertia (1 kg, unit tensor), which a weld never feels;
 *  - <gazebo reference="LINK"><mu1> sets its collisions' friction;
 *  - <dynamics damping> and <dynamics friction> (Coulomb, N m or N) go to the joint.
 *
 * The mistakes physics-wave2.md 3.3 lists are errors at their line with the fix, or warnings:
 * missing limits or effort, impossible inertia, a broken tree, a zero axis, lower > upper,
 * unexpanded xacro, duplicate names.
 *
 * Meshes (<mesh filename scale>): STL, OBJ and COLLADA, found through package:// (ROS_PACKAGE_PATH,
 * then a folder of the package's name above the URDF), model:// (GZ_SIM_RESOURCE_PATH) or a path
 * from the URDF's folder (internal/MeshSources); a collision mesh collides as the convex hull of
 * each part.
 */

/**
 * Loads a URDF robot as a {@link World} of one model with links and joints, as an SDF model has
 * them (the physics compiler steps a robot pinned to the world in joint coordinates unless a
 * robot-level {@code <gazebo><tandem:coordinates>maximal</tandem:coordinates></gazebo>} asks for
 * free bodies and joint rows, or {@code planar} makes it a wheeled base moving in the plane). Stateless; build-time only, allocates freely.
 */
public final class UrdfLoader {
    /** SDF's gravity, step and real-time factor, which `gz sim robot.urdf` uses */
    private static final double GRAVITY_Z = -9.8;
    private static final long STEP_NS = 1_000_000;
    private static final double TWO_PI = 2 * Math.PI;

    /** the source, for the world record */
    private final String file;
    /** errors and warnings at file:line, one line each */
    private final SourceMessages messages;

    /** finds and reads the meshes the robot names (package://, model://, paths from the file's folder) */
    private final io.tandem.world.internal.MeshSources meshes = io.tandem.world.internal.MeshSources.fromEnvironment();

    private UrdfLoader(String file, Consumer<String> warnings) {
        this.file = file;
        this.messages = new SourceMessages(file, warnings);
    }

    /** @return the folder of the loaded file (relative mesh paths start there), or the working directory */
    private Path folder() {
        try {
            Path parent = Path.of(file).toAbsolutePath().getParent();
            return parent == null ? Path.of("").toAbsolutePath() : parent;
        } catch (RuntimeException e) {
            return Path.of("").toAbsolutePath();
        }
    }

    /** @return whether a file is a URDF robot by its name (.urdf, any case), not an SDF world */
    public static boolean isUrdf(Path file) {
        Path name = file.getFileName();
        return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".urdf");
    }

    /**
     * Loads a URDF file.
     *
     * @param path     the .urdf file
     * @param warnings receives one line per ignored or doubtful element kind ("file:line: ...")
     * @return a world holding the robot
     * @throws WorldFormatException when the file is missing, not XML, not URDF, or describes a robot
     *                              that cannot run as written (file, line and fix named)
     */
    public static World load(Path path, Consumer<String> warnings) {
        return XmlTree.readFile(path, "a .urdf robot file", in -> in, in -> load(in, path.toString(), warnings));
    }

    /**
     * Loads a URDF robot from a stream.
     *
     * @param in       the document, read to its end (not closed)
     * @param source   a name for messages
     * @param warnings receives one line per ignored or doubtful element kind
     * @return a world holding the robot
     * @throws WorldFormatException as {@link #load(Path, Consumer)}
     */
    public static World load(InputStream in, String source, Consumer<String> warnings) {
        return new UrdfLoader(source, warnings).robot(XmlTree.parseOrRefuse(in, source));
    }

    // ---------------------------------------------------------------- the file as written

    private record RawLink(String name, Element element, World.Inertial inertial, List<World.Collision> collisions,
                           List<World.Visual> visuals) {
    }

    private record RawJoint(String name, Element element, String type, String parent, String child, Pose origin,
                            double[] axis, double lower, double upper, double effort, double velocity, double damping,
                            double friction) {
    }

    private World robot(Element root) {
        if (!root.name.equals("robot")) {
            throw error(root, "the root element is <" + root.name + ">, expected <robot>: is this a URDF file?");
        }
        checkNoXacro(root);
        String robotName = required(root, "name");
        Map<String, double[]> materials = new HashMap<>();
        for (Element m : root.children("material")) {
            double[] rgba = rgba(m);
            if (rgba != null && m.attribute("name") != null) {
                materials.put(m.attribute("name"), rgba);
            }
        }
        Map<String, Double> friction = new HashMap<>();
        Set<String> preserved = new HashSet<>();
        World.Coordinates coordinates = World.Coordinates.JOINT;
        boolean selfCollide = false;
        for (Element g : root.children("gazebo")) {
            if (g.attribute("reference") == null && g.child(World.Model.COORDINATES_ELEMENT) != null) {
                coordinates = messages.coordinates(g.child(World.Model.COORDINATES_ELEMENT));
            }
            // Gazebo's <self_collide> (robot level) and <selfCollide> (a link's): Tandem decides per robot
            for (Element c : g.children) {
                if (c.name.equals("self_collide") || c.name.equals("selfCollide")) {
                    String t = c.text().trim().toLowerCase(Locale.ROOT);
                    if (!t.equals("true") && !t.equals("1") && !t.equals("false") && !t.equals("0")) {
                        throw error(c, "<" + c.name + "> must be true or false, got '" + c.text().trim() + "'");
                    }
                    selfCollide |= t.equals("true") || t.equals("1");
                }
            }
            gazebo(g, friction, preserved);
        }
        Map<String, RawLink> links = new LinkedHashMap<>();
        for (Element e : root.children("link")) {
            RawLink l = link(e, materials, friction);
            if (links.put(l.name(), l) != null) {
                throw error(e, "a second link named '" + l.name() + "': link names must be unique in a robot");
            }
        }
        if (links.isEmpty()) {
            throw error(root, "robot '" + robotName + "' has no <link>");
        }
        Map<String, RawJoint> joints = new LinkedHashMap<>();
        Map<String, RawJoint> jointOfChild = new HashMap<>();
        for (Element e : root.children("joint")) {
            RawJoint j = joint(e, links);
            if (joints.put(j.name(), j) != null) {
                throw error(e, "a second joint named '" + j.name() + "': joint names must be unique in a robot");
            }
            RawJoint other = jointOfChild.put(j.child(), j);
            if (other != null) {
                throw error(e, "link '" + j.child() + "' is the child of two joints, '" + other.name() + "' (line "
                        + other.element().line + ") and '" + j.name() + "': a URDF robot is a tree; make one of them"
                        + " another link's child");
            }
        }
        // a mimic must name another joint of this robot, which does not mimic in turn (3.3, 10)
        for (RawJoint j : joints.values()) {
            Element mimic = j.element().child("mimic");
            if (mimic == null) {
                continue;
            }
            String leader = required(mimic, "joint");
            RawJoint l = joints.get(leader);
            if (l == null || leader.equals(j.name())) {
                throw error(mimic, "joint '" + j.name() + "' mimics '" + leader + "', which is " + (l == null ? "no joint of this"
                        + " robot (joints: " + String.join(", ", joints.keySet()) + ")" : "itself") + "; name the joint it follows");
            }
            if (l.element().child("mimic") != null) {
                throw error(mimic, "joint '" + j.name() + "' mimics '" + leader + "', which mimics '"
                        + l.element().child("mimic").attribute("joint") + "' in turn: a chain of mimics; make every mimic name"
                        + " the joint that leads");
            }
            for (String a : List.of("multiplier", "offset")) {
                if (mimic.attribute(a) != null) {
                    number(mimic, mimic.attribute(a));
                }
            }
        }
        for (String ignored : List.of("transmission", "ros2_control")) {
            for (Element e : root.children(ignored)) {
                warn(e, ignored, "<" + ignored + "> is not simulated (controllers are Tandem's own): ignored");
            }
        }
        // the tree: one root, every link reachable from it
        List<String> roots = new ArrayList<>();
        for (String l : links.keySet()) {
            if (!jointOfChild.containsKey(l)) {
                roots.add(l);
            }
        }
        if (roots.size() != 1) {
            throw error(roots.size() > 1 ? links.get(roots.get(1)).element() : root, roots.isEmpty()
                    ? "every link is some joint's child: the joints form a cycle; a URDF robot is a tree with one root link"
                    : "links " + roots + " are no joint's child: a URDF robot has one root link; join the others to it"
                            + " with joints (a link named 'world' pins the robot)");
        }
        Map<String, List<RawJoint>> childrenOf = new HashMap<>();
        for (RawJoint j : joints.values()) {
            childrenOf.computeIfAbsent(j.parent(), k -> new ArrayList<>()).add(j);
        }
        Map<String, Pose> worldPose = new LinkedHashMap<>();
        List<RawJoint> order = new ArrayList<>();
        ArrayDeque<String> queue = new ArrayDeque<>(roots);
        worldPose.put(roots.get(0), Pose.IDENTITY);
        while (!queue.isEmpty()) {
            String parent = queue.poll();
            for (RawJoint j : childrenOf.getOrDefault(parent, List.of())) {
                worldPose.put(j.child(), worldPose.get(parent).compose(j.origin()));
                order.add(j);
                queue.add(j.child());
            }
        }
        if (worldPose.size() != links.size()) {
            for (String l : links.keySet()) {
                if (!worldPose.containsKey(l)) {
                    throw error(links.get(l).element(), "link '" + l + "' is not reachable from the root link '"
                            + roots.get(0) + "': its joints form a cycle; a URDF robot is a tree");
                }
            }
        }
        return world(robotName, root, links, order, worldPose, preserved, coordinates, selfCollide);
    }

    // ---------------------------------------------------------------- Gazebo's conversion

    /** A body being built: a link, its frame in the world, and the links lumped into it by fixed joints. */
    private static final class Body {
        final RawLink link;
        final Pose pose;
        final List<Body> lumped = new ArrayList<>();

        Body(RawLink link, Pose pose) {
            this.link = link;
            this.pose = pose;
        }
    }

    private World world(String robotName, Element root, Map<String, RawLink> links, List<RawJoint> order,
            Map<String, Pose> worldPose, Set<String> preserved, World.Coordinates coordinates, boolean selfCollide) {
        Map<String, Body> bodyOf = new LinkedHashMap<>();
        for (String l : worldPose.keySet()) {
            if (l.equals("world")) {
                RawLink w = links.get(l);
                if (w.inertial() != null || !w.collisions().isEmpty() || !w.visuals().isEmpty()) {
                    warn(w.element(), "worldlink", "link 'world' stands for the world: its inertial, visuals and"
                            + " collisions are ignored");
                }
            } else {
                bodyOf.put(l, new Body(links.get(l), worldPose.get(l)));
            }
        }
        // lump fixed joints (not to the world, not preserved) in tree order: the parent's body is known
        Map<String, Body> ownerOf = new HashMap<>(bodyOf);
        List<World.Joint> joints = new ArrayList<>();
        for (RawJoint j : order) {
            boolean toWorld = j.parent().equals("world");
            if (j.type().equals("fixed") && !toWorld && !preserved.contains(j.name())) {
                Body into = ownerOf.get(j.parent());
                Body child = bodyOf.remove(j.child());
                ownerOf.put(j.child(), into);
                into.lumped.add(child);
                continue;
            }
            String parent = toWorld ? "world" : ownerOf.get(j.parent()).link.name();
            joints.add(worldJoint(j, parent, worldPose.get(j.child())));
        }
        // which bodies move: not welded to the world by a (kept) fixed joint
        Set<String> welded = new HashSet<>();
        for (World.Joint j : joints) {
            if (j.kind() == World.JointKind.FIXED && j.parent().equals("world")) {
                welded.add(j.child());
            }
        }
        Map<String, String> jointOf = new HashMap<>();
        for (World.Joint j : joints) {
            jointOf.put(j.child(), j.name() + "' (" + j.kind().name().toLowerCase(Locale.ROOT));
        }
        List<World.Link> out = new ArrayList<>();
        for (Body b : bodyOf.values()) {
            out.add(finish(b, welded.contains(b.link.name()), jointOf.get(b.link.name())));
        }
        World.Model model = new World.Model(robotName, false, Pose.IDENTITY, out, joints, root.line, coordinates, List.of(),
                selfCollide);
        return new World(robotName, file, 0, 0, GRAVITY_Z, STEP_NS, 1.0, List.of(model), List.of(), List.of(), false);
    }

    /** Sums the body's own link and its lumped links into one World.Link in its own frame. */
    private World.Link finish(Body b, boolean welded, String joint) {
        List<Body> all = new ArrayList<>();
        all.add(b);
        for (int i = 0; i < all.size(); i++) {
            all.addAll(all.get(i).lumped);
        }
        double mass = 0;
        double[] c = new double[3];
        for (Body part : all) {
            World.Inertial in = part.link.inertial();
            if (in == null) {
                continue;
            }
            double[] ci = part.pose.compose(in.pose()).transform(0, 0, 0);
            mass += in.mass();
            for (int k = 0; k < 3; k++) {
                c[k] += in.mass() * ci[k];
            }
        }
        Pose inv = b.pose.inverse();
        List<World.Collision> collisions = new ArrayList<>();
        List<World.Visual> visuals = new ArrayList<>();
        for (Body part : all) {
            Pose rel = inv.compose(part.pose);
            for (World.Collision col : part.link.collisions()) {
                collisions.add(new World.Collision(col.name(), rel.compose(col.pose()), col.geometry(), col.friction()));
            }
            for (World.Visual v : part.link.visuals()) {
                visuals.add(new World.Visual(v.name(), rel.compose(v.pose()), v.geometry(), v.rgba()));
            }
        }
        String name = b.link.name();
        Element e = b.link.element();
        if (!(mass > 0)) {
            if (!welded) {
                throw error(e, "link '" + name + "' has no mass (no <inertial>, or mass 0) but moves"
                        + (joint == null ? " (it is the root of a free robot)" : " on joint '" + joint + ")")
                        + ": give it an <inertial> with mass and inertia (Gazebo drops such a link and every link below"
                        + " it), or pin the robot with a 'world' link and a fixed joint");
            }
            return new World.Link(name, b.pose, new World.Inertial(1, Pose.IDENTITY, 1, 0, 0, 1, 0, 1), collisions, visuals,
                    e.line);
        }
        for (int k = 0; k < 3; k++) {
            c[k] /= mass;
        }
        // inertia about the common centre of mass, world axes
        double[] total = new double[9];
        for (Body part : all) {
            World.Inertial in = part.link.inertial();
            if (in == null) {
                continue;
            }
            Pose frame = part.pose.compose(in.pose());
            double[] ci = frame.transform(0, 0, 0);
            double[] local = {in.ixx(), in.ixy(), in.ixz(), in.ixy(), in.iyy(), in.iyz(), in.ixz(), in.iyz(), in.izz()};
            double[] rotated = rotateTensor(frame, local);
            double[] d = {ci[0] - c[0], ci[1] - c[1], ci[2] - c[2]};
            double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            for (int r = 0; r < 3; r++) {
                for (int s = 0; s < 3; s++) {
                    total[3 * r + s] += rotated[3 * r + s] + in.mass() * ((r == s ? dd : 0) - d[r] * d[s]);
                }
            }
        }
        // expressed in the body's link axes, at the centre of mass
        double[] inLink = rotateTensor(b.pose.inverse(), total);
        double[] cl = inv.transform(c[0], c[1], c[2]);
        World.Inertial inertial = new World.Inertial(mass, Pose.translation(cl[0], cl[1], cl[2]), inLink[0], inLink[1],
                inLink[2], inLink[4], inLink[5], inLink[8]);
        if (!welded) {
            checkInertia(e, name, inertial);
        }
        return new World.Link(name, b.pose, inertial, collisions, visuals, e.line);
    }

    /** @return R T R^T for the pose's rotation R and a row-major 3x3 tensor T */
    private static double[] rotateTensor(Pose p, double[] t) {
        double[][] r = new double[3][];
        for (int k = 0; k < 3; k++) {
            r[k] = p.rotate(k == 0 ? 1 : 0, k == 1 ? 1 : 0, k == 2 ? 1 : 0); // column k of R
        }
        double[] out = new double[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int a = 0; a < 3; a++) {
                    for (int b = 0; b < 3; b++) {
                        s += r[a][i] * t[3 * a + b] * r[b][j];
                    }
                }
                out[3 * i + j] = s;
            }
        }
        return out;
    }

    /** A moving body's mass properties: mass at least 1e-6 kg, a positive definite tensor meeting the triangle inequality. */
    private void checkInertia(Element e, String name, World.Inertial in) {
        if (in.mass() < 1e-6) {
            throw error(e, "link '" + name + "': mass " + in.mass() + " kg is below 1e-6 kg; give its real mass (kg)");
        }
        double ixx = in.ixx();
        double iyy = in.iyy();
        double izz = in.izz();
        double ixy = in.ixy();
        double ixz = in.ixz();
        double iyz = in.iyz();
        double scale = Math.max(Math.abs(ixx) + Math.abs(iyy) + Math.abs(izz), Double.MIN_NORMAL);
        if (!in.positiveDefinite()) {
            throw error(e, "link '" + name + "': its inertia is not positive definite (ixx " + ixx + ", iyy " + iyy + ", izz "
                    + izz + ", ixy " + ixy + ", ixz " + ixz + ", iyz " + iyz + " kg m^2); give positive moments about the"
                    + " centre of mass larger than the products of inertia");
        }
        // principal moments of a real body: each at most the sum of the other two (a little slack for rounding)
        double slack = 1e-9 * scale;
        if (ixx > iyy + izz + slack || iyy > ixx + izz + slack || izz > ixx + iyy + slack) {
            throw error(e, "link '" + name + "': no body has these moments (ixx " + ixx + ", iyy " + iyy + ", izz " + izz
                    + " kg m^2): each must be at most the sum of the other two; is a moment on the wrong axis?");
        }
    }

    private World.Joint worldJoint(RawJoint j, String parent, Pose childPose) {
        double[] a = childPose.rotate(j.axis()[0], j.axis()[1], j.axis()[2]);
        World.JointKind kind = switch (j.type()) {
            case "revolute" -> World.JointKind.REVOLUTE;
            case "continuous" -> World.JointKind.CONTINUOUS;
            case "prismatic" -> World.JointKind.PRISMATIC;
            default -> World.JointKind.FIXED;
        };
        return new World.Joint(j.name(), kind, parent, j.child(), childPose, a[0], a[1], a[2], j.lower(), j.upper(),
                j.damping(), j.element().line, j.effort(), j.velocity(), false, j.friction());
    }

    // ---------------------------------------------------------------- elements

    private RawLink link(Element e, Map<String, double[]> materials, Map<String, Double> friction) {
        String name = required(e, "name");
        if (name.contains("::")) {
            throw error(e, "link name '" + name + "' contains '::', which scoped names use; rename it");
        }
        World.Inertial inertial = null;
        Element in = e.child("inertial");
        if (in != null) {
            Element m = in.child("mass");
            double mass = m == null ? 0 : number(m, required(m, "value"));
            if (mass < 0) {
                throw error(m, "link '" + name + "': mass must be >= 0 kg, got " + mass);
            }
            Pose origin = origin(in.child("origin"));
            Element t = in.child("inertia");
            double[] v = new double[6];
            if (t != null) {
                String[] keys = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
                for (int k = 0; k < 6; k++) {
                    String s = t.attribute(keys[k]);
                    v[k] = s == null ? 0 : number(t, s);
                }
            }
            if (mass > 0) {
                inertial = new World.Inertial(mass, origin, v[0], v[1], v[2], v[3], v[4], v[5]);
            }
        }
        double mu = friction.getOrDefault(name, 1.0);
        List<World.Collision> collisions = new ArrayList<>();
        for (Element c : e.children("collision")) {
            Geometry g = geometry(c, name);
            if (g != null) {
                collisions.add(new World.Collision(c.attribute("name") == null ? name + "_collision_" + collisions.size()
                        : c.attribute("name"), origin(c.child("origin")), g, mu));
            }
        }
        List<World.Visual> visuals = new ArrayList<>();
        for (Element v : e.children("visual")) {
            Geometry g = geometry(v, name);
            if (g != null) {
                visuals.add(new World.Visual(v.attribute("name") == null ? name + "_visual_" + visuals.size()
                        : v.attribute("name"), origin(v.child("origin")), g, material(v, materials)));
            }
        }
        return new RawLink(name, e, inertial, collisions, visuals);
    }

    private RawJoint joint(Element e, Map<String, RawLink> links) {
        String name = required(e, "name");
        String type = required(e, "type");
        switch (type) {
            case "revolute", "continuous", "prismatic", "fixed", "floating" -> { }
            case "planar" -> throw error(e, "joint '" + name + "': planar joints are not supported; model the base with"
                    + " two prismatic joints and a continuous one");
            default -> throw error(e, "joint '" + name + "': unknown type '" + type + "'; URDF has revolute, continuous,"
                    + " prismatic, fixed, floating and planar");
        }
        if (type.equals("floating")) {
            throw error(e, "joint '" + name + "': a floating joint holds nothing: drop the joint (and the 'world' link, if it"
                    + " only serves it), and the robot moves freely, as Gazebo converts it");
        }
        String parent = linkRef(e, "parent", name, links);
        String child = linkRef(e, "child", name, links);
        if (child.equals("world")) {
            throw error(e, "joint '" + name + "': 'world' cannot be a child; make it the parent");
        }
        if (parent.equals(child)) {
            throw error(e, "joint '" + name + "': parent and child are both '" + child + "'");
        }
        Pose origin = origin(e.child("origin"));
        double[] axis = {1, 0, 0};
        Element ax = e.child("axis");
        if (ax != null && !type.equals("fixed")) {
            axis = numbers(ax, required(ax, "xyz"), 3);
            double n = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            if (!(n > 1e-12)) {
                throw error(ax, "joint '" + name + "': the axis is zero; give its direction, e.g. xyz=\"0 0 1\"");
            }
            if (Math.abs(n - 1) > 1e-6) {
                warn(ax, "axis:" + name, "joint '" + name + "': axis " + ax.attribute("xyz") + " is not a unit vector:"
                        + " normalized");
                for (int k = 0; k < 3; k++) {
                    axis[k] /= n;
                }
            }
        }
        double lower = Double.NEGATIVE_INFINITY;
        double upper = Double.POSITIVE_INFINITY;
        double effort = Double.POSITIVE_INFINITY;
        double velocity = Double.POSITIVE_INFINITY;
        Element limit = e.child("limit");
        boolean limited = type.equals("revolute") || type.equals("prismatic");
        if (limited && limit == null) {
            throw error(e, "joint '" + name + "' is of type " + type + " but gives no <limit>: add <limit lower=\"...\""
                    + " upper=\"...\" effort=\"...\" velocity=\"...\"/> (or make it continuous)");
        }
        if (limit != null && !type.equals("fixed")) {
            if (limit.attribute("effort") == null || limit.attribute("velocity") == null) {
                throw error(limit, "joint '" + name + "': <limit> needs effort=\"...\" (N m or N) and velocity=\"...\""
                        + " (rad/s or m/s)");
            }
            effort = nonNegative(limit, "effort", name);
            velocity = nonNegative(limit, "velocity", name);
            if (limited) {
                lower = limit.attribute("lower") == null ? 0 : number(limit, limit.attribute("lower"));
                upper = limit.attribute("upper") == null ? 0 : number(limit, limit.attribute("upper"));
                if (lower > upper) {
                    throw error(limit, "joint '" + name + "': lower limit " + lower + " is above the upper " + upper);
                }
                if (type.equals("revolute") && (Math.abs(lower) > TWO_PI || Math.abs(upper) > TWO_PI)) {
                    warn(limit, "degrees:" + name, "joint '" + name + "': limits " + lower + " .. " + upper + " exceed 2 pi:"
                            + " URDF angles are radians (degrees given?)");
                }
            }
        }
        double damping = 0;
        double friction = 0;
        Element dyn = e.child("dynamics");
        if (dyn != null) {
            damping = dyn.attribute("damping") == null ? 0 : nonNegative(dyn, "damping", name);
            friction = dyn.attribute("friction") == null ? 0 : nonNegative(dyn, "friction", name);
        }
        if (e.child("mimic") != null) {
            warn(e.child("mimic"), "mimic", "<mimic> is not simulated yet: the joint moves on its own");
        }
        for (String ignored : List.of("calibration", "safety_controller")) {
            if (e.child(ignored) != null) {
                warn(e.child(ignored), ignored, "<" + ignored + "> is ignored (as in Gazebo)");
            }
        }
        return new RawJoint(name, e, type, parent, child, origin, axis, lower, upper, effort, velocity, damping, friction);
    }

    private String linkRef(Element joint, String which, String jointName, Map<String, RawLink> links) {
        Element ref = joint.child(which);
        if (ref == null) {
            throw error(joint, "joint '" + jointName + "' has no <" + which + " link=\"...\"/>");
        }
        String l = required(ref, "link");
        if (!links.containsKey(l)) {
            throw error(ref, "joint '" + jointName + "': " + which + " link '" + l + "' is not a link of this robot"
                    + " (links: " + String.join(", ", links.keySet()) + ")");
        }
        return l;
    }

    private void gazebo(Element g, Map<String, Double> friction, Set<String> preserved) {
        String ref = g.attribute("reference");
        if (ref == null) {
            if (g.children.stream().anyMatch(c -> !c.name.equals(World.Model.COORDINATES_ELEMENT) && !c.name.equals("self_collide"))) {
                warn(g, "gazebo", "robot-level <gazebo> (plugins, controllers) is ignored");
            }
            return;
        }
        for (Element c : g.children) {
            switch (c.name) {
                case "mu1", "mu" -> friction.put(ref, nonNegative(c, null, ref));
                case "preserveFixedJoint" -> {
                    if (c.text().equals("true") || c.text().equals("1")) {
                        preserved.add(ref);
                    }
                }
                case "selfCollide", "self_collide" -> {
                    // read with the robot's (above)
                }
                default -> warn(c, "gazebo:" + c.name, "<gazebo> <" + c.name + "> is ignored");
            }
        }
    }

    private Geometry geometry(Element owner, String link) {
        Element g = owner.child("geometry");
        if (g == null || g.children.isEmpty()) {
            throw error(owner, "link '" + link + "': <" + owner.name + "> needs a <geometry> with a box, cylinder, sphere"
                    + " or mesh");
        }
        Element s = g.children.get(0);
        return switch (s.name) {
            case "box" -> {
                double[] v = numbers(s, required(s, "size"), 3);
                yield new Geometry.Box(positive(s, v[0]), positive(s, v[1]), positive(s, v[2]));
            }
            case "cylinder" -> new Geometry.Cylinder(positive(s, number(s, required(s, "radius"))),
                    positive(s, number(s, required(s, "length"))));
            case "sphere" -> new Geometry.Sphere(positive(s, number(s, required(s, "radius"))));
            case "mesh" -> {
                String uri = required(s, "filename");
                double[] scale = s.attribute("scale") == null ? new double[] {1, 1, 1} : numbers(s, s.attribute("scale"), 3);
                for (double v : scale) {
                    if (!(v != 0) || !Double.isFinite(v)) {
                        throw error(s, "mesh scale factors must be finite and non-zero, got " + v);
                    }
                }
                Geometry.Mesh mesh = meshes.load(uri, folder(), scale, messages.where(s) + ": ");
                double span = io.tandem.world.internal.MeshSources.span(mesh);
                if (span > io.tandem.world.internal.MeshSources.LARGE_M) {
                    warn(s, "mesh-size:" + uri, "mesh '" + uri + "' spans " + String.format(Locale.ROOT, "%.3g", span) + " m on a"
                            + " link: is it in millimetres? give it scale=\"0.001 0.001 0.001\"");
                }
                yield mesh;
            }
            default -> throw error(s, "link '" + link + "': unknown geometry <" + s.name + ">; URDF has box, cylinder,"
                    + " sphere and mesh");
        };
    }

    private double[] material(Element visual, Map<String, double[]> materials) {
        Element m = visual.child("material");
        if (m == null) {
            return new double[] {0.8, 0.8, 0.8, 1};
        }
        double[] rgba = rgba(m);
        if (rgba != null) {
            return rgba;
        }
        double[] named = m.attribute("name") == null ? null : materials.get(m.attribute("name"));
        return named != null ? named : new double[] {0.8, 0.8, 0.8, 1};
    }

    private double[] rgba(Element material) {
        Element c = material.child("color");
        if (c == null || c.attribute("rgba") == null) {
            return null;
        }
        double[] v = numbers(c, c.attribute("rgba"), 4);
        for (double x : v) {
            if (x < 0 || x > 1) {
                throw error(c, "color rgba components must be in [0, 1], got '" + c.attribute("rgba") + "'");
            }
        }
        return v;
    }

    private Pose origin(Element o) {
        if (o == null) {
            return Pose.IDENTITY;
        }
        double[] xyz = o.attribute("xyz") == null ? new double[3] : numbers(o, o.attribute("xyz"), 3);
        double[] rpy = o.attribute("rpy") == null ? new double[3] : numbers(o, o.attribute("rpy"), 3);
        for (double a : rpy) {
            if (Math.abs(a) > TWO_PI) {
                warn(o, "rpy", "rpy " + o.attribute("rpy") + " has an angle beyond 2 pi: URDF angles are radians"
                        + " (degrees given?)");
                break;
            }
        }
        return Pose.fromXyzRpy(xyz[0], xyz[1], xyz[2], rpy[0], rpy[1], rpy[2]);
    }

    /** Refuses xacro that was never expanded: its tags, ${...} and $(...) in attributes. */
    private void checkNoXacro(Element e) {
        if (e.name.startsWith("xacro:")) {
            throw error(e, "<" + e.name + "> is xacro, not URDF: expand it first (xacro robot.urdf.xacro > robot.urdf)");
        }
        for (Map.Entry<String, String> a : e.attributes.entrySet()) {
            if (a.getValue().contains("${") || a.getValue().contains("$(")) {
                throw error(e, a.getKey() + "=\"" + a.getValue() + "\" is an unexpanded xacro expression: expand the file"
                        + " first (xacro robot.urdf.xacro > robot.urdf)");
            }
        }
        for (Element c : e.children) {
            checkNoXacro(c);
        }
    }

    // ---------------------------------------------------------------- numbers and messages

    private double[] numbers(Element e, String text, int n) {
        String t = text.trim();
        String[] parts = t.isEmpty() ? new String[0] : t.split("\\s+");
        if (parts.length != n) {
            throw error(e, "<" + e.name + "> needs " + n + " numbers, got '" + text + "'");
        }
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = number(e, parts[i]);
        }
        return v;
    }

    private double number(Element e, String s) {
        try {
            double v = Double.parseDouble(s.trim());
            if (!Double.isFinite(v)) {
                throw error(e, "<" + e.name + "> has " + s.trim() + "; give a finite number");
            }
            return v;
        } catch (NumberFormatException ex) {
            throw error(e, "<" + e.name + "> needs a number, got '" + s + "'");
        }
    }

    private double positive(Element e, double v) {
        if (!(v > 0) || v > 1e6) {
            throw error(e, "<" + e.name + "> sizes must be > 0 and at most 1000 km (1e6 m), got " + v);
        }
        return v;
    }

    /** @param attribute the attribute to read, or null for the element's text */
    private double nonNegative(Element e, String attribute, String owner) {
        double v = number(e, attribute == null ? e.text() : required(e, attribute));
        if (v < 0) {
            throw error(e, "'" + owner + "': " + (attribute == null ? "<" + e.name + ">" : attribute) + " must be >= 0, got "
                    + v);
        }
        return v;
    }

    private String required(Element e, String attribute) {
        return messages.required(e, attribute);
    }

    private WorldFormatException error(Element e, String message) {
        return messages.error(e, message);
    }

    /** Reports a kind of ignored or doubtful element once per load. */
    private void warn(Element e, String kind, String message) {
        messages.warn(e, kind, message);
    }
}
