package io.tandem.world.view;

import io.tandem.world.LevelManager;
import io.tandem.world.World;
import io.tandem.world.WorldView;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Feeds a viewer from a running world, as Gazebo's SceneBroadcaster does: the scene once, the
 * state (loaded models and levels, static poses, owners) whenever it changes, and a
 * {@link PoseFrame} of the moving entities at most once per {@code minPeriodNs} of the injected
 * clock (60 Hz in Gazebo). The sink keeps only the latest of each (latest-wins), so a slow or
 * closed page never slows the run: the stepping thread pays one frame's packing per period.
 *
 * <p>A {@link WorldView.Listener}: call it on the stepping thread; {@link #flush} on the same
 * thread when the run pauses or ends, so the page shows the exact iteration. Allocates the frame
 * and state messages it sends, nothing on the steps between.
 */
public final class ViewFeed implements WorldView.Listener {
    /** Where the messages go; its methods are called on the stepping thread and must not block. */
    public interface Sink {
        /** @param json the scene message ({@link SceneDescription#sceneJson()}) */
        void scene(String json);

        /** @param json a state message ({@link SceneDescription#stateJson}) */
        void state(String json);

        /** @param frame a {@link PoseFrame}, the sink's to keep */
        void frame(ByteBuffer frame);

        /**
         * A frame of the run now: by default packed into a new buffer for {@link #frame(ByteBuffer)}.
         * A sink that keeps many (a recording) may pack it itself with
         * {@link SceneDescription#frame(WorldView, byte[], int)}.
         *
         * @param scene the feed's scene
         * @param view  the run, on its stepping thread
         */
        default void frame(SceneDescription scene, WorldView view) {
            frame(scene.frame(view));
        }
    }

    private final SceneDescription scene;
    private final World world;
    private final Sink sink;
    private final LongSupplier nanoClock;
    private final long minPeriodNs;
    private final Supplier<Map<String, String>> owners;
    private final Set<String> loadedLevels = new HashSet<>();
    private Map<String, String> lastOwners;
    private Map<String, double[]> lastColors = Map.of();
    private boolean started;
    private boolean stateDirty = true;
    private long lastFrameNs;

    /**
     * @param scene       what the viewer draws
     * @param world       the world (for the levels' order)
     * @param sink        where the messages go
     * @param nanoClock   a monotonic clock, ns (rate limiting only; never the simulation's time)
     * @param minPeriodNs the least time between two frames (16,666,667 for 60 Hz; 0: every step)
     * @param owners      which secondary owns each model now (called once per frame; an empty map standalone)
     */
    public ViewFeed(SceneDescription scene, World world, Sink sink, LongSupplier nanoClock, long minPeriodNs,
                    Supplier<Map<String, String>> owners) {
        if (minPeriodNs < 0) {
            throw new IllegalArgumentException("minPeriodNs must be >= 0, got " + minPeriodNs);
        }
        this.scene = scene;
        this.world = world;
        this.sink = sink;
        this.nanoClock = nanoClock;
        this.minPeriodNs = minPeriodNs;
        this.owners = owners;
    }

    @Override
    public void stepped(WorldView view, long iteration, LevelManager.Changes changes) {
        if (!changes.isEmpty()) {
            loadedLevels.addAll(changes.loadedLevels());
            changes.unloadedLevels().forEach(loadedLevels::remove);
            stateDirty = true;
        }
        long now = nanoClock.getAsLong();
        if (!started || stateDirty || now - lastFrameNs >= minPeriodNs) {
            publish(view, now);
        }
    }

    /**
     * Starts over with a new run of the same world (a reset): the next step sends the scene and
     * state again, and the levels it reports loaded.
     */
    public void reset() {
        loadedLevels.clear();
        started = false;
        stateDirty = true;
    }

    /** Sends the state (when changed) and a frame of the run as it stands now. */
    public void flush(WorldView view) {
        publish(view, nanoClock.getAsLong());
    }

    /**
     * @return whether the recoloured models changed since the last state: a recolouring stores a new
     *         array, so comparing the arrays by reference suffices (no text built per frame)
     */
    private boolean colorsChanged(WorldView view) {
        Map<String, double[]> c = view.visualColors();
        if (c.size() != lastColors.size()) {
            return true;
        }
        if (c.isEmpty()) {
            return false; // no iterator per frame
        }
        for (Map.Entry<String, double[]> e : c.entrySet()) {
            if (lastColors.get(e.getKey()) != e.getValue()) {
                return true;
            }
        }
        return false;
    }

    private void publish(WorldView view, long now) {
        if (!started) {
            scene.bind(view);
            sink.scene(scene.sceneJson());
            started = true;
        }
        Map<String, String> o = owners.get();
        boolean colorsChanged = colorsChanged(view);
        if (stateDirty || !o.equals(lastOwners) || colorsChanged) {
            List<String> levels = new ArrayList<>();
            for (World.Level l : world.levels()) {
                if (loadedLevels.contains(l.name())) {
                    levels.add(l.name());
                }
            }
            sink.state(scene.stateJson(view, levels, o));
            lastOwners = Map.copyOf(o);
            lastColors = Map.copyOf(view.visualColors());
            stateDirty = false;
        }
        sink.frame(scene, view);
        lastFrameNs = now;
    }
}
