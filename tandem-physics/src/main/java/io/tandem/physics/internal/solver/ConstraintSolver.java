package io.tandem.physics.internal.solver;

/**
 * Solves a {@link ConstraintProblem}: on return {@code v} holds the velocities and {@code p} the
 * impulses. Implementations keep their scratch between calls and allocate only while the problem
 * grows. Not thread-safe; one instance per stepping thread.
 */
public interface ConstraintSolver {
    /**
     * @param problem modified: {@code v} and {@code p} are written; {@code p} on entry is the
     *                warm start
     * @return iterations performed
     */
    int solve(ConstraintProblem problem);
}
