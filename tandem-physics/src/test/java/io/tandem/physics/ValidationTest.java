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
        // the midpoint rule integrates a constant force exactly
        assertThat(s.pos[2]).isCloseTo(continuous, within(1e-9));
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
        double worst = 0;
        int steps = 10_000;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < steps; k++) {
                e.step(s);
                double en = energy(m, s);
                worst = Math.max(worst, Math.abs(en - e0));
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
        // the midpoint rule with midpoint Jacobians keeps it within 0.05 % of m g l at every step
        // (measured 0.0013 J; symplectic Euler's oscillation was 0.033 J)
        assertThat(worst).isLessThan(5e-4 * G);
    }

    /** World angular momentum I_w w of body 0. */
    private static double[] angularMomentum(PhysicsModel m, PhysicsState s) {
        double[] r = new double[9];
        double[] q = {s.quat[0], s.quat[1], s.quat[2], s.quat[3]};
        // R from the unit quaternion (w, x, y, z)
        double w = q[0], x = q[1], y = q[2], z = q[3];
        r[0] = 1 - 2 * (y * y + z * z); r[1] = 2 * (x * y - w * z); r[2] = 2 * (x * z + w * y);
        r[3] = 2 * (x * y + w * z); r[4] = 1 - 2 * (x * x + z * z); r[5] = 2 * (y * z - w * x);
        r[6] = 2 * (x * z - w * y); r[7] = 2 * (y * z + w * x); r[8] = 1 - 2 * (x * x + y * y);
        double[] wb = new double[3];
        for (int i = 0; i < 3; i++) {
            // body-frame angular velocity R^T w, times the principal inertia, back to world
            wb[i] = (r[i] * s.angVel[0] + r[3 + i] * s.angVel[1] + r[6 + i] * s.angVel[2]) * m.inertia(0, i);
        }
        return new double[] {
            r[0] * wb[0] + r[1] * wb[1] + r[2] * wb[2],
            r[3] * wb[0] + r[4] * wb[1] + r[5] * wb[2],
            r[6] * wb[0] + r[7] * wb[1] + r[8] * wb[2]};
    }

    /**
     * The gyroscopic term: a torque-free body spun about its intermediate principal axis with a
     * tiny perturbation flips over (the tennis-racket effect), spun about its largest axis it stays;
     * without the term w would stay constant and neither would happen. Both keep their angular
     * momentum.
     */
    @Test
    void freeSpin_intermediateAxisFlipsMajorAxisStays_momentumKept() {
        double[] flipped = new double[2];
        double[] drift = new double[2];
        for (int axis = 1; axis <= 2; axis++) {
            // principal inertia 1, 2, 3 kg m^2: axis 1 (y) is the intermediate one, axis 2 (z) the largest
            PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).gravity(0, 0, 0);
            b.body("racket").mass(1, 1, 2, 3)
                    .angularVelocity(axis == 1 ? 1e-3 : 0, axis == 1 ? 2 : 1e-3, axis == 2 ? 2 : 1e-3).add();
            PhysicsModel m = b.build();
            PhysicsState s = m.newState();
            double[] l0 = angularMomentum(m, s);
            double minDot = 1;
            try (PhysicsEngine e = new PhysicsEngine(m)) {
                for (int k = 0; k < 240 * 20; k++) {
                    e.step(s);
                    double[] l = angularMomentum(m, s);
                    double dl = Math.sqrt(Math.pow(l[0] - l0[0], 2) + Math.pow(l[1] - l0[1], 2) + Math.pow(l[2] - l0[2], 2));
                    drift[axis - 1] = Math.max(drift[axis - 1], dl / Math.sqrt(l0[0] * l0[0] + l0[1] * l0[1] + l0[2] * l0[2]));
                    // the spin axis in the world: body axis 'axis' rotated by q
                    double[] world = new double[3];
                    io.tandem.physics.internal.dynamics.RigidOps.rotate(s.quat, 0, axis == 1 ? 0 : 0, axis == 1 ? 1 : 0,
                            axis == 2 ? 1 : 0, world, 0);
                    minDot = Math.min(minDot, axis == 1 ? world[1] : world[2]);
                }
            }
            flipped[axis - 1] = minDot;
        }
        assertThat(flipped[0]).as("intermediate axis: turns over").isLessThan(-0.9);
        assertThat(flipped[1]).as("largest axis: stays").isGreaterThan(0.99);
        assertThat(drift[0]).as("relative momentum drift, intermediate axis").isLessThan(0.02);
        assertThat(drift[1]).as("relative momentum drift, largest axis").isLessThan(1e-3);
    }

    /** An undamped joint spring (prismatic, k = 100 N/m, 1 kg) oscillates with period 2 pi sqrt(m / k) and keeps its amplitude. */
    @Test
    void jointSpring_undamped_periodAndAmplitudeKept() {
        double h = 1.0 / 240;
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(h).gravity(0, 0, 0);
        int slider = b.body("slider").mass(1, 0.01, 0.01, 0.01).linearVelocity(1, 0, 0).add();
        b.prismaticJoint(slider, -1, 0, 0, 0, 1, 0, 0).spring(100, 0).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        double period = 2 * Math.PI * Math.sqrt(1.0 / 100);
        double lastCross = -1;
        double firstCross = -1;
        int crossings = 0;
        double lateAmplitude = 0;
        int steps = (int) Math.round(50 * period / h);
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            double prev = s.pos[0];
            for (int k = 0; k < steps; k++) {
                e.step(s);
                double x = s.pos[0];
                if (prev > 0 && x <= 0) {
                    // upward-to-downward zero crossing, interpolated in time
                    double t = s.time - h * x / (x - prev);
                    if (firstCross < 0) {
                        firstCross = t;
                    } else {
                        crossings++;
                    }
                    lastCross = t;
                }
                if (k >= steps - (int) (2 * period / h)) {
                    lateAmplitude = Math.max(lateAmplitude, Math.abs(x));
                }
                prev = x;
            }
        }
        // released at the spring's rest position with 1 m/s: amplitude v0 / omega = 0.1 m
        assertThat((lastCross - firstCross) / crossings).isCloseTo(period, within(0.005 * period));
        assertThat(lateAmplitude).isCloseTo(0.1, within(0.1 * 0.005));
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
        // each thread is one the engine starts: an absurd count is refused before any starts
        assertThatThrownBy(() -> SolverSettings.defaults().withThreads(100000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 256, got 100000");
        assertThat(SolverSettings.defaults().withThreads(SolverSettings.MAX_THREADS).threads()).isEqualTo(256);
    }
}
