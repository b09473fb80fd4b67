package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Bodies with several shapes, each at its own pose in the body frame. */
class CompoundBodyTest {
    private static final double S = Math.sqrt(0.5);

    @Test
    void density_twoOffsetSpheres_massAndParallelAxisInertia() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        double r = 0.1;
        double d = 0.5;
        b.body("dumbbell").sphere(r).at(-d, 0, 0, 1, 0, 0, 0).sphere(r).at(d, 0, 0, 1, 0, 0, 0).density(1000).add();
        PhysicsModel m = b.build();
        double ms = 4.0 / 3.0 * Math.PI * r * r * r * 1000;
        assertThat(m.mass(0)).isCloseTo(2 * ms, within(1e-9));
        assertThat(m.inertia(0, 0)).isCloseTo(2 * 0.4 * ms * r * r, within(1e-9));
        assertThat(m.inertia(0, 1)).isCloseTo(2 * (0.4 * ms * r * r + ms * d * d), within(1e-9));
        assertThat(m.inertia(0, 2)).isCloseTo(2 * (0.4 * ms * r * r + ms * d * d), within(1e-9));
    }

    @Test
    void density_turnedBox_inertiaRotatedIntoBodyAxes() {
        // a 0.2 x 0.1 x 0.05 m half-extent box turned 90 degrees about z: its long side lies along body y
        PhysicsModel.Builder b = PhysicsModel.builder();
        b.body("turned").box(0.2, 0.1, 0.05).at(0, 0, 0, S, 0, 0, S).density(500).add();
        b.body("plain").box(0.1, 0.2, 0.05).density(500).add();
        PhysicsModel m = b.build();
        for (int axis = 0; axis < 3; axis++) {
            assertThat(m.inertia(0, axis)).isCloseTo(m.inertia(1, axis), within(1e-12));
        }
    }

    @Test
    void dumbbell_droppedOnPlane_restsLevelOnBothSpheres() {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240);
        b.body("ground").makeStatic().plane().add();
        b.body("dumbbell").sphere(0.1).at(-0.5, 0, 0, 1, 0, 0, 0).sphere(0.1).at(0.5, 0, 0, 1, 0, 0, 0)
                .density(1000).position(0, 0, 0.3).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 480; k++) {
                e.step(s);
            }
            assertThat(e.contactCount()).isEqualTo(2);
        }
        // the centre (between the spheres) rests one radius up, level (no turn about y)
        assertThat(s.pos[5]).isCloseTo(0.1, within(1e-3));
        assertThat(Math.abs(s.quat[6])).isLessThan(1e-3);
        assertThat(Math.abs(s.quat[5])).isLessThan(1e-3);
    }

    @Test
    void offsetTurnedBox_onStaticBody_sphereLandsOnIt() {
        // a static body at the origin whose only box sits 2 m to the side and 1 m up, turned 90 degrees about x
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240);
        b.body("shelf").makeStatic().box(0.5, 0.05, 0.5).at(2, 0, 1, S, S, 0, 0).add();
        b.body("ball").sphere(0.1).density(1000).position(2, 0, 2).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 600; k++) {
                e.step(s);
            }
        }
        // turned about x, the box's y half extent (0.05) points along z: the top face is at 1.05 m
        assertThat(s.pos[5]).isCloseTo(1.05 + 0.1, within(1.5e-3));
        assertThat(s.pos[3]).isCloseTo(2, within(1e-6));
    }

    @Test
    void builder_compoundBadInput_clearMessages() {
        assertThatThrownBy(() -> PhysicsModel.builder().body("b").at(0, 0, 0, 1, 0, 0, 0))
                .hasMessageContaining("'b'").hasMessageContaining("add a shape first");
        assertThatThrownBy(() -> PhysicsModel.builder().body("b").sphere(0.1).at(0, 0, 0, 0, 0, 0, 0))
                .hasMessageContaining("non-zero");
        assertThatThrownBy(() -> PhysicsModel.builder().body("lopsided").sphere(0.1).at(0.3, 0, 0, 1, 0, 0, 0)
                .density(1000).add())
                .hasMessageContaining("'lopsided'").hasMessageContaining("centre of mass").hasMessageContaining("mass(m, ixx, iyy, izz)");
        assertThatThrownBy(() -> PhysicsModel.builder().body("b").sphere(0.1).plane().mass(1, 1, 1, 1).add())
                .hasMessageContaining("only static bodies");
    }
}
