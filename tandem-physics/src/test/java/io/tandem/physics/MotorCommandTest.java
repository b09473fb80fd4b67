package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** Runtime joint motor commands (held in the state) and joint coordinates read from a state. */
class MotorCommandTest {
    /** a fixed budget that converges these small problems to 1e-6 (the defaults stop at 1e-4 m/s) */
    private static final SolverSettings EXACT = SolverSettings.subAdmm(60);


    /** A wheel on a revolute joint to the world about z, motor target 5 rad/s, 2 N m. */
    private static PhysicsModel wheel() {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).gravity(0, 0, 0).solver(EXACT);
        int wheel = b.body("wheel").mass(5, 0.1, 0.1, 0.2).add();
        b.revoluteJoint(wheel, -1, 0, 0, 0, 0, 0, 1).motor(5, 2).add();
        return b.build();
    }

    private static void steps(PhysicsEngine e, PhysicsState s, int n) {
        for (int k = 0; k < n; k++) {
            e.step(s);
        }
    }

    @Test
    void setMotorSpeed_revoluteJoint_reachesNewSpeedWithForceBoundKept() {
        PhysicsModel m = wheel();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            steps(e, s, 300);
            assertThat(m.jointVelocity(s, 0)).isCloseTo(5, within(0.05));
            s.setMotorSpeed(0, -3);
            // the 2 N m bound is kept: 8 rad/s down at 10 rad/s^2 takes 0.8 s; at 0.25 s it is at 2.5
            steps(e, s, 60);
            assertThat(s.angVel[2]).isCloseTo(2.5, within(0.05));
            steps(e, s, 240);
            assertThat(s.angVel[2]).isCloseTo(-3, within(0.03));
            assertThat(m.jointVelocity(s, 0)).isEqualTo(s.angVel[2]);
        }
        assertThat(s.motorSpeed(0)).isEqualTo(-3);
        assertThat(s.motorMaxForce(0)).isEqualTo(2);
        // the model keeps its start value
        assertThat(m.newState().motorSpeed(0)).isEqualTo(5);
    }

    @Test
    void setMotor_jointWithoutMotor_drivesIt() {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).gravity(0, 0, 0).solver(EXACT);
        int wheel = b.body("wheel").mass(5, 0.1, 0.1, 0.2).add();
        b.revoluteJoint(wheel, -1, 0, 0, 0, 0, 0, 1).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        assertThatThrownBy(() -> s.setMotorSpeed(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("joint 0 has no motor").hasMessageContaining("setMotor(joint, speed, maxForce)");
        s.setMotor(0, 1, 100);
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            steps(e, s, 10);
        }
        assertThat(s.angVel[2]).isCloseTo(1, within(1e-6));
        s.setMotor(0, 1, 0);
        assertThat(s.motorMaxForce(0)).isZero();
    }

    @Test
    void setMotor_badArguments_rejected() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        int ball = b.body("ball").mass(1, 1, 1, 1).add();
        b.ballJoint(ball, -1, 0, 0, 0).add();
        PhysicsState ballState = b.build().newState();
        assertThatThrownBy(() -> ballState.setMotor(0, 1, 1)).hasMessageContaining("joint 0 is BALL");
        PhysicsState s = wheel().newState();
        assertThatThrownBy(() -> s.setMotorSpeed(0, Double.NaN)).hasMessageContaining("finite");
        assertThatThrownBy(() -> s.setMotor(0, 1, -1)).hasMessageContaining("max force >= 0");
    }

    @Test
    void copyFrom_snapshotWithCommand_restoredStateContinuesBitwise() {
        PhysicsModel m = wheel();
        PhysicsState s = m.newState();
        PhysicsState snapshot = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            steps(e, s, 50);
            s.setMotorSpeed(0, -1);
            snapshot.copyFrom(s);
            steps(e, s, 100);
            double expected = s.angVel[2];
            PhysicsState restored = m.newState();
            restored.copyFrom(snapshot);
            assertThat(restored.motorSpeed(0)).isEqualTo(-1);
            steps(e, restored, 100);
            assertThat(restored.angVel[2]).isEqualTo(expected);
        }
    }

    @Test
    @SuppressForbidden
    void setMotorSpeed_everyStep_allocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        PhysicsModel m = wheel();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 200; k++) {
                s.setMotorSpeed(0, k % 7);
                e.step(s);
                m.jointVelocity(s, 0);
                m.jointPosition(s, 0);
            }
            long before = mx.getCurrentThreadAllocatedBytes();
            double sink = 0;
            for (int k = 0; k < 1000; k++) {
                s.setMotorSpeed(0, k % 7);
                e.step(s);
                sink += m.jointVelocity(s, 0) + m.jointPosition(s, 0);
            }
            long allocated = mx.getCurrentThreadAllocatedBytes() - before;
            assertThat(allocated).as("bytes allocated by 1000 commanded steps").isLessThan(1000);
            assertThat(sink).isFinite();
        }
    }

    @Test
    void jointPosition_revoluteHinge_matchesArmAngleAndWraps() {
        // a hinge about x between a static base and an arm whose centre starts 0.5 m along +y
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).gravity(0, 0, 0).solver(EXACT);
        int base = b.body("base").makeStatic().position(0, 0, 1).add();
        int arm = b.body("arm").mass(1, 0.1, 0.1, 0.1).position(0, 0.5, 1).add();
        b.revoluteJoint(arm, base, 0, 0, 1, 1, 0, 0).motor(2, 100).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        boolean wrapped = false;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 480; k++) {
                e.step(s);
                // the arm's angle about +x, in (-pi, pi]: from +y towards +z
                double armAngle = Math.atan2(s.pos[3 * arm + 2] - 1, s.pos[3 * arm + 1]);
                assertThat(m.jointPosition(s, 0)).as("step %d", k).isCloseTo(armAngle, within(1e-6));
                wrapped |= m.jointPosition(s, 0) < 0;
            }
            assertThat(m.jointVelocity(s, 0)).isCloseTo(2, within(1e-6));
        }
        // 2 rad/s for 2 s: past pi, so the coordinate wrapped to negative angles
        assertThat(wrapped).isTrue();
    }

    @Test
    void jointPosition_prismaticSlider_displacementAndRate() {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).gravity(0, 0, 0).solver(EXACT);
        int slider = b.body("slider").mass(2, 0.1, 0.1, 0.1).position(1, 0, 0).add();
        b.prismaticJoint(slider, -1, 1, 0, 0, 0, 1, 0).motor(0.5, 100).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            steps(e, s, 240);
        }
        // about 0.5 m after 1 s at 0.5 m/s (the iterative solver takes a few steps to reach the speed)
        assertThat(m.jointPosition(s, 0)).isCloseTo(s.pos[1], within(1e-9)).isCloseTo(0.5, within(0.005));
        assertThat(m.jointVelocity(s, 0)).isCloseTo(0.5, within(1e-6));
        assertThat(m.jointType(0)).isEqualTo(JointType.PRISMATIC);
    }

    @Test
    void jointPosition_ballJoint_rejectedNamingTheType() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        int ball = b.body("ball").mass(1, 1, 1, 1).add();
        b.ballJoint(ball, -1, 0, 0, 0).add();
        PhysicsModel m = b.build();
        assertThatThrownBy(() -> m.jointPosition(m.newState(), 0)).hasMessageContaining("joint 0 is BALL");
    }
}
