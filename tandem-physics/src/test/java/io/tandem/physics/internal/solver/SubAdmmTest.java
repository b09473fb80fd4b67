package io.tandem.physics.internal.solver;

import io.tandem.physics.internal.parallel.ParallelLoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The solver contract for Subsystem-ADMM, plus its own properties. */
class SubAdmmTest extends SolverContract {
    @Override
    ConstraintSolver solver(int iterations) {
        return new SubAdmm(iterations, 4, 0, ParallelLoop.serial());
    }

    @Override
    int budget() {
        return 4000;
    }

    @Test
    void oneAndTwoThreads_bitwiseIdentical() {
        ConstraintProblem a = Problems.ballChain(300, 11, null);
        ConstraintProblem b = Problems.ballChain(300, 11, null);
        new SubAdmm(60, 4, 0, ParallelLoop.serial()).solve(a);
        try (ParallelLoop two = ParallelLoop.withThreads(2)) {
            new SubAdmm(60, 4, 0, two).solve(b);
        }
        Problems.assertBitwiseSameSolution(a, b);
    }

    @Test
    void groupedSubsystems_sameFixedPointAsOneBodyPerSubsystem() {
        int links = 12;
        int[] groups = new int[links];
        for (int i = 0; i < links; i++) {
            groups[i] = i / 4;
        }
        ConstraintProblem grouped = Problems.ballChain(links, 3, groups);
        double[] exact = Problems.denseKkt(grouped);
        new SubAdmm(4000, 4, 0, ParallelLoop.serial()).solve(grouped);
        for (int r = 0; r < grouped.totalRows; r++) {
            assertThat(grouped.rowVelocity(r)).isCloseTo(0.0, org.assertj.core.api.Assertions.within(1e-6));
        }
        for (int i = 0; i < Problems.totalDim(grouped); i++) {
            assertThat(grouped.v[i]).isCloseTo(exact[i], org.assertj.core.api.Assertions.within(1e-6 * (1 + Math.abs(exact[i]))));
        }
    }

    @Test
    void tolerance_stopsEarlyOnceConverged() {
        ConstraintProblem pr = Problems.sphereStack(10, 0.5);
        SubAdmm s = new SubAdmm(100000, 4, 1e-10, ParallelLoop.serial());
        s.solve(pr);
        assertThat(s.lastIterations()).isLessThan(100000);
    }

    @Test
    void chainInOneSubsystem_exactAfterOneIteration() {
        int links = 50;
        ConstraintProblem pr = Problems.ballChain(links, 5, new int[links]);
        double[] exact = Problems.denseKkt(pr);
        SubAdmm solver = new SubAdmm(60, 4, 0, ParallelLoop.serial());
        solver.solve(pr);
        assertThat(solver.lastIterations()).isEqualTo(1);
        assertThat(solver.lastExactRows()).isEqualTo(3 * links);
        assertMatchesKkt(pr, exact);
    }

    @Test
    void branchedGroupWithLoopAndSpring_matchesDenseKkt() {
        // a random tree of 14 bodies in one subsystem, plus a joint closing a loop and a compliant
        // (SOFT) block: exercises the breadth-first order and the envelope's fill
        int n = 14;
        java.util.Random rnd = new java.util.Random(9);
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(n);
        pr.group(new int[n]);
        pr.layout();
        for (int i = 0; i < n; i++) {
            Problems.rigidBody(pr, i, 0.5 + rnd.nextDouble(), 0.01, 0.02, 0.015);
            for (int d = 0; d < 6; d++) {
                pr.v[pr.coord(i) + d] = rnd.nextGaussian();
                pr.b[pr.coord(i) + d] = pr.mass[36 * i + 7 * d] * pr.v[pr.coord(i) + d];
            }
        }
        int[] parent = new int[n];
        parent[0] = -1;
        for (int i = 1; i < n; i++) {
            parent[i] = rnd.nextInt(i);
        }
        for (int i = 0; i < n; i++) {
            joint(pr, ConstraintProblem.HARD, i, parent[i], rnd);
        }
        joint(pr, ConstraintProblem.HARD, n - 1, 3, rnd);
        int r = joint(pr, ConstraintProblem.SOFT, n - 2, 1, rnd);
        for (int k = 0; k < 3; k++) {
            pr.gamma[r + k] = 0.3;
        }
        double[] exact = Problems.denseKkt(pr);
        SubAdmm solver = new SubAdmm(5, 4, 0, ParallelLoop.serial());
        solver.solve(pr);
        assertThat(solver.lastIterations()).isEqualTo(1);
        assertMatchesKkt(pr, exact);
    }

