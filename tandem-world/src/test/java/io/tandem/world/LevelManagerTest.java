package io.tandem.world;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Gazebo's level semantics on its own test worlds (test/integration/level_manager.cc). */
class LevelManagerTest {
    /** Model positions the test moves by hand, like Gazebo's test moving its static performers. */
    private final Map<String, double[]> positions = new HashMap<>();
    private long iteration;

    private LevelManager.Changes move(LevelManager lm, String model, double x, double y, double z) {
        positions.put(model, new double[] {x, y, z});
        return lm.update(iteration++, m -> lm.isLoaded(m) ? positions.get(m) : null);
    }

    private LevelManager levels() {
        World w = GazeboWorlds.load("test/levels.sdf");
        LevelManager lm = new LevelManager(w, true);
        positions.put("sphere", new double[3]);
        positions.put("box", new double[3]);
        lm.update(iteration++, positions::get);
        return lm;
    }

    @Test
    void update_start_defaultLevelAndPerformersOnly() {
        LevelManager lm = levels();
        assertThat(lm.activeLevels()).isEmpty();
        assertThat(lm.loadedModels()).containsExactly("sphere", "box", "tile_0");
    }

    @Test
    void update_bufferOnlyDelaysUnloading_gazeboWorkedExample() {
        LevelManager lm = levels();
        move(lm, "sphere", 40, 0, 0);
        assertThat(lm.activeLevels()).containsExactly("level1");
        assertThat(lm.isLoaded("tile_1")).isTrue();
        // level1 kept by its buffer, level2's box touched
        LevelManager.Changes c = move(lm, "sphere", 40, 20, 0);
        assertThat(c.loadedLevels()).containsExactly("level2");
        assertThat(lm.activeLevels()).containsExactly("level1", "level2");
        move(lm, "sphere", 0, 0, 0);
        assertThat(lm.activeLevels()).isEmpty();
        assertThat(lm.loadedModels()).containsExactly("sphere", "box", "tile_0");
        // back into level2: level1 is only touched in its buffer and stays unloaded
        move(lm, "sphere", 40, 20, 0);
        assertThat(lm.activeLevels()).containsExactly("level2");
        assertThat(lm.isLoaded("tile_1")).isFalse();
        assertThat(lm.isLoaded("tile_2")).isTrue();
    }

    @Test
    void update_leavingBoxButNotBuffer_keepsLevelUntilBufferLeft() {
        LevelManager lm = levels();
        move(lm, "sphere", 40, 0, 0);
        // level1 spans x 25..55; the 2 m performer box at x 58 is outside the box, within the 5 m buffer
        LevelManager.Changes kept = move(lm, "sphere", 58, 0, 0);
        assertThat(kept.unloadedLevels()).isEmpty();
        assertThat(lm.activeLevels()).contains("level1");
        // touching exactly at the buffer's face still keeps it (closed boxes)
        move(lm, "sphere", 40, -21, 0);
        assertThat(lm.activeLevels()).contains("level1");
        LevelManager.Changes gone = move(lm, "sphere", 40, -21.001, 0);
        // level4 (loaded on the way, x 45..75) is left at its buffer's corner at the same move
        assertThat(gone.unloadedLevels()).containsExactly("level1", "level4");
        assertThat(gone.removedModels()).containsExactly("tile_1", "tile_4");
    }

    @Test
    void update_twoPerformersShareLevel_unloadedOnlyWhenBothLeave() {
        LevelManager lm = levels();
        move(lm, "sphere", 40, 0, 0);
        move(lm, "box", 35, 0, 0);
        move(lm, "sphere", 0, 0, 0);
        assertThat(lm.activeLevels()).containsExactly("level1");
        assertThat(lm.performerLevels().get("perf_box")).containsExactly("level1");
        assertThat(lm.performerLevels().get("perf_sphere")).isEmpty();
        LevelManager.Changes c = move(lm, "box", 0, 0, 0);
        assertThat(c.unloadedLevels()).containsExactly("level1");
        assertThat(lm.isLoaded("tile_1")).isFalse();
    }

    @Test
    void update_reload_recreatesModelsFromWorld() {
        LevelManager lm = levels();
        LevelManager.Changes in = move(lm, "sphere", 60, 0, 0);
        assertThat(in.createdModels()).containsExactly("tile_4");
        move(lm, "sphere", 0, 0, 0);
        LevelManager.Changes again = move(lm, "sphere", 60, 0, 0);
        assertThat(again.loadedLevels()).containsExactly("level4");
        assertThat(again.createdModels()).containsExactly("tile_4");
    }

    @Test
    void levelsOff_everyModelLoaded_noLevels() {
        World w = GazeboWorlds.load("test/levels.sdf");
        LevelManager lm = new LevelManager(w, false);
        lm.update(0, m -> new double[3]);
        assertThat(lm.loadedModels()).hasSize(w.models().size());
        assertThat(lm.activeLevels()).isEmpty();
    }

    @Test
    void setPerformer_runtimePerformer_drivesLevels() {
        World w = GazeboWorlds.load("test/levels_no_performers.sdf");
        assertThat(w.performers()).isEmpty();
        LevelManager lm = new LevelManager(w, true);
        positions.put("sphere", new double[3]);
        positions.put("box", new double[3]);
        lm.update(iteration++, m -> lm.isLoaded(m) ? positions.get(m) : null);
        assertThat(lm.setPerformer("")).isFalse();
        assertThat(lm.setPerformer("sphere")).isTrue();
        assertThat(lm.setPerformer("sphere")).isTrue();
        LevelManager.Changes c = move(lm, "sphere", 40, 0, 0);
        assertThat(c.newPerformers()).containsExactly("perf_sphere");
        assertThat(lm.performerModels()).containsEntry("perf_sphere", "sphere").hasSize(1);
        assertThat(lm.activeLevels()).containsExactly("level1");
        // a model in an unloaded level is not there yet: its request waits
        lm.setPerformer("tile_5");
        assertThat(move(lm, "sphere", 40, 0, 0).newPerformers()).isEmpty();
        positions.put("tile_5", new double[] {60, 20, 0});
        move(lm, "sphere", 60, 20, 0);
        LevelManager.Changes later = move(lm, "sphere", 60, 20, 0);
        assertThat(later.newPerformers()).containsExactly("perf_tile_5");
        assertThat(List.copyOf(lm.performerModels().keySet())).containsExactly("perf_sphere", "perf_tile_5");
    }
}
