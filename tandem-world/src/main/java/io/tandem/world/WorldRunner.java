package io.tandem.world;

import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverSettings;
import io.tandem.world.internal.JointTable;
import io.tandem.world.internal.PhysicsCompiler;
import io.tandem.world.internal.PoseMath;
import io.tandem.world.internal.VisualScene;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/*
 * Implementation notes.
 *
 * The pipeline of one iteration, in Gazebo's order: (1) the level manager, on the model positions
 * at the start of the iteration; (2) when it loaded or unloaded models, the physics model is
 * rebuilt for the loaded set and every body that stays keeps its state: pose, velocities, joint
 * impulses and the contact warm starts between bodies that stay (those touching a created or
 * removed body are dropped); models (re)created come from the world file, so a reloaded model has
 * lost its runtime changes, as in Gazebo; (3) the physics step; (4) state publication to the
 * listeners. Rebuilds happen only on level changes, never in a steady run.
 *
 * Bodies and joints carry global ids from the world (PhysicsCompiler), and the engine's step
 * depends only on those ids and on the state; so a rebuild is invisible to the bodies that stay:
 * a performer whose bodies share no contact or joint with the models that come and go follows
 * bitwise the trajectory it follows when those level changes never happen (WorldRunnerTest).
 *
 * Allocation. A step without level changes allocates nothing (WorldAllocationTest): the level
 * manager's empty update returns a shared result and reads the performers' positions through a
 * PositionReader kept in a field; positions and the allocation-free pose readers come from
 * PoseMath on per-model tables (the first link's compiled body, the inverses of its bodyInLink and
 * of the model's firstLinkInModel), rebuilt with the physics model; the listeners are called by
 * index. PoseMath does the Pose records' arithmetic in their order, so the pose readers give
 * bitwise the values of modelPose(String), the one formula also of the distributed primary's scene.
 */

/**
 * Runs a {@link World}: levels, physics, state publication, one iteration per {@link #step()}.
 * One thread drives it (not thread-safe). A step without level changes allocates nothing but what
 * the listeners do; a level change rebuilds the physics model (allocates). Close it to release the
 * physics engine.
 *
 * <p>Robot side (for a closed loop with a brain): joint velocity commands and joint readings by
 * scoped name or, allocation-free, by handle ({@link #jointHandle}, {@link #setJointVelocity},
 * {@link #jointPosition}, {@link #jointVelocity}), model poses (allocation-free by handle or name
 * into an array: {@link #modelHandle}, {@link #modelPose(int, double[])}; or as a new
 * {@link Pose}: {@link #modelPose(String)}), camera sensors ({@code RayCastCamera.of}) and runtime visual
 * colours ({@link #setVisualColor}).
 */
public final class WorldRunner implements WorldView, AutoCloseable {
    /** values a model pose reader writes: x y z (m), then the unit quaternion qw qx qy qz */
    public static final int POSE_VALUES = PoseMath.VALUES;
    /** the models recoloured while running, for viewers */
    private final Map<String, double[]> visualColors = new java.util.LinkedHashMap<>();
    private final Map<String, double[]> visualColorsView = java.util.Collections.unmodifiableMap(visualColors);