    @Test
    void groupWithContact_convergesToSameFixedPointAsSingletons() {
        // a grouped chain resting a contact on its last link: internal joints exact, the contact split
        int links = 6;
        ConstraintProblem grouped = Problems.ballChain(links, 13, new int[links]);
        ConstraintProblem single = Problems.ballChain(links, 13, null);
        for (ConstraintProblem pr : new ConstraintProblem[] {grouped, single}) {
            int r = pr.addBlock(ConstraintProblem.CONTACT, 3, links - 1, -1, 0.4);
            double[][] dirs = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};
            for (int q = 0; q < 3; q++) {
                Problems.row(pr.jA, r + q, dirs[q], new double[] {0.05, 0, -0.01});
                pr.p[r + q] = 0;
            }
            pr.e[r] = -5;
        }
        new SubAdmm(20000, 4, 1e-13, ParallelLoop.serial()).solve(single);
        SubAdmm solver = new SubAdmm(20000, 4, 1e-13, ParallelLoop.serial());
        solver.solve(grouped);
        assertThat(solver.lastIterations()).isGreaterThan(1);
        for (int i = 0; i < Problems.totalDim(single); i++) {
            assertThat(grouped.v[i]).as("v[%d]", i).isCloseTo(single.v[i], org.assertj.core.api.Assertions.within(1e-6 * (1 + Math.abs(single.v[i]))));
        }
        int r = grouped.rowStart[grouped.constraints - 1];
        assertThat(grouped.p[r]).isGreaterThan(0);
        assertThat(grouped.rowVelocity(r)).isCloseTo(0.0, org.assertj.core.api.Assertions.within(1e-7));
    }

    // ---- the adaptive penalty (SubAdmm's notes: "Adaptive penalty") --------------------------

    /** iteration cap of the adaptive tests: far above what the adaptive solves need (at most 212) */
    private static final int ADAPT_CAP = 20000;

    /** A problem of the contract suite by name: the pinned 8-link ball chain or the 3-sphere frictionless row. */
    private static ConstraintProblem problem(String name) {
        return switch (name) {
            case "ballChain" -> Problems.ballChain(8, 7, null);
            case "frictionlessRow" -> Problems.frictionlessRow();
            default -> throw new IllegalArgumentException(name);
        };
    }

    static Stream<Arguments> badKappas() {
        // measured at 1e-6 m/s (fixed / adaptive iterations): ballChain kappa 0.001: cap (never
        // within 100000) / 212, kappa 1000: 4728 / 172; frictionlessRow kappa 0.001: cap / 140,
        // kappa 1000: 4712 / 172
        return Stream.of(Arguments.of("ballChain", 0.001), Arguments.of("ballChain", 1000.0),
                Arguments.of("frictionlessRow", 0.001), Arguments.of("frictionlessRow", 1000.0));
    }

    @ParameterizedTest(name = "{0}, kappa {1}")
    @MethodSource("badKappas")
    void solve_adaptiveWithBadKappa_reachesToleranceInFewerIterationsThanFixed(String name, double kappa) {
        double tol = 1e-6;
        SubAdmm fixed = new SubAdmm(ADAPT_CAP, kappa, tol, false, ParallelLoop.serial());
        fixed.solve(problem(name));
        SubAdmm adaptive = new SubAdmm(ADAPT_CAP, kappa, tol, true, ParallelLoop.serial());
        adaptive.solve(problem(name));
        // if the fixed penalty never gets there, it ran the whole cap and the adaptive one must stop
        // well inside it; otherwise the adaptive one takes less than half the fixed one's iterations
        assertThat(adaptive.lastIterations()).as("adaptive iterations (fixed: %d)", fixed.lastIterations())
                .isLessThan(ADAPT_CAP)
                .isLessThan(fixed.lastIterations() / 2)
                .isGreaterThan(SubAdmm.ADAPT_EVERY);
    }

    // kappa 1000 is left out: a stop on successive changes is loose where beta is far above the
    // effective mass (v ends 1.2e-7 off at a 1e-8 stop, above this test's 10 x tol); see SubAdmm's notes
    @ParameterizedTest(name = "kappa {0}")
    @ValueSource(doubles = {0.001, 4})
    void solve_adaptiveWithTolerance_matchesDenseKkt(double kappa) {
        double tol = 1e-8;
        ConstraintProblem pr = Problems.ballChain(8, 7, null);
        double[] exact = Problems.denseKkt(pr);
        SubAdmm solver = new SubAdmm(ADAPT_CAP, kappa, tol, true, ParallelLoop.serial());
        solver.solve(pr);
        assertThat(solver.lastIterations()).isLessThan(ADAPT_CAP);
        // the stop bounds residuals in m/s, not the error; on this chain the error comes out at
        // (measured) up to 4.7 tol in v, 1.4 tol in p (both relative to 1 + |exact|), 1.1 tol in
        // the constraint velocities: 10 tol for all
        int nv = Problems.totalDim(pr);
        for (int i = 0; i < nv; i++) {
            assertThat(pr.v[i]).as("v[%d]", i).isCloseTo(exact[i], within(10 * tol * (1 + Math.abs(exact[i]))));
        }
        for (int r = 0; r < pr.totalRows; r++) {
            assertThat(pr.p[r]).as("p[%d]", r).isCloseTo(exact[nv + r], within(10 * tol * (1 + Math.abs(exact[nv + r]))));
            assertThat(pr.rowVelocity(r)).as("constraint velocity row %d", r).isCloseTo(0.0, within(10 * tol));
        }
    }

    @ParameterizedTest(name = "kappa {0}")
    @ValueSource(doubles = {0.001, 4, 1000})
    void solve_adaptiveWithTolerance_matchesExactLcp(double kappa) {
        double tol = 1e-8;
        ConstraintProblem pr = Problems.frictionlessRow();
        double[] exact = Problems.exactFrictionlessLcp(pr);
        SubAdmm solver = new SubAdmm(ADAPT_CAP, kappa, tol, true, ParallelLoop.serial());
        solver.solve(pr);
        assertThat(solver.lastIterations()).isLessThan(ADAPT_CAP);
        // measured: normal impulses within 0.9 tol (N s) of the exact LCP
        for (int c = 0; c < pr.constraints; c++) {
            int r0 = pr.rowStart[c];
            assertThat(pr.p[r0]).as("normal impulse of contact %d", c).isCloseTo(exact[c], within(10 * tol));
            assertThat(pr.rowVelocity(r0)).as("normal velocity of contact %d", c).isGreaterThan(-10 * tol);
            assertThat(pr.p[r0 + 1]).as("frictionless: tangent impulse of contact %d", c).isCloseTo(0.0, within(10 * tol));
            assertThat(pr.p[r0 + 2]).as("frictionless: tangent impulse of contact %d", c).isCloseTo(0.0, within(10 * tol));
        }
    }

    // from kappa 0.001 the penalty once grew without bound (to 1e52) and the stop accepted impulses
    // 2.4 N s off; now bounded. From kappa 4 and 1000 the resting stack stagnates: stopped at
    // 1e-8 m/s its impulses are 6e-6 and 1e-3 N s off (SubAdmm's notes, known limit), so they are
    // not claimed here
    @ParameterizedTest(name = "kappa {0}")
    @ValueSource(doubles = {0.001})
    void solve_adaptiveOnRestingStack_matchesWeightCarried(double kappa) {
        int n = 10;
        ConstraintProblem pr = Problems.sphereStack(n, 0.5);
        SubAdmm solver = new SubAdmm(ADAPT_CAP, kappa, 1e-8, true, ParallelLoop.serial());
        solver.solve(pr);
        for (int k = 0; k < n; k++) {
            double expected = (n - k) * 1.0 * Problems.G * Problems.H;
            assertThat(pr.p[pr.rowStart[k]]).as("normal impulse under sphere %d", k).isCloseTo(expected, within(1e-6));
        }
    }

    /**
     * The compact form of contact blocks (ConstraintProblem.armed: J v from the frame and the
     * lever arms, J^T J in closed form, the block's whole step in registers) is the row form's
     * arithmetic up to rounding: same impulses and velocities on random contact problems, at a
     * fixed budget and with the defaults' adaptive penalty and stop.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void solve_armedContacts_matchRowForm(long seed) {
        for (boolean adaptive : new boolean[]{false, true}) {
            ConstraintProblem rows = Problems.randomContacts(12, 40, seed, false);
            ConstraintProblem armed = Problems.randomContacts(12, 40, seed, true);
            assertThat(armed.armed[0]).isTrue();
            assertThat(rows.armed[0]).isFalse();
            double tol = adaptive ? 1e-4 : 0;
            SubAdmm a = new SubAdmm(adaptive ? 20 : 30, 4, tol, adaptive, ParallelLoop.serial());
            SubAdmm b = new SubAdmm(adaptive ? 20 : 30, 4, tol, adaptive, ParallelLoop.serial());
            a.solve(rows);
            b.solve(armed);
            assertThat(b.lastIterations()).as("iterations, adaptive %b", adaptive).isEqualTo(a.lastIterations());
            for (int r = 0; r < rows.totalRows; r++) {
                assertThat(armed.p[r]).as("impulse of row %d, adaptive %b", r, adaptive)
                        .isCloseTo(rows.p[r], within(1e-9 * (1 + Math.abs(rows.p[r]))));
            }
            for (int i = 0; i < Problems.totalDim(rows); i++) {
                assertThat(armed.v[i]).as("velocity %d, adaptive %b", i, adaptive)
                        .isCloseTo(rows.v[i], within(1e-9 * (1 + Math.abs(rows.v[i]))));
            }
        }
    }

    /** Adaptive penalties without a tolerance run the whole budget (the tracked z-steps of the updates record no convergence runs). */
    @Test
    void solve_adaptiveWithoutTolerance_runsWholeBudget() {
        ConstraintProblem pr = Problems.randomContacts(12, 40, 4, true);
        SubAdmm solver = new SubAdmm(25, 4, 0, true, ParallelLoop.serial());
        solver.solve(pr);
        assertThat(solver.lastIterations()).isEqualTo(25);
        for (int r = 0; r < pr.totalRows; r++) {
            assertThat(pr.p[r]).as("impulse of row %d", r).isFinite();
        }
    }

    /** 24 ball chains of 2 to 7 links and 8 frictionless rows: 32 islands, 132 subsystems. */
    private static ConstraintProblem manyIslands() {
        List<ConstraintProblem> parts = new ArrayList<>();
        for (int k = 0; k < 24; k++) {
            parts.add(Problems.ballChain(2 + k % 6, 100 + k, null));
            if (k % 3 == 0) {
                parts.add(Problems.frictionlessRow());
            }
        }
        return Problems.disjointUnion(parts.toArray(new ConstraintProblem[0]));
    }

    @Test
    void solve_adaptiveWithToleranceOneAndTwoThreads_bitwiseIdentical() {
        // islands stop between 24 and 144 iterations (measured), so penalty updates and per-island
        // stops interleave; more subsystems and blocks than one chunk, so both threads get work
        ConstraintProblem a = manyIslands();
        ConstraintProblem b = manyIslands();
        assertThat(a.subsystems).isGreaterThan(2 * ParallelLoop.CHUNK);
        assertThat(a.constraints).isGreaterThan(2 * ParallelLoop.CHUNK);
        SubAdmm serial = new SubAdmm(400, 4, 1e-6, true, ParallelLoop.serial());
        serial.solve(a);
        SubAdmm threaded;
        try (ParallelLoop two = ParallelLoop.withThreads(2)) {
            threaded = new SubAdmm(400, 4, 1e-6, true, two);
            threaded.solve(b);
        }
        assertThat(serial.lastIterations()).isGreaterThan(3 * SubAdmm.ADAPT_EVERY).isLessThan(400);
        assertThat(threaded.lastIterations()).isEqualTo(serial.lastIterations());
        Problems.assertBitwiseSameSolution(a, b);
    }

    /** A 3-row ball-joint-like block between a and b (b = -1: the world) at random anchors. */
    private static int joint(ConstraintProblem pr, int kind, int a, int b, java.util.Random rnd) {
        int r = pr.addBlock(kind, 3, a, b, 0);
        double[] la = {rnd.nextGaussian() * 0.1, rnd.nextGaussian() * 0.1, rnd.nextGaussian() * 0.1};
        double[] lb = {rnd.nextGaussian() * 0.1, rnd.nextGaussian() * 0.1, rnd.nextGaussian() * 0.1};
        for (int k = 0; k < 3; k++) {
            Problems.row(pr.jA, r + k, Problems.AXES[k], la);
            if (b >= 0) {
                double[] neg = {-Problems.AXES[k][0], -Problems.AXES[k][1], -Problems.AXES[k][2]};
                Problems.row(pr.jB, r + k, neg, lb);
            }
            pr.e[r + k] = rnd.nextGaussian() * 0.01;
            pr.p[r + k] = 0;
        }
        return r;
    }

    private static void assertMatchesKkt(ConstraintProblem pr, double[] exact) {
        int nv = Problems.totalDim(pr);
        for (int i = 0; i < nv; i++) {
            assertThat(pr.v[i]).as("v[%d]", i).isCloseTo(exact[i], org.assertj.core.api.Assertions.within(1e-8 * (1 + Math.abs(exact[i]))));
        }
        for (int r = 0; r < pr.totalRows; r++) {
            assertThat(pr.p[r]).as("p[%d]", r).isCloseTo(exact[nv + r], org.assertj.core.api.Assertions.within(1e-8 * (1 + Math.abs(exact[nv + r]))));
        }
    }
}
