package io.tandem.physics.internal.solver;

/** The solver contract for projected Gauss-Seidel. */
class PgsTest extends SolverContract {
    @Override
    ConstraintSolver solver(int iterations) {
        return new Pgs(iterations, 0);
    }

    @Override
    int budget() {
        return 3000;
    }
}
