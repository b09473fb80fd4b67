package io.tandem.physics;

/** The constraint solvers. */
public enum SolverKind {
    /** Subsystem-based ADMM (Lee, Lee and Lee, ICRA 2023): parallel subsystem solves, closed-form constraint updates */
    SUB_ADMM,
    /** projected Gauss-Seidel over constraint blocks, accelerated by nonsmooth nonlinear conjugate gradients */
    PGS,
    /** projected Jacobi: the PGS projections applied simultaneously */
    PROJECTED_JACOBI
}
