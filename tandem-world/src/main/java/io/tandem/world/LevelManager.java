package io.tandem.world;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * Gazebo's LevelManager::UpdateLevelsState exactly (shared/specs/gazebo.md 1.9-1.11, its code and
 * tests, not its tutorial):
 *   0. queued runtime performers are created (perf_<model>, a 2 x 2 x 2 box) once their model
 *      exists; a model that already has a performer drops the request;
 *   1. the default level (every model that is neither a performer's model nor in a level's refs)
 *      is loaded on the first update and stays loaded;
 *   2. per performer, its box (centred at its model's position, the orientation ignored) against
 *      every level: touching the level's box loads it; otherwise an active level stays loaded
 *      while the performer touches box + buffer, and is marked to unload when it does not; an
 *      inactive level touched only in its buffer stays inactive (the buffer only delays unloading);
 *   3. a level any performer loads is not unloaded;
 *   4. unloading removes the level's entities that no level being loaded also names, then logs
 *      "Unloaded level [NAME] at iteration N"; loading creates the named entities not yet present
 *      and logs "Loaded level [NAME] at iteration N".
 * Boxes touch when they overlap or share a face (closed boxes: Gazebo's AxisAlignedBox::Intersects).
 * With levels off every model is loaded and nothing ever unloads.
 *
 * An active level that no performer loads or keeps is unloaded. Gazebo reaches the same result
 * through its per-performer loop (every performer outside a level's box + buffer marks it), which
 * cannot unload a level once no performer is evaluated at all; that happens only on a secondary of
 * a distributed run (below), so a standalone run is unchanged.
 *
 * Allocation: an update that changes nothing (the steady state) allocates nothing: it returns a
 * shared empty Changes, builds its lists only when something changes, keeps the performers' levels
 * as flags per level (the names are built by performerLevels(), on request) and reads positions
 * through a PositionReader into a reused array. The set of names the loading levels keep is built
 * only when a level unloads. Loads, unloads and their logs are those of the lists-and-sets version
 * exactly (same order, same iterations: LevelManagerTest, LevelRebuildEquivalenceTest).
 *
 * Ownership (a secondary of a distributed run, DistributedSecondary): the manager evaluates only
 * the performers it owns and loads only their models; other performers' models never load here
 * and their levels are another secondary's. {@link #release} drops a performer (its model is
 * removed by the next update, and the levels it alone kept unload); {@link #adopt} takes one
 * over with the levels it was in: those count as active for the buffer rule of the next update,
 * so a performer handed over while it sits in a level's buffer keeps that level, as it would have
 * on its previous secondary. Dynamic models of the default level are simulated by one secondary
 * only (the constructor's simulateDefaultDynamics); the others load only its static models.
 */

/**
 * Decides which levels, and so which models, are loaded, from the performers' positions. Driven
 * by {@link #update}, once per iteration, by the world runner's thread (not thread-safe). An update
 * that changes nothing allocates nothing and logs nothing (with {@link #update(long, PositionReader)});
 * one that changes something allocates its small result, and the manager logs every load and
 * unload (INFO).
 */
public final class LevelManager {
    private static final Logger LOG = LoggerFactory.getLogger(LevelManager.class);
    /** the side of a runtime performer's box, m (Gazebo's hard-coded 2 x 2 x 2) */
    public static final double RUNTIME_PERFORMER_SIZE = 2;

    private final World world;
    private final boolean useLevels;
    private final List<World.Level> levels;
    private final boolean[] active;
    private final Set<String> defaultEntities = new LinkedHashSet<>();
    private final Set<String> loaded = new LinkedHashSet<>();
    private final List<PerformerState> performers = new ArrayList<>();
    private final List<String> queuedPerformers = new ArrayList<>();
    /** models of adopted and released performers, created or removed by the next update */
    private final List<String> pendingCreated = new ArrayList<>();
    private final List<String> pendingRemoved = new ArrayList<>();
    /** levels of adopted performers, active for the buffer rule of the next update */
    private final boolean[] adoptedLevels;
    /** per level, scratch of one update: a performer loads or keeps it, one marks it to unload */
    private final boolean[] load;
    private final boolean[] unload;
    /** a performer's position, scratch of one update */
    private final double[] position = new double[3];
    private boolean defaultLoaded;

    /** What an update that changes nothing returns (immutable lists). */
    private static final Changes NONE = new Changes(List.of(), List.of(), List.of(), List.of(), List.of());

    /** A performer and the levels it is in or near (Gazebo's PerformerLevels). */
    private static final class PerformerState {
        final String name;
        final String model;
        final double sx;
        final double sy;
        final double sz;
        /** per level (world order): whether the performer is in or near it, as of its last evaluation */
        final boolean[] in;
        boolean owned = true;

        PerformerState(String name, String model, double sx, double sy, double sz, int levelCount) {
            this.name = name;
            this.model = model;
            this.sx = sx;
            this.sy = sy;
            this.sz = sz;
            this.in = new boolean[levelCount];
        }
    }

    /**
     * A model's current position, written into an array (the allocation-free form of the
     * position function of {@link #update(long, Function)}).
     */
    @FunctionalInterface
    public interface PositionReader {
        /**
         * @param model a model's name
         * @param out   receives its position in the world frame, m: x, y, z at 0, 1, 2
         * @return false while the model is not loaded (out is then ignored)
         */
        boolean position(String model, double[] out);
    }

    /**
     * What one update changed.
     *
     * @param loadedLevels    levels loaded by this update, in the world's order
     * @param unloadedLevels  levels unloaded by this update, in the world's order
     * @param createdModels   models to create from the world (recreated from the file, not restored)
     * @param removedModels   models to remove
     * @param newPerformers   runtime performers created by this update
     */
    public record Changes(List<String> loadedLevels, List<String> unloadedLevels, List<String> createdModels,
                          List<String> removedModels, List<String> newPerformers) {
        /** @return whether anything changed */
        public boolean isEmpty() {
            return loadedLevels.isEmpty() && unloadedLevels.isEmpty() && createdModels.isEmpty()
                    && removedModels.isEmpty() && newPerformers.isEmpty();
        }
    }

    /**
     * @param world     the world
     * @param useLevels whether levels are on (Gazebo's --levels); off: every model is loaded
     */
    public LevelManager(World world, boolean useLevels) {
        this(world, useLevels, null, true);
    }

    /**
     * A manager that evaluates only some performers (a secondary of a distributed run).
     *
     * @param world                    the world
     * @param useLevels                whether levels are on
     * @param ownedPerformers          the performers this manager evaluates and whose models it
     *                                 loads; null for all
     * @param simulateDefaultDynamics  whether the default level's dynamic models load here
     */
    public LevelManager(World world, boolean useLevels, java.util.Collection<String> ownedPerformers,
                        boolean simulateDefaultDynamics) {
        this.world = world;
        this.useLevels = useLevels;
        this.levels = useLevels ? world.levels() : List.of();
        this.active = new boolean[levels.size()];
        this.adoptedLevels = new boolean[levels.size()];
        this.load = new boolean[levels.size()];
        this.unload = new boolean[levels.size()];
        Set<String> inLevels = new LinkedHashSet<>();
        for (World.Level l : levels) {
            inLevels.addAll(l.refs());
        }
        for (World.Performer p : world.performers()) {
            PerformerState ps = new PerformerState(p.name(), p.ref(), p.sizeX(), p.sizeY(), p.sizeZ(), levels.size());
            ps.owned = ownedPerformers == null || ownedPerformers.contains(p.name());
            performers.add(ps);
        }
        for (World.Model m : world.models()) {
            if (!useLevels || (!inLevels.contains(m.name()) && !isPerformerModel(m.name()))) {
                if (simulateDefaultDynamics || m.isStatic() || (!useLevels && isPerformerModel(m.name()))) {
                    defaultEntities.add(m.name());
                }
            }
        }
        // performers' models exist from the start (Gazebo creates them with their performer)
        for (PerformerState p : performers) {
            if (p.owned && world.model(p.model).isPresent()) {
                loaded.add(p.model);
            }
        }
    }

    private boolean isPerformerModel(String model) {
        for (int i = 0; i < performers.size(); i++) {
            if (performers.get(i).model.equals(model)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Queues a runtime performer for a model (Gazebo's {@code level/set_performer}); it is created
     * by the next update where the model exists.
     *
     * @param model the model's name
     * @return false for an empty name (nothing queued), true otherwise (no check happens now)
     */
    public boolean setPerformer(String model) {
        if (model == null || model.isEmpty()) {
            LOG.error("set_performer: the model name is empty");
            return false;
        }
        queuedPerformers.add(model);
        return true;
    }

    /**
     * One level update, positions from a function (allocates the arrays it returns; see
     * {@link #update(long, PositionReader)} for the allocation-free form).
     *
     * @param iteration the simulation iteration, for the log lines
     * @param position  a model's current position (world frame, m, 3 values), or null while it is
     *                  not loaded
     * @return what changed
     */
    public Changes update(long iteration, Function<String, double[]> position) {
        return update(iteration, (model, out) -> {
            double[] c = position.apply(model);
            if (c == null) {
                return false;
            }
            out[0] = c[0];
            out[1] = c[1];
            out[2] = c[2];
            return true;
        });
    }

    /**
     * One level update. When nothing changes it allocates nothing and logs nothing and returns a
     * shared empty {@link Changes} (its lists immutable); otherwise new lists.
     *
     * @param iteration the simulation iteration, for the log lines
     * @param position  writes a model's current position (world frame, m), false while it is not loaded
     * @return what changed
     */
    public Changes update(long iteration, PositionReader position) {
        List<String> created = null;
        List<String> removed = null;
        List<String> newPerformers = null;
        // models of performers adopted or released since the last update
        for (int i = 0; i < pendingRemoved.size(); i++) {
            String m = pendingRemoved.get(i);
            if (loaded.remove(m)) {
                removed = add(removed, m);
            }
        }
        for (int i = 0; i < pendingCreated.size(); i++) {
            String m = pendingCreated.get(i);
            if (loaded.add(m)) {
                created = add(created, m);
            }
        }
        pendingRemoved.clear();
        pendingCreated.clear();
        // 0. runtime performers
        for (int i = 0; i < queuedPerformers.size(); ) {
            String model = queuedPerformers.get(i);
            if (!loaded.contains(model) && !(defaultEntities.contains(model) && !defaultLoaded)) {
                LOG.warn("set_performer: model [{}] could not be found. Another attempt will be made in the next iteration", model);
                i++;
                continue;
            }
            queuedPerformers.remove(i);
            if (isPerformerModel(model)) {
                LOG.warn("set_performer: model [{}] already has a performer", model);
                continue;
            }
            PerformerState p = new PerformerState(runtimePerformerName(model), model, RUNTIME_PERFORMER_SIZE,
                    RUNTIME_PERFORMER_SIZE, RUNTIME_PERFORMER_SIZE, levels.size());
            performers.add(p);
            newPerformers = add(newPerformers, p.name);
        }
        // 1. the default level
        if (!defaultLoaded) {
            defaultLoaded = true;
            for (String m : defaultEntities) {
                if (loaded.add(m)) {
                    created = add(created, m);
                }
            }
            LOG.info("Loaded level [default] at iteration {}", iteration);
        }
        // 2. performers against levels
        Arrays.fill(load, false);
        Arrays.fill(unload, false);
        double[] c = this.position;
        for (int i = 0; i < performers.size(); i++) {
            PerformerState p = performers.get(i);
            if (!p.owned || !position.position(p.model, c)) {
                continue;
            }
            Arrays.fill(p.in, false);
            for (int l = 0; l < levels.size(); l++) {
                World.Level lv = levels.get(l);
                if (touches(c, p, lv, 0)) {
                    p.in[l] = true;
                    load[l] = true;
                } else if (active[l] || adoptedLevels[l]) {
                    if (touches(c, p, lv, lv.buffer())) {
                        p.in[l] = true;
                        load[l] = true;
                    } else {
                        unload[l] = true;
                    }
                }
            }
        }
        // an active level that no performer loads or keeps unloads (see the notes)
        for (int l = 0; l < levels.size(); l++) {
            adoptedLevels[l] = false;
            if (active[l] && !load[l]) {
                unload[l] = true;
            }
        }
        // 3.-4. names kept by the levels being loaded (needed only when a level unloads)
        Set<String> marked = null;
        List<String> loadedLevels = null;
        List<String> unloadedLevels = null;
        for (int l = 0; l < levels.size(); l++) {
            if (unload[l] && !load[l]) {
                if (marked == null) {
                    marked = markedByLoading();
                }
                for (String ref : levels.get(l).refs()) {
                    if (!marked.contains(ref) && !defaultEntities.contains(ref) && !isPerformerModel(ref)
                            && world.model(ref).isPresent() && loaded.remove(ref)) {
                        removed = add(removed, ref);
                    }
                }
                active[l] = false;
                unloadedLevels = add(unloadedLevels, levels.get(l).name());
                LOG.info("Unloaded level [{}] at iteration {}", levels.get(l).name(), iteration);
            }
        }
        for (int l = 0; l < levels.size(); l++) {
            if (load[l] && !active[l]) {
                for (String ref : levels.get(l).refs()) {
                    // a model another secondary's performer holds is simulated there, not here
                    if (world.model(ref).isPresent() && !isUnownedPerformerModel(ref) && loaded.add(ref)) {
                        created = add(created, ref);
                    }
                }
                active[l] = true;
                loadedLevels = add(loadedLevels, levels.get(l).name());
                LOG.info("Loaded level [{}] at iteration {}", levels.get(l).name(), iteration);
            }
        }
        if (loadedLevels == null && unloadedLevels == null && created == null && removed == null && newPerformers == null) {
            return NONE;
        }
        return new Changes(orNew(loadedLevels), orNew(unloadedLevels), orNew(created), orNew(removed), orNew(newPerformers));
    }

    /** The names of the models the levels being loaded (this update's load flags) name. */
    private Set<String> markedByLoading() {
        Set<String> marked = new LinkedHashSet<>();
        for (int l = 0; l < levels.size(); l++) {
            if (load[l]) {
                marked.addAll(levels.get(l).refs());
            }
        }
        return marked;
    }

    /** @return list, or a new one when null, with s appended */
    private static List<String> add(List<String> list, String s) {
        List<String> l = list == null ? new ArrayList<>() : list;
        l.add(s);
        return l;
    }

    /** @return list, or a new empty (mutable, as every list of a non-empty Changes) one when null */
    private static List<String> orNew(List<String> list) {
        return list == null ? new ArrayList<>() : list;
    }

    /**
     * Stops evaluating a performer (it moved to another secondary): its model is removed by the
     * next update, and levels it alone kept unload. Unknown or already released: no effect.
     *
     * @param performer the performer's name
     */
    public void release(String performer) {
        for (PerformerState p : performers) {
            if (p.name.equals(performer) && p.owned) {
                p.owned = false;
                Arrays.fill(p.in, false);
                pendingRemoved.add(p.model);
                pendingCreated.remove(p.model);
            }
        }
    }

    /**
     * Starts evaluating a performer (it moved here): the next update creates its model and treats
     * the given levels as active for the buffer rule.
     *
     * @param performer the performer's name
     * @param inLevels  the levels it was in or near on its previous secondary
     * @throws IllegalArgumentException for a performer the world does not have
     */
    public void adopt(String performer, java.util.Collection<String> inLevels) {
        PerformerState found = null;
        for (PerformerState p : performers) {
            if (p.name.equals(performer)) {
                found = p;
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("no performer named '" + performer + "' in world '" + world.name() + "'");
        }
        if (!found.owned) {
            found.owned = true;
            pendingRemoved.remove(found.model);
            pendingCreated.add(found.model);
        }
        for (int l = 0; l < levels.size(); l++) {
            if (inLevels.contains(levels.get(l).name())) {
                adoptedLevels[l] = true;
            }
        }
    }

    /** @return the name of a runtime performer of a model (Gazebo's {@code perf_<model>}) */
    public static String runtimePerformerName(String model) {
        return "perf_" + model;
    }

    /**
     * Registers a runtime performer the primary created (a distributed run's secondary): it takes
     * effect at once, so the next update evaluates it as the primary's update that created it did.
     * The owner loads the model if it is not loaded yet (only at the first iteration, when every
     * model is at its file state: later the primary gives a runtime performer to the secondary that
     * simulates its model); another secondary stops simulating the model if it is dynamic.
     *
     * @param model the performer's model
     * @param owned whether this manager evaluates it
     */
    public void addRuntimePerformer(String model, boolean owned) {
        if (isPerformerModel(model)) {
            return;
        }
        PerformerState p = new PerformerState(runtimePerformerName(model), model, RUNTIME_PERFORMER_SIZE,
                RUNTIME_PERFORMER_SIZE, RUNTIME_PERFORMER_SIZE, levels.size());
        p.owned = owned;
        performers.add(p);
        boolean dynamic = world.model(model).map(m -> !m.isStatic()).orElse(false);
        if (owned) {
            pendingRemoved.remove(model);
            if (!loaded.contains(model)) {
                pendingCreated.add(model);
            }
        } else if (dynamic) {
            defaultEntities.remove(model);
            pendingCreated.remove(model);
            if (loaded.contains(model)) {
                pendingRemoved.add(model);
            }
        }
    }

    private boolean isUnownedPerformerModel(String model) {
        for (int i = 0; i < performers.size(); i++) {
            PerformerState p = performers.get(i);
            if (p.model.equals(model) && !p.owned) {
                return true;
            }
        }
        return false;
    }

    /** @return whether this manager evaluates the performer */
    public boolean owns(String performer) {
        for (PerformerState p : performers) {
            if (p.name.equals(performer)) {
                return p.owned;
            }
        }
        return false;
    }

    /** @return the models of the performers this manager evaluates */
    public java.util.Set<String> performerModelsOwned() {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (PerformerState p : performers) {
            if (p.owned) {
                out.add(p.model);
            }
        }
        return out;
    }

    /** @return whether the model belongs to the default level (as loaded by this manager) */
    public boolean isDefault(String model) {
        return defaultEntities.contains(model);
    }

    /** Closed boxes: the performer's box against the level's box grown by margin on every side. */
    private static boolean touches(double[] c, PerformerState p, World.Level l, double margin) {
        return Math.abs(c[0] - l.x()) <= p.sx / 2 + l.sizeX() / 2 + margin
                && Math.abs(c[1] - l.y()) <= p.sy / 2 + l.sizeY() / 2 + margin
                && Math.abs(c[2] - l.z()) <= p.sz / 2 + l.sizeZ() / 2 + margin;
    }

    /** @return whether levels are on */
    public boolean usesLevels() {
        return useLevels;
    }

    /** @return the names of the levels now loaded, in the world's order (the default level not included) */
    public List<String> activeLevels() {
        List<String> out = new ArrayList<>();
        for (int l = 0; l < levels.size(); l++) {
            if (active[l]) {
                out.add(levels.get(l).name());
            }
        }
        return out;
    }

    /** @return whether the model is loaded now */
    public boolean isLoaded(String model) {
        return loaded.contains(model);
    }

    /** @return the loaded models, in the world's order */
    public List<String> loadedModels() {
        List<String> out = new ArrayList<>();
        for (World.Model m : world.models()) {
            if (loaded.contains(m.name())) {
                out.add(m.name());
            }
        }
        return out;
    }

    /** @return each performer's name mapped to the levels it is in or near, as of the last update */
    public Map<String, List<String>> performerLevels() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (PerformerState p : performers) {
            List<String> in = new ArrayList<>();
            for (int l = 0; l < levels.size(); l++) {
                // in level order, each name once (as the set of names it was before)
                if (p.in[l] && !in.contains(levels.get(l).name())) {
                    in.add(levels.get(l).name());
                }
            }
            out.put(p.name, List.copyOf(in));
        }
        return out;
    }

    /** @return each performer's name mapped to its model */
    public Map<String, String> performerModels() {
        Map<String, String> out = new LinkedHashMap<>();
        for (PerformerState p : performers) {
            out.put(p.name, p.model);
        }
        return out;
    }
}
