package io.tandem.physics;

/** The constraint solvers. */
public enum SolverKind {
    /** Subsystem-based ADMM (Lee, Lee and Lee, ICRA 2023): parallel subsystem solves, closed-form constraint updates */
    SUB_ADMM,
    /** projected Gauss-Seidel over constraint blocks, accelerated by nonsmooth nonlinear conjugate gradients */
    PGS,
    /** projected Jacobi: the PGS projections applied simultaneously */
    PROJECTED_JACOBI,
    /** full-system ADMM: SubADMM's iteration with one subsystem holding every body, one sparse Cholesky per step (a baseline) */
    FULL_ADMM,
    /** non-smooth Newton on the Fischer-Burmeister reformulation with an Armijo line search (Macklin et al. 2019; a baseline) */
    NONSMOOTH_NEWTON
}
