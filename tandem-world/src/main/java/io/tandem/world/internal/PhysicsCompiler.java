package io.tandem.world.internal;

import io.tandem.physics.JointType;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.SolverSettings;
import io.tandem.world.Geometry;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/*
 * Implementation notes.
 *
 * One physics body per link of a loaded model, in the world's model order and each model's link
 * order. Every body's global id (PhysicsModel.BodyBuilder.id) is its link's index in the whole
 * world (model order, then link order, counting unloaded models too), and every joint's id its
 * index among all the world's joints: the same link has the same id in every compiled subset, so
 * the engine's canonical order and the contact warm-start keys are the same in a standalone run,
 * after any level change, and on a secondary that holds only some models (subset equivalence,
 * PhysicsEngine).
 *
 * The engine's body frame is the centre of mass on principal axes. A link's frame differs: the
 * body sits at link (x) inertial pose (x) principal rotation; the principal axes come from a
 * Jacobi eigen-decomposition of SDF's inertia tensor. Collision poses are re-expressed in that
 * body frame. Bodies are always built at the world file's initial poses, so joint references
 * (limits, springs: relative to the initial configuration) are the file's zero configuration;
 * the runner then writes current states over them.
 *
 * Robots: a model pinned to the world (one fixed joint from the world to its root link) whose
 * other joints form a tree of revolute, continuous and prismatic joints without velocity motors
 * becomes one articulation in joint coordinates (PhysicsModel.Builder#articulation;
 * shared/specs/physics-wave2.md 1): its root link a static body, its joints in breadth-first
 * order from the root, limits, damping and effort from the file; <tandem:coordinates>maximal keeps
 * it as below. Floating robots, loops, ball joints and motors stay in maximal coordinates.
 * <tandem:coordinates>planar makes a free robot a wheeled base in joint coordinates: massless x and
 * y slides and a yaw hinge at its root link's origin, a no-slip row along the root's y axis
 * (physics-wave2.md 4.2); its joints BASE_X, BASE_Y, BASE_YAW lead its dofs.
 *
 * Joints: child = side A, parent = side B (or the world). Joint damping becomes a pure damper
 * (spring of stiffness 0), joint friction a motor of speed 0 bounded by it (a robot's: a friction row). A model with joints is one SubADMM subsystem (its joints are then
 * solved exactly inside it). Friction of a body: its first collision's mu (the engine keeps one
 * coefficient per body). A joint with a velocity motor (World.Joint.motor) gets an engine motor with the
 * effort as its force bound and target speed 0 (WorldRunner.setJointVelocity changes it).
 */

/** Builds the {@link PhysicsModel} of a set of loaded models. Build-time only; allocates. */
public final class PhysicsCompiler {
    /** Where a link's body lives in the compiled model. */
    public record BodyRef(String model, String link, int body, Pose bodyInLink) {
    }

    /**
     * The compiled model and the maps from links and joints to its indices: {@code joints} to the
     * engine's joints (maximal coordinates), {@code dofs} to its articulations' joints (model-wide
     * dof indices, PhysicsModel#dof); a joint is in one of the two, or in neither (fixed, not loaded).
     */
    public record Compiled(PhysicsModel model, List<BodyRef> bodies, Map<String, Integer> joints, Map<String, Integer> dofs) {
        /** @return key of a link: model::link */
        public static String key(String model, String name) {
            return model + "\u0000" + name;
        }
    }

    private PhysicsCompiler() {
    }

