package io.tandem.physics.internal.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.physics.internal.parallel.ParallelLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The solver contract for the full-system ADMM baseline, plus its own properties. */
class FullAdmmTest extends SolverContract {
    @Override
    ConstraintSolver solver(int iterations) {
        return new FullAdmm(iterations, 4);
    }

    @Override
    int budget() {
        return 4000;
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, 0.3, 2})
    void everyKindWithArticulation_matchesConvergedPgs(double mu) {
        ConstraintProblem ref = Problems.everyKindWithArticulation(3, mu);
        new Pgs(200000, 0).solve(ref);
        ConstraintProblem pr = Problems.everyKindWithArticulation(3, mu);
        new FullAdmm(20000, 4).solve(pr);
        Problems.assertSameSolution(pr, ref, 1e-9);
    }

    /**
     * With contacts on the ground only, every constraint touches one body, so the one subsystem's
     * matrix is SubADMM's per-body matrices side by side, with the same penalties, seed and
     * z-step: the iterates are SubADMM's (one body per subsystem) up to rounding. What remains of
     * the difference is the factorization (the paper's point).
     */
    @Test
    void groundContactsOnly_sameIteratesAsSubAdmm() {
        ConstraintProblem full = groundContacts();
        ConstraintProblem sub = groundContacts();
        new FullAdmm(30, 4).solve(full);
        new SubAdmm(30, 4, 0, ParallelLoop.serial()).solve(sub);
        Problems.assertSameSolution(full, sub, 1e-12);
    }

    /** Problems.randomContacts with every contact's side B made the world. */
    private static ConstraintProblem groundContacts() {
        ConstraintProblem pr = Problems.randomContacts(6, 14, 21, false);
        for (int c = 0; c < pr.constraints; c++) {
            pr.bodyB[c] = -1;
        }
        return pr;
    }

    @Test
    void unchangedGraph_keepsTheSymbolicFactorization() {
        FullAdmm solver = new FullAdmm(30, 4);
        solver.solve(Problems.sphereStack(10, 0.5));
        ConstraintProblem again = Problems.sphereStack(10, 0.5);
        solver.solve(again);
        assertThat(solver.symbolicFactorizations()).isEqualTo(1);
        // and it still solves: the same answer as a fresh solver
        ConstraintProblem fresh = Problems.sphereStack(10, 0.5);
        new FullAdmm(30, 4).solve(fresh);
        Problems.assertSameSolution(again, fresh, 0);
        solver.solve(Problems.sphereStack(9, 0.5));
        assertThat(solver.symbolicFactorizations()).isEqualTo(2);
    }

    @Test
    void badSettings_refused() {
        assertThatThrownBy(() -> new FullAdmm(0, 4)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new FullAdmm(10, 0)).hasMessageContaining("kappa");
    }
}
