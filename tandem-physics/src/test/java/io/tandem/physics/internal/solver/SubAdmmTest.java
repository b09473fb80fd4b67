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
}