    public static Compiled compile(World world, List<String> loadedModels, SolverSettings solver) {
        PhysicsModel.Builder b = PhysicsModel.builder()
                .timeStep(world.stepSizeNs() / 1e9)
                .gravity(world.gravityX(), world.gravityY(), world.gravityZ())
                .solver(solver);
        List<BodyRef> bodies = new ArrayList<>();
        Map<String, Integer> bodyOfLink = new LinkedHashMap<>();
        Map<String, Integer> joints = new LinkedHashMap<>();
        Map<String, Integer> dofs = new LinkedHashMap<>();
        int group = 0;
        // global ids: a link's and a joint's index in the whole world, loaded or not
        long linkId = 0;
        long jointId = 0;
        // a set: a List's contains made compiling quadratic in the models (10^5 bodies took minutes)
        java.util.Set<String> loaded = new java.util.HashSet<>(loadedModels);
        for (World.Model m : world.models()) {
            if (!loaded.contains(m.name())) {
                linkId += m.links().size();
                jointId += m.joints().size();
                continue;
            }
            boolean planar = !m.isStatic() && m.coordinates() == World.Coordinates.PLANAR;
            List<World.Joint> tree = m.isStatic() || m.coordinates() == World.Coordinates.MAXIMAL ? null
                    : planar ? planarTree(world, m) : pinnedTree(m);
            // a free robot (no joint to the world, a tree under one root link) floats
            boolean floating = false;
            if (tree == null && !m.isStatic() && m.coordinates() == World.Coordinates.JOINT && m.links().size() >= 2) {
                String free = freeRoot(m);
                tree = free == null ? null : treeFrom(m, free, 0);
                floating = tree != null;
            }
            // the pinned robot's root link is welded to the world; a planar or floating base's moves
            String root = tree == null ? null : planar || floating ? freeRoot(m) : rootLink(m);
            boolean grouped = tree == null && !m.isStatic() && !m.joints().isEmpty();
            for (World.Link l : m.links()) {
                Pose bodyInLink = m.isStatic() ? Pose.IDENTITY : principalFrame(l.inertial());
                Pose bodyPose = l.pose().compose(bodyInLink);
                String name = m.name() + "::" + l.name();
                PhysicsModel.BodyBuilder body = b.body(name)
                        .id(linkId++)
                        .position(bodyPose.x(), bodyPose.y(), bodyPose.z())
                        .orientation(bodyPose.qw(), bodyPose.qx(), bodyPose.qy(), bodyPose.qz());
                if (m.isStatic() || l.name().equals(root) && !planar && !floating) {
                    // (a robot's root link is welded to the world: its base)
                    body.makeStatic();
                } else {
                    double[] d = principalMoments(l.inertial());
                    body.mass(l.inertial().mass(), d[0], d[1], d[2]);
                    if (grouped) {
                        body.subsystem(group);
                    }
                }
                Pose linkInBody = bodyInLink.inverse();
                boolean frictionSet = false;
                for (World.Collision c : l.collisions()) {
                    if (c.geometry() instanceof Geometry.Plane && !m.isStatic()) {
                        throw new WorldFormatException(world.source() + ":" + l.line() + ": link '" + l.name() + "' of model '"
                                + m.name() + "' has a plane collision but is not static; a plane is infinite: make the model static");
                    }
                    Pose local = linkInBody.compose(c.pose());
                    if (c.geometry() instanceof Geometry.Mesh mesh) {
                        addMesh(body, mesh, local, world.source() + ":" + l.line() + ": link '" + l.name() + "' of model '"
                                + m.name() + "': collision '" + c.name() + "': ");
                    } else {
                        addShape(body, c.geometry(), local);
                    }
                    if (!frictionSet) {
                        body.friction(c.friction());
                        frictionSet = true;
                    }
                }
                bodyOfLink.put(Compiled.key(m.name(), l.name()), bodies.size());
                bodies.add(new BodyRef(m.name(), l.name(), body.add(), bodyInLink));
            }
            if (grouped) {
                group++;
            }
            if (tree != null) {
                jointId = articulation(b, m, tree, root, planar, floating, bodyOfLink, bodies, dofs, jointId);
                continue;
            }
            for (World.Joint j : m.joints()) {
                long id = jointId++;
                Integer a = bodyOfLink.get(Compiled.key(m.name(), j.child()));
                Integer p = j.parent().equals("world") ? Integer.valueOf(-1) : bodyOfLink.get(Compiled.key(m.name(), j.parent()));
                if (a == null || p == null || m.isStatic()) {
                    continue;
                }
                Pose jp = j.pose();
                PhysicsModel.JointBuilder jb = switch (j.kind()) {
                    case REVOLUTE, CONTINUOUS -> b.revoluteJoint(a, p, jp.x(), jp.y(), jp.z(), j.axisX(), j.axisY(), j.axisZ());
                    case PRISMATIC -> b.prismaticJoint(a, p, jp.x(), jp.y(), jp.z(), j.axisX(), j.axisY(), j.axisZ());
                    case BALL -> b.ballJoint(a, p, jp.x(), jp.y(), jp.z());
                    case FIXED -> b.fixedJoint(a, p, jp.x(), jp.y(), jp.z());
                };
                if ((j.kind() == World.JointKind.REVOLUTE || j.kind() == World.JointKind.PRISMATIC)
                        && (j.lower() > Double.NEGATIVE_INFINITY || j.upper() < Double.POSITIVE_INFINITY)) {
                    jb.limits(j.lower(), j.upper());
                }
                if (j.damping() > 0 && j.kind() != World.JointKind.BALL && j.kind() != World.JointKind.FIXED) {
                    jb.spring(0, j.damping());
                }
                if (j.motor()) {
                    // a velocity motor bounded by the limit's effort; the runner commands its speed
                    jb.motor(0, j.effort());
                } else if (j.friction() > 0 && (j.kind() == World.JointKind.REVOLUTE || j.kind() == World.JointKind.CONTINUOUS
                        || j.kind() == World.JointKind.PRISMATIC)) {
                    // Coulomb friction: a motor holding speed 0 with at most the friction torque (force)
                    jb.motor(0, j.friction());
                }
                joints.put(Compiled.key(m.name(), j.name()), jb.id(id).add());
            }
        }
        addCablesAndDeformables(world, b, bodyOfLink, bodies, linkId, jointId);
        return new Compiled(b.build(), bodies, joints, dofs);
    }

