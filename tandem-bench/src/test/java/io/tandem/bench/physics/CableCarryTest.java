package io.tandem.bench.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.BodyType;
import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverSettings;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The cable scene (physics-wave2.md 9.3): two mobile manipulators carry a welded cable towards a post. */
class CableCarryTest {
    @Test
    void build_fortySegments_sixSubsystemsTwentyJointCoordinatesAndAStraightCableBetweenTheTcps() {
        CableCarry scene = CableCarry.build(SolverSettings.subAdmm(30));
        PhysicsModel m = scene.model();
        // two robots of 10 joint coordinates (x, y, yaw, joints 1-7), a cable of 40 segments
        assertThat(m.articulationCount()).isEqualTo(2);
        assertThat(m.dofCount()).isEqualTo(20);
        assertThat(scene.segments()).isEqualTo(40);
        assertThat(scene.subsystems()).isEqualTo(6);
        // every moving body is a robot's link or one of the cable's segments
        int segments = 0;
        for (int b = 0; b < m.bodyCount(); b++) {
            if (m.bodyName(b).startsWith("cable/")) {
                segments++;
                assertThat(b - scene.firstSegment()).as("segment %s's place", m.bodyName(b)).isBetween(0, 39);
            } else if (m.bodyType(b) == BodyType.DYNAMIC) {
                assertThat(m.dofOfBody(b)).as("%s is a robot's link", m.bodyName(b)).isGreaterThanOrEqualTo(0);
            }
        }
        assertThat(segments).isEqualTo(40);
        // the cable straight and unstrained between the start TCPs, L = 2.0 m apart at 0.8 m
        double[] a = scene.tcp(0, new double[3]);
        double[] b = scene.tcp(1, new double[3]);
        assertThat(a[2]).isCloseTo(0.8, within(1e-3));
        assertThat(b[2]).isCloseTo(0.8, within(1e-3));
        assertThat(b[1] - a[1]).isCloseTo(2.0, within(1e-3));
        assertThat(scene.weldError()).isLessThan(1e-9);
        // (START is solved to 0.1 mm)
        assertThat(scene.length()).isCloseTo(2.0, within(1e-4));
        assertThat(scene.sag()).isCloseTo(0, within(1e-9));
        scene.close();
    }

    @Test
    void build_twentySegments_fourSubsystems() {
        CableCarry scene = CableCarry.build(20, SolverSettings.subAdmm(30));
        assertThat(scene.segments()).isEqualTo(20);
        assertThat(scene.subsystems()).isEqualTo(4);
        assertThat(scene.length()).isCloseTo(2.0, within(1e-4));
        scene.close();
    }

    @Test
    void build_noSegments_refused() {
        assertThatThrownBy(() -> CableCarry.build(0, SolverSettings.subAdmm(30)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 segment");
    }

    static Stream<Arguments> solvers() {
        return Stream.of(Arguments.of("subAdmm(30)", SolverSettings.subAdmm(30)), Arguments.of("pgs(30)", SolverSettings.pgs(30)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("solvers")
    void carry_basesDrivingOneAndAHalfSeconds_cableEndsStayAtTheTcpsAndTheCableSags(String name, SolverSettings solver) {
        CableCarry scene = CableCarry.build(solver);
        PhysicsState s = scene.state();
        double worstWeld = 0;
        double lowest = Double.POSITIVE_INFINITY;
        try (PhysicsEngine e = new PhysicsEngine(scene.model())) {
            for (int k = 0; k < 750; k++) {
                scene.control();
                e.step(s);
                worstWeld = Math.max(worstWeld, scene.weldError());
                lowest = Math.min(lowest, scene.lowestSegment());
            }
        }
        for (double v : s.pos) {
            assertThat(v).as("positions stay finite").isFinite();
        }
        // the welds hold: the cable's ends at the TCPs (6 hard rows each)
        assertThat(worstWeld).as("cable ends' distance from the TCPs, m").isLessThan(0.003);
        // the arms at their carrying configuration (the PD's sag without gravity compensation)
        assertThat(scene.armDrift()).as("arm joints off their targets, rad").isLessThan(0.02);
        double[] a = scene.tcp(0, new double[3]);
        double[] b = scene.tcp(1, new double[3]);
        assertThat(b[1] - a[1]).as("the TCPs' distance, m").isCloseTo(1.8, within(0.01));
        assertThat(a[2]).as("robot 1's TCP height, m").isCloseTo(0.8, within(0.01));
        assertThat(b[2]).as("robot 2's TCP height, m").isCloseTo(0.8, within(0.01));
        // the bases drove +x at 0.3 m/s (the velocity servo's lag), side by side
        double[] p1 = scene.basePosition(0, new double[3]);
        double[] p2 = scene.basePosition(1, new double[3]);
        assertThat(p1[0]).isCloseTo(0.45 - 0.015, within(0.01));
        assertThat(p2[0]).isCloseTo(p1[0], within(0.005));
        assertThat(p1[1]).isCloseTo(-1.2, within(0.01));
        assertThat(p2[1]).isCloseTo(1.2, within(0.01));
        // 2.0 m of cable between TCPs 1.8 m apart sags; nothing falls through the ground
        assertThat(scene.sag()).as("the middle below the ends, m").isBetween(0.3, 0.45);
        assertThat(scene.length()).as("the cable's length, m").isCloseTo(2.0, within(0.01));
        assertThat(lowest).as("the lowest segment's height, m").isGreaterThan(0.3);
        scene.close();
    }
}
