package io.tandem.physics.internal.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

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
        for (int i = 0; i < Problems.totalDim(a); i++) {
            assertThat(Double.doubleToRawLongBits(b.v[i])).as("v[%d]", i).isEqualTo(Double.doubleToRawLongBits(a.v[i]));
        }
        for (int r = 0; r < a.totalRows; r++) {
            assertThat(Double.doubleToRawLongBits(b.p[r])).isEqualTo(Double.doubleToRawLongBits(a.p[r]));
        }
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