    /**
     * The world's cables and deformable bodies (Tandem's SDF extension), after every model: their
     * bodies' global ids follow the world's links, their joints' ids the world's joints, so they
     * are the same in every compiled subset. A cable's welded end is a fixed joint (6 hard rows)
     * at its end point; a deformable body's node welds are ball joints at the nodes.
     */
    private static void addCablesAndDeformables(World world, PhysicsModel.Builder b, Map<String, Integer> bodyOfLink,
                                                List<BodyRef> bodies, long linkId, long jointId) {
        for (World.Cable c : world.cables()) {
            String where = world.source() + ":" + c.line() + ": cable '" + c.name() + "': ";
            try {
                int first = b.cable(c.name()).from(c.fromX(), c.fromY(), c.fromZ()).to(c.toX(), c.toY(), c.toZ())
                        .segments(c.segments()).diameter(c.diameter())
                        .material(c.material().youngsModulus(), c.material().poissonRatio(), c.material().density())
                        .segmentsPerSubsystem(c.segmentsPerSubsystem()).ids(linkId, jointId).add();
                linkId += c.segments();
                jointId += c.segments() - 1;
                if (c.start() != null) {
                    b.fixedJoint(first, anchorBody(world, where, c.start(), bodyOfLink, bodies), c.fromX(), c.fromY(), c.fromZ())
                            .id(jointId++).add();
                }
                if (c.end() != null) {
                    b.fixedJoint(first + c.segments() - 1, anchorBody(world, where, c.end(), bodyOfLink, bodies), c.toX(), c.toY(),
                            c.toZ()).id(jointId++).add();
                }
            } catch (IllegalArgumentException e) {
                throw new WorldFormatException(where + e.getMessage(), e);
            }
        }
        for (World.Deformable d : world.deformables()) {
            String where = world.source() + ":" + d.line() + ": deformable '" + d.name() + "': ";
            try {
                Pose p = d.pose();
                io.tandem.physics.DeformableBuilder db = b.deformable(d.name())
                        .material(d.material().youngsModulus(), d.material().poissonRatio(), d.material().density())
                        .rayleigh(d.rayleighAlpha(), d.rayleighBeta()).blocks(d.blocks()).nodeRadius(d.nodeRadius())
                        .at(p.x(), p.y(), p.z(), p.qw(), p.qx(), p.qy(), p.qz()).ids(linkId, jointId);
                if (d.meshFile() != null) {
                    db.meshFile(d.meshFile());
                } else {
                    db.box(d.sizeX(), d.sizeY(), d.sizeZ(), d.cellsX(), d.cellsY(), d.cellsZ());
                }
                int bodies0 = b.bodyCount();
                int joints0 = b.jointCount();
                int index = db.add();
                linkId += b.bodyCount() - bodies0;
                jointId += b.jointCount() - joints0;
                for (World.NodeWeld w : d.welds()) {
                    int anchor = anchorBody(world, where, w.anchor(), bodyOfLink, bodies);
                    jointId += b.weldNodes(index, anchor, (x, y, z) -> x >= w.minX() && x <= w.maxX() && y >= w.minY()
                            && y <= w.maxY() && z >= w.minZ() && z <= w.maxZ(), jointId);
                }
            } catch (IllegalArgumentException e) {
                throw new WorldFormatException(where + e.getMessage(), e);
            }
        }
    }

