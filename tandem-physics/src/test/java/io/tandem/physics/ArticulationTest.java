package io.tandem.physics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Robots in joint coordinates (ArticulationBuilder) against independent references: a double
 * pendulum against its Lagrangian equations of motion, the same tree in maximal coordinates, and
 * the builder's checks.
 */
class ArticulationTest {
    static final double L = 0.5;
    static final double M1 = 1.2;
    static final double M2 = 0.8;

    /** Rod i (uniform, length L along -z from its anchor) about its COM, axis y: m L^2 / 12. */
    static double rodInertia(double m) {
        return m * L * L / 12;
    }

    /** A double pendulum of two rods hanging from the world at the origin, joints about -y. */
    static PhysicsModel doublePendulum(SolverSettings solver, double h, boolean maximal, double lo) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(h).solver(solver);
        int r1 = b.body("rod1").mass(M1, rodInertia(M1), rodInertia(M1), 1e-4).position(0, 0, -L / 2).add();
        int r2 = b.body("rod2").mass(M2, rodInertia(M2), rodInertia(M2), 1e-4).position(0, 0, -1.5 * L).add();
        ArticulationBuilder a = b.articulation("pendulum");
        int j1 = a.joint(JointType.REVOLUTE, -1, r1, 0, 0, 0, 0, -1, 0);
        int j2 = a.joint(JointType.REVOLUTE, j1, r2, 0, 0, -L, 0, -1, 0);
        if (lo > Double.NEGATIVE_INFINITY) {
            a.limits(j2, lo, Double.POSITIVE_INFINITY);
        }
        if (maximal) {
            a.maximalCoordinates();
        }
        a.add();
        return b.build();
    }

    /** Lagrange's equations of the double compound pendulum (angles from hanging, the second relative). */
    static double[] referenceAcceleration(double t1, double t2, double w1, double w2) {
        double g = 9.81;
        double c1 = L / 2;
        double c2 = L / 2;
        double i1 = rodInertia(M1);
        double i2 = rodInertia(M2);
        double cos2 = Math.cos(t2);
        double sin2 = Math.sin(t2);
        double m11 = i1 + M1 * c1 * c1 + i2 + M2 * (L * L + c2 * c2 + 2 * L * c2 * cos2);
        double m12 = i2 + M2 * (c2 * c2 + L * c2 * cos2);
        double m22 = i2 + M2 * c2 * c2;
        double hh = M2 * L * c2 * sin2;
        double f1 = hh * (2 * w1 * w2 + w2 * w2) - (M1 * c1 + M2 * L) * g * Math.sin(t1) - M2 * c2 * g * Math.sin(t1 + t2);
        double f2 = -hh * w1 * w1 - M2 * c2 * g * Math.sin(t1 + t2);
        double det = m11 * m22 - m12 * m12;
        return new double[] {(m22 * f1 - m12 * f2) / det, (m11 * f2 - m12 * f1) / det};
    }

    /** RK4 of the reference from (t1, t2, 0, 0) to time T; returns the angles. */
    static double[] reference(double t1, double t2, double time) {
        double[] y = {t1, t2, 0, 0};
        int steps = (int) Math.round(time / 1e-5);
        double dt = time / steps;
        for (int k = 0; k < steps; k++) {
            double[] k1 = deriv(y);
            double[] k2 = deriv(add(y, k1, dt / 2));
            double[] k3 = deriv(add(y, k2, dt / 2));
            double[] k4 = deriv(add(y, k3, dt));
            for (int i = 0; i < 4; i++) {
                y[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
            }
        }
        return y;
    }

    private static double[] deriv(double[] y) {
        double[] a = referenceAcceleration(y[0], y[1], y[2], y[3]);
        return new double[] {y[2], y[3], a[0], a[1]};
    }

    private static double[] add(double[] y, double[] k, double s) {
        double[] r = new double[4];
        for (int i = 0; i < 4; i++) {
            r[i] = y[i] + s * k[i];
        }
        return r;
    }

    static double[] tip(double t1, double t2) {
        return new double[] {L * Math.sin(t1) + L * Math.sin(t1 + t2), -L * Math.cos(t1) - L * Math.cos(t1 + t2)};
    }

    @Test
    void doublePendulum_undamped_tracksLagrangesEquationsWithin1mmOver3s() {
        double h = 1e-3;
        PhysicsModel m = doublePendulum(SolverSettings.subAdmm(30), h, false, Double.NEGATIVE_INFINITY);
        PhysicsState s = m.newState();
        s.setDofState(0, 0.6, 0);
        s.setDofState(1, -0.4, 0);
        double worst = 0;
        double worstJoint = 0;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 1; k <= 3000; k++) {
                e.step(s);
                if (k % 100 == 0) {
                    double[] ref = reference(0.6, -0.4, k * h);
                    double[] want = tip(ref[0], ref[1]);
                    double[] got = tip(s.dofPosition(0), s.dofPosition(1));
                    worst = Math.max(worst, Math.hypot(want[0] - got[0], want[1] - got[1]));
                }
                // the joints are exact: rod 2's COM sits at L/2 from the elbow, which sits at L from the origin
                double[] elbow = {s.pos[0] * 2, s.pos[2] * 2};
                double d = Math.hypot(s.pos[3] - elbow[0], s.pos[5] - elbow[1]);
                worstJoint = Math.max(worstJoint, Math.abs(d - L / 2));
                worstJoint = Math.max(worstJoint, Math.abs(s.pos[1]) + Math.abs(s.pos[4]));
            }
        }
        assertThat(worst).as("tip error, m").isLessThan(1e-3);
        assertThat(worstJoint).as("joint error, m").isLessThan(1e-12);
    }

    static final double[] HOME = {0, -0.785, 0, -2.356, 0, 1.571, 0.785};
    static final double[] Q_T = {0.1, 0.2, 0.3, -1.0, 0.5, 1.0, 0.7};

    /** The Panda (links 1-7 on a fixed base) alone, or with a sphere shape on its flange. */
    static PhysicsModel panda(SolverSettings solver, double h, boolean maximal, double top, double armature,
                              java.util.function.Consumer<PhysicsModel.Builder> more) {
        return panda(solver, h, maximal, top, armature, true, more);
    }

    static PhysicsModel panda(SolverSettings solver, double h, boolean maximal, double top, double armature, boolean limits,
                              java.util.function.Consumer<PhysicsModel.Builder> more) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(h).solver(solver);
        ArticulationBuilder[] a = new ArticulationBuilder[1];
        new PandaParameters().addTo(b, a, "panda", top, limits);
        for (int i = 0; i < 7; i++) {
            if (armature > 0) {
                a[0].armature(i, armature);
            }
        }
        if (maximal) {
            a[0].maximalCoordinates();
        }
        a[0].add();
        more.accept(b);
        return b.build();
    }

    /**
     * The gravity torques of physics-wave2.md 1.7 as feed-forward torques hold the Panda still at
     * each test configuration (to the vectors' 6 decimals); without them it falls.
     */
    @Test
    void panda_gravityTorquesOfTheTestVectors_holdItStill() {
        double[][] configurations = {new double[7], HOME, Q_T};
        double[][] torques = {
                {0, -3.434432, 0, -3.257224, 0, 1.694217, 0},
                {0, -1.782856, -0.643765, 18.574611, 0.633876, 1.693697, 0},
                {0, -26.613747, 1.436767, 15.180561, 1.168248, 1.383668, -0.035717}};
        // (q = 0 is outside joint 4's range: no limits here)
        PhysicsModel m = panda(SolverSettings.subAdmm(30), 0.002, false, 0, 0, false, b -> { });
        for (int c = 0; c < 3; c++) {
            for (boolean held : new boolean[] {true, false}) {
                PhysicsState s = m.newState();
                for (int i = 0; i < 7; i++) {
                    s.setDofState(i, configurations[c][i], 0);
                    s.setDofTorque(i, held ? torques[c][i] : 0);
                }
                try (PhysicsEngine e = new PhysicsEngine(m)) {
                    for (int k = 0; k < 100; k++) {
                        e.step(s);
                    }
                }
                double drift = 0;
                for (int i = 0; i < 7; i++) {
                    drift = Math.max(drift, Math.abs(s.dofPosition(i) - configurations[c][i]));
                }
                if (held) {
                    assertThat(drift).as("configuration %d held, rad", c).isLessThan(1e-5);
                } else {
                    assertThat(drift).as("configuration %d let go, rad", c).isGreaterThan(1e-3);
                }
            }
        }
    }

    /**
     * PD tracking with the Panda's gains (Kp 4500 .. 2000, Kd 450 .. 200; armature 0.1) at
     * h = 2 ms: a 0.3 rad step of every joint settles within 1 s, without overshooting by more
     * than a critically damped servo would, and stays stable.
     */
    @Test
    void panda_pdStepAtTwoMilliseconds_settlesWithinOneSecond() {
        PhysicsModel m = panda(SolverSettings.subAdmm(30), 0.002, false, 0, 0.1, b -> { });
        PhysicsState s = m.newState();
        for (int i = 0; i < 7; i++) {
            s.setDofState(i, HOME[i], 0);
            s.setDofGains(i, PandaParameters.KP[i], PandaParameters.KD[i]);
            s.setDofTarget(i, HOME[i] + (i == 3 ? -0.3 : 0.3), 0);
        }
        double worstOvershoot = 0;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 500; k++) {
                e.step(s);
                for (int i = 0; i < 7; i++) {
                    double step = i == 3 ? -0.3 : 0.3;
                    worstOvershoot = Math.max(worstOvershoot, (s.dofPosition(i) - s.dofTargetPosition(i)) * Math.signum(step));
                }
            }
        }
        for (int i = 0; i < 7; i++) {
            // the remaining error is gravity over Kp (no feed-forward): below 20 N m / 3500 N m/rad
            assertThat(Math.abs(s.dofPosition(i) - s.dofTargetPosition(i))).as("joint %d error, rad", i).isLessThan(6e-3);
            assertThat(Math.abs(s.dofVelocity(i))).as("joint %d velocity, rad/s", i).isLessThan(1e-3);
            assertThat(Math.abs(s.dofEffort(i))).as("joint %d effort, N m", i).isLessThan(30);
        }
        assertThat(worstOvershoot).as("overshoot, rad").isLessThan(0.03);
    }

    /**
     * The same tree in joint and in maximal coordinates: one step from rest under gravity gives
     * the same joint accelerations (the maximal build's come from its joint rows, solved to
     * convergence).
     */
    @Test
    void panda_jointAndMaximalCoordinates_giveTheSameAccelerations() {
        double h = 1e-4;
        // (no limits: q = 0 is beyond joint 4's)
        PhysicsModel gen = panda(SolverSettings.pgs(500), h, false, 0, 0, false, b -> { });
        PhysicsModel max = panda(new SolverSettings(SolverKind.PGS, 2000, 1, 0, 1), h, true, 0, 0, false, b -> { });
        assertThat(max.articulationCount()).isZero();
        assertThat(max.jointCount()).isEqualTo(7);
        PhysicsState sg = gen.newState();
        PhysicsState sm = max.newState();
        try (PhysicsEngine eg = new PhysicsEngine(gen); PhysicsEngine em = new PhysicsEngine(max)) {
            eg.step(sg);
            em.step(sm);
        }
        for (int i = 0; i < 7; i++) {
            double ag = sg.dofVelocity(i) / h;
            double am = max.jointVelocity(sm, i) / h;
            assertThat(am).as("joint %d acceleration, rad/s^2", i).isCloseTo(ag, within(1e-3 * (1 + Math.abs(ag))));
        }
    }

    static SolverSettings solver(SolverKind kind) {
        return switch (kind) {
            case SUB_ADMM -> SolverSettings.subAdmm(60);
            case PGS -> SolverSettings.pgs(60);
            case PROJECTED_JACOBI -> SolverSettings.projectedJacobi(60);
            case FULL_ADMM -> SolverSettings.fullAdmm(60);
            case NONSMOOTH_NEWTON -> SolverSettings.nonsmoothNewton(9);
        };
    }

    /**
     * A limit between two links of one robot (the elbow of the double pendulum, lo = -0.2 rad)
     * holds under every solver when the pendulum swings into it, and the limit's impulse is what
     * stops it (the motion without the limit passes far beyond).
     */
    @ParameterizedTest
    @EnumSource(SolverKind.class)
    void elbowLimit_swingingIntoIt_holdsUnderEverySolver(SolverKind kind) {
        for (boolean limited : new boolean[] {true, false}) {
            PhysicsModel m = doublePendulum(solver(kind), 0.002, false, limited ? -0.2 : Double.NEGATIVE_INFINITY);
            PhysicsState s = m.newState();
            s.setDofState(0, 1.2, 0);
            s.setDofState(1, 0.5, 0);
            double lowest = Double.POSITIVE_INFINITY;
            try (PhysicsEngine e = new PhysicsEngine(m)) {
                for (int k = 0; k < 1000; k++) {
                    e.step(s);
                    lowest = Math.min(lowest, s.dofPosition(1));
                }
            }
            if (limited) {
                assertThat(lowest).as("%s: lowest elbow angle, rad", kind).isGreaterThan(-0.2 - 2e-3);
            } else {
                assertThat(lowest).as("%s: lowest elbow angle without the limit, rad", kind).isLessThan(-0.5);
            }
        }
    }

    /**
     * A sphere dropped on a tray on the Panda's flange (a box shape on link 7) rests there under
     * every solver while the arm's PD holds the pose: contact rows on a link, through the
     * joint-space matrix, with the arm yielding only by the sphere's weight over its gains.
     */
    @ParameterizedTest
    @EnumSource(SolverKind.class)
    void sphereOnATrayOnTheFlange_restsOnTheLinkUnderEverySolver(SolverKind kind) {
        int[] ball = new int[1];
        PhysicsModel m = panda(solver(kind), 0.002, false, 0.08, 0.1, false,
                b -> ball[0] = b.body("ball").sphere(0.04).density(1000).position(0.1, 0.01, 0.926 + 0.01 + 0.04 + 0.05).add());
        PhysicsState s = m.newState();
        double[] g0 = {0, -3.434432, 0, -3.257224, 0, 1.694217, 0};
        for (int i = 0; i < 7; i++) {
            s.setDofGains(i, PandaParameters.KP[i], PandaParameters.KD[i]);
            s.setDofTarget(i, 0, 0);
            s.setDofTorque(i, g0[i]);
        }
        int b = ball[0];
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 500; k++) {
                e.step(s);
            }
            assertThat(e.contactCount()).as("%s: contacts", kind).isPositive();
        }
        double[] tray = flange(m, s, m.dofBody(6));
        assertThat(s.pos[3 * b + 2] - tray[2]).as("%s: ball above the tray's centre, m", kind).isCloseTo(0.05, within(1.5e-3));
        assertThat(Math.hypot(s.pos[3 * b] - 0.1, s.pos[3 * b + 1] - 0.01)).as("%s: ball stays put, m", kind).isLessThan(0.01);
        assertThat(Math.abs(s.linVel[3 * b + 2])).as("%s: ball at rest", kind).isLessThan(0.01);
        for (int i = 0; i < 7; i++) {
            assertThat(Math.abs(s.dofPosition(i))).as("%s: joint %d yields, rad", kind, i).isLessThan(5e-3);
        }
        // the ball's weight reaches the joints: joint 2 holds it (and the arm) against gravity
        assertThat(Math.abs(s.dofEffort(1) - g0[1])).as("%s: joint 2's extra effort, N m", kind).isGreaterThan(0.05);
    }

    /** The tray's centre: its collider on link 7 at the body's pose. */
    private static double[] flange(PhysicsModel m, PhysicsState s, int body) {
        // the collider's offset in the body frame is the first shape's position
        double[] local = new double[3];
        for (int c = 0; c < m.colliderPos.length / 3; c++) {
            if (m.colliderBody[c] == body) {
                System.arraycopy(m.colliderPos, 3 * c, local, 0, 3);
            }
        }
        double[] out = new double[3];
        io.tandem.physics.internal.dynamics.RigidOps.rotate(s.quat, 4 * body, local[0], local[1], local[2], out, 0);
        return new double[] {s.pos[3 * body] + out[0], s.pos[3 * body + 1] + out[1], s.pos[3 * body + 2] + out[2]};
    }

    /** One and two threads step a Panda with a contact bitwise alike; a warmed-up step allocates nothing. */
    @Test
    @SuppressForbidden
    void pandaWithContact_threadsAndAllocation_bitwiseAndAllocationFree() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (SolverKind kind : SolverKind.values()) {
            PhysicsState[] end = new PhysicsState[2];
            for (int threads = 1; threads <= 2; threads++) {
                PhysicsModel m = panda(solver(kind).withThreads(threads), 0.002, false, 0.08, 0.1, true,
                        b -> b.body("ball").sphere(0.04).density(1000).position(0.088, 0, 1.05).add());
                PhysicsState s = m.newState();
                for (int i = 0; i < 7; i++) {
                    s.setDofState(i, i == 3 ? -0.1 : 0, 0);
                    s.setDofGains(i, PandaParameters.KP[i], PandaParameters.KD[i]);
                    s.setDofTarget(i, i == 3 ? -0.1 : 0.2, 0);
                }
                try (PhysicsEngine e = new PhysicsEngine(m)) {
                    for (int k = 0; k < 200; k++) {
                        e.step(s);
                    }
                    if (threads == 1) {
                        long before = mx.getCurrentThreadAllocatedBytes();
                        for (int k = 0; k < 100; k++) {
                            e.step(s);
                        }
                        assertThat(mx.getCurrentThreadAllocatedBytes() - before).as("%s: bytes allocated by 100 steps", kind)
                                .isLessThan(1000);
                    } else {
                        for (int k = 0; k < 100; k++) {
                            e.step(s);
                        }
                    }
                }
                end[threads - 1] = s;
            }
            assertThat(end[1].pos).as("%s: 2 threads", kind).containsExactly(end[0].pos);
            assertThat(end[1].dofPos).as("%s: 2 threads", kind).containsExactly(end[0].dofPos);
        }
    }

    @Test
    void builder_badInput_refusedWithTheReason() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        int body = b.body("link").mass(1, 0.1, 0.1, 0.1).add();
        int fixed = b.body("ground").makeStatic().box(1, 1, 0.1).add();
        ArticulationBuilder a = b.articulation("arm");
        assertThatThrownBy(() -> a.joint(JointType.BALL, -1, body, 0, 0, 0, 0, 0, 1))
                .hasMessageContaining("revolute and prismatic");
        assertThatThrownBy(() -> a.joint(JointType.REVOLUTE, 0, body, 0, 0, 0, 0, 0, 1))
                .hasMessageContaining("parent joint 0");
        assertThatThrownBy(() -> a.joint(JointType.REVOLUTE, -1, fixed, 0, 0, 0, 0, 0, 1))
                .hasMessageContaining("must be dynamic");
        assertThatThrownBy(() -> a.joint(JointType.REVOLUTE, -1, body, 0, 0, 0, 0, 0, 0))
                .hasMessageContaining("non-zero");
        int j = a.joint(JointType.REVOLUTE, -1, body, 0, 0, 0, 0, 0, 1);
        assertThatThrownBy(() -> a.joint(JointType.REVOLUTE, j, body, 0, 0, 0, 0, 0, 1))
                .hasMessageContaining("already a link");
        assertThatThrownBy(() -> a.limits(j, 1, -1)).hasMessageContaining("lo <= hi");
        assertThatThrownBy(() -> a.gains(j, -1, 0)).hasMessageContaining("kp");
        assertThatThrownBy(() -> a.limits(3, 0, 1)).hasMessageContaining("no joint 3");
        assertThatThrownBy(() -> b.articulation("arm").add()).hasMessageContaining("no joints");
        a.gains(j, 10, 1);
        a.maximalCoordinates();
        assertThatThrownBy(a::add).hasMessageContaining("need joint coordinates");
        PhysicsModel.Builder b2 = PhysicsModel.builder();
        ArticulationBuilder massless = b2.articulation("ghost");
        massless.joint(JointType.PRISMATIC, -1, -1, 0, 0, 0, 1, 0, 0);
        massless.add();
        PhysicsModel ghost = b2.build();
        assertThatThrownBy(() -> new PhysicsEngine(ghost)).hasMessageContaining("no link body");
    }

    /** A cart on a slide with a pole on a hinge (a prismatic root under a revolute joint). */
    static PhysicsModel cartPole(SolverSettings solver, double h, boolean maximal) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(h).solver(solver);
        int cart = b.body("cart").mass(2, 0.02, 0.05, 0.05).position(0, 0, 1).orientation(Math.cos(0.2), 0, 0, Math.sin(0.2)).add();
        int pole = b.body("pole").mass(0.5, rodInertia(0.5), rodInertia(0.5), 1e-4).position(0, 0, 1 + L / 2).add();
        ArticulationBuilder a = b.articulation("cartpole");
        int slide = a.joint(JointType.PRISMATIC, -1, cart, 0, 0, 1, 1, 0, 0);
        a.joint(JointType.REVOLUTE, slide, pole, 0, 0, 1, 0, 1, 0);
        if (maximal) {
            a.maximalCoordinates();
        }
        a.add();
        return b.build();
    }

    /**
     * A cart-pole released with its pole tilted: joint and maximal coordinates agree over 1 s, and
     * the coordinates read back from the bodies' poses (PhysicsModel#dofPositionOfPoses, what a
     * distributed primary computes) equal the state's.
     */
    @Test
    void cartPole_jointAndMaximalCoordinates_agreeAndPosesGiveTheCoordinates() {
        double h = 1e-3;
        PhysicsModel gen = cartPole(SolverSettings.subAdmm(30), h, false);
        PhysicsModel max = cartPole(new SolverSettings(SolverKind.PGS, 200, 1, 0, 1), h, true);
        PhysicsState sg = gen.newState();
        sg.setDofState(1, 0.3, 0);
        assertThat(gen.dofPositionOfPoses(sg, 1)).isCloseTo(0.3, within(1e-12));
        PhysicsState sm = max.newState();
        // the maximal pole placed by hand at the same tilt about the hinge at (0, 0, 1)
        sm.pos[3] = L / 2 * Math.sin(0.3);
        sm.pos[5] = 1 + L / 2 * Math.cos(0.3);
        sm.quat[4] = Math.cos(0.15);
        sm.quat[6] = Math.sin(0.15);
        double worst = 0;
        try (PhysicsEngine eg = new PhysicsEngine(gen); PhysicsEngine em = new PhysicsEngine(max)) {
            for (int k = 0; k < 1000; k++) {
                eg.step(sg);
                em.step(sm);
                worst = Math.max(worst, Math.abs(gen.dofPositionOfPoses(sg, 0) - sg.dofPosition(0)));
                worst = Math.max(worst, Math.abs(wrap(gen.dofPositionOfPoses(sg, 1) - sg.dofPosition(1))));
            }
            assertThat(sg.dofPosition(0)).as("cart, m").isCloseTo(max.jointPosition(sm, 0), within(2e-3));
            // (the pole falls over and swings through: compare angles modulo 2 pi)
            assertThat(wrap(sg.dofPosition(1) - max.jointPosition(sm, 1))).as("pole, rad").isCloseTo(0, within(5e-3));
            assertThat(Math.abs(sg.dofPosition(1) - 0.3)).as("the pole swung").isGreaterThan(0.1);
        }
        assertThat(worst).as("poses against the state, rad or m").isLessThan(1e-12);
    }

    /**
     * A planar base (massless x and y slides, a yaw hinge carrying a box) with a no-slip row at
     * its centre along its y axis, pushed by a constant world-frame force and turned by a torque:
     * under every solver its velocity stays along its heading (the row is exact in SubADMM's
     * v-step; PGS and PJ converge on it), while it does move and turn.
     */
    @ParameterizedTest
    @EnumSource(SolverKind.class)
    @SuppressForbidden
    void planarBaseWithNoSlip_pushedSideways_neverSlidesUnderEverySolver(SolverKind kind) {
        double h = 0.002;
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(h).solver(solver(kind).withIterations(200));
        int box = b.body("base").mass(50, 2, 4, 5).position(0.05, 0, 0.3).add();
        ArticulationBuilder a = b.articulation("base");
        int x = a.joint(JointType.PRISMATIC, -1, -1, 0, 0, 0.3, 1, 0, 0);
        int y = a.joint(JointType.PRISMATIC, x, -1, 0, 0, 0.3, 0, 1, 0);
        int yaw = a.joint(JointType.REVOLUTE, y, box, 0, 0, 0.3, 0, 0, 1);
        a.noSlip(yaw, 0, 0, 0.3, 0, 1, 0);
        a.add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        // a push along the world's (1, 1) and a torque: the base must roll along its heading only
        s.setDofTorque(0, 40);
        s.setDofTorque(1, 40);
        s.setDofTorque(2, 3);
        double worst = 0;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 500; k++) {
                e.step(s);
                // lateral velocity of the base's centre at the step's midpoint heading
                double th = s.dofPosition(2) - 0.5 * h * s.dofVelocity(2);
                worst = Math.max(worst, Math.abs(-Math.sin(th) * s.dofVelocity(0) + Math.cos(th) * s.dofVelocity(1)));
            }
        }
        assertThat(worst).as("%s: lateral speed, m/s", kind).isLessThan(kind == SolverKind.SUB_ADMM ? 1e-9 : 1e-4);
        // the exact internal row's path allocates nothing once warm
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 50; k++) {
                e.step(s);
            }
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int k = 0; k < 100; k++) {
                e.step(s);
            }
            assertThat(mx.getCurrentThreadAllocatedBytes() - before).as("%s: bytes allocated by 100 steps", kind).isLessThan(1000);
        }
        assertThat(Math.hypot(s.dofPosition(0), s.dofPosition(1))).as("%s: it moved, m", kind).isGreaterThan(0.1);
        assertThat(Math.abs(s.dofPosition(2))).as("%s: it turned, rad", kind).isGreaterThan(0.1);
    }

    /**
     * PhysicsState.pointJacobian against finite differences of the link's pose: a point on the
     * Panda's link 7 moved by small joint changes, one joint at a time.
     */
    @Test
    void pointJacobian_pandaLink7_matchesFiniteDifferences() {
        PhysicsModel m = panda(SolverSettings.subAdmm(30), 0.002, false, 0, 0, false, b -> { });
        PhysicsState s = m.newState();
        for (int i = 0; i < 7; i++) {
            s.setDofState(i, Q_T[i], 0);
        }
        int body = m.dofBody(6);
        double[] local = {0.02, -0.01, 0.3};
        double[] p = point(s, body, local);
        double[] jac = new double[42];
        s.pointJacobian(6, p[0], p[1], p[2], jac);
        double eps = 1e-7;
        for (int j = 0; j < 7; j++) {
            s.setDofState(j, Q_T[j] + eps, 0);
            double[] plus = point(s, body, local);
            double[] qPlus = s.quat.clone();
            s.setDofState(j, Q_T[j] - eps, 0);
            double[] minus = point(s, body, local);
            double[] qMinus = s.quat.clone();
            s.setDofState(j, Q_T[j], 0);
            for (int d = 0; d < 3; d++) {
                assertThat(jac[7 * d + j]).as("d p_%d / d q_%d", d, j).isCloseTo((plus[d] - minus[d]) / (2 * eps), within(1e-6));
            }
            // the angular rows: 2 vec(q+ (x) conj(q-)) / (2 eps)
            double[] w = angular(qPlus, qMinus, 4 * body);
            for (int d = 0; d < 3; d++) {
                assertThat(jac[7 * (3 + d) + j]).as("omega_%d / q_%d", d, j).isCloseTo(w[d] / (2 * eps), within(1e-6));
            }
        }
    }

    private static double[] point(PhysicsState s, int body, double[] local) {
        double[] out = new double[3];
        io.tandem.physics.internal.dynamics.RigidOps.rotate(s.quat, 4 * body, local[0], local[1], local[2], out, 0);
        return new double[] {s.pos[3 * body] + out[0], s.pos[3 * body + 1] + out[1], s.pos[3 * body + 2] + out[2]};
    }

    private static double[] angular(double[] a, double[] b, int o) {
        double aw = a[o];
        double ax = a[o + 1];
        double ay = a[o + 2];
        double az = a[o + 3];
        double bw = b[o];
        double bx = -b[o + 1];
        double by = -b[o + 2];
        double bz = -b[o + 3];
        return new double[] {2 * (aw * bx + ax * bw + ay * bz - az * by), 2 * (aw * by - ax * bz + ay * bw + az * bx),
                2 * (aw * bz + ax * by - ay * bx + az * bw)};
    }

    /**
     * Subset equivalence (PhysicsEngine's notes) with a robot: the Panda with a ball dropped on its
     * tray steps bitwise the same alone and in a model that also holds an unrelated pile of boxes
     * listed before it (other indices, same global ids), under every solver but the non-smooth
     * Newton baseline, whose inner products and line search span every island (its notes).
     */
    @ParameterizedTest
    @EnumSource(value = SolverKind.class, mode = EnumSource.Mode.EXCLUDE, names = "NONSMOOTH_NEWTON")
    void subsetEquivalence_pandaWithAndWithoutAnotherIsland_bitwiseIdentical(SolverKind kind) {
        PhysicsState[] end = new PhysicsState[2];
        PhysicsModel[] models = new PhysicsModel[2];
        for (int variant = 0; variant < 2; variant++) {
            PhysicsModel.Builder b = PhysicsModel.builder().timeStep(0.002).solver(solver(kind));
            if (variant == 1) {
                b.body("floor").id(1).makeStatic().plane().add();
                for (int k = 0; k < 3; k++) {
                    b.body("box" + k).id(10 + k).box(0.1, 0.1, 0.1).density(500).position(5, 0, 0.12 + 0.21 * k).add();
                }
            }
            ArticulationBuilder[] a = new ArticulationBuilder[1];
            new PandaParameters().addTo(b, a, "panda", 0.08, true, 100);
            a[0].add();
            b.body("ball").id(200).sphere(0.04).density(1000).position(0.1, 0.01, 1.0).add();
            PhysicsModel m = b.build();
            PhysicsState s = m.newState();
            int first = m.dofCount() - 7;
            for (int i = 0; i < 7; i++) {
                s.setDofGains(first + i, PandaParameters.KP[i], PandaParameters.KD[i]);
                s.setDofTarget(first + i, i == 3 ? -0.2 : 0.1, 0);
            }
            try (PhysicsEngine e = new PhysicsEngine(m)) {
                for (int k = 0; k < 300; k++) {
                    e.step(s);
                }
            }
            end[variant] = s;
            models[variant] = m;
        }
        for (long id = 100; id <= 106; id++) {
            int a = models[0].bodyIndex(id);
            int b = models[1].bodyIndex(id);
            for (int d = 0; d < 3; d++) {
                assertThat(end[1].pos[3 * b + d]).as("%s: body %d", kind, id).isEqualTo(end[0].pos[3 * a + d]);
            }
        }
        int ba = models[0].bodyIndex(200);
        int bb = models[1].bodyIndex(200);
        assertThat(end[1].pos[3 * bb + 2]).as("%s: the ball", kind).isEqualTo(end[0].pos[3 * ba + 2]);
        assertThat(end[1].dofPos).containsExactly(end[0].dofPos);
    }

    private static double wrap(double a) {
        return Math.IEEEremainder(a, 2 * Math.PI);
    }

    /**
     * A free-flying robot: a box (tilted) with two links on hinges about different axes, thrown
     * spinning in zero gravity. Its root turns far past the 90 degrees where a fixed set of three
     * hinges would lock (the re-centred base never comes near it), and joint and maximal
     * coordinates agree over 2 s; the centre of mass keeps its velocity.
     */
    static PhysicsModel floatingArm(SolverSettings solver, double h, boolean maximal, double gravity,
                                    java.util.function.Consumer<PhysicsModel.Builder> more) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(h).solver(solver).gravity(0, 0, gravity);
        double c = Math.cos(0.3);
        double sn = Math.sin(0.3);
        int root = b.body("torso").mass(4, 0.05, 0.08, 0.1).position(0.1, -0.2, 1).orientation(c, sn, 0, 0)
                .linearVelocity(0.3, 0.1, 0.2).angularVelocity(1.5, -4, 2).box(0.2, 0.15, 0.1).add();
        // the links' anchors on the (turned) torso: its frame's +x and +z faces
        double[] a1 = {0.3, -0.2, 1};
        double[] a2 = rotateX(0.6, 0, 0, 0.1);
        int l1 = b.body("arm").mass(1, 0.02, 0.02, 0.002).position(a1[0] + 0.2, a1[1], a1[2]).capsule(0.03, 0.15)
                .at(0, 0, 0, Math.cos(Math.PI / 4), 0, Math.sin(Math.PI / 4), 0).add();
        int l2 = b.body("leg").mass(0.8, 0.01, 0.01, 0.001)
                .position(0.1 + a2[0] + rotateX(0.6, 0, 0, 0.15)[0], -0.2 + a2[1] + rotateX(0.6, 0, 0, 0.15)[1],
                        1 + a2[2] + rotateX(0.6, 0, 0, 0.15)[2]).sphere(0.04).add();
        ArticulationBuilder a = b.articulation("flyer");
        int r = a.floatingBase(root);
        int j1 = a.joint(JointType.REVOLUTE, r, l1, a1[0], a1[1], a1[2], 0, 0, 1);
        int j2 = a.joint(JointType.REVOLUTE, r, l2, 0.1 + a2[0], -0.2 + a2[1], 1 + a2[2], 1, 0, 0);
        if (gravity != 0) {
            // on the ground: joints holding their pose (a robot falling with its servos on)
            a.gains(j1, 200, 5).gains(j2, 200, 5);
        }
        if (maximal) {
            a.maximalCoordinates();
        }
        a.add();
        more.accept(b);
        return b.build();
    }

    /** (x, y, z) turned about x by angle. */
    private static double[] rotateX(double angle, double x, double y, double z) {
        return new double[] {x, Math.cos(angle) * y - Math.sin(angle) * z, Math.sin(angle) * y + Math.cos(angle) * z};
    }

    @Test
    void floatingBase_spinningInZeroGravity_agreesWithMaximalCoordinatesAndKeepsItsMomentum() {
        double h = 1e-3;
        PhysicsModel joint = floatingArm(SolverSettings.subAdmm(30), h, false, 0, b -> { });
        PhysicsModel maximal = floatingArm(SolverSettings.subAdmm(30), h, true, 0, b -> { });
        assertThat(joint.articulationCount()).isEqualTo(1);
        assertThat(joint.dofCount()).isEqualTo(8);
        assertThat(maximal.articulationCount()).isZero();
        assertThat(maximal.jointCount()).isEqualTo(2);
        PhysicsState sj = joint.newState();
        PhysicsState sm = maximal.newState();
        sj.setDofState(joint.dof(0, 6), 0, 2);
        sj.setDofState(joint.dof(0, 7), 0, -3);
        double[] p0 = momentum(joint, sj);
        double turned = 0;
        double worst = 0;
        double[] up = {0, 0, 1};
        try (PhysicsEngine ej = new PhysicsEngine(joint); PhysicsEngine em = new PhysicsEngine(maximal)) {
            // the maximal build gets the same joint rates from the first joint-coordinate state
            System.arraycopy(sj.linVel, 0, sm.linVel, 0, sm.linVel.length);
            System.arraycopy(sj.angVel, 0, sm.angVel, 0, sm.angVel.length);
            for (int k = 0; k < 2000; k++) {
                ej.step(sj);
                em.step(sm);
                for (int bi = 0; bi < 3; bi++) {
                    for (int d = 0; d < 3; d++) {
                        worst = Math.max(worst, Math.abs(sj.pos[3 * bi + d] - sm.pos[3 * bi + d]));
                    }
                }
                // the torso's local z against the world's: how far it tumbled
                double[] z = new double[3];
                io.tandem.physics.internal.dynamics.RigidOps.rotate(sj.quat, 0, 0, 0, 1, z, 0);
                turned = Math.max(turned, Math.acos(Math.max(-1, Math.min(1, z[0] * up[0] + z[1] * up[1] + z[2] * up[2]))));
            }
        }
        assertThat(turned).as("tumbled, rad").isGreaterThan(2.5);
        assertThat(worst).as("joint vs maximal coordinates, m").isLessThan(0.01);
        double[] p1 = momentum(joint, sj);
        for (int d = 0; d < 3; d++) {
            // (the midpoint rule with its predicted Coriolis terms keeps it to 1e-7 over the 2000 steps)
            assertThat(p1[d]).as("momentum %d", d).isCloseTo(p0[d], within(1e-5));
        }
        assertThat(sj.dofPosition(joint.dof(0, 6))).isNotZero();
    }

    private static double[] momentum(PhysicsModel m, PhysicsState s) {
        double[] p = new double[3];
        for (int b = 0; b < m.bodyCount(); b++) {
            for (int d = 0; d < 3; d++) {
                p[d] += m.mass[b] * s.linVel[3 * b + d];
            }
        }
        return p;
    }

    /**
     * A floating robot dropped on the ground lands and rests there under every solver: its torso
     * (a box 0.2 m tall) comes to rest with its centre 0.1 m up, its arm's capsule on the floor.
     */
    @ParameterizedTest
    @EnumSource(SolverKind.class)
    void floatingBase_droppedOnTheGround_comesToRestOnItUnderEverySolver(SolverKind kind) {
        PhysicsModel m = floatingArm(solver(kind), 0.002, false, -9.81, b -> b.body("ground").makeStatic().plane().add());
        PhysicsState s = m.newState();
        for (int b = 0; b < 3; b++) {
            java.util.Arrays.fill(s.angVel, 3 * b, 3 * b + 3, 0);
        }
        s.setDofState(m.dof(0, 6), 0, 0);
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 2500; k++) {
                e.step(s);
            }
            assertThat(e.contactCount()).isPositive();
        }
        double speed = 0;
        for (int b = 0; b < 3; b++) {
            for (int d = 0; d < 3; d++) {
                speed = Math.max(speed, Math.abs(s.linVel[3 * b + d]));
            }
            assertThat(s.pos[3 * b + 2]).as("body %d above the ground", b).isGreaterThan(0);
        }
        assertThat(speed).as("at rest, m/s (velocities %s)", java.util.Arrays.toString(java.util.Arrays.copyOf(s.linVel, 9)))
                .isLessThan(0.02);
        // the torso lies on a face: its centre as high as that face's half extent (0.1, 0.15 or 0.2 m)
        double z = s.pos[2];
        assertThat(Math.min(Math.abs(z - 0.1), Math.min(Math.abs(z - 0.15), Math.abs(z - 0.2)))).as("torso height %s", z)
                .isLessThan(0.01);
    }

    @Test
    void floatingBase_badInput_refusedWithTheReason() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        int body = b.body("torso").mass(1, 0.1, 0.1, 0.1).add();
        int arm = b.body("arm").mass(1, 0.1, 0.1, 0.1).add();
        int wall = b.body("wall").makeStatic().box(1, 1, 1).add();
        ArticulationBuilder late = b.articulation("late");
        late.joint(JointType.REVOLUTE, -1, arm, 0, 0, 0, 0, 0, 1);
        assertThatThrownBy(() -> late.floatingBase(body)).hasMessageContaining("must come before any joint");
        assertThatThrownBy(() -> b.articulation("static").floatingBase(wall)).hasMessageContaining("must be a dynamic body");
        ArticulationBuilder a = b.articulation("flyer");
        int root = a.floatingBase(body);
        assertThat(root).isEqualTo(5);
        assertThatThrownBy(() -> a.joint(JointType.REVOLUTE, 2, arm, 0, 0, 0, 0, 0, 1)).hasMessageContaining("hang from its root");
        assertThatThrownBy(() -> a.limits(3, -1, 1)).hasMessageContaining("virtual joints");
        assertThatThrownBy(() -> a.base(wall)).hasMessageContaining("floats");
    }

    /** A floating robot landing on the ground: 1 and 2 threads bitwise alike, a warmed-up step allocation-free, every solver. */
    @Test
    @SuppressForbidden
    void floatingBase_threadsAndAllocation_bitwiseAndAllocationFree() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (SolverKind kind : SolverKind.values()) {
            PhysicsState[] end = new PhysicsState[2];
            for (int threads = 1; threads <= 2; threads++) {
                PhysicsModel m = floatingArm(solver(kind).withThreads(threads), 0.002, false, -9.81,
                        b -> b.body("ground").makeStatic().plane().add());
                PhysicsState s = m.newState();
                try (PhysicsEngine e = new PhysicsEngine(m)) {
                    // it lands within the first 300 steps (from 1 m); then 100 steps of contacts
                    for (int k = 0; k < 300; k++) {
                        e.step(s);
                    }
                    long before = mx.getCurrentThreadAllocatedBytes();
                    for (int k = 0; k < 100; k++) {
                        e.step(s);
                    }
                    if (threads == 1) {
                        assertThat(mx.getCurrentThreadAllocatedBytes() - before).as("%s: bytes allocated by 100 steps", kind)
                                .isLessThan(1000);
                    }
                    assertThat(e.contactCount()).as("%s: on the ground", kind).isPositive();
                }
                end[threads - 1] = s;
            }
            assertThat(end[1].pos).as("%s: 2 threads", kind).containsExactly(end[0].pos);
            assertThat(end[1].dofPos).as("%s: 2 threads", kind).containsExactly(end[0].dofPos);
        }
    }
}
