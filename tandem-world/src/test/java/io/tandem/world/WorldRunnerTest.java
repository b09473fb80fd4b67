package io.tandem.world;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.SolverSettings;
import io.tandem.world.sdf.SdfLoader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorldRunnerTest {

    private static World parse(String sdf) {
        return SdfLoader.load(new ByteArrayInputStream(sdf.getBytes(StandardCharsets.UTF_8)), "t.sdf", w -> { });
    }

    @Test
    void step_performersWorld_freeFallMatchesClosedForm() {
        World w = GazeboWorlds.load("test/performers.sdf");
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
            for (int k = 0; k < 1000; k++) {
                r.step();
            }
            assertThat(r.simTimeNs()).isEqualTo(1_000_000_000L);
            // no ground in this world: both fall 9.8 / 2 m in 1 s (the midpoint rule is exact here)
            assertThat(r.modelPose("box").z()).isCloseTo(0.5 - 4.9, within(1e-9));
            assertThat(r.modelPose("sphere").y()).isCloseTo(1.5, within(1e-12));
        }
    }

    @Test
    void step_performerMovedThroughLevels_modelsLoadAndUnload() {
        World w = GazeboWorlds.load("test/levels.sdf");
        List<String> events = new ArrayList<>();
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), true)) {
            r.addListener((runner, it, c) -> {
                assertThat(c.loadedLevels().isEmpty() || it > 0).isTrue();
                c.loadedLevels().forEach(l -> events.add("Loaded level [" + l + "] at iteration " + it));
                c.unloadedLevels().forEach(l -> events.add("Unloaded level [" + l + "] at iteration " + it));
            });
            int before = r.bodyCount();
            assertThat(r.loadedModels()).containsExactly("sphere", "box", "tile_0");
            r.setModelPose("sphere", Pose.translation(40, 0, 0));
            r.step();
            assertThat(r.loadedModels()).containsExactly("sphere", "box", "tile_0", "tile_1");
            assertThat(r.bodyCount()).isEqualTo(before + 1);
            assertThat(r.modelPose("sphere").x()).isEqualTo(40);
            assertThat(r.modelPose("tile_1").x()).isCloseTo(40, within(1e-9));
            r.setModelPose("sphere", Pose.translation(0, 0, 0));
            r.step();
            assertThat(r.loadedModels()).containsExactly("sphere", "box", "tile_0");
            assertThat(r.modelPose("tile_1")).isNull();
            assertThat(r.rebuilds()).isEqualTo(2);
        }
        assertThat(events).containsExactly("Loaded level [level1] at iteration 1", "Unloaded level [level1] at iteration 2");
    }

    /**
     * A pendulum written in SDF: the link frame at the pivot, the centre of mass 1 m below it in
     * the inertial pose, a revolute joint at the link origin. Small-angle period
     * 2 pi sqrt((I + m l^2) / (m g l)).
     */
    @Test
    void step_sdfPendulumWithInertialOffset_smallAnglePeriod() {
        double theta = 0.05;
        World w = parse(String.format(java.util.Locale.ROOT, """
                <?xml version="1.0"?>
                <sdf version="1.9"><world name="w">
                  <physics><max_step_size>0.001</max_step_size></physics>
                  <model name="pendulum"><pose>0 0 2 %s 0 0</pose>
                    <link name="arm">
                      <inertial><pose>0 0 -1 0 0 0</pose><mass>2</mass>
                        <inertia><ixx>0.02</ixx><iyy>0.02</iyy><izz>0.02</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>
                      </inertial>
                    </link>
                    <joint name="pivot" type="revolute"><parent>world</parent><child>arm</child><axis><xyz>1 0 0</xyz></axis></joint>
                  </model>
                </world></sdf>
                """, theta));
        double expected = 2 * Math.PI * Math.sqrt((0.02 + 2 * 1.0) / (2 * 9.8 * 1.0));
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
            double prev = theta;
            double first = -1;
            double last = -1;
            int crossings = 0;
            for (int k = 0; k < 10_000; k++) {
                r.step();
                Pose p = r.modelPose("pendulum");
                // roll angle of the model frame (it turns about x with the link)
                double roll = 2 * Math.atan2(p.qx(), p.qw());
                if (prev > 0 && roll <= 0) {
                    double t = r.simTimeNs() / 1e9 - 0.001 * roll / (roll - prev);
                    if (first < 0) {
                        first = t;
                    } else {
                        crossings++;
                        last = t;
                    }
                }
                prev = roll;
                // the pivot stays put
                assertThat(p.z()).isCloseTo(2, within(1e-4));
            }
            assertThat((last - first) / crossings).isCloseTo(expected, within(0.005 * expected));
        }
    }

    @Test
    void step_diffDriveVehicleOnStage_restsOnItsWheels() {
        World w = GazeboWorlds.load("examples/levels.sdf");
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
            double z0 = r.modelPose("vehicle_red").z();
            for (int k = 0; k < 2000; k++) {
                r.step();
            }
            Pose p = r.modelPose("vehicle_red");
            assertThat(p.z()).isCloseTo(z0, within(0.05));
            assertThat(Math.hypot(p.x(), p.y())).isLessThan(0.05);
        }
    }

    /**
     * Gazebo's level performance world: with levels on, the physics carries only the performers'
     * levels, so it never steps more bodies or contacts than with levels off (the speed itself is
     * a benchmark, not a test).
     */
    @Test
    void step_levelPerformanceWorld_levelsOnStepsFewerBodies() {
        World w = GazeboWorlds.load("test/level_performance.sdf");
        try (WorldRunner on = new WorldRunner(w, SolverSettings.subAdmm(10), true);
             WorldRunner off = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
            for (int k = 0; k < 200; k++) {
                on.step();
                off.step();
                assertThat(on.bodyCount()).isLessThan(off.bodyCount());
            }
            assertThat(off.loadedModels()).hasSize(w.models().size());
            assertThat(on.loadedModels()).contains("vehicle_red", "vehicle_blue");
            // the performers' poses agree: levels change what is simulated around them, not them
            assertThat(on.modelPose("vehicle_red").z()).isCloseTo(off.modelPose("vehicle_red").z(), within(1e-3));
        }
    }
}
