package io.tandem.physics.internal.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Every constraint solver converges to exact references on small problems (shared/specs/physics.md
 * 1.7): a pinned ball-joint chain against a dense KKT solve, frictionless contacts against an
 * exact LCP solve by enumeration, and the 10-sphere stack whose impulses are known in closed form.
 */
abstract class SolverContract {
    /** @return the solver under test with a generous iteration budget */
    abstract ConstraintSolver solver(int iterations);

    /** iterations that let this solver converge on the small problems */
    abstract int budget();

    @Test
    void ballChain_convergesToDenseKkt() {
        ConstraintProblem pr = Problems.ballChain(8, 7, null);
        double[] exact = Problems.denseKkt(pr);
        solver(budget()).solve(pr);
        int nv = Problems.totalDim(pr);
        for (int i = 0; i < nv; i++) {
            assertThat(pr.v[i]).as("v[%d]", i).isCloseTo(exact[i], within(1e-6 * (1 + Math.abs(exact[i]))));
        }
        for (int r = 0; r < pr.totalRows; r++) {
            assertThat(pr.rowVelocity(r)).as("constraint velocity row %d", r).isCloseTo(0.0, within(1e-6));
        }
    }

    @Test
    void sphereStack_normalImpulsesMatchWeightCarried() {
        int n = 10;
        ConstraintProblem pr = Problems.sphereStack(n, 0.5);
        solver(budget()).solve(pr);
        for (int k = 0; k < n; k++) {
            double expected = (n - k) * 1.0 * Problems.G * Problems.H;
            int r0 = pr.rowStart[k];
            assertThat(pr.p[r0]).as("normal impulse under sphere %d", k).isCloseTo(expected, within(1e-6));
            assertThat(pr.p[r0 + 1]).isCloseTo(0.0, within(1e-9));
            assertThat(pr.p[r0 + 2]).isCloseTo(0.0, within(1e-9));
        }
        for (int k = 0; k < n; k++) {
            assertThat(pr.v[pr.coord(k) + 2]).as("sphere %d stays at rest", k).isCloseTo(0.0, within(1e-7));
        }
    }

    @Test
    void frictionlessContacts_matchExactLcp() {
        ConstraintProblem pr = Problems.frictionlessRow();
        double[] exact = Problems.exactFrictionlessLcp(pr);
        solver(budget()).solve(pr);
        for (int c = 0; c < pr.constraints; c++) {
            assertThat(pr.p[pr.rowStart[c]]).as("normal impulse of contact %d", c)
                    .isCloseTo(exact[c], within(1e-6));
        }
    }
}
