package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The engine against closed forms (issue: "Validation, each against a closed form"). */
class ValidationTest {
    private static final double G = 9.81;

    @Test
    void freeFall_matchesClosedForm() {
        double h = 0.01;
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(h);
        b.body("ball").mass(2, 0.01, 0.01, 0.01).position(0, 0, 10).linearVelocity(1, 0, 3).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 100; k++) {
                e.step(s);
            }
        }
        double t = 1.0;
        double continuous = 10 + 3 * t - 0.5 * G * t * t;
        // the scheme's exact discrete solution (symplectic Euler), and the continuous one to O(h)
        assertThat(s.pos[2]).isCloseTo(continuous - 0.5 * G * h * t, within(1e-9));
        assertThat(s.pos[2]).isCloseTo(continuous, within(0.5 * G * h * t + 1e-9));
        assertThat(s.pos[0]).isCloseTo(t, within(1e-9));
        assertThat(s.linVel[2]).isCloseTo(3 - G * t, within(1e-9));
        assertThat(s.time).isCloseTo(t, within(1e-12));
    }

    /** A bob of mass m on a massless revolute pivot at the origin, hanging at distance l, swung by theta0. */
    private static PhysicsModel pendulum(double l, double theta0, double icm, SolverSettings solver, double h) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(h).solver(solver);
        double x = l * Math.sin(theta0);
        double z = -l * Math.cos(theta0);
        int bob = b.body("bob").mass(1, icm, icm, icm).position(x, 0, z).add();
        b.revoluteJoint(bob, -1, 0, 0, 0, 0, 1, 0).add();
        return b.build();
    }

    @Test
    void pendulum_smallAngle_periodWithinHalfPercent() {
        double l = 1;
        double icm = 1e-3;
        PhysicsModel m = pendulum(l, 0.05, icm, SolverSettings.subAdmm(60), 1.0 / 1000);
        PhysicsState s = m.newState();
        double expected = 2 * Math.PI * Math.sqrt((icm + l * l) / (G * l));
        // time the x zero crossings (linear interpolation) over several periods
        double firstCrossing = -1;
        double lastCrossing = -1;
        int crossings = 0;
        double prevX = s.pos[0];
        double prevT = 0;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            while (s.time < 5 * expected) {
                e.step(s);
                double x = s.pos[0];
                if (prevX > 0 && x <= 0 || prevX < 0 && x >= 0) {
                    double tc = prevT + (s.time - prevT) * prevX / (prevX - x);
                    if (firstCrossing < 0) {
                        firstCrossing = tc;
                    }
                    lastCrossing = tc;
                    crossings++;
                }
                prevX = x;
                prevT = s.time;
            }
        }
        double measured = 2 * (lastCrossing - firstCrossing) / (crossings - 1);
        assertThat(measured).isCloseTo(expected, within(0.005 * expected));
    }

    private static double energy(PhysicsModel m, PhysicsState s) {
        double e = 0;
        for (int i = 0; i < m.bodyCount(); i++) {
            if (m.bodyType(i) != BodyType.DYNAMIC) {
                continue;
            }
            double mass = m.mass(i);
            double v2 = s.linVel[3 * i] * s.linVel[3 * i] + s.linVel[3 * i + 1] * s.linVel[3 * i + 1]
                    + s.linVel[3 * i + 2] * s.linVel[3 * i + 2];
            e += 0.5 * mass * v2 + mass * G * s.pos[3 * i + 2];
            // rotational energy about the principal axes (body frame)
            double[] wb = new double[3];
            io.tandem.physics.internal.dynamics.RigidOps.rotateInverse(s.quat, 4 * i, s.angVel[3 * i],
                    s.angVel[3 * i + 1], s.angVel[3 * i + 2], wb, 0);
            for (int a = 0; a < 3; a++) {
                e += 0.5 * m.inertia(i, a) * wb[a] * wb[a];
            }
        }
        return e;
    }

    @Test
    void pendulum_frictionless_energyDoesNotGrowOver10kSteps() {
        PhysicsModel m = pendulum(1, 1.0, 1e-2, SolverSettings.subAdmm(60), 1.0 / 240);
        PhysicsState s = m.newState();
        double e0 = energy(m, s);
        double early = Double.NEGATIVE_INFINITY;
        double late = Double.NEGATIVE_INFINITY;
        int steps = 10_000;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < steps; k++) {
                e.step(s);
                double en = energy(m, s);
                if (k < 1000) {
                    early = Math.max(early, en);
                } else if (k >= steps - 1000) {
                    late = Math.max(late, en);
                }
            }
        }
        // a symplectic scheme's energy oscillates without drift: the envelope of the last 1000
        // steps (about 2 periods) is no higher than that of the first, and within 0.5 % of m g l
        assertThat(late).isLessThanOrEqualTo(early + 1e-3);
        assertThat(late - e0).isLessThan(0.005 * G);
    }

    @Test
    void revoluteMotor_reachesTargetSpeed() {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).gravity(0, 0, 0);
        int wheel = b.body("wheel").mass(5, 0.1, 0.1, 0.2).add();
        b.revoluteJoint(wheel, -1, 0, 0, 0, 0, 0, 1).motor(5, 2).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            // torque-limited spin-up: 2 N m on 0.2 kg m^2 reaches 5 rad/s after 0.5 s
            for (int k = 0; k < 60; k++) {
                e.step(s);
            }
            assertThat(s.angVel[2]).as("torque-limited ramp at 0.25 s").isCloseTo(2.5, within(0.05));
            for (int k = 0; k < 240; k++) {
                e.step(s);
            }
        }
        assertThat(s.angVel[2]).isCloseTo(5, within(0.01 * 5));
    }

    @Test
    void nonFiniteState_stepThrowsNamingBodyAndStep_stateUntouched() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        b.body("fine").mass(1, 1, 1, 1).add();
        b.body("broken").mass(1, 1, 1, 1).position(1, 0, 0).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            e.step(s);
            s.linVel[3] = Double.NaN;
            double[] before = s.pos.clone();
            assertThatThrownBy(() -> e.step(s)).isInstanceOf(SimulationDivergedException.class)
                    .hasMessageContaining("'broken'").hasMessageContaining("step 1");
            assertThat(s.pos).containsExactly(before);
            assertThat(s.step).isEqualTo(1);
        }
    }

    @Test
    void builder_badInput_clearMessages() {
        assertThatThrownBy(() -> PhysicsModel.builder().timeStep(0)).hasMessageContaining("time step");
        assertThatThrownBy(() -> PhysicsModel.builder().body("x").mass(-1, 1, 1, 1))
                .hasMessageContaining("'x'").hasMessageContaining("mass");
        assertThatThrownBy(() -> PhysicsModel.builder().body("x").add()).hasMessageContaining("needs a mass");
        PhysicsModel.Builder b = PhysicsModel.builder();
        b.body("x").mass(1, 1, 1, 1).add();
        assertThatThrownBy(() -> b.body("x")).hasMessageContaining("used twice");
        assertThatThrownBy(() -> b.ballJoint(0, 0, 0, 0, 0)).hasMessageContaining("itself");
        assertThatThrownBy(() -> b.revoluteJoint(0, -1, 0, 0, 0, 0, 0, 0)).hasMessageContaining("axis");
        assertThatThrownBy(() -> b.ballJoint(0, -1, 0, 0, 0).motor(1, 1)).hasMessageContaining("revolute or prismatic");
        assertThatThrownBy(() -> new SolverSettings(SolverKind.SUB_ADMM, 0, 4, 0, 1)).hasMessageContaining("iterations");
    }
}