    /** The body an anchor names (-1 for the world), or an error naming the source line. */
    private static int anchorBody(World world, String where, World.Anchor a, Map<String, Integer> bodyOfLink,
                                  List<BodyRef> bodies) {
        if (a.isWorld()) {
            return -1;
        }
        Integer ref = bodyOfLink.get(Compiled.key(a.model(), a.link()));
        if (ref == null) {
            throw new WorldFormatException(where + "it is welded to link '" + a.link() + "' of model '" + a.model()
                    + "', which " + (world.model(a.model()).isPresent() ? "is not loaded or has no such link" : "the world does not have")
                    + "; name a link of a loaded model, or leave model out to weld to the world");
        }
        return bodies.get(ref).body();
    }

    /**
     * The joints of a robot pinned to the world, in breadth-first order from its root (each
     * joint's parent link before its child), or null when the model is no such tree: one fixed
     * joint from the world to the root, every other joint revolute, continuous or prismatic
     * without a motor, each link the child of exactly one joint.
     */
    static List<World.Joint> pinnedTree(World.Model m) {
        String root = rootLink(m);
        if (root == null || m.links().size() < 2) {
            return null;
        }
        return treeFrom(m, root, 1);
    }

    /**
     * The model's joints other than those from the world, breadth-first from {@code root}, when
     * they form a tree of revolute, continuous and prismatic joints without motors spanning every
     * link; else null.
     *
     * @param worldJoints how many joints from the world the model has (they are skipped)
     */
    private static List<World.Joint> treeFrom(World.Model m, String root, int worldJoints) {
        Map<String, List<World.Joint>> children = new LinkedHashMap<>();
        java.util.Set<String> childLinks = new java.util.HashSet<>();
        for (World.Joint j : m.joints()) {
            if (j.parent().equals("world")) {
                continue;
            }
            boolean axis = j.kind() == World.JointKind.REVOLUTE || j.kind() == World.JointKind.CONTINUOUS
                    || j.kind() == World.JointKind.PRISMATIC;
            if (!axis || j.motor() || !childLinks.add(j.child())) {
                return null;
            }
            children.computeIfAbsent(j.parent(), k -> new ArrayList<>()).add(j);
        }
        List<World.Joint> order = new ArrayList<>();
        java.util.ArrayDeque<String> queue = new java.util.ArrayDeque<>();
        queue.add(root);
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (!queue.isEmpty()) {
            String link = queue.poll();
            if (!seen.add(link)) {
                return null;
            }
            for (World.Joint j : children.getOrDefault(link, List.of())) {
                order.add(j);
                queue.add(j.child());
            }
        }
        // every link reached, every joint used: a tree
        return seen.size() == m.links().size() && order.size() == m.joints().size() - worldJoints ? order : null;
    }

