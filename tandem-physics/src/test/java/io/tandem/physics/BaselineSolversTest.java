package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Table I baselines (full-system ADMM, non-smooth Newton) in the engine at the paper's
 * smallest and largest budgets (FADMM 30 and 90 iterations, NNewton 3 and 9 Newton steps): small
 * scenes come out physically sane. (The solvers' exactness is SolverContract's; the scenes that
 * every solver passes at its own budget are ContactValidationTest's, ConvexBodyTest's and
 * ArticulationTest's.)
 */
class BaselineSolversTest {
    private static final double G = 9.81;

    static Stream<SolverSettings> tableOneBudgets() {
        return Stream.of(SolverSettings.fullAdmm(30), SolverSettings.fullAdmm(90), SolverSettings.nonsmoothNewton(3),
                SolverSettings.nonsmoothNewton(9));
    }

    static Stream<SolverSettings> largestBudgets() {
        return Stream.of(SolverSettings.fullAdmm(90), SolverSettings.nonsmoothNewton(9));
    }

    @ParameterizedTest
    @MethodSource("tableOneBudgets")
    void sphereDroppedOnPlane_tableOneBudget_restsWithoutPenetration(SolverSettings st) {
        double r = 0.1;
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(st);
        b.body("ground").makeStatic().plane().add();
        int ball = b.body("ball").sphere(r).density(1000).position(0.2, -0.1, r + 0.05).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        double lowest = Double.POSITIVE_INFINITY;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 480; k++) {
                e.step(s);
                lowest = Math.min(lowest, s.pos[3 * ball + 2]);
            }
            assertThat(e.contactCount()).as("%s: contacts", st.kind()).isPositive();
        }
        assertThat(r - lowest).as("%s: deepest penetration over 2 s, m", st.kind()).isLessThan(1e-3);
        assertThat(s.pos[3 * ball + 2]).as("%s: centre height at rest, m", st.kind()).isCloseTo(r, within(1e-3));
        assertThat(Math.abs(s.linVel[3 * ball + 2])).as("%s: vertical speed, m/s", st.kind()).isLessThan(1e-3);
        assertThat(Math.hypot(s.pos[3 * ball] - 0.2, s.pos[3 * ball + 1] + 0.1)).as("%s: drift, m", st.kind())
                .isLessThan(1e-3);
    }

    @ParameterizedTest
    @MethodSource("tableOneBudgets")
    void boxStackOfThree_tableOneBudget_restsAtItsHeights(SolverSettings st) {
        double h = 0.1;
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(st);
        b.body("ground").makeStatic().plane().friction(0.6).add();
        int[] box = new int[3];
        for (int k = 0; k < 3; k++) {
            box[k] = b.body("box" + k).box(h, h, h).density(500).friction(0.6).position(0, 0, h + 2 * h * k).add();
        }
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 720; k++) {
                e.step(s);
            }
        }
        for (int k = 0; k < 3; k++) {
            assertThat(s.pos[3 * box[k] + 2]).as("%s: box %d centre height, m", st.kind(), k)
                    .isCloseTo(h + 2 * h * k, within(1.5e-3));
            assertThat(Math.abs(s.linVel[3 * box[k] + 2])).as("%s: box %d vertical speed, m/s", st.kind(), k)
                    .isLessThan(1e-3);
        }
    }

    /**
     * A 0.2 m cube on a plane tilted by theta about y, friction mu: its travel down the slope
     * during t after 0.1 s of settling, minus what its velocity then accounts for (a t^2 / 2 for a
     * constant acceleration a).
     */
    private static double slide(double thetaDeg, double mu, double t, SolverSettings st) {
        double th = Math.toRadians(thetaDeg);
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(st);
        double qw = Math.cos(th / 2);
        double qy = Math.sin(th / 2);
        b.body("slope").makeStatic().plane().orientation(qw, 0, qy, 0).friction(mu).add();
        double h = 0.1;
        int box = b.body("block").box(h, h, h).density(500).friction(mu).orientation(qw, 0, qy, 0)
                .position(h * Math.sin(th), 0, h * Math.cos(th)).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 24; k++) {
                e.step(s);
            }
            double x0 = s.pos[3 * box];
            double z0 = s.pos[3 * box + 2];
            double v0 = s.linVel[3 * box] * Math.cos(th) - s.linVel[3 * box + 2] * Math.sin(th);
            for (int k = 0; k < (int) Math.round(t * 240); k++) {
                e.step(s);
            }
            return (s.pos[3 * box] - x0) * Math.cos(th) - (s.pos[3 * box + 2] - z0) * Math.sin(th) - v0 * t;
        }
    }

    @ParameterizedTest
    @MethodSource("largestBudgets")
    void boxOnIncline_aboveFrictionAngle_slidesWithCoulombAcceleration(SolverSettings st) {
        double th = Math.toRadians(40);
        double mu = 0.3;
        double a = G * (Math.sin(th) - mu * Math.cos(th));
        assertThat(slide(40, mu, 1.0, st)).as("%s: travel in 1 s, m", st.kind()).isCloseTo(0.5 * a, within(0.02 * 0.5 * a));
    }

    @ParameterizedTest
    @MethodSource("largestBudgets")
    void boxOnIncline_belowFrictionAngle_sticks(SolverSettings st) {
        assertThat(Math.abs(slide(20, 0.5, 1.0, st))).as("%s: travel in 1 s, m", st.kind()).isLessThan(1e-3);
    }
}
