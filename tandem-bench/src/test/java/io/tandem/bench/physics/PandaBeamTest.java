package io.tandem.bench.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverSettings;
import org.junit.jupiter.api.Test;

/** The beam scene (physics-wave2.md 9.4): the Panda advances the FEM beam towards the opening along +x. */
class PandaBeamTest {
    @Test
    void beam_advancing_heldAlongPlusXAndSagging() {
        PandaBeam scene = PandaBeam.build(SolverSettings.subAdmm(30));
        PhysicsModel m = scene.model();
        PhysicsState s = scene.state();
        // the spec's beam: 189 nodes, 27 copies; 5 subsystems (4 blocks and the arm)
        assertThat(m.deformableNodeCount(scene.beam())).isEqualTo(189);
        double[] end = new double[3];
        double worst = 0;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 600; k++) {
                scene.control();
                e.step(s);
                if (k >= 300) {
                    worst = Math.max(worst, scene.trackingError());
                }
            }
        }
        scene.freeEnd(end);
        // the held end follows within the PD's sag under the beam's weight (no gravity compensation)
        assertThat(worst).as("held end's tracking error, m").isLessThan(0.015);
        // along +x, 0.7 s into the advance: the free end at (0.45 + 0.035, 0.005, 0.405) less the sags
        assertThat(end[0]).isCloseTo(0.485, within(0.01));
        assertThat(end[1]).isCloseTo(0.005, within(0.005));
        assertThat(end[2]).isBetween(0.37, 0.40);
        // the beam bends under its weight: its free end below its held end
        double[] held = new double[3];
        scene.heldEnd(held);
        assertThat(held[2] - end[2]).as("beam sag, m").isBetween(0.003, 0.03);
        scene.close();
    }
}
