package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Physical accuracy of the engine <em>at its defaults</em>: every model is built with
 * {@link PhysicsModel#builder()} and neither {@code solver(...)} nor {@code timeStep(...)} is
 * called, so this suite judges the default solver settings and time step, whatever they are.
 * Each test runs a small scene and compares what it measures with a closed form:
 * <ul>
 *   <li>incline: sliding, rolling, rolling with slip and sticking, per shape and friction;</li>
 *   <li>box stacks and sphere columns at rest at their exact heights;</li>
 *   <li>pendulum period against the exact (elliptic-integral) period;</li>
 *   <li>restitution 0: a dropped body never bounces;</li>
 *   <li>a 100 kg box on a 1 kg box at rest;</li>
 *   <li>a box sliding to a stop at v0^2 / (2 mu g).</li>
 * </ul>
 * Gravity and time step are read from the model (the builder's defaults). Every test publishes
 * what it measured next to the expected value through {@link TestReporter}, passing or not (IDEs
 * and JUnit's console launcher show these entries; Surefire 3.5 does not record them), and a
 * failing assertion names the case with its measured and expected values.
 */
class PhysicalAccuracyTest {
    /** a body moving slower than this is at rest, m/s */
    private static final double REST_SPEED = 1e-3;
    /** half extent of the 0.2 m cubes and radius of the 0.2 m spheres, m */
    private static final double HALF = 0.1;

    // ------------------------------------------------------------------------------------------
    // shared helpers

    /** Gravity's magnitude of a model whose gravity points along -z (the builder's default). */
    private static double gravityOf(PhysicsModel m) {
        assertThat(m.gravity[0]).as("default gravity has no x component").isZero();
        assertThat(m.gravity[1]).as("default gravity has no y component").isZero();
        assertThat(m.gravity[2]).as("default gravity points down").isNegative();
        return -m.gravity[2];
    }

    /** A large static ground box whose top face is the plane z = 0. */
    private static void ground(PhysicsModel.Builder b, double mu) {
        b.body("ground").makeStatic().box(5, 5, 0.5).position(0, 0, -0.5).friction(mu).add();
    }

    private static double speed(PhysicsState s, int body) {
        double x = s.linVel[3 * body];
        double y = s.linVel[3 * body + 1];
        double z = s.linVel[3 * body + 2];
        return Math.sqrt(x * x + y * y + z * z);
    }

    /** Hamilton product a (x) b of (w, x, y, z) quaternions. */
    private static double[] multiply(double[] a, double[] b) {
        return new double[] {
            a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
        };
    }

    /** R_y(theta) v: the slope frame (x down the fall line, z the slope normal) to the world. */
    private static double[] rotateY(double theta, double x, double y, double z) {
        double c = Math.cos(theta);
        double s = Math.sin(theta);
        return new double[] {c * x + s * z, y, -s * x + c * z};
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    // ------------------------------------------------------------------------------------------
    // 1. incline

    /**
     * The bodies put on the incline, each in a configuration with a clean closed form. A roller
     * has {@code beta = I / (m r^2)} about its rolling axis; a slider has NaN.
     *
     * <p>Closed forms on a slope at theta with pair friction mu (g the magnitude of gravity):
     * <ul>
     *   <li>slider: it sticks (a = 0) while tan theta &lt;= mu; beyond that it slides with
     *       a = g (sin theta - mu cos theta);</li>
     *   <li>roller: it rolls without slipping with a = g sin theta / (1 + beta) while
     *       mu &gt;= beta / (1 + beta) tan theta (the friction that rolling needs,
     *       m a beta, stays inside the cone mu m g cos theta); beyond that it slides and spins up,
     *       and its centre accelerates at a = g (sin theta - mu cos theta).</li>
     * </ul>
     */
    enum InclineBody {
        /** a 0.2 m cube resting on a face: slides like a particle under Coulomb friction */
        BOX(Double.NaN),
        /** a solid sphere, r = 0.1 m: beta = 2/5, so it rolls with a = 5/7 g sin theta while mu &gt;= 2/7 tan theta */
        SPHERE(0.4),
        /**
         * a solid cylinder, r = 0.1 m, 0.4 m long, lying with its axis horizontal across the
         * slope: beta = 1/2 about its axis, so it rolls with a = 2/3 g sin theta while
         * mu &gt;= 1/3 tan theta (on the box slope the engine rolls a 16-gon prism instead, see
         * {@link Surface})
         */
        CYLINDER_ACROSS(0.5),
        /**
         * a capsule, r = 0.1 m, segment 0.4 m, lying on its side with its axis along the fall
         * line: it touches along a line parallel to the fall line, so neither gravity nor friction
         * (both along that line) has a moment about it; it cannot roll and slides like the box
         */
        CAPSULE_ALONG(Double.NaN);

        final double beta;

        InclineBody(double beta) {
            this.beta = beta;
        }

        boolean rolls() {
            return !Double.isNaN(beta);
        }

        /** adds the shape; every body's surface is 0.1 m from its centre along the slope normal */
        PhysicsModel.BodyBuilder shape(PhysicsModel.BodyBuilder b) {
            return switch (this) {
                case BOX -> b.box(HALF, HALF, HALF);
                case SPHERE -> b.sphere(HALF);
                case CYLINDER_ACROSS -> b.cylinder(HALF, 0.2);
                case CAPSULE_ALONG -> b.capsule(HALF, 0.2);
            };
        }

        /** orientation in the slope frame: the cylinder's axis (body z) along slope y, the capsule's along slope x */
        double[] orientationOnSlope() {
            double r = Math.sqrt(0.5);
            return switch (this) {
                case BOX, SPHERE -> new double[] {1, 0, 0, 0};
                case CYLINDER_ACROSS -> new double[] {r, -r, 0, 0};
                case CAPSULE_ALONG -> new double[] {r, 0, r, 0};
            };
        }

        /** the closed-form acceleration of the centre down the fall line (see the notes above) */
        double acceleration(double mu, double theta, double g) {
            double slide = g * (Math.sin(theta) - mu * Math.cos(theta));
            if (rolls()) {
                return mu >= beta / (1 + beta) * Math.tan(theta) ? g * Math.sin(theta) / (1 + beta) : slide;
            }
            return Math.tan(theta) > mu ? slide : 0;
        }

        String regime(double mu, double theta) {
            if (rolls()) {
                return mu >= beta / (1 + beta) * Math.tan(theta) ? "rolls" : "rolls+slips";
            }
            return Math.tan(theta) > mu ? "slides" : "sticks";
        }
    }

    /**
     * What the slope is. BOX: a static box 12 x 2 x 1 m, the incline of every case. Against a box
     * the engine replaces a cylinder by its inscribed 16-gon prism (NarrowPhase's notes), so a
     * cylinder rolling on the box rolls over edges; PLANE: a static plane, against which the
     * engine's cylinder contact is exact; the cylinder runs on both, to tell the two apart.
     */
    enum Surface {
        BOX,
        PLANE
    }

    private static final double[] FRICTIONS = {0.1, 0.2, 0.4, 0.8};

    /**
     * The moving cases: sliders at tan theta = 2 mu (twice the friction angle's tangent); rollers
     * at tan theta = mu / 2 and 2 mu (both roll without slip: they need only beta/(1+beta) tan
     * theta &lt;= mu / 3 and 2/3 mu) and at tan theta = 1.5 mu (1 + beta) / beta (they slip, with a
     * margin of 1.5 on the threshold).
     */
    static Stream<Arguments> movingCases() {
        List<Arguments> cases = new ArrayList<>();
        for (InclineBody body : InclineBody.values()) {
            for (double mu : FRICTIONS) {
                if (body.rolls()) {
                    cases.add(Arguments.of(body, Surface.BOX, mu, 0.5 * mu));
                    cases.add(Arguments.of(body, Surface.BOX, mu, 2 * mu));
                    cases.add(Arguments.of(body, Surface.BOX, mu, 1.5 * mu * (1 + body.beta) / body.beta));
                } else {
                    cases.add(Arguments.of(body, Surface.BOX, mu, 2 * mu));
                }
            }
        }
        // the cylinder once more on a plane slope, where its contact is exact (see Surface)
        for (double mu : FRICTIONS) {
            InclineBody body = InclineBody.CYLINDER_ACROSS;
            cases.add(Arguments.of(body, Surface.PLANE, mu, 0.5 * mu));
            cases.add(Arguments.of(body, Surface.PLANE, mu, 2 * mu));
            cases.add(Arguments.of(body, Surface.PLANE, mu, 1.5 * mu * (1 + body.beta) / body.beta));
        }
        return cases.stream();
    }

    /** The sticking cases: sliders at tan theta = mu / 2 (half the friction angle's tangent). */
    static Stream<Arguments> stickingCases() {
        List<Arguments> cases = new ArrayList<>();
        for (InclineBody body : InclineBody.values()) {
            if (!body.rolls()) {
                for (double mu : FRICTIONS) {
                    cases.add(Arguments.of(body, Surface.BOX, mu, 0.5 * mu));
                }
            }
        }
        return cases.stream();
    }

    /** What an incline run measured: time and down-slope travel of the centre after each step. */
    private record Travel(double[] t, double[] s, double g) {
    }

    /**
     * The incline: a static box 12 x 2 x 1 m (or a plane) tilted by theta about y, its top face
     * the slope plane through the origin (normal n = (sin theta, 0, cos theta), fall line
     * d = (cos theta, 0, -sin theta)); the body released at rest, touching the slope, 4 m up the
     * fall line. Slope and body have friction mu, so the pair has mu. Gravity is the default.
     */
    private static Travel incline(InclineBody body, Surface surface, double mu, double theta, double seconds) {
        PhysicsModel.Builder b = PhysicsModel.builder();
        double[] slope = {Math.cos(theta / 2), 0, Math.sin(theta / 2), 0};
        PhysicsModel.BodyBuilder ground = b.body("slope").makeStatic()
                .orientation(slope[0], slope[1], slope[2], slope[3]).friction(mu);
        if (surface == Surface.BOX) {
            double[] c = rotateY(theta, 0, 0, -0.5);
            ground.box(6, 1, 0.5).position(c[0], c[1], c[2]);
        } else {
            ground.plane();
        }
        ground.add();
        double[] q = multiply(slope, body.orientationOnSlope());
        double[] p = rotateY(theta, -4, 0, HALF);
        int i = body.shape(b.body(body.name())).density(1000).friction(mu).position(p[0], p[1], p[2])
                .orientation(q[0], q[1], q[2], q[3]).add();
        PhysicsModel m = b.build();
        double g = gravityOf(m);
        PhysicsState s = m.newState();
        int steps = (int) Math.round(seconds / m.timeStep());
        double[] t = new double[steps + 1];
        double[] travel = new double[steps + 1];
        double dx = Math.cos(theta);
        double dz = -Math.sin(theta);
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 1; k <= steps; k++) {
                e.step(s);
                t[k] = s.time;
                travel[k] = (s.pos[3 * i] - p[0]) * dx + (s.pos[3 * i + 2] - p[2]) * dz;
            }
        }
        return new Travel(t, travel, g);
    }

    /**
     * Least-squares fit of s(t) = s0 + v0 t + a t^2 / 2 to the samples from..to-1 (time centred
     * for conditioning).
     *
     * @return a
     */
    private static double fitAcceleration(double[] t, double[] s, int from, int to) {
        double mean = 0;
        for (int k = from; k < to; k++) {
            mean += t[k];
        }
        mean /= to - from;
        // normal equations of the basis (1, u, u^2), u = t - mean
        double[][] n = new double[3][4];
        for (int k = from; k < to; k++) {
            double u = t[k] - mean;
            double[] phi = {1, u, u * u};
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    n[r][c] += phi[r] * phi[c];
                }
                n[r][3] += phi[r] * s[k];
            }
        }
        // Gaussian elimination with partial pivoting
        for (int col = 0; col < 3; col++) {
            int pivot = col;
            for (int r = col + 1; r < 3; r++) {
                if (Math.abs(n[r][col]) > Math.abs(n[pivot][col])) {
                    pivot = r;
                }
            }
            double[] tmp = n[col];
            n[col] = n[pivot];
            n[pivot] = tmp;
            for (int r = col + 1; r < 3; r++) {
                double f = n[r][col] / n[col][col];
                for (int c = col; c < 4; c++) {
                    n[r][c] -= f * n[col][c];
                }
            }
        }
        double[] x = new double[3];
        for (int r = 2; r >= 0; r--) {
            double sum = n[r][3];
            for (int c = r + 1; c < 3; c++) {
                sum -= n[r][c] * x[c];
            }
            x[r] = sum / n[r][r];
        }
        return 2 * x[2];
    }

    /**
     * Released at rest on the slope; after 0.1 s of settling, the acceleration is the
     * least-squares fit of s(t) = s0 + v0 t + a t^2 / 2 to the travel over the next 0.8 s.
     */
    @ParameterizedTest(name = "{0} on {1} mu={2} tan(theta)={3}")
    @MethodSource("movingCases")
    void incline_slidingOrRolling_accelerationWithinTwoPercent(InclineBody body, Surface surface, double mu,
            double tanTheta, TestReporter reporter) {
        double theta = Math.atan(tanTheta);
        Travel run = incline(body, surface, mu, theta, 0.9);
        int from = (int) Math.round(0.1 / (run.t[1] - run.t[0]));
        double a = fitAcceleration(run.t, run.s, from, run.t.length);
        double expected = body.acceleration(mu, theta, run.g);
        String what = fmt("%s on %s mu=%.1f theta=%.2f deg (%s)", body, surface, mu, Math.toDegrees(theta),
                body.regime(mu, theta));
        reporter.publishEntry("incline", fmt("%s: a measured %.5f m/s^2, expected %.5f, error %+.3f %%", what, a,
                expected, 100 * (a - expected) / expected));
        assertThat(expected).as("a moving case").isPositive();
        assertThat(a).as("%s: acceleration down the fall line, m/s^2", what).isCloseTo(expected, within(0.02 * expected));
    }

    /** Released at rest below its friction angle, it creeps less than 1 mm down the slope in 1 s. */
    @ParameterizedTest(name = "{0} on {1} mu={2} tan(theta)={3}")
    @MethodSource("stickingCases")
    void incline_belowFrictionAngle_creepsLessThanOneMillimetreInOneSecond(InclineBody body, Surface surface,
            double mu, double tanTheta, TestReporter reporter) {
        double theta = Math.atan(tanTheta);
        Travel run = incline(body, surface, mu, theta, 1.0);
        assertThat(body.acceleration(mu, theta, run.g)).as("a sticking case").isZero();
        double creep = run.s[run.s.length - 1];
        String what = fmt("%s on %s mu=%.1f theta=%.2f deg (%s)", body, surface, mu, Math.toDegrees(theta),
                body.regime(mu, theta));
        reporter.publishEntry("incline", fmt("%s: travel in 1 s measured %.4f mm, expected 0 (limit 1 mm)", what,
                1e3 * creep));
        assertThat(Math.abs(creep)).as("%s: travel down the slope in 1 s, m", what).isLessThan(1e-3);
    }

    // ------------------------------------------------------------------------------------------
    // 2. stacks at rest

    /**
     * n cubes of 0.2 m (500 kg/m^3, friction 0.5) stacked face on face on the ground, released
     * touching: after 3 s every cube's centre is within 1 mm of 0.1 + 0.2 k, within 1 mm of the
     * stack's axis, and slower than 1 mm/s.
     */
    @ParameterizedTest(name = "{0} boxes")
    @ValueSource(ints = {5, 10})
    void boxStack_afterThreeSeconds_restsWithinOneMillimetreOfExactHeights(int n, TestReporter reporter) {
        PhysicsModel.Builder b = PhysicsModel.builder();
        ground(b, 0.5);
        int first = -1;
        for (int k = 0; k < n; k++) {
            int i = b.body("box" + k).box(HALF, HALF, HALF).density(500).position(0, 0, HALF + 2 * HALF * k).add();
            first = k == 0 ? i : first;
        }
        checkRestingColumn(b.build(), first, n, 3.0, "box stack of " + n, reporter);
    }

    /**
     * n spheres of r = 0.1 m (1000 kg/m^3, friction 0.5) in a vertical column. A free column of
     * spheres is an unstable equilibrium, so it stands in a square static tube of four boxes whose
     * walls are 1 mm off the spheres: the tube only keeps the column from falling over (a sphere
     * touching a wall gets no vertical support worth counting at 1 mm of play). After 3 s every
     * sphere's centre is within 1 mm of 0.1 + 0.2 k and slower than 1 mm/s.
     */
    @ParameterizedTest(name = "{0} spheres")
    @ValueSource(ints = {5, 10})
    void sphereColumnInTube_afterThreeSeconds_restsWithinOneMillimetreOfExactHeights(int n, TestReporter reporter) {
        PhysicsModel.Builder b = PhysicsModel.builder();
        ground(b, 0.5);
        double inner = HALF + 0.001;
        double wall = 0.05;
        double height = 2 * HALF * n + 0.2;
        double off = inner + wall;
        double span = inner + 2 * wall;
        b.body("wall+x").makeStatic().box(wall, span, height / 2).position(off, 0, height / 2).add();
        b.body("wall-x").makeStatic().box(wall, span, height / 2).position(-off, 0, height / 2).add();
        b.body("wall+y").makeStatic().box(span, wall, height / 2).position(0, off, height / 2).add();
        b.body("wall-y").makeStatic().box(span, wall, height / 2).position(0, -off, height / 2).add();
        int first = -1;
        for (int k = 0; k < n; k++) {
            int i = b.body("ball" + k).sphere(HALF).density(1000).position(0, 0, HALF + 2 * HALF * k).add();
            first = k == 0 ? i : first;
        }
        checkRestingColumn(b.build(), first, n, 3.0, "sphere column of " + n, reporter);
    }

    /**
     * Steps a column of n bodies of height 0.2 m (body indices first..first+n-1, bottom first)
     * standing on z = 0, then checks heights, axis drift and speeds.
     */
    private static void checkRestingColumn(PhysicsModel m, int first, int n, double seconds, String what,
            TestReporter reporter) {
        PhysicsState s = m.newState();
        int steps = (int) Math.round(seconds / m.timeStep());
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < steps; k++) {
                e.step(s);
            }
        }
        double worstHeight = 0;
        double worstSigned = 0;
        double worstDrift = 0;
        double worstSpeed = 0;
        StringBuilder heights = new StringBuilder();
        for (int k = 0; k < n; k++) {
            int i = first + k;
            double error = s.pos[3 * i + 2] - (HALF + 2 * HALF * k);
            heights.append(fmt(" %+.3f", 1e3 * error));
            if (Math.abs(error) > worstHeight) {
                worstHeight = Math.abs(error);
                worstSigned = error;
            }
            worstDrift = Math.max(worstDrift, Math.hypot(s.pos[3 * i], s.pos[3 * i + 1]));
            worstSpeed = Math.max(worstSpeed, speed(s, i));
        }
        reporter.publishEntry("rest", fmt("%s after %.1f s: worst height error %+.3f mm (limit 1), height errors"
                + " bottom to top [mm]%s; drift %.3f mm; fastest %.4f mm/s (limit %.1f)", what, seconds,
                1e3 * worstSigned, heights, 1e3 * worstDrift, 1e3 * worstSpeed, 1e3 * REST_SPEED));
        assertThat(worstHeight).as("%s: worst |z - exact rest height|, m; bottom to top, mm:%s", what, heights)
                .isLessThan(1e-3);
        assertThat(worstDrift).as("%s: worst horizontal drift from the axis, m", what).isLessThan(1e-3);
        assertThat(worstSpeed).as("%s: fastest body, m/s", what).isLessThan(REST_SPEED);
    }

    // ------------------------------------------------------------------------------------------
    // 3. pendulum

    /** The complete elliptic integral of the first kind K(k) = pi / (2 AGM(1, sqrt(1 - k^2))). */
    static double ellipticK(double k) {
        double a = 1;
        double b = Math.sqrt(1 - k * k);
        for (int i = 0; i < 40 && Math.abs(a - b) > 1e-16 * a; i++) {
            double an = 0.5 * (a + b);
            b = Math.sqrt(a * b);
            a = an;
        }
        return Math.PI / (2 * a);
    }

    /**
     * A physical pendulum: a solid sphere (r = 0.05 m, 1000 kg/m^3) whose centre hangs L = 1 m
     * below a revolute joint (axis y) or a ball joint to the world, released at rest at theta0.
     * Its exact period is T = 4 sqrt(L_eq / g) K(sin(theta0 / 2)) with the equivalent length
     * L_eq = I_pivot / (m L) = L + 2/5 r^2 / L (the ball joint's motion stays in the x-z plane,
     * so it is the same pendulum). Measured from the zero crossings of the horizontal offset
     * over 9 s (about 4 periods), interpolated linearly within a step.
     */
    @ParameterizedTest(name = "{0} at {1} deg")
    @CsvSource({"REVOLUTE, 10", "REVOLUTE, 30", "BALL, 10", "BALL, 30"})
    void pendulum_releasedAtAmplitude_periodWithinOnePercentOfEllipticClosedForm(JointType joint, double amplitudeDeg,
            TestReporter reporter) {
        double length = 1;
        double r = 0.05;
        double pivotZ = 2;
        double theta0 = Math.toRadians(amplitudeDeg);
        PhysicsModel.Builder b = PhysicsModel.builder();
        int bob = b.body("bob").sphere(r).density(1000)
                .position(length * Math.sin(theta0), 0, pivotZ - length * Math.cos(theta0)).add();
        if (joint == JointType.REVOLUTE) {
            b.revoluteJoint(bob, -1, 0, 0, pivotZ, 0, 1, 0).add();
        } else {
            b.ballJoint(bob, -1, 0, 0, pivotZ).add();
        }
        PhysicsModel m = b.build();
        double g = gravityOf(m);
        double equivalentLength = length + 0.4 * r * r / length;
        double expected = 4 * Math.sqrt(equivalentLength / g) * ellipticK(Math.sin(theta0 / 2));
        PhysicsState s = m.newState();
        int steps = (int) Math.round(9.0 / m.timeStep());
        List<Double> crossings = new ArrayList<>();
        double maxY = 0;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            double prevX = s.pos[3 * bob];
            double prevT = s.time;
            for (int k = 0; k < steps; k++) {
                e.step(s);
                double x = s.pos[3 * bob];
                if ((prevX > 0) != (x > 0)) {
                    crossings.add(prevT + (s.time - prevT) * prevX / (prevX - x));
                }
                maxY = Math.max(maxY, Math.abs(s.pos[3 * bob + 1]));
                prevX = x;
                prevT = s.time;
            }
        }
        String what = fmt("%s pendulum at %.0f deg", joint, amplitudeDeg);
        assertThat(crossings.size()).as("%s: zero crossings in 9 s", what).isGreaterThanOrEqualTo(7);
        double period = 2 * (crossings.get(crossings.size() - 1) - crossings.get(0)) / (crossings.size() - 1);
        reporter.publishEntry("pendulum", fmt("%s: period measured %.5f s over %d half periods, expected %.5f,"
                + " error %+.3f %%; out-of-plane |y| max %.2e m", what, period, crossings.size() - 1, expected,
                100 * (period - expected) / expected, maxY));
        assertThat(period).as("%s: period, s", what).isCloseTo(expected, within(0.01 * expected));
    }

    // ------------------------------------------------------------------------------------------
    // 4. restitution 0

    /**
     * The engine has no restitution setting: every contact has restitution 0 (ContactAssembly).
     * A body dropped with its bottom 0.5 m above the ground must not bounce: from the step of its
     * first contact impulse (the first step whose velocity change is not free fall's -g h) on, its
     * centre never rises more than 0.5 mm above where that step left it, and after 2 s it rests
     * at its exact rest height (within 1 mm), slower than 1 mm/s.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"box", "sphere"})
    void drop_restitutionZero_neverRisesAboveFirstContactAndComesToRest(String shape, TestReporter reporter) {
        PhysicsModel.Builder b = PhysicsModel.builder();
        ground(b, 0.5);
        PhysicsModel.BodyBuilder body = b.body(shape);
        body = shape.equals("box") ? body.box(HALF, HALF, HALF) : body.sphere(HALF);
        int i = body.density(1000).position(0, 0, HALF + 0.5).add();
        PhysicsModel m = b.build();
        double g = gravityOf(m);
        double h = m.timeStep();
        PhysicsState s = m.newState();
        int steps = (int) Math.round(2.0 / h);
        double contactZ = Double.NaN;
        double contactTime = Double.NaN;
        double highest = Double.NEGATIVE_INFINITY;
        double fastestUp = 0;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < steps; k++) {
                double vz = s.linVel[3 * i + 2];
                e.step(s);
                double z = s.pos[3 * i + 2];
                if (Double.isNaN(contactZ)) {
                    if (s.linVel[3 * i + 2] - (vz - g * h) > 1e-9) {
                        contactZ = z;
                        contactTime = s.time;
                    }
                } else {
                    highest = Math.max(highest, z);
                    fastestUp = Math.max(fastestUp, s.linVel[3 * i + 2]);
                }
            }
        }
        double restError = s.pos[3 * i + 2] - HALF;
        double freeFall = Math.sqrt(2 * 0.5 / g);
        reporter.publishEntry("drop", fmt("%s: first contact at t=%.4f s (free fall %.4f s), z=%.4f m; highest after"
                + " %+.4f mm above it (limit 0.5); fastest upward %.4f m/s; after 2 s height error %+.4f mm, speed"
                + " %.4f mm/s", shape, contactTime, freeFall, contactZ, 1e3 * (highest - contactZ), fastestUp,
                1e3 * restError, 1e3 * speed(s, i)));
        assertThat(contactZ).as("%s: it touched the ground", shape).isNotNaN();
        assertThat(highest - contactZ).as("%s: rise above the first contact height, m", shape).isLessThanOrEqualTo(5e-4);
        assertThat(Math.abs(restError)).as("%s: |z - rest height| after 2 s, m", shape).isLessThan(1e-3);
        assertThat(speed(s, i)).as("%s: speed after 2 s, m/s", shape).isLessThan(REST_SPEED);
    }

    // ------------------------------------------------------------------------------------------
    // 5. mass ratio

    /**
     * A 100 kg 0.2 m cube on a 1 kg 0.2 m cube on the ground (mass ratio 100), released touching:
     * after 3 s both centres are within 1 mm of 0.1 m and 0.3 m and slower than 1 mm/s.
     */
    @Test
    void heavyBoxOnLightBox_afterThreeSeconds_restsWithinOneMillimetreOfExactHeights(TestReporter reporter) {
        PhysicsModel.Builder b = PhysicsModel.builder();
        ground(b, 0.5);
        double side = 2 * HALF;
        double light = 1;
        double heavy = 100;
        int first = b.body("light").box(HALF, HALF, HALF)
                .mass(light, light * side * side / 6, light * side * side / 6, light * side * side / 6)
                .position(0, 0, HALF).add();
        b.body("heavy").box(HALF, HALF, HALF)
                .mass(heavy, heavy * side * side / 6, heavy * side * side / 6, heavy * side * side / 6)
                .position(0, 0, 3 * HALF).add();
        checkRestingColumn(b.build(), first, 2, 3.0, "100 kg on 1 kg", reporter);
    }

    // ------------------------------------------------------------------------------------------
    // 6. sliding to a stop

    /**
     * A 0.2 m cube resting on the ground, friction mu on both, launched horizontally at v0 along
     * a heading in the ground plane: Coulomb friction decelerates it at mu g, so it stops after
     * v0^2 / (2 mu g), within 2 %. The 45 degree heading checks that the friction cone is round
     * (a pyramid approximation of the cone would stop it short or long there).
     */
    @ParameterizedTest(name = "v0={0} mu={1} heading={2} deg")
    @CsvSource({"1, 0.3, 0", "2, 0.3, 0", "1, 0.5, 0", "2, 0.5, 0", "2, 0.3, 45", "2, 0.5, 45"})
    void slidingBox_launchedAtSpeed_stopsAtCoulombDistanceWithinTwoPercent(double v0, double mu, double headingDeg,
            TestReporter reporter) {
        double heading = Math.toRadians(headingDeg);
        PhysicsModel.Builder b = PhysicsModel.builder();
        ground(b, mu);
        int i = b.body("box").box(HALF, HALF, HALF).density(500).friction(mu).position(-1, 0, HALF)
                .linearVelocity(v0 * Math.cos(heading), v0 * Math.sin(heading), 0).add();
        PhysicsModel m = b.build();
        double g = gravityOf(m);
        double expected = v0 * v0 / (2 * mu * g);
        PhysicsState s = m.newState();
        int steps = (int) Math.round(1.5 / m.timeStep());
        double stopTime = Double.NaN;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < steps; k++) {
                e.step(s);
                if (Double.isNaN(stopTime) && Math.hypot(s.linVel[3 * i], s.linVel[3 * i + 1]) < REST_SPEED) {
                    stopTime = s.time;
                }
            }
        }
        double dx = s.pos[3 * i] + 1;
        double dy = s.pos[3 * i + 1];
        double distance = Math.hypot(dx, dy);
        double sideways = Math.abs(-dx * Math.sin(heading) + dy * Math.cos(heading));
        String what = fmt("v0=%.1f mu=%.1f heading=%.0f deg", v0, mu, headingDeg);
        reporter.publishEntry("slide", fmt("%s: stopped after %.5f m at t=%.4f s (expected %.5f m at %.4f s), error"
                + " %+.3f %%; off the heading %.3f mm", what, distance, stopTime, expected, v0 / (mu * g),
                100 * (distance - expected) / expected, 1e3 * sideways));
        assertThat(speed(s, i)).as("%s: speed after 1.5 s, m/s", what).isLessThan(REST_SPEED);
        assertThat(distance).as("%s: stopping distance, m", what).isCloseTo(expected, within(0.02 * expected));
    }
}
