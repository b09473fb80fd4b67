package io.tandem.physics.internal.solver;

import io.tandem.physics.internal.parallel.ParallelLoop;

/** The solver contract for projected Jacobi. */
class ProjectedJacobiTest extends SolverContract {
    @Override
    ConstraintSolver solver(int iterations) {
        return new ProjectedJacobi(iterations, ParallelLoop.serial());
    }

    @Override
    int budget() {
        return 20000;
    }
}
