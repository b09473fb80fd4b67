package io.tandem.physics.internal.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The solver contract for the non-smooth Newton baseline, plus its own properties. */
class NonsmoothNewtonTest extends SolverContract {
    @Override
    ConstraintSolver solver(int iterations) {
        return new NonsmoothNewton(iterations);
    }

    @Override
    int budget() {
        return 60;
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, 0.3, 2})
    void everyKindWithArticulation_matchesConvergedPgs(double mu) {
        ConstraintProblem ref = Problems.everyKindWithArticulation(3, mu);
        new Pgs(200000, 0).solve(ref);
        ConstraintProblem pr = Problems.everyKindWithArticulation(3, mu);
        new NonsmoothNewton(60).solve(pr);
        Problems.assertSameSolution(pr, ref, 1e-9);
    }

    @Test
    void slidingContact_exactCoulombLaw() {
        // the ground contact of body 1 slides at mu 0.3 (it does not at mu 2: see above)
        double mu = 0.3;
        ConstraintProblem pr = Problems.everyKindWithArticulation(3, mu);
        new NonsmoothNewton(60).solve(pr);
        int r0 = pr.rowStart[pr.constraints - 2];
        double pn = pr.p[r0];
        double pt1 = pr.p[r0 + 1];
        double pt2 = pr.p[r0 + 2];
        double y1 = pr.rowVelocity(r0 + 1);
        double y2 = pr.rowVelocity(r0 + 2);
        double slip = Math.hypot(y1, y2);
        double friction = Math.hypot(pt1, pt2);
        assertThat(pn).as("normal impulse").isPositive();
        assertThat(pr.rowVelocity(r0)).as("normal velocity (closed contact)").isCloseTo(0.0, within(1e-12));
        assertThat(slip).as("slip speed").isGreaterThan(1e-3);
        assertThat(friction).as("friction on the cone's rim").isCloseTo(mu * pn, within(1e-12));
        // maximal dissipation: friction exactly opposite to the slip
        assertThat((pt1 * y1 + pt2 * y2) / (friction * slip)).isCloseTo(-1.0, within(1e-12));
    }

    @Test
    void warmStartAtTheSolution_staysThere() {
        ConstraintProblem pr = Problems.everyKindWithArticulation(11, 0.3);
        new NonsmoothNewton(60).solve(pr);
        double[] p = java.util.Arrays.copyOf(pr.p, pr.totalRows);
        NonsmoothNewton again = new NonsmoothNewton(3);
        again.solve(pr);
        for (int r = 0; r < pr.totalRows; r++) {
            assertThat(pr.p[r]).as("p[%d]", r).isCloseTo(p[r], within(1e-12));
        }
    }

    @Test
    void zeroIterations_refused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new NonsmoothNewton(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }
}
