package io.tandem.world;

import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverSettings;
import java.util.ArrayList;
import java.util.HashMap;
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
 */

/**
 * Runs a {@link World}: levels, physics, state publication, one iteration per {@link #step()}.
 * One thread drives it (not thread-safe). A step without level changes allocates only what the
 * listeners do; a level change rebuilds the physics model (allocates). Close it to release the
 * physics engine.
 */
public final class WorldRunner implements AutoCloseable {
    /** Receives the state after every iteration (on the stepping thread). */
    public interface Listener {
        /**
         * @param runner    the runner, to read poses from
         * @param iteration the iteration just completed (1 for the first; 0 for the initial state)
         * @param changes   the level changes of this iteration
         */
        void stepped(WorldRunner runner, long iteration, LevelManager.Changes changes);
    }

    private final World world;
    private final SolverSettings solver;
    private final LevelManager levels;
    private final List<Listener> listeners = new ArrayList<>();
    private final Map<String, World.Model> models = new HashMap<>();
    /** per model: its first link's pose in the model frame (from the file) */
    private final Map<String, Pose> firstLinkInModel = new HashMap<>();
    private final Map<String, Pose> teleports = new HashMap<>();
    private PhysicsCompiler.Compiled compiled;
    private Map<String, Integer> bodyOf = new HashMap<>();
    private PhysicsEngine engine;
    private PhysicsState state;
    private long iteration;
    private long simTimeNs;
    private int rebuilds;
    /** the level changes of the initial load, reported as iteration 0 before the first step */
    private LevelManager.Changes initialChanges;

    /**
     * @param world     the world to run
     * @param solver    the physics solver
     * @param useLevels whether levels are on (Gazebo's --levels)
     */
    public WorldRunner(World world, SolverSettings solver, boolean useLevels) {
        this.world = world;
        this.solver = solver;
        this.levels = new LevelManager(world, useLevels);
        for (World.Model m : world.models()) {
            models.put(m.name(), m);
            if (!m.links().isEmpty()) {
                firstLinkInModel.put(m.name(), m.pose().inverse().compose(m.links().get(0).pose()));
            }
        }
        initialChanges = levels.update(0, name -> models.containsKey(name) ? position(models.get(name).pose()) : null);
        rebuild(initialChanges);
    }

    private static double[] position(Pose p) {
        return new double[] {p.x(), p.y(), p.z()};
    }

    /** @param l called after every iteration, in the order added */
    public void addListener(Listener l) {
        listeners.add(l);
    }

    /** @return the world */
    public World world() {
        return world;
    }

    /** @return the level manager (for runtime performers and the loaded set) */
    public LevelManager levels() {
        return levels;
    }

    /** @return iterations completed */
    public long iteration() {
        return iteration;
    }

    /** @return simulated time, ns */
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
            for (Listener l : listeners) {
                l.stepped(this, 0, c);
            }
        }
        applyTeleports();
        long it = iteration + 1;
        LevelManager.Changes changes = levels.update(it, this::currentPosition);
        if (!changes.createdModels().isEmpty() || !changes.removedModels().isEmpty()) {
            rebuild(changes);
            applyTeleports();
        }
        engine.step(state);
        iteration = it;
        simTimeNs += world.stepSizeNs();
        for (Listener l : listeners) {
            l.stepped(this, it, changes);
        }
    }

    private double[] currentPosition(String model) {
        Pose p = modelPose(model);
        return p == null ? null : position(p);
    }

    /**
     * @param model a model's name
     * @return its pose now (the model frame, from its first link), or null while it is not loaded
     */
    public Pose modelPose(String model) {
        Integer b = bodyOf.get(PhysicsCompiler.Compiled.key(model, firstLinkName(model)));
        if (b == null) {
            return null;
        }
        PhysicsCompiler.BodyRef ref = compiled.bodies().get(b);
        Pose body = new Pose(state.pos[3 * ref.body()], state.pos[3 * ref.body() + 1], state.pos[3 * ref.body() + 2],
                state.quat[4 * ref.body()], state.quat[4 * ref.body() + 1], state.quat[4 * ref.body() + 2],
                state.quat[4 * ref.body() + 3]);
        Pose link = body.compose(ref.bodyInLink().inverse());
        return link.compose(firstLinkInModel.get(model).inverse());
    }

    private String firstLinkName(String model) {
        World.Model m = models.get(model);
        return m == null || m.links().isEmpty() ? "" : m.links().get(0).name();
    }

    /** @return the loaded models in the world's order */
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
            }
        }
        if (compiled != null && compiled.model().jointCount() > 0 && pm.jointCount() > 0) {
            int slots = state.jointImpulse.length / compiled.model().jointCount();
            for (Map.Entry<String, Integer> j : next.joints().entrySet()) {
                Integer old = compiled.joints().get(j.getKey());
                if (old != null) {
                    System.arraycopy(state.jointImpulse, slots * old, s.jointImpulse, slots * j.getValue(), slots);
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
        if (engine != null) {
            engine.close();
            rebuilds++;
        }
        compiled = next;
        bodyOf = nextBodyOf;
        state = s;
        engine = new PhysicsEngine(pm);
    }

    @Override
    public void close() {
        engine.close();
    }
}
