package io.tandem.cli.spi;

import io.tandem.physics.SolverKind;
import io.tandem.physics.SolverSettings;
import picocli.CommandLine.Option;

/**
 * The physics solver options that {@code tandem sim} and the physics benchmarks share, as a picocli
 * {@code @Mixin}: {@code --solver} and {@code --threads}. Set by picocli when the command line is
 * parsed; read afterwards on the command's thread.
 */
public final class PhysicsSolverOptions {
    @Option(names = "--solver", description = "SUB_ADMM, PGS, PROJECTED_JACOBI, or the Table I baselines FULL_ADMM"
            + " (full-system ADMM) and NONSMOOTH_NEWTON (its budget counts Newton steps) (default: ${DEFAULT-VALUE}).",
            defaultValue = "SUB_ADMM")
    SolverKind solver;

    @Option(names = "--threads", description = "Solver threads (default: ${DEFAULT-VALUE}).", defaultValue = "1")
    int threads;

    /** Used by picocli. */
    public PhysicsSolverOptions() {
    }

    /** @return the contact solver */
    public SolverKind solver() {
        return solver;
    }

    /**
     * @param iterations a fixed iteration budget, or null for the defaults
     * @return {@link SolverSettings#defaults()} for SubADMM without a budget, else a fixed budget
     *         ({@link SolverSettings#DEFAULT_ITERATION_CAP} for the other solvers without one), with
     *         these threads
     */
    public SolverSettings settings(Integer iterations) {
        int n = iterations == null ? SolverSettings.DEFAULT_ITERATION_CAP : iterations;
        SolverSettings st = switch (solver) {
            case SUB_ADMM -> iterations == null ? SolverSettings.defaults() : SolverSettings.subAdmm(n);
            case PGS -> SolverSettings.pgs(n);
            case PROJECTED_JACOBI -> SolverSettings.projectedJacobi(n);
            case FULL_ADMM -> SolverSettings.fullAdmm(n);
            case NONSMOOTH_NEWTON -> SolverSettings.nonsmoothNewton(n);
        };
        return st.withThreads(threads);
    }

    /** @return the solver's threads, as given (the command checks that it is at least 1) */
    public int threads() {
        return threads;
    }
}
