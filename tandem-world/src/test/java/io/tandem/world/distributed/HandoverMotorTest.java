package io.tandem.world.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.physics.SolverSettings;
import io.tandem.world.LevelManager;
import io.tandem.world.ModelState;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import io.tandem.world.sdf.SdfLoader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A performer handed between secondaries keeps its joints' velocity motor commands: a robot
 * driving when its performer moves on drives on, on the other secondary, as it would have on the
 * first.
 */
class HandoverMotorTest {
    /** A wheel spun by a motor about z (no gravity), a performer on it. */
    private static final String SDF = """
            <?xml version="1.0"?>
            <sdf version="1.9" xmlns:tandem="https://github.com/tandem/sdf">
            <world name="w"><gravity>0 0 0</gravity><physics><max_step_size>0.002</max_step_size></physics>
              <model name="rig">
                <link name="wheel"><pose>0 0 1 0 0 0</pose>
                  <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.2</izz></inertia></inertial>
                </link>
                <joint name="spin" type="revolute"><parent>world</parent><child>wheel</child>
                  <axis><xyz>0 0 1</xyz><limit><lower>-1e16</lower><upper>1e16</upper><effort>5</effort><velocity>10</velocity></limit></axis>
                  <tandem:velocity_motor/>
                </joint>
              </model>
              <plugin name="gz::sim" filename="dummy">
                <performer name="perf_rig"><ref>rig</ref><geometry><box><size>2 2 2</size></box></geometry></performer>
              </plugin>
            </world>
            </sdf>
            """;

    private static World world() {
        return SdfLoader.load(new ByteArrayInputStream(SDF.getBytes(StandardCharsets.UTF_8)), "rig.sdf", w -> { });
    }

    private static double spinRate(WorldRunner r) {
        return r.jointVelocity(r.jointHandle("rig::spin"));
    }

    @Test
    void handover_motorCommanded_receiverDrivesOnWithTheCommandAndTheSameMotion() {
        World w = world();
        SolverSettings solver = SolverSettings.subAdmm(30);
        try (WorldRunner from = new WorldRunner(w, solver, new LevelManager(w, true, List.of("perf_rig"), true));
                WorldRunner to = new WorldRunner(w, solver, new LevelManager(w, true, List.of(), false))) {
            run(from, to);
        }
    }

    private static void run(WorldRunner from, WorldRunner to) {
        int spin = from.jointHandle("rig::spin");
        from.setJointVelocity(spin, 4.0);
        for (int i = 0; i < 20; i++) {
            from.step();
            to.step();
        }
        assertThat(to.modelPose("rig")).as("not simulated on the receiver before the handover").isNull();

        // what DistributedSecondary does at a handover: export on one side, import and adopt on the other
        ModelState st = from.exportState("rig");
        assertThat(st.motors()).containsExactly(4.0, 5.0);
        to.importState(st);
        to.levels().adopt("perf_rig", List.of());

        // the sender goes on as a reference of what the receiver must do
        List<Double> expected = new ArrayList<>();
        List<Double> got = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            from.step();
            to.step();
            expected.add(spinRate(from));
            got.add(spinRate(to));
        }
        assertThat(to.jointVelocityCommand(to.jointHandle("rig::spin"))).isEqualTo(4.0);
        // the motor keeps the wheel at its commanded rate (without the command it would brake to 0)
        assertThat(got.get(got.size() - 1)).isCloseTo(4.0, org.assertj.core.api.Assertions.within(1e-6));
        assertThat(got).isEqualTo(expected);
    }
}