    /**
     * The joints of a planar base (World.Coordinates.PLANAR) in breadth-first order from its root,
     * or an error naming the file: no joint to the world, every joint revolute, continuous or
     * prismatic without a motor, a tree.
     */
    static List<World.Joint> planarTree(World world, World.Model m) {
        String root = freeRoot(m);
        List<World.Joint> order = root == null ? null : treeFrom(m, root, 0);
        if (order == null) {
            throw new WorldFormatException(world.source() + ":" + m.line() + ": model '" + m.name() + "' asks for planar"
                    + " coordinates but is not a tree of revolute, continuous and prismatic joints (without motors) under one"
                    + " root link with no joint to the world; use joint or maximal coordinates");
        }
        return order;
    }

    /** The one link that is no joint's child (a free robot's root), or null. */
    private static String freeRoot(World.Model m) {
        java.util.Set<String> children = new java.util.HashSet<>();
        for (World.Joint j : m.joints()) {
            if (j.parent().equals("world")) {
                return null;
            }
            children.add(j.child());
        }
        String root = null;
        for (World.Link l : m.links()) {
            if (!children.contains(l.name())) {
                if (root != null) {
                    return null;
                }
                root = l.name();
            }
        }
        return root;
    }

    /** The link a model's single fixed joint from the world holds, or null. */
    private static String rootLink(World.Model m) {
        String root = null;
        for (World.Joint j : m.joints()) {
            if (j.parent().equals("world")) {
                if (root != null || j.kind() != World.JointKind.FIXED) {
                    return null;
                }
                root = j.child();
            }
        }
        return root;
    }

    /** names of a planar base's joints in {@link Compiled#dofs} (no joint of the file has them) */
    public static final String BASE_X = "\u0001base_x";
    public static final String BASE_Y = "\u0001base_y";
    public static final String BASE_YAW = "\u0001base_yaw";
    /** names of a floating base's six virtual joints in {@link Compiled#dofs} */
    static final String[] FLOATING = {"\u0001float_x", "\u0001float_y", "\u0001float_z", "\u0001float_rx", "\u0001float_ry",
        "\u0001float_rz"};

    /** Adds a robot's articulation (joint coordinates); returns the next global joint id. */
    private static long articulation(PhysicsModel.Builder b, World.Model m, List<World.Joint> tree, String root, boolean planar,
                                     boolean floating, Map<String, Integer> bodyOfLink, List<BodyRef> bodies, Map<String, Integer> dofs,
                                     long jointId) {
        io.tandem.physics.ArticulationBuilder a = b.articulation(m.name());
        if (m.selfCollide()) {
            a.selfCollide();
        }
        if (!planar && !floating) {
            // the welded root link is the robot's base: it does not collide with the links
            a.base(bodies.get(bodyOfLink.get(Compiled.key(m.name(), root))).body());
        }
        Map<String, Integer> jointOfChild = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        int base = -1;
        if (planar) {
            // x and y slides (massless) and a yaw hinge carrying the root link, all at its origin;
            // its lateral axis cannot slide (physics-wave2.md 4.2)
            World.Link r = m.links().stream().filter(l -> l.name().equals(root)).findFirst().orElseThrow();
            Pose o = r.pose();
            int rootBody = bodies.get(bodyOfLink.get(Compiled.key(m.name(), root))).body();
            int x = a.joint(JointType.PRISMATIC, -1, -1, o.x(), o.y(), o.z(), 1, 0, 0);
            int y = a.joint(JointType.PRISMATIC, x, -1, o.x(), o.y(), o.z(), 0, 1, 0);
            base = a.joint(JointType.REVOLUTE, y, rootBody, o.x(), o.y(), o.z(), 0, 0, 1);
            double[] lateral = o.rotate(0, 1, 0);
            a.noSlip(base, o.x(), o.y(), o.z(), lateral[0], lateral[1], lateral[2]);
            names.add(BASE_X);
            names.add(BASE_Y);
            names.add(BASE_YAW);
        }
        if (floating) {
            // six virtual joints carrying the root link, re-centred on it every step
            base = a.floatingBase(bodies.get(bodyOfLink.get(Compiled.key(m.name(), root))).body());
            for (String f : FLOATING) {
                names.add(f);
            }
        }
        for (World.Joint j : tree) {
            int parent = j.parent().equals(root) ? base : jointOfChild.get(j.parent());
            int child = bodies.get(bodyOfLink.get(Compiled.key(m.name(), j.child()))).body();
            Pose jp = j.pose();
            int k = a.joint(j.kind() == World.JointKind.PRISMATIC ? JointType.PRISMATIC : JointType.REVOLUTE, parent, child,
                    jp.x(), jp.y(), jp.z(), j.axisX(), j.axisY(), j.axisZ());
            jointOfChild.put(j.child(), k);
            names.add(j.name());
            if (j.kind() != World.JointKind.CONTINUOUS
                    && (j.lower() > Double.NEGATIVE_INFINITY || j.upper() < Double.POSITIVE_INFINITY)) {
                a.limits(k, j.lower(), j.upper());
            }
            if (j.damping() > 0) {
                a.damping(k, j.damping());
            }
            if (j.friction() > 0) {
                a.friction(k, j.friction());
            }
            if (j.effort() > 0 && Double.isFinite(j.effort())) {
                a.effortLimit(k, j.effort());
            }
        }
        a.add();
        // model-wide dofs: the articulations' joints in the order they were added, which is the
        // order of this map's entries
        for (String name : names) {
            dofs.put(Compiled.key(m.name(), name), dofs.size());
        }
        return jointId + m.joints().size();
    }

