package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Contacts against closed forms: resting stack, incline stick/slide, momentum in a collision. */
class ContactValidationTest {
    private static final double G = 9.81;

    private static SolverSettings settings(SolverKind kind) {
        return switch (kind) {
            case SUB_ADMM -> SolverSettings.subAdmm(60);
            case PGS -> SolverSettings.pgs(30);
            case PROJECTED_JACOBI -> SolverSettings.projectedJacobi(100);
            case FULL_ADMM -> SolverSettings.fullAdmm(60);
            case NONSMOOTH_NEWTON -> SolverSettings.nonsmoothNewton(9);
        };
    }

    @ParameterizedTest
    @EnumSource(SolverKind.class)
    void ballStack_atRestAfterTenSeconds_penetrationBelowOneMillimetre(SolverKind kind) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(settings(kind));
        b.body("ground").makeStatic().plane().add();
        int n = 5;
        double r = 0.1;
        for (int k = 0; k < n; k++) {
            b.body("ball" + k).sphere(r).density(1000).position(0, 0, r + 2 * r * k).add();
        }
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 2400; k++) {
                e.step(s);
            }
        }
        double worst = 0;
        for (int k = 1; k <= n; k++) {
            double below = k == 1 ? 0 : s.pos[3 * (k - 1) + 2] + r;
            double bottom = s.pos[3 * k + 2] - r;
            worst = Math.max(worst, below - bottom);
            assertThat(Math.abs(s.linVel[3 * k + 2])).as("%s: ball %d vertical speed", kind, k).isLessThan(1e-3);
            assertThat(Math.hypot(s.pos[3 * k], s.pos[3 * k + 1])).as("%s: ball %d drift", kind, k).isLessThan(1e-3);
        }
        assertThat(worst).as("%s: deepest penetration after 10 s (m)", kind).isLessThan(1e-3);
    }

    /**
     * A 0.2 m cube resting on a plane tilted by theta about y, friction mu: its travel down the
     * slope during t after 0.1 s of settling, minus what its velocity at that moment accounts for
     * (so a constant acceleration a gives a t^2 / 2).
     */
    private static double slide(double thetaDeg, double mu, double t, SolverKind kind) {
        double th = Math.toRadians(thetaDeg);
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(settings(kind));
        // plane normal n = (sin th, 0, cos th): the plane's z axis rotated by th about y
        double qw = Math.cos(th / 2);
        double qy = Math.sin(th / 2);
        b.body("slope").makeStatic().plane().orientation(qw, 0, qy, 0).friction(mu).add();
        double h = 0.1;
        b.body("block").box(h, h, h).density(500).friction(mu).orientation(qw, 0, qy, 0)
                .position(h * Math.sin(th), 0, h * Math.cos(th)).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        double x0;
        double z0;
        int steps = (int) Math.round(t * 240);
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            // settle 0.1 s, then measure from there
            for (int k = 0; k < 24; k++) {
                e.step(s);
            }
            x0 = s.pos[3];
            z0 = s.pos[5];
            double v0 = s.linVel[3] * Math.cos(th) - s.linVel[5] * Math.sin(th);
            for (int k = 0; k < steps; k++) {
                e.step(s);
            }
            // down-slope direction d = (cos th, 0, -sin th): gravity projected on the plane
            double dx = s.pos[3] - x0;
            double dz = s.pos[5] - z0;
            return dx * Math.cos(th) - dz * Math.sin(th) - v0 * t;
        }
    }

    @ParameterizedTest
    @EnumSource(SolverKind.class)
    void incline_belowFrictionAngle_sticks(SolverKind kind) {
        // tan 20 deg = 0.36 < 0.5
        assertThat(Math.abs(slide(20, 0.5, 1.0, kind))).as("%s: travel in 1 s (m)", kind).isLessThan(1e-3);
    }

    @ParameterizedTest
    @EnumSource(SolverKind.class)
    void incline_aboveFrictionAngle_slidesWithCoulombAcceleration(SolverKind kind) {
        double th = Math.toRadians(40);
        double mu = 0.3;
        double a = G * (Math.sin(th) - mu * Math.cos(th));
        double t = 1.0;
        double travel = slide(40, mu, t, kind);
        assertThat(travel).as("%s: travel in %s s", kind, t).isCloseTo(0.5 * a * t * t, within(0.02 * 0.5 * a * t * t));
    }

    @Test
    void freeCollision_twoSpheres_momentumConserved() {
        // a fixed budget that converges the contact: SubADMM conserves momentum at its fixed point
        // (the defaults stop at 1e-4 m/s, about 1e-4 relative here)
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).gravity(0, 0, 0).solver(SolverSettings.subAdmm(60));
        b.body("a").sphere(0.1).density(1000).position(0, 0, 0).linearVelocity(2, 0.3, 0).add();
        b.body("b").sphere(0.15).density(1000).position(0.6, 0.05, 0).linearVelocity(-1, 0, 0.2).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        double[] p0 = momentum(m, s);
        int contactSteps = 0;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 240; k++) {
                e.step(s);
                contactSteps += e.contactCount() > 0 ? 1 : 0;
            }
        }
        assertThat(contactSteps).as("the spheres did collide").isGreaterThan(0);
        double[] p1 = momentum(m, s);
        // exact at the solver's fixed point; SubADMM's 60 iterations leave ~2e-9 relative (its
        // v-step's beta z terms cancel between the two bodies only at convergence)
        for (int d = 0; d < 3; d++) {
            assertThat(p1[d]).isCloseTo(p0[d], within(1e-6 * (1 + Math.abs(p0[d]))));
        }
        // restitution 0: after the collision they no longer approach along the line of centres
        double dx = s.pos[3] - s.pos[0];
        double dy = s.pos[4] - s.pos[1];
        double dz = s.pos[5] - s.pos[2];
        double closing = (s.linVel[3] - s.linVel[0]) * dx + (s.linVel[4] - s.linVel[1]) * dy + (s.linVel[5] - s.linVel[2]) * dz;
        assertThat(closing).isGreaterThanOrEqualTo(-1e-9);
    }

    private static double[] momentum(PhysicsModel m, PhysicsState s) {
        double[] p = new double[3];
        for (int i = 0; i < m.bodyCount(); i++) {
            for (int d = 0; d < 3; d++) {
                p[d] += m.mass(i) * s.linVel[3 * i + d];
            }
        }
        return p;
    }

    @Test
    void jointedBodies_doNotCollideWithEachOther_butStillWithOthers() {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).gravity(0, 0, 0);
        // two overlapping boxes hinged together, and a third box overlapping the second
        int upper = b.body("upper").box(0.1, 0.1, 0.1).density(500).position(0, 0, 0).add();
        int lower = b.body("lower").box(0.1, 0.1, 0.1).density(500).position(0.15, 0, 0).add();
        b.revoluteJoint(upper, lower, 0.075, 0, 0, 0, 0, 1).add();
        b.body("free").box(0.1, 0.1, 0.1).density(500).position(0.33, 0, 0).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            e.step(s);
            // only the lower/free pair touches: a face-face manifold of at most 4 points
            assertThat(e.contactCount()).isBetween(1, 4);
        }
        // the hinge holds the overlapping pair together instead of pushing it apart
        assertThat(Math.abs(s.pos[3] - s.pos[0] - 0.15)).isLessThan(1e-3);
        assertThat(s.linVel[6]).as("the free box is pushed away").isGreaterThan(0);
    }

    /**
     * A kinematic body's own motion enters its contacts' bias (ContactAssembly): a box of 0.2 m
     * (friction 0.8) on a kinematic platform that rises at 0.2 m/s, on one that slides at
     * 0.5 m/s, and on a turntable at 1 rad/s (box at 0.3 m from the axis) rides along. After 2 s:
     * rising, the box moves up at the platform's speed and keeps touching it; sliding, it moves
     * at the platform's speed; on the turntable (static friction holds: omega^2 r = 0.3 m/s^2
     * against mu g = 7.8), it circles with it at omega r = 0.3 m/s.
     */
    @ParameterizedTest
    @EnumSource(SolverKind.class)
    void kinematicPlatform_risingSlidingTurning_boxRidesAlong(SolverKind kind) {
        double[] rising = ride(kind, (t, out) -> pose(out, t, 0, 0, 0.05 + 0.2 * t, 0, 0, 0.2, 0), 0);
        assertThat(rising[5]).as("%s rising: box vertical speed, m/s", kind).isCloseTo(0.2, within(2e-3));
        assertThat(rising[2] - (0.05 + 0.2 * 2.0)).as("%s rising: box bottom above the platform top, m", kind)
                .isCloseTo(0.05 + 0.1, within(1e-3));
        double[] sliding = ride(kind, (t, out) -> pose(out, t, 0.5 * t, 0, 0.05, 0.5, 0, 0, 0), 0);
        assertThat(sliding[3]).as("%s sliding: box speed along x, m/s", kind).isCloseTo(0.5, within(5e-3));
        assertThat(sliding[0] - 1.0).as("%s sliding: box behind the platform's centre, m", kind).isBetween(-0.05, 0.0);
        double[] turning = ride(kind, (t, out) -> pose(out, t, 0, 0, 0.05, 0, 0, 0, 1.0), 0.3);
        double radius = Math.hypot(turning[0], turning[1]);
        // counterclockwise, like the turntable: (x vy - y vx) / r
        double tangential = (turning[0] * turning[4] - turning[1] * turning[3]) / radius;
        assertThat(radius).as("%s turning: distance from the axis, m", kind).isCloseTo(0.3, within(5e-3));
        assertThat(tangential).as("%s turning: box speed along the turn, m/s", kind).isCloseTo(0.3, within(6e-3));
    }

    /** A kinematic platform (1 x 1 x 0.1 m) following {@code t}, a 0.2 m box at x0 on it; 2 s; returns box pos and velocity. */
    private static double[] ride(SolverKind kind, KinematicTrajectory t, double x0) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(settings(kind));
        b.body("platform").kinematic(t).box(0.5, 0.5, 0.05).friction(0.8).add();
        int box = b.body("box").box(0.1, 0.1, 0.1).density(500).friction(0.8).position(x0, 0, 0.2).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 480; k++) {
                e.step(s);
            }
        }
        return new double[]{s.pos[3 * box], s.pos[3 * box + 1], s.pos[3 * box + 2],
            s.linVel[3 * box], s.linVel[3 * box + 1], s.linVel[3 * box + 2]};
    }

    /** A trajectory sample at time t: position, a rotation by omega t about z, linear velocity, angular velocity omega about z. */
    private static void pose(double[] out, double t, double x, double y, double z, double vx, double vy, double vz,
            double omega) {
        out[0] = x;
        out[1] = y;
        out[2] = z;
        out[3] = Math.cos(0.5 * omega * t);
        out[4] = 0;
        out[5] = 0;
        out[6] = Math.sin(0.5 * omega * t);
        out[7] = vx;
        out[8] = vy;
        out[9] = vz;
        out[10] = 0;
        out[11] = 0;
        out[12] = omega;
    }
}
