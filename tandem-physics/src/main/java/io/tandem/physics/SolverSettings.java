package io.tandem.physics;

/**
 * Constraint-solver settings of a world.
 *
 * @param kind       which solver
 * @param iterations iteration budget per step, at least 1 (NONSMOOTH_NEWTON: Newton iterations)
 * @param kappa      SubADMM and FULL_ADMM penalty scale (kappa times each constraint's effective
 *                   mass), greater than 0
 * @param tolerance  residual tolerance for early stopping, 0 to always run the whole budget
 *                   (SubADMM: m/s, on both the primal and the dual residual; PGS: N s, on the
 *                   largest impulse change of a sweep); ignored by the other solvers
 * @param threads    threads for the parallel loops (SubADMM, projected Jacobi; FULL_ADMM and
 *                   NONSMOOTH_NEWTON solve serially), at least 1
 * @param adaptive   SubADMM: balance each subsystem's penalties by its residuals (kappa is then
 *                   the starting scale); ignored by the other solvers
 */
public record SolverSettings(SolverKind kind, int iterations, double kappa, double tolerance, int threads,
        boolean adaptive) {
    /** default SubADMM penalty scale */
    public static final double DEFAULT_KAPPA = 4;

    /** Validates eagerly. */
    public SolverSettings {
        if (kind == null) {
            throw new IllegalArgumentException("solver kind must be set (SUB_ADMM, PGS, PROJECTED_JACOBI, FULL_ADMM or"
                    + " NONSMOOTH_NEWTON)");
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
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("solver threads must be 1 to " + MAX_THREADS + ", got " + threads
                    + " (more than the machine's cores only spins; this one has "
                    + Runtime.getRuntime().availableProcessors() + ")");
        }
    }

    /** The most threads a step may use (each is a thread the engine starts). */
    public static final int MAX_THREADS = 256;

    /** Fixed penalty ({@code adaptive} false). */
    public SolverSettings(SolverKind kind, int iterations, double kappa, double tolerance, int threads) {
        this(kind, iterations, kappa, tolerance, threads, false);
    }

    /** default iteration cap of {@link #defaults()} */
    public static final int DEFAULT_ITERATION_CAP = 20;
    /** default residual tolerance of {@link #defaults()}, m/s */
    public static final double DEFAULT_TOLERANCE = 1e-4;

    /**
     * The defaults of {@link PhysicsModel}, {@code tandem sim}, the world loader and the closed
     * loop: SubADMM with the adaptive penalty, stopping per island once both residuals are below
     * {@value #DEFAULT_TOLERANCE} m/s, at most {@value #DEFAULT_ITERATION_CAP} iterations, 1 thread.
     *
     * <p>Why these: they are the cheapest settings that pass the physical-accuracy suite
     * (PhysicalAccuracyTest: incline stick and slide within 2 %, stacks of 10 at rest within
     * 1 mm, pendulum period, no bounce, mass ratio 100, stopping distance). A cap of 15 lets a
     * stack of 10 boxes sink 6 mm, a cap of 10 topples it. The tighter 1e-4 m/s (1e-3 also passes
     * the suite) keeps motor speeds within about 5e-6 and momentum within about 1e-4 relative. An
     * easy scene stops early (a body on a slope: 4 iterations); the 1000-sphere pile takes about 15
     * on average (its falling and settling steps run the cap: see the README).
     */
    public static SolverSettings defaults() {
        return new SolverSettings(SolverKind.SUB_ADMM, DEFAULT_ITERATION_CAP, DEFAULT_KAPPA, DEFAULT_TOLERANCE, 1, true);
    }

    /**
     * @return SubADMM with a fixed budget of {@code iterations}: default kappa, no adaptation, no
     *         early stop, 1 thread (the paper's Table I runs; not the defaults)
     */
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

    /**
     * @return full-system ADMM with a fixed budget of {@code iterations}: default kappa, 1 thread
     *         (the FADMM baseline of the paper's Table I: 30, 60, 90)
     */
    public static SolverSettings fullAdmm(int iterations) {
        return new SolverSettings(SolverKind.FULL_ADMM, iterations, DEFAULT_KAPPA, 0, 1);
    }

    /**
     * @return the non-smooth Newton solver with {@code iterations} Newton iterations, 1 thread (the
     *         NNewton baseline of the paper's Table I: 3, 6, 9)
     */
    public static SolverSettings nonsmoothNewton(int iterations) {
        return new SolverSettings(SolverKind.NONSMOOTH_NEWTON, iterations, DEFAULT_KAPPA, 0, 1);
    }

    /** @return these settings with another thread count */
    public SolverSettings withThreads(int n) {
        return new SolverSettings(kind, iterations, kappa, tolerance, n, adaptive);
    }

    /** @return these settings with another iteration budget */
    public SolverSettings withIterations(int n) {
        return new SolverSettings(kind, n, kappa, tolerance, threads, adaptive);
    }
}