    /** A collision mesh: the convex hull of each of its parts, at the collision's pose. */
    private static void addMesh(PhysicsModel.BodyBuilder body, Geometry.Mesh mesh, Pose local, String where) {
        for (io.tandem.world.mesh.TriangleMesh.Part part : mesh.mesh().parts()) {
            try {
                body.convex(part.positions());
            } catch (IllegalArgumentException e) {
                throw new WorldFormatException(where + "part '" + part.name() + "' of mesh '" + mesh.uri() + "' has no volume to"
                        + " collide with (" + e.getMessage() + "); give the collision a mesh with volume, or a box");
            }
            body.at(local.x(), local.y(), local.z(), local.qw(), local.qx(), local.qy(), local.qz());
        }
    }

    private static void addShape(PhysicsModel.BodyBuilder body, Geometry g, Pose local) {
        Pose at = local;
        if (g instanceof Geometry.Box x) {
            body.box(x.sizeX() / 2, x.sizeY() / 2, x.sizeZ() / 2);
        } else if (g instanceof Geometry.Sphere sp) {
            body.sphere(sp.radius());
        } else if (g instanceof Geometry.Cylinder c) {
            body.cylinder(c.radius(), c.length() / 2);
        } else if (g instanceof Geometry.Capsule c) {
            body.capsule(c.radius(), c.length() / 2);
        } else if (g instanceof Geometry.Plane p) {
            body.plane();
            at = local.compose(zTo(p.nx(), p.ny(), p.nz()));
        }
        body.at(at.x(), at.y(), at.z(), at.qw(), at.qx(), at.qy(), at.qz());
    }

    /** The rotation taking +z to the unit vector n. */
    public static Pose zTo(double nx, double ny, double nz) {
        // half-way quaternion between z and n: (1 + z.n, z x n), normalized
        double w = 1 + nz;
        if (w < 1e-9) {
            return new Pose(0, 0, 0, 0, 1, 0, 0);
        }
        return new Pose(0, 0, 0, w, -ny, nx, 0);
    }

    /** The centre of mass on principal axes, in the link frame. */
    public static Pose principalFrame(World.Inertial in) {
        double[][] v = eigenvectors(in);
        // rotation matrix with the eigenvectors as columns, as a quaternion
        return in.pose().compose(fromMatrix(v));
    }

