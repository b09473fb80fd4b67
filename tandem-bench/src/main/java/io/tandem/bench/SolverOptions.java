package io.tandem.bench;

import io.tandem.physics.SolverKind;
import io.tandem.physics.SolverSettings;
import picocli.CommandLine.Option;

/** The solver, timing and output options every physics bench shares (a picocli mixin). */
final class SolverOptions {
    @Option(names = "--steps", defaultValue = "1000", description = "Steps of 1/240 s (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--solver", defaultValue = "SUB_ADMM",
            description = "SUB_ADMM, PGS or PROJECTED_JACOBI (default: ${DEFAULT-VALUE}).")
    SolverKind solver;

    @Option(names = "--threads", defaultValue = "1", description = "Solver threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--json", description = "Print one JSON object per run and nothing else.")
    boolean json;

    /** @return settings for {@code iterations} with these options */
    SolverSettings settings(int iterations) {
        return new SolverSettings(solver, iterations, SolverSettings.DEFAULT_KAPPA, 0, threads);
    }
}