    private final World world;
    private final SolverSettings solver;
    private final LevelManager levels;
    private final List<WorldView.Listener> listeners = new ArrayList<>();
    private final Map<String, World.Model> models = new HashMap<>();
    /** per model: its first link's pose in the model frame (from the file) */
    private final Map<String, Pose> firstLinkInModel = new HashMap<>();
    private final Map<String, Pose> teleports = new HashMap<>();
    /** handed-over states, applied when their models are next created (a secondary) */
    private final Map<String, ModelState> imports = new HashMap<>();
    /** per model name: its index in the world (its pose handle) */
    private final Map<String, Integer> modelIndex = new HashMap<>();
    /** per model index: the inverse of its first link's pose in the model frame (null without links) */
    private final Pose[] firstLinkInModelInverse;
    /** per model index: the compiled body of its first link, -1 while not simulated (set by rebuild) */
    private int[] firstBody;
    /** per model index: the inverse of that body's frame in its link (set by rebuild) */
    private Pose[] bodyInLinkInverse;
    /** per model handle, per link: its body now (-1 while not simulated), and its bodyInLink inverse */
    private int[][] linkBody;
    private Pose[][] linkBodyInLinkInverse;
    /** scratch of the position reader (the level manager's per-step reads) */
    private final double[] poseScratch = new double[PoseMath.VALUES];
    /** the level manager's position reader, made once (a method reference per step would allocate) */
    private final LevelManager.PositionReader positionReader = this::currentPosition;
    private PhysicsCompiler.Compiled compiled;
    private Map<String, Integer> bodyOf = new HashMap<>();
    private PhysicsEngine engine;
    private PhysicsState state;
    private long iteration;
    private long simTimeNs;
    private int rebuilds;
    /** the level changes of the initial load, reported as iteration 0 before the first step */
    private LevelManager.Changes initialChanges;
    /** the robot-side API's tables, built on first use (JointTable, VisualScene) */
    private JointTable jointTable;
    /** per joint handle: its dof in the compiled model (a robot in joint coordinates), or -1 */
    private int[] dofOfHandle = new int[0];
    /** planar bases (World.Coordinates.PLANAR): their model's name and x, y and yaw dofs */
    private String[] baseModel = new String[0];
    private int[] baseDofs = new int[0];
    /** per planar base: its mass (kg) and yaw inertia (kg m^2), for its velocity servos */
    private double[] baseServo = new double[0];
    private final Map<String, int[]> twistWheels = new HashMap<>();
    private final Map<String, World.DiffDrive> twistDrives = new HashMap<>();
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WorldRunner.class);
    /** a planar base's velocity servo reaches its command with this time constant, s */
    static final double BASE_SERVO_S = 0.05;
    private VisualScene visualScene;
    /**
     * the first global body and joint ids after the models' (the world's links and joints): the
     * cables' and deformable bodies' bodies and joints (PhysicsCompiler), always loaded
     */
    private final long firstElasticBodyId;
    private final long firstElasticJointId;

    /**
     * A runner with the engine's defaults ({@link SolverSettings#defaults()}).
     *
     * @param world     the loaded world
     * @param useLevels load and unload models by the world's levels
     */
    public WorldRunner(World world, boolean useLevels) {
        this(world, SolverSettings.defaults(), useLevels);
    }

    /**
     * @param world     the world to run
     * @param solver    the physics solver
     * @param useLevels whether levels are on (Gazebo's --levels)
     */
    public WorldRunner(World world, SolverSettings solver, boolean useLevels) {
        this(world, solver, new LevelManager(world, useLevels));
    }

    /**
     * @param world  the world to run
     * @param solver the physics solver
     * @param levels a new level manager for this world (a distributed secondary's owns some
     *               performers only; see {@link LevelManager#LevelManager(World, boolean, java.util.Collection, boolean)})
     */
    public WorldRunner(World world, SolverSettings solver, LevelManager levels) {
        this.world = world;
        this.solver = solver;
        this.levels = levels;
        int count = world.models().size();
        long links = 0;
        long joints = 0;
        for (World.Model m : world.models()) {
            links += m.links().size();
            joints += m.joints().size();
        }
        firstElasticBodyId = links;
        firstElasticJointId = joints;
        firstLinkInModelInverse = new Pose[count];
        firstBody = new int[count];
        bodyInLinkInverse = new Pose[count];
        linkBody = new int[count][];
        linkBodyInLinkInverse = new Pose[count][];
        for (int mi = 0; mi < count; mi++) {
            World.Model m = world.models().get(mi);
            linkBody[mi] = new int[m.links().size()];
            java.util.Arrays.fill(linkBody[mi], -1);
            linkBodyInLinkInverse[mi] = new Pose[m.links().size()];
            models.put(m.name(), m);
            modelIndex.put(m.name(), mi);
            if (!m.links().isEmpty()) {
                Pose f = m.pose().inverse().compose(m.links().get(0).pose());
                firstLinkInModel.put(m.name(), f);
                firstLinkInModelInverse[mi] = f.inverse();
            }
        }
        initialChanges = levels.update(0, name -> models.containsKey(name) ? position(models.get(name).pose()) : null);
        rebuild(initialChanges);
    }

    private static double[] position(Pose p) {
        return new double[] {p.x(), p.y(), p.z()};
    }

    /** @param l called after every iteration, in the order added */
    public void addListener(WorldView.Listener l) {
        listeners.add(l);
    }

    @Override
    public World world() {
        return world;
    }

    /** @return the level manager (for runtime performers and the loaded set) */
    public LevelManager levels() {
        return levels;
    }

    @Override
    public long iteration() {
        return iteration;
    }

    @Override
    public long simTimeNs() {
        return simTimeNs;
    }

    /** @return how often the physics model was rebuilt for level changes */
    public int rebuilds() {
        return rebuilds;
    }

    /** @return bodies in the physics model now */
    public int bodyCount() {
        return compiled.model().bodyCount();
    }

    /**
     * Moves a model (all its links rigidly, velocities zeroed) before the next iteration, like a
     * set-pose request; the level manager sees the new position in that iteration.
     *
     * @param model the model's name
     * @param pose  its new pose in the world
     */
    public void setModelPose(String model, Pose pose) {
        if (!models.containsKey(model)) {
            throw new IllegalArgumentException("no model named '" + model + "' in world '" + world.name() + "'");
        }
        teleports.put(model, pose);
    }

    /**
     * Runs one iteration: levels, physics, listeners. Before the first iteration the listeners
     * get iteration 0: the initial state and the initial level loads.
     */
    public void step() {
        if (initialChanges != null) {
            LevelManager.Changes c = initialChanges;
            initialChanges = null;
            for (WorldView.Listener l : listeners) {
                l.stepped(this, 0, c);
            }
        }
        applyTeleports();
        long it = iteration + 1;
        LevelManager.Changes changes = levels.update(it, positionReader);
        if (!changes.createdModels().isEmpty() || !changes.removedModels().isEmpty()) {
            rebuild(changes);
            applyTeleports();
        }
        driveBases();
        engine.step(state);
        iteration = it;
        simTimeNs += world.stepSizeNs();
        for (int i = 0; i < listeners.size(); i++) {
            listeners.get(i).stepped(this, it, changes);
        }
    }

    /** The level manager's position reader: a model's position now, allocation-free while it is simulated. */
    private boolean currentPosition(String model, double[] out) {
        Integer mi = modelIndex.get(model);
        if (mi != null && modelPose(mi, poseScratch)) {
            out[0] = poseScratch[0];
            out[1] = poseScratch[1];
            out[2] = poseScratch[2];
            return true;
        }
        ModelState in = imports.get(model);
        if (in != null && in.links().length > 0) {
            // a performer handed over to this runner: where its state says it is (the same
            // arithmetic as modelPose after the rebuild that creates it; a handover allocates)
            World.Model m = models.get(model);
            Pose bodyInLink = m.isStatic() ? Pose.IDENTITY : PhysicsCompiler.principalFrame(m.links().get(0).inertial());
            Pose p = PoseMath.modelPose(in.links(), 0, in.links(), 3, bodyInLink, firstLinkInModel.get(model));
            out[0] = p.x();
            out[1] = p.y();
            out[2] = p.z();
            return true;
        }
        return false;
    }

    /**
     * A model's handle, for the allocation-free pose reader {@link #modelPose(int, double[])}: its
     * index in the world's model list, valid for the runner's life (across level changes) and for
     * every runner of the same world.
     *
     * @param model a model's name
     * @return the handle
     * @throws IllegalArgumentException naming the model and close matches when the world has none
     */
    public int modelHandle(String model) {
        Integer mi = modelIndex.get(model);
        if (mi == null) {
            String[] names = new String[world.models().size()];
            for (int i = 0; i < names.length; i++) {
                names[i] = world.models().get(i).name();
            }
            throw new IllegalArgumentException("no model named '" + model + "' in world '" + world.name() + "'"
                    + JointTable.suggestions(model == null ? "" : model, names));
        }
        return mi;
    }

    /**
     * A model's pose now, written into an array: bitwise the values of {@link #modelPose(String)}
     * (the model frame, from its first link). Allocates nothing; call it on the runner's thread.
     *
     * @param handle from {@link #modelHandle}
     * @param out    receives {@link #POSE_VALUES} values at 0..6: x, y, z (world frame, m), then the
     *               unit quaternion qw, qx, qy, qz
     * @return false, out untouched, while the model is not loaded (levels) or has no link
     * @throws IllegalArgumentException for a handle out of range
     */
    public boolean modelPose(int handle, double[] out) {
        if (handle < 0 || handle >= firstBody.length) {
            throw new IllegalArgumentException("model handle " + handle + " out of range: world '" + world.name() + "' has "
                    + firstBody.length + " models");
        }
        int b = firstBody[handle];
        if (b < 0) {
            return false;
        }
        PoseMath.modelPose(state.pos, 3 * b, state.quat, 4 * b, bodyInLinkInverse[handle], firstLinkInModelInverse[handle],
                out, 0);
        return true;
    }

    /**
     * The global ids of the bodies of the world's cables and deformable bodies, in the order
     * {@link PhysicsModel#bodyName} names them: a cable's segments {@code NAME/i}, then each
     * deformable body's nodes {@code NAME/v} (a node copied into a second block, {@code NAME/v@b},
     * is left out: it stays on its original). For a viewer's scene; allocates the map.
     *
     * @return by cable or deformable body's name, its bodies' global ids (segment or node order)
     */
    public Map<String, long[]> elasticBodyIds() {
        PhysicsModel pm = compiled.model();
        Map<String, java.util.TreeMap<Integer, Long>> by = new LinkedHashMap<>();
        for (int b = 0; b < pm.bodyCount(); b++) {
            long id = pm.bodyId(b);
            String name = pm.bodyName(b);
            int slash = name.lastIndexOf('/');
            if (id < firstElasticBodyId || slash < 0 || slash == name.length() - 1
                    || !name.substring(slash + 1).chars().allMatch(Character::isDigit)) {
                continue; // not a segment or node (a node's copy in another block is NAME/v@b)
            }
            by.computeIfAbsent(name.substring(0, slash), k -> new java.util.TreeMap<>())
                    .put(Integer.parseInt(name.substring(slash + 1)), id);
        }
        Map<String, long[]> out = new LinkedHashMap<>();
        by.forEach((k, v) -> out.put(k, v.values().stream().mapToLong(Long::longValue).toArray()));
        return out;
    }

    /**
     * The deformable bodies' boundaries, for a viewer: 3 mesh node indices per triangle (the
     * index of {@code NAME/v} in {@link #elasticBodyIds()}), counter-clockwise seen from outside.
     * Allocates the map and arrays.
     *
     * @return by deformable body's name, its boundary triangles
     */
    public Map<String, int[]> deformableSurfaces() {
        PhysicsModel pm = compiled.model();
        Map<String, int[]> out = new LinkedHashMap<>();
        for (int d = 0; d < pm.deformableCount(); d++) {
            out.put(pm.deformableName(d), pm.deformableSurface(d));
        }
        return out;
    }

    /**
     * A body's pose now by its global id ({@link #elasticBodyIds()}): its centre of mass and
     * orientation. Allocates nothing; call it on the runner's thread.
     *
     * @param globalBodyId a body's global id
     * @param out          receives x, y, z (m), then qw, qx, qy, qz at 0..6
     * @return false, out untouched, when the compiled model has no such body
     */
    public boolean bodyPose(long globalBodyId, double[] out) {
        int b = compiled.model().bodyIndex(globalBodyId);
        if (b < 0) {
            return false;
        }
        System.arraycopy(state.pos, 3 * b, out, 0, 3);
        System.arraycopy(state.quat, 4 * b, out, 3, 4);
        return true;
    }

    /**
     * A link's frame now, written into an array: bitwise the values of {@link #linkPose(String, int)}.
     * Allocates nothing; call it on the runner's thread.
     *
     * @param handle from {@link #modelHandle}
     * @param link   the index of one of the model's links
     * @param out    receives x, y, z (m), then the unit quaternion qw, qx, qy, qz at 0..6
     * @return false, out untouched, while the model is not loaded
     */
    public boolean linkPose(int handle, int link, double[] out) {
        int b = linkBody[handle][link];
        if (b < 0) {
            return false;
        }
        PoseMath.linkPose(state.pos, 3 * b, state.quat, 4 * b, linkBodyInLinkInverse[handle][link], out, 0);
        return true;
    }

    /**
     * {@link #modelPose(int, double[])} by name (a hash lookup; allocates nothing).
     *
     * @param model a model's name
     * @param out   receives x, y, z (m), qw, qx, qy, qz at 0..6
     * @return false, out untouched, for a model that is not loaded, has no link or that the world
     *         does not have (as {@link #modelPose(String)} returns null)
     */
    public boolean modelPose(String model, double[] out) {
        Integer mi = modelIndex.get(model);
        return mi != null && modelPose(mi.intValue(), out);
    }

    /**
     * @param model a model's name
     * @return its pose now (the model frame, from its first link), or null while it is not loaded;
     *         allocates a few {@link Pose} records (per step, use {@link #modelPose(int, double[])})
     */
    @Override
    public Pose modelPose(String model) {
        Integer b = bodyOf.get(PhysicsCompiler.Compiled.key(model, firstLinkName(model)));
        if (b == null) {
            return null;
        }
        PhysicsCompiler.BodyRef ref = compiled.bodies().get(b);
        return PoseMath.modelPose(state.pos, 3 * ref.body(), state.quat, 4 * ref.body(), ref.bodyInLink(),
                firstLinkInModel.get(model));
    }

    /**
     * @param model a model's name
     * @param link  the index of one of its links
     * @return that link's frame now, or null while the model is not loaded (or for an unknown
     *         model or link); allocates a few {@link Pose} records
     */
    @Override
    public Pose linkPose(String model, int link) {
        World.Model m = models.get(model);
        if (m == null || link < 0 || link >= m.links().size()) {
            return null;
        }
        Integer b = bodyOf.get(PhysicsCompiler.Compiled.key(model, m.links().get(link).name()));
        if (b == null) {
            return null;
        }
        PhysicsCompiler.BodyRef ref = compiled.bodies().get(b);
        return PoseMath.linkPose(state.pos, 3 * ref.body(), state.quat, 4 * ref.body(), ref.bodyInLink());
    }

    @Override
    public double jointPosition(String model, int joint) {
        World.Model m = models.get(model);
        if (m == null || joint < 0 || joint >= m.joints().size()) {
            return Double.NaN;
        }
        return jointPositionOrNaN(joints().handle(model + "::" + m.joints().get(joint).name()));
    }

    /** {@link #jointPosition(String, int)} by handle: NaN for a joint without one coordinate. Allocates nothing. */
    double jointPositionOrNaN(int handle) {
        if (dofOfHandle[handle] >= 0) {
            // from the link poses, as the distributed primary computes it (DistributedScene)
            return compiled.model().dofPositionOfPoses(state, dofOfHandle[handle]);
        }
        int j = compiled.model().jointIndex(handle);
        if (j < 0) {
            return Double.NaN;
        }
        io.tandem.physics.JointType type = compiled.model().jointType(j);
        if (type != io.tandem.physics.JointType.REVOLUTE && type != io.tandem.physics.JointType.PRISMATIC) {
            return Double.NaN;
        }
        return compiled.model().jointPosition(state, j);
    }

    private String firstLinkName(String model) {
        World.Model m = models.get(model);
        return m == null || m.links().isEmpty() ? "" : m.links().get(0).name();
    }

    @Override
    public List<String> loadedModels() {
        return levels.loadedModels();
    }

    private void applyTeleports() {
        if (teleports.isEmpty()) {
            return;
        }
        for (Map.Entry<String, Pose> t : teleports.entrySet()) {
            World.Model m = models.get(t.getKey());
            Pose model = t.getValue();
            for (World.Link l : m.links()) {
                Integer b = bodyOf.get(PhysicsCompiler.Compiled.key(m.name(), l.name()));
                if (b == null) {
                    continue;
                }
                PhysicsCompiler.BodyRef ref = compiled.bodies().get(b);
                Pose body = model.compose(m.pose().inverse().compose(l.pose())).compose(ref.bodyInLink());
                int i = ref.body();
                state.pos[3 * i] = body.x();
                state.pos[3 * i + 1] = body.y();
                state.pos[3 * i + 2] = body.z();
                state.quat[4 * i] = body.qw();
                state.quat[4 * i + 1] = body.qx();
                state.quat[4 * i + 2] = body.qy();
                state.quat[4 * i + 3] = body.qz();
                for (int d = 0; d < 3; d++) {
                    state.linVel[3 * i + d] = 0;
                    state.angVel[3 * i + d] = 0;
                }
            }
        }
        teleports.clear();
    }

    /** A new physics model for the loaded set; bodies and joints that stay keep their state. */
    private void rebuild(LevelManager.Changes changes) {
        java.util.Set<String> handedOver = new java.util.HashSet<>(imports.keySet());
        PhysicsCompiler.Compiled next = PhysicsCompiler.compile(world, levels.loadedModels(), solver);
        PhysicsModel pm = next.model();
        PhysicsState s = pm.newState();
        Map<String, Integer> nextBodyOf = new HashMap<>();
        java.util.Set<Long> kept = new java.util.HashSet<>();
        for (int k = 0; k < next.bodies().size(); k++) {
            PhysicsCompiler.BodyRef ref = next.bodies().get(k);
            String key = PhysicsCompiler.Compiled.key(ref.model(), ref.link());
            nextBodyOf.put(key, k);
            Integer old = bodyOf.get(key);
            if (old != null && !changes.createdModels().contains(ref.model())) {
                int o = compiled.bodies().get(old).body();
                int n = ref.body();
                System.arraycopy(state.pos, 3 * o, s.pos, 3 * n, 3);
                System.arraycopy(state.quat, 4 * o, s.quat, 4 * n, 4);
                System.arraycopy(state.linVel, 3 * o, s.linVel, 3 * n, 3);
                System.arraycopy(state.angVel, 3 * o, s.angVel, 3 * n, 3);
                kept.add(pm.bodyId(n));
            } else if (imports.containsKey(ref.model())) {
                readLink(imports.get(ref.model()), ref, s);
            }
        }
        carryElastic(pm, s, kept);
        if (compiled != null && compiled.model().jointCount() > 0 && pm.jointCount() > 0) {
            int slots = state.jointImpulse.length / compiled.model().jointCount();
            for (Map.Entry<String, Integer> j : next.joints().entrySet()) {
                Integer old = compiled.joints().get(j.getKey());
                if (old != null) {
                    System.arraycopy(state.jointImpulse, slots * old, s.jointImpulse, slots * j.getValue(), slots);
                    if (state.motorMaxForce(old) > 0) {
                        // a motor keeps its runtime command across the rebuild
                        s.setMotor(j.getValue(), state.motorSpeed(old), state.motorMaxForce(old));
                    }
                }
            }
        }
        if (state != null) {
            // contact warm starts between bodies that stay (keyed by global ids, valid in any model)
            s.copyContactWarmStarts(state, kept::contains);
            s.removeContactWarmStarts(id -> !kept.contains(id));
            s.time = state.time;
            s.step = state.step;
        }
        carryDofs(next, s, changes);
        importJointsAndContacts(next, s);
        if (engine != null) {
            engine.close();
            rebuilds++;
        }
        compiled = next;
        bodyOf = nextBodyOf;
        state = s;
        engine = new PhysicsEngine(pm);
        List<String> bm = new ArrayList<>();
        List<Integer> bd = new ArrayList<>();
        for (World.Model m : world.models()) {
            Integer x = next.dofs().get(PhysicsCompiler.Compiled.key(m.name(), PhysicsCompiler.BASE_X));
            if (x != null) {
                bm.add(m.name());
                bd.add(x);
                bd.add(next.dofs().get(PhysicsCompiler.Compiled.key(m.name(), PhysicsCompiler.BASE_Y)));
                bd.add(next.dofs().get(PhysicsCompiler.Compiled.key(m.name(), PhysicsCompiler.BASE_YAW)));
            }
        }
        baseModel = bm.toArray(new String[0]);
        baseDofs = bd.stream().mapToInt(Integer::intValue).toArray();
        // each base's servo inertias: its mass, and every link's inertia about the root's vertical
        // at the file's pose
        baseServo = new double[2 * baseModel.length];
        for (int k = 0; k < baseModel.length; k++) {
            World.Model m = models.get(baseModel[k]);
            double mass = 0;
            double yaw = 0;
            Pose root = null;
            for (World.Link l : m.links()) {
                if (root == null) {
                    root = l.pose();
                }
                mass += l.inertial().mass();
                Pose c = l.pose().compose(l.inertial().pose());
                double dx = c.x() - root.x();
                double dy = c.y() - root.y();
                yaw += l.inertial().izz() + l.inertial().mass() * (dx * dx + dy * dy);
            }
            baseServo[2 * k] = mass;
            baseServo[2 * k + 1] = yaw;
        }
        JointTable table = joints();
        dofOfHandle = new int[table.names.length];
        for (int h = 0; h < dofOfHandle.length; h++) {
            String name = table.names[h];
            String model = table.model[h];
            Integer d = next.dofs().get(PhysicsCompiler.Compiled.key(model, name.substring(model.length() + 2)));
            dofOfHandle[h] = d == null ? -1 : d;
        }
        startControllers(changes, handedOver);
        // the pose readers' tables: each model's first link in the new model
        for (int mi = 0; mi < firstBody.length; mi++) {
            World.Model m = world.models().get(mi);
            Integer b = m.links().isEmpty() ? null : bodyOf.get(PhysicsCompiler.Compiled.key(m.name(), m.links().get(0).name()));
            if (b == null) {
                firstBody[mi] = -1;
                bodyInLinkInverse[mi] = null;
            } else {
                PhysicsCompiler.BodyRef ref = compiled.bodies().get(b);
                firstBody[mi] = ref.body();
                bodyInLinkInverse[mi] = ref.bodyInLink().inverse();
            }
            for (int l = 0; l < m.links().size(); l++) {
                Integer lb = bodyOf.get(PhysicsCompiler.Compiled.key(m.name(), m.links().get(l).name()));
                linkBody[mi][l] = lb == null ? -1 : compiled.bodies().get(lb).body();
                linkBodyInLinkInverse[mi][l] = lb == null ? null : compiled.bodies().get(lb).bodyInLink().inverse();
            }
        }
    }

    /**
     * The cables' and deformable bodies' bodies (always loaded) keep their states across a
     * rebuild, found by global id, and so do their joints' impulses (connections, ties, welds).
     */
    private void carryElastic(PhysicsModel pm, PhysicsState s, java.util.Set<Long> kept) {
        if (compiled == null) {
            return;
        }
        PhysicsModel old = compiled.model();
        for (int n = 0; n < pm.bodyCount(); n++) {
            long id = pm.bodyId(n);
            int o = id < firstElasticBodyId ? -1 : old.bodyIndex(id);
            if (o < 0) {
                continue;
            }
            System.arraycopy(state.pos, 3 * o, s.pos, 3 * n, 3);
            System.arraycopy(state.quat, 4 * o, s.quat, 4 * n, 4);
            System.arraycopy(state.linVel, 3 * o, s.linVel, 3 * n, 3);
            System.arraycopy(state.angVel, 3 * o, s.angVel, 3 * n, 3);
            kept.add(id);
        }
        if (old.jointCount() == 0 || pm.jointCount() == 0) {
            return;
        }
        int slots = state.jointImpulse.length / old.jointCount();
        for (int j = 0; j < pm.jointCount(); j++) {
            long id = pm.jointId(j);
            int o = id < firstElasticJointId ? -1 : old.jointIndex(id);
            if (o >= 0) {
                System.arraycopy(state.jointImpulse, slots * o, s.jointImpulse, slots * j, slots);
            }
        }
    }

    /**
     * The joint-coordinate state of robots that stay loaded (from the old state) or arrive in a
     * handover (from their ModelState), into the new state; their links are posed from it.
     */
    private void carryDofs(PhysicsCompiler.Compiled next, PhysicsState s, LevelManager.Changes changes) {
        double[] tmp = new double[ModelState.DOF_VALUES];
        Map<String, Integer> nth = new HashMap<>();
        for (Map.Entry<String, Integer> e : next.dofs().entrySet()) {
            String model = e.getKey().substring(0, e.getKey().indexOf('\u0000'));
            int k = nth.merge(model, 1, Integer::sum) - 1;
            Integer old = compiled == null ? null : compiled.dofs().get(e.getKey());
            if (old != null && !changes.createdModels().contains(model)) {
                state.exportDof(old, tmp, 0);
                s.importDof(e.getValue(), tmp, 0);
            } else if (imports.containsKey(model) && ModelState.DOF_VALUES * (k + 1) <= imports.get(model).dofs().length) {
                s.importDof(e.getValue(), imports.get(model).dofs(), ModelState.DOF_VALUES * k);
            }
        }
    }

    /** Writes one link's handed-over body state (13 values) into a new state. */
    private void readLink(ModelState in, PhysicsCompiler.BodyRef ref, PhysicsState s) {
        int li = linkIndex(ref.model(), ref.link());
        if (li < 0 || ModelState.LINK_VALUES * (li + 1) > in.links().length) {
            return;
        }
        double[] v = in.links();
        int o = ModelState.LINK_VALUES * li;
        int n = ref.body();
        System.arraycopy(v, o, s.pos, 3 * n, 3);
        System.arraycopy(v, o + 3, s.quat, 4 * n, 4);
        System.arraycopy(v, o + 7, s.linVel, 3 * n, 3);
        System.arraycopy(v, o + 10, s.angVel, 3 * n, 3);
    }

    private int linkIndex(String model, String link) {
        List<World.Link> links = models.get(model).links();
        for (int i = 0; i < links.size(); i++) {
            if (links.get(i).name().equals(link)) {
                return i;
            }
        }
        return -1;
    }

    /** The joint impulses, motor commands and contact warm starts of handed-over models created by this rebuild. */
    private void importJointsAndContacts(PhysicsCompiler.Compiled next, PhysicsState s) {
        if (imports.isEmpty()) {
            return;
        }
        PhysicsModel pm = next.model();
        java.util.Set<Long> present = new java.util.HashSet<>();
        for (int b = 0; b < pm.bodyCount(); b++) {
            present.add(pm.bodyId(b));
        }
        int slots = pm.jointCount() == 0 ? 0 : s.jointImpulse.length / pm.jointCount();
        for (ModelState in : imports.values()) {
            World.Model m = models.get(in.model());
            if (m == null) {
                continue;
            }
            for (int j = 0; j < m.joints().size(); j++) {
                Integer idx = next.joints().get(PhysicsCompiler.Compiled.key(m.name(), m.joints().get(j).name()));
                if (idx != null && slots * (j + 1) <= in.jointImpulses().length) {
                    System.arraycopy(in.jointImpulses(), slots * j, s.jointImpulse, slots * idx, slots);
                }
                if (idx != null && 2 * (j + 1) <= in.motors().length && in.motors()[2 * j + 1] > 0 && s.motorMaxForce(idx) > 0) {
                    s.setMotor(idx, in.motors()[2 * j], in.motors()[2 * j + 1]);
                }
            }
            for (io.tandem.physics.ContactWarmStart w : in.contacts()) {
                if (present.contains(w.bodyA()) && present.contains(w.bodyB())) {
                    s.putContactWarmStart(w);
                }
            }
        }
        imports.clear();
    }

    /**
     * Takes a handed-over model state: applied when the model is next created (by the level
     * update of the next step), instead of the world file's initial state.
     */
    public void importState(ModelState in) {
        imports.put(in.model(), in);
    }

    /**
     * The states of the loaded dynamic models, for a distributed secondary's ack.
     *
     * @param models their indices in {@link World#models()}, in world order
     * @param values {@link ModelState#LINK_VALUES} values per link of those models, in order
     */
    public record StateBlock(int[] models, double[] values) {
    }

    /**
     * @param which accepts the names of the models to report
     * @return the state of the loaded dynamic models it accepts (world order), without joint or
     *         contact warm starts: a secondary's ack. One pass over the bodies; allocates the result.
     */
    public StateBlock exportDynamicStates(java.util.function.Predicate<String> which) {
        List<PhysicsCompiler.BodyRef> refs = compiled.bodies();
        int[] models = new int[world.models().size()];
        int count = 0;
        int links = 0;
        for (int mi = 0; mi < world.models().size(); mi++) {
            World.Model m = world.models().get(mi);
            if (!m.isStatic() && !m.links().isEmpty() && levels.isLoaded(m.name()) && which.test(m.name())) {
                models[count++] = mi;
                links += m.links().size();
            }
        }
        double[] values = new double[ModelState.LINK_VALUES * links];
        int k = 0;
        int base = 0;
        for (int c = 0; c < count; c++) {
            World.Model m = world.models().get(models[c]);
            // the compiled bodies are in world order, model by model, link by link
            while (k < refs.size() && !refs.get(k).model().equals(m.name())) {
                k++;
            }
            for (int li = 0; li < m.links().size() && k < refs.size() && refs.get(k).model().equals(m.name()); li++, k++) {
                int n = refs.get(k).body();
                writeBody(n, values, base + ModelState.LINK_VALUES * linkIndex(m, refs.get(k).link(), li));
            }
            base += ModelState.LINK_VALUES * m.links().size();
        }
        return new StateBlock(java.util.Arrays.copyOf(models, count), values);
    }

    /** The index of a link in its model: the expected one when it matches, else a search. */
    private static int linkIndex(World.Model m, String link, int expected) {
        if (expected < m.links().size() && m.links().get(expected).name().equals(link)) {
            return expected;
        }
        for (int i = 0; i < m.links().size(); i++) {
            if (m.links().get(i).name().equals(link)) {
                return i;
            }
        }
        throw new IllegalStateException("no link '" + link + "' in model '" + m.name() + "'");
    }

    /** One body's 13 state values (position, orientation, velocities) into dst at o. */
    private void writeBody(int n, double[] dst, int o) {
        System.arraycopy(state.pos, 3 * n, dst, o, 3);
        System.arraycopy(state.quat, 4 * n, dst, o + 3, 4);
        System.arraycopy(state.linVel, 3 * n, dst, o + 7, 3);
        System.arraycopy(state.angVel, 3 * n, dst, o + 10, 3);
    }

    /**
     * @param model a loaded model
     * @return its full dynamic state for a handover (joint impulses and its bodies' contact warm
     *         starts included), or null when it is not loaded
     */
    public ModelState exportState(String model) {
        World.Model m = models.get(model);
        if (m == null || !levels.isLoaded(model)) {
            return null;
        }
        double[] links = new double[ModelState.LINK_VALUES * m.links().size()];
        java.util.Set<Long> ids = new java.util.HashSet<>();
        for (int li = 0; li < m.links().size(); li++) {
            Integer b = bodyOf.get(PhysicsCompiler.Compiled.key(model, m.links().get(li).name()));
            if (b == null) {
                continue;
            }
            int n = compiled.bodies().get(b).body();
            ids.add(compiled.model().bodyId(n));
            writeBody(n, links, ModelState.LINK_VALUES * li);
        }
        int jc = compiled.model().jointCount();
        int slots = jc == 0 ? 0 : state.jointImpulse.length / jc;
        double[] joints = new double[slots * m.joints().size()];
        double[] motors = new double[2 * m.joints().size()];
        for (int j = 0; j < m.joints().size(); j++) {
            Integer idx = compiled.joints().get(PhysicsCompiler.Compiled.key(model, m.joints().get(j).name()));
            if (idx != null) {
                System.arraycopy(state.jointImpulse, slots * idx, joints, slots * j, slots);
                // the motor's runtime command goes with the model (a robot keeps driving)
                motors[2 * j] = state.motorSpeed(idx);
                motors[2 * j + 1] = state.motorMaxForce(idx);
            }
        }
        List<io.tandem.physics.ContactWarmStart> cw = state.contactWarmStarts(ids::contains);
        // a robot in joint coordinates: its joints in the articulation's order (the map's order),
        // a planar or floating base's virtual ones included
        int count = 0;
        for (String key : compiled.dofs().keySet()) {
            count += key.startsWith(model + "\u0000") ? 1 : 0;
        }
        double[] dofs = new double[ModelState.DOF_VALUES * count];
        int k = 0;
        for (Map.Entry<String, Integer> e : compiled.dofs().entrySet()) {
            if (e.getKey().startsWith(model + "\u0000")) {
                state.exportDof(e.getValue(), dofs, ModelState.DOF_VALUES * k++);
            }
        }
        return new ModelState(model, links, joints, motors, cw, dofs);
    }

    // ---------------------------------------------------------------- robot side: joints, visuals, cameras

    private JointTable joints() {
        if (jointTable == null) {
            jointTable = new JointTable(world);
        }
        return jointTable;
    }

    private VisualScene scene() {
        if (visualScene == null) {
            visualScene = new VisualScene(world);
        }
        return visualScene;
    }

    /**
     * A joint's handle, for the allocation-free per-step calls ({@link #setJointVelocity(int, double)},
     * {@link #jointPosition(int)}, {@link #jointVelocity(int)}). It stays valid for the runner's
     * life, across level changes.
     *
     * @param scopedName model::joint (model::nested::joint for a nested model's joint)
     * @return the handle
     * @throws IllegalArgumentException naming the joint and listing close matches when the world has none
     */
    public int jointHandle(String scopedName) {
        return joints().handle(scopedName);
    }

    /**
     * Commands a joint's velocity motor from the next step on (the joint needs
     * {@code <tandem:velocity_motor/>} in the world file); the speed is clamped to the joint's
     * {@code <limit><velocity>}. The command stays until changed, across level changes that keep
     * the model loaded; a model that is unloaded and loaded again starts at 0, like the rest of
     * its state. Allocates nothing.
     *
     * @param handle from {@link #jointHandle}
     * @param speed  target rate of the joint, rad/s or m/s (child relative to parent about or along the axis)
     * @throws IllegalArgumentException if the joint has no motor or the speed is not finite
     * @throws IllegalStateException if the joint's model is not loaded
     */
    public void setJointVelocity(int handle, double speed) {
        int j = compiledJoint(handle);
        JointTable t = joints();
        if (!t.motor[handle]) {
            throw new IllegalArgumentException("joint '" + t.names[handle] + "' has no velocity motor: give it"
                    + " <" + World.Joint.MOTOR_ELEMENT + "/> and an <axis><limit><effort> in the world file");
        }
        if (!Double.isFinite(speed)) {
            throw new IllegalArgumentException("joint '" + t.names[handle] + "': speed must be finite, got " + speed);
        }
        double limit = t.velocityLimit[handle];
        state.setMotorSpeed(j, speed > limit ? limit : speed < -limit ? -limit : speed);
    }

    /**
     * {@link #setJointVelocity(int, double)} by name (a hash lookup; allocates nothing).
     *
     * @param scopedName model::joint
     * @param speed      rad/s or m/s
     */
    public void setJointVelocity(String scopedName, double speed) {
        setJointVelocity(jointHandle(scopedName), speed);
    }

    /**
     * @param handle from {@link #jointHandle}
     * @return the joint's commanded speed, rad/s or m/s (after clamping)
     */
    public double jointVelocityCommand(int handle) {
        return state.motorSpeed(compiledJoint(handle));
    }

    /**
     * A revolute or prismatic joint's coordinate now: the angle (rad, child relative to parent
     * since the world file's configuration, wrapped into (-pi, pi]) or the displacement (m).
     * Allocates nothing.
     *
     * @param handle from {@link #jointHandle}
     * @return rad or m
     * @throws IllegalArgumentException for a ball or fixed joint
     * @throws IllegalStateException if the joint's model is not loaded
     */
    public double jointPosition(int handle) {
        int d = dof(handle);
        if (d >= 0) {
            // from the link poses, as records have it (a distributed primary holds only poses)
            return compiled.model().dofPositionOfPoses(state, d);
        }
        return compiled.model().jointPosition(state, axisJoint(handle));
    }

    /** @return {@link #jointPosition(int)} by name: rad or m */
    public double jointPosition(String scopedName) {
        return jointPosition(jointHandle(scopedName));
    }

    /**
     * A revolute or prismatic joint's rate now: child relative to parent about or along the axis.
     * Allocates nothing.
     *
     * @param handle from {@link #jointHandle}
     * @return rad/s or m/s
     */
    public double jointVelocity(int handle) {
        int d = dof(handle);
        if (d >= 0) {
            return state.dofVelocity(d);
        }
        return compiled.model().jointVelocity(state, axisJoint(handle));
    }

    /** The dof of a joint in joint coordinates, or -1 (a joint of maximal coordinates, or not loaded). */
    private int dof(int handle) {
        joints().check(handle);
        return handle < dofOfHandle.length ? dofOfHandle[handle] : -1;
    }

    /** The dof of a joint in joint coordinates; throws naming the joint otherwise. */
    private int requireDof(int handle, String what) {
        int d = dof(handle);
        if (d < 0) {
            JointTable t = joints();
            World.Model m = models.get(t.model[handle]);
            throw new IllegalArgumentException("joint '" + t.names[handle] + "' takes no " + what + ": " + (m == null
                    || !levels.isLoaded(m.name()) ? "its model is not loaded" : "its model is not a robot in joint coordinates"
                    + " (one pinned to the world by a fixed joint, its other joints revolute, continuous or prismatic)"));
        }
        return d;
    }

    /**
     * Gazebo's joint controllers of models this rebuild created fresh (not handed over: those bring
     * their commands): a JointPositionController's gains and initial position on its joint, a
     * JointController's initial velocity on its motor.
     */
    private void startControllers(LevelManager.Changes changes, java.util.Set<String> handedOver) {
        for (String name : changes.createdModels()) {
            World.Model m = models.get(name);
            if (m == null || m.controllers().isEmpty() || handedOver.contains(name)) {
                continue;
            }
            for (World.Controller c : m.controllers()) {
                if (c instanceof World.JointPositionController p) {
                    int h = joints().handle(name + "::" + p.joint());
                    if (dof(h) < 0) {
                        LOG.warn("{}:{}: JointPositionController on joint '{}' of model '{}' does nothing: its model is not a"
                                + " robot in joint coordinates (pinned to the world by a fixed joint, its other joints"
                                + " revolute, continuous or prismatic)", world.source(), p.line(), p.joint(), name);
                        continue;
                    }
                    setJointGains(h, p.pGain(), p.dGain());
                    setJointTarget(h, p.initialPosition(), 0);
                } else if (c instanceof World.JointVelocityController v) {
                    setJointVelocity(joints().handle(name + "::" + v.joint()), v.initialVelocity());
                }
            }
        }
    }

    /** A model's DiffDrive and its wheels' joint handles (left, then right), or null. */
    private int[] diffDrive(String model, World.DiffDrive[] out) {
        World.Model m = models.get(model);
        if (m == null) {
            return null;
        }
        for (World.Controller c : m.controllers()) {
            if (c instanceof World.DiffDrive d) {
                int[] h = new int[d.leftJoints().size() + d.rightJoints().size()];
                int k = 0;
                for (String j : d.leftJoints()) {
                    h[k++] = joints().handle(model + "::" + j);
                }
                for (String j : d.rightJoints()) {
                    h[k++] = joints().handle(model + "::" + j);
                }
                out[0] = d;
                return h;
            }
        }
        return null;
    }

    /** @return whether {@link #setTwist} drives this model: it has a DiffDrive or is a planar base */
    public boolean hasTwistDrive(String model) {
        if (java.util.Arrays.asList(baseModel).contains(model)) {
            return true;
        }
        World.Model m = models.get(model);
        return m != null && m.controllers().stream().anyMatch(c -> c instanceof World.DiffDrive);
    }

    /**
     * Drives a wheeled model by a twist (Gazebo's cmd_vel): a model with gz-sim's DiffDrive gets
     * wheel speeds (v -+ w s / 2) / r on its left and right wheel joints (their velocity motors,
     * clamped to the joints' velocity limits); a planar base gets {@link #setBaseVelocity}. The
     * command stays until changed. Allocates nothing after the first call for a model.
     *
     * @param model   the model
     * @param forward m/s
     * @param yawRate rad/s, positive turning left
     * @throws IllegalArgumentException for a model with neither, or a value that is not finite
     */
    public void setTwist(String model, double forward, double yawRate) {
        if (!Double.isFinite(forward) || !Double.isFinite(yawRate)) {
            throw new IllegalArgumentException("model '" + model + "': twist must be finite, got " + forward + ", " + yawRate);
        }
        for (String b : baseModel) {
            if (b.equals(model)) {
                setBaseVelocity(model, forward, yawRate);
                return;
            }
        }
        int[] wheels = twistWheels.get(model);
        World.DiffDrive d = twistDrives.get(model);
        if (wheels == null) {
            World.DiffDrive[] found = new World.DiffDrive[1];
            wheels = diffDrive(model, found);
            if (wheels == null) {
                throw new IllegalArgumentException("model '" + model + "' has no DiffDrive plugin and is not a planar base: nothing"
                        + " turns a twist into its motion");
            }
            d = found[0];
            twistWheels.put(model, wheels);
            twistDrives.put(model, d);
        }
        double left = (forward - 0.5 * yawRate * d.wheelSeparation()) / d.wheelRadius();
        double right = (forward + 0.5 * yawRate * d.wheelSeparation()) / d.wheelRadius();
        int nl = d.leftJoints().size();
        for (int k = 0; k < wheels.length; k++) {
            setJointVelocity(wheels[k], k < nl ? left : right);
        }
    }

    /**
     * Drives a planar base (a model with {@code <tandem:coordinates>planar}) at a forward speed
     * and a yaw rate from the next step on, as a differential drive's velocity command (Gazebo's
     * DiffDrive cmd_vel): velocity servos on its x, y and yaw joints (time constant
     * {@value #BASE_SERVO_S} s), the x and y targets turned with the base every step; the no-slip row
     * keeps it from sliding sideways. The command stays until changed and travels with the model in
     * a handover. Allocates nothing after the first call for a model.
     *
     * @param model   the base's model
     * @param forward m/s along the base's x axis
     * @param yawRate rad/s about z
     * @throws IllegalArgumentException for a model that is not a loaded planar base, or a value that is not finite
     */
    public void setBaseVelocity(String model, double forward, double yawRate) {
        int k = base(model);
        if (!Double.isFinite(forward) || !Double.isFinite(yawRate)) {
            throw new IllegalArgumentException("base '" + model + "': velocity must be finite, got " + forward + ", " + yawRate);
        }
        double mass = baseServo[2 * k];
        double yaw = baseServo[2 * k + 1];
        int x = baseDofs[3 * k];
        state.setDofGains(x, 0, mass / BASE_SERVO_S);
        state.setDofGains(baseDofs[3 * k + 1], 0, mass / BASE_SERVO_S);
        state.setDofGains(baseDofs[3 * k + 2], 0, yaw / BASE_SERVO_S);
        // the forward command lives in the x slide's target position (unused: its Kp is 0), so a
        // handover carries it with the joint states
        state.setDofTarget(x, forward, 0);
        state.setDofTarget(baseDofs[3 * k + 2], state.dofTargetPosition(baseDofs[3 * k + 2]), yawRate);
        driveBase(k);
    }

    /**
     * A planar base's velocity now, in its own frame: forward (m/s), lateral (m/s) and yaw rate
     * (rad/s), into out[0..3). The no-slip row holds the lateral speed at 0 at the step's midpoint
     * heading (the engine's midpoint rule), so at the step's end it reads forward x yaw rate x h / 2
     * (0.25 mm/s at 1 m/s, 0.5 rad/s, 1 ms). Allocates nothing.
     */
    public void baseVelocity(String model, double[] out) {
        int k = base(model);
        double th = state.dofPosition(baseDofs[3 * k + 2]);
        double vx = state.dofVelocity(baseDofs[3 * k]);
        double vy = state.dofVelocity(baseDofs[3 * k + 1]);
        out[0] = Math.cos(th) * vx + Math.sin(th) * vy;
        out[1] = -Math.sin(th) * vx + Math.cos(th) * vy;
        out[2] = state.dofVelocity(baseDofs[3 * k + 2]);
    }

    private int base(String model) {
        for (int k = 0; k < baseModel.length; k++) {
            if (baseModel[k].equals(model)) {
                return k;
            }
        }
        throw new IllegalArgumentException("model '" + model + "' is not a loaded planar base (a model with"
                + " <" + World.Model.COORDINATES_ELEMENT + ">planar</...>)" + JointTable.suggestions(model, baseModel));
    }

    /** The planar bases' x and y velocity targets turned to their heading (each step: they turn). */
    private void driveBases() {
        for (int k = 0; k < baseModel.length; k++) {
            driveBase(k);
        }
    }

    private void driveBase(int k) {
        int x = baseDofs[3 * k];
        if (!(state.dofKp(x) == 0 && state.dofKd(x) > 0)) {
            return;
        }
        double forward = state.dofTargetPosition(x);
        double th = state.dofPosition(baseDofs[3 * k + 2]);
        state.setDofTarget(x, forward, forward * Math.cos(th));
        state.setDofTarget(baseDofs[3 * k + 1], 0, forward * Math.sin(th));
    }

    /**
     * Sets a joint's PD target (a robot in joint coordinates: the implicit joint-space PD of its
     * gains, {@link #setJointGains}). Allocates nothing.
     *
     * @param handle   from {@link #jointHandle}
     * @param position rad or m
     * @param velocity rad/s or m/s
     * @throws IllegalArgumentException for a joint of maximal coordinates or a value that is not finite
     */
    public void setJointTarget(int handle, double position, double velocity) {
        state.setDofTarget(requireDof(handle, "position target"), position, velocity);
    }

    /** Sets a joint's PD gains (N m/rad and N m s/rad, or N/m and N s/m; 0, 0: no controller). Allocates nothing. */
    public void setJointGains(int handle, double kp, double kd) {
        state.setDofGains(requireDof(handle, "gains"), kp, kd);
    }

    /** Sets a joint's feed-forward torque (force), N m or N, clamped to its effort limit. Allocates nothing. */
    public void setJointTorque(int handle, double torque) {
        state.setDofTorque(requireDof(handle, "torque"), torque);
    }

    /** @return the torque (force) a joint's actuator applied in the last step (PD plus feed-forward), N m or N */
    public double jointEffort(int handle) {
        return state.dofEffort(requireDof(handle, "effort"));
    }

    /** The compiled index of a revolute or prismatic joint; throws naming the joint otherwise. */
    private int axisJoint(int handle) {
        int j = compiledJoint(handle);
        io.tandem.physics.JointType type = compiled.model().jointType(j);
        if (type != io.tandem.physics.JointType.REVOLUTE && type != io.tandem.physics.JointType.PRISMATIC) {
            throw new IllegalArgumentException("joint '" + joints().names[handle] + "' is " + type.name().toLowerCase(
                    java.util.Locale.ROOT) + ": only revolute (continuous) and prismatic joints have a position and velocity");
        }
        return j;
    }

    /** @return {@link #jointVelocity(int)} by name: rad/s or m/s */
    public double jointVelocity(String scopedName) {
        return jointVelocity(jointHandle(scopedName));
    }

    /** The compiled model's index of a joint handle (its global id). */
    private int compiledJoint(int handle) {
        joints().check(handle);
        int j = compiled.model().jointIndex(handle);
        if (j < 0) {
            JointTable t = joints();
            World.Model m = models.get(t.model[handle]);
            throw new IllegalStateException("joint '" + t.names[handle] + "' is not simulated now: "
                    + (m.isStatic() ? "its model is static" : "its model '" + m.name() + "' is not loaded (levels)"));
        }
        return j;
    }

    /**
     * Recolours every visual of a model, as cameras see it from their next frame on (the
     * experiment's screen colour); the world file is not changed, and the model keeps the colour
     * when levels reload it.
     *
     * @param model a model's name
     * @param r     red in [0, 1]
     * @param g     green in [0, 1]
     * @param b     blue in [0, 1]
     * @throws IllegalArgumentException for an unknown model (naming close matches) or a colour out of range
     */
    public void setVisualColor(String model, double r, double g, double b) {
        scene().setModelColor(world.name(), model, r, g, b);
        visualColors.put(model, new double[] {r, g, b});
    }

    @Override
    public Map<String, double[]> visualColors() {
        return visualColorsView; // a feed asks every iteration: no wrapper each time
    }

    /**
     * For sensors ({@code robot/}): the runner's visual scene (every visual's shape and colour,
     * the camera mounts), built on first use and recoloured by {@link #setVisualColor}. Its type
     * is internal to this module (not exported). Caller's thread, between steps.
     *
     * @return the visual scene
     */
    @SuppressWarnings("exports")
    public VisualScene visualScene() {
        return scene();
    }

    /**
     * For sensors ({@code robot/}): the compiled physics model now. Read it, do not keep it: it
     * changes when levels rebuild the model. Caller's thread, between steps.
     *
     * @return the physics model now
     */
    public PhysicsModel physicsModel() {
        return compiled.model();
    }

    /**
     * For sensors ({@code robot/}): the physics state now. Read it, do not modify or keep it: it
     * is replaced when levels rebuild the model. Caller's thread, between steps.
     *
     * @return the physics state now
     */
    public PhysicsState physicsState() {
        return state;
    }

    @Override
    public void close() {
        engine.close();
    }
}
