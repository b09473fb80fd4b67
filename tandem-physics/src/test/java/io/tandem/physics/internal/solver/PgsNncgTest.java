package io.tandem.physics.internal.solver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The solver contract for PGS with nonsmooth nonlinear conjugate-gradient acceleration. */
class PgsNncgTest extends SolverContract {
    @Override
    ConstraintSolver solver(int iterations) {
        return new Pgs(iterations, 0, true);
    }

    @Override
    int budget() {
        return 3000;
    }

    @Test
    void acceleration_reachesChainAccuracyInFewerSweepsThanPlainPgs() {
        double plain = chainError(new Pgs(40, 0, false));
        double accelerated = chainError(new Pgs(40, 0, true));
        assertThat(accelerated).isLessThan(plain);
    }

    private static double chainError(ConstraintSolver s) {
        ConstraintProblem pr = Problems.ballChain(30, 5, null);
        double[] exact = Problems.denseKkt(pr);
        s.solve(pr);
        double err = 0;
        for (int i = 0; i < Problems.totalDim(pr); i++) {
            err = Math.max(err, Math.abs(pr.v[i] - exact[i]));
        }
        return err;
    }
}