    public static double[] principalMoments(World.Inertial in) {
        double[][] a = tensor(in);
        double[][] v = new double[3][3];
        jacobi(a, v);
        return new double[] {positive(a[0][0]), positive(a[1][1]), positive(a[2][2])};
    }

    private static double positive(double d) {
        return Math.max(d, 1e-12);
    }

    private static double[][] tensor(World.Inertial in) {
        return new double[][] {{in.ixx(), in.ixy(), in.ixz()}, {in.ixy(), in.iyy(), in.iyz()}, {in.ixz(), in.iyz(), in.izz()}};
    }

    private static double[][] eigenvectors(World.Inertial in) {
        double[][] a = tensor(in);
        double[][] v = new double[3][3];
        jacobi(a, v);
        // right-handed
        double det = v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) - v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0])
                + v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0]);
        if (det < 0) {
            for (int r = 0; r < 3; r++) {
                v[r][2] = -v[r][2];
            }
        }
        return v;
    }

    /** Cyclic Jacobi: a becomes diagonal (eigenvalues), v holds the eigenvectors as columns. */
    private static void jacobi(double[][] a, double[][] v) {
        for (int i = 0; i < 3; i++) {
            v[i][i] = 1;
        }
        for (int sweep = 0; sweep < 50; sweep++) {
            double off = Math.abs(a[0][1]) + Math.abs(a[0][2]) + Math.abs(a[1][2]);
            if (off < 1e-15 * (Math.abs(a[0][0]) + Math.abs(a[1][1]) + Math.abs(a[2][2]) + 1e-300)) {
                return;
            }
            for (int p = 0; p < 2; p++) {
                for (int q = p + 1; q < 3; q++) {
                    if (a[p][q] == 0) {
                        continue;
                    }
                    double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                    double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) {
                        t = 1;
                    }
                    double c = 1 / Math.sqrt(t * t + 1);
                    double s = t * c;
                    for (int k = 0; k < 3; k++) {
                        double akp = a[k][p];
                        double akq = a[k][q];
                        a[k][p] = c * akp - s * akq;
                        a[k][q] = s * akp + c * akq;
                    }
                    for (int k = 0; k < 3; k++) {
                        double apk = a[p][k];
                        double aqk = a[q][k];
                        a[p][k] = c * apk - s * aqk;
                        a[q][k] = s * apk + c * aqk;
                    }
                    for (int k = 0; k < 3; k++) {
                        double vkp = v[k][p];
                        double vkq = v[k][q];
                        v[k][p] = c * vkp - s * vkq;
                        v[k][q] = s * vkp + c * vkq;
                    }
                }
            }
        }
    }

    private static Pose fromMatrix(double[][] m) {
        double tr = m[0][0] + m[1][1] + m[2][2];
        double w;
        double x;
        double y;
        double z;
        if (tr > 0) {
            double s = Math.sqrt(tr + 1) * 2;
            w = s / 4;
            x = (m[2][1] - m[1][2]) / s;
            y = (m[0][2] - m[2][0]) / s;
            z = (m[1][0] - m[0][1]) / s;
        } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
            double s = Math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]) * 2;
            w = (m[2][1] - m[1][2]) / s;
            x = s / 4;
            y = (m[0][1] + m[1][0]) / s;
            z = (m[0][2] + m[2][0]) / s;
        } else if (m[1][1] > m[2][2]) {
            double s = Math.sqrt(1 + m[1][1] - m[0][0] - m[2][2]) * 2;
            w = (m[0][2] - m[2][0]) / s;
            x = (m[0][1] + m[1][0]) / s;
            y = s / 4;
            z = (m[1][2] + m[2][1]) / s;
        } else {
            double s = Math.sqrt(1 + m[2][2] - m[0][0] - m[1][1]) * 2;
            w = (m[1][0] - m[0][1]) / s;
            x = (m[0][2] + m[2][0]) / s;
            y = (m[1][2] + m[2][1]) / s;
            z = s / 4;
        }
        return new Pose(0, 0, 0, w, x, y, z);
    }
}
