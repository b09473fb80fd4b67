package io.tandem.physics;

/**
 * Constraint-solver settings of a world.
 *
 * @param kind       which solver
 * @param iterations iteration budget per step, at least 1
 * @param kappa      SubADMM penalty scale (beta_i = kappa tr(A_i) / sum ||J_ci||^2), greater than 0
 * @param tolerance  residual tolerance for early stopping, 0 to always run the whole budget
 * @param threads    threads for the parallel loops (SubADMM, projected Jacobi), at least 1
 */
public record SolverSettings(SolverKind kind, int iterations, double kappa, double tolerance, int threads) {
    /** default SubADMM penalty scale */
    public static final double DEFAULT_KAPPA = 4;

    /** Validates eagerly. */
    public SolverSettings {
        if (kind == null) {
            throw new IllegalArgumentException("solver kind must be set (SUB_ADMM, PGS or PROJECTED_JACOBI)");
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("solver iterations must be >= 1, got " + iterations);
        }
        if (!(kappa > 0) || Double.isInfinite(kappa)) {
            throw new IllegalArgumentException("SubADMM kappa must be a finite number > 0, got " + kappa);
        }
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("solver tolerance must be a finite number >= 0, got " + tolerance);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("solver threads must be >= 1, got " + threads);
        }
    }

    /** @return SubADMM with {@code iterations}, default kappa, no early stop, 1 thread */
    public static SolverSettings subAdmm(int iterations) {
        return new SolverSettings(SolverKind.SUB_ADMM, iterations, DEFAULT_KAPPA, 0, 1);
    }

    /** @return PGS with {@code iterations} */
    public static SolverSettings pgs(int iterations) {
        return new SolverSettings(SolverKind.PGS, iterations, DEFAULT_KAPPA, 0, 1);
    }

    /** @return projected Jacobi with {@code iterations} */
    public static SolverSettings projectedJacobi(int iterations) {
        return new SolverSettings(SolverKind.PROJECTED_JACOBI, iterations, DEFAULT_KAPPA, 0, 1);
    }

    /** @return these settings with another thread count */
    public SolverSettings withThreads(int n) {
        return new SolverSettings(kind, iterations, kappa, tolerance, n);
    }

    /** @return these settings with another iteration budget */
    public SolverSettings withIterations(int n) {
        return new SolverSettings(kind, n, kappa, tolerance, threads);
    }
}
