package io.tandem.bench.physics;

import io.tandem.cli.spi.PhysicsSolverOptions;
import io.tandem.physics.SolverKind;
import io.tandem.physics.SolverSettings;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The solver, timing and output options every physics bench shares (a picocli mixin). */
final class SolverOptions {
    @Option(names = "--steps", defaultValue = "1000", description = "Steps of 1/240 s (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--iterations", paramLabel = "N", description = "A fixed solver budget of N iterations per step"
            + " (default: the engine's defaults, SubADMM with the adaptive penalty stopping at 1e-4 m/s, at most 20).")
    Integer iterations;

    /** --solver and --threads, as tandem sim has them */
    @Mixin
    PhysicsSolverOptions physics;

    @Option(names = "--json", description = "Print one JSON object per run and nothing else.")
    boolean json;

    /** @return the contact solver */
    SolverKind solver() {
        return physics.solver();
    }

    /** @return the solver's threads */
    int threads() {
        return physics.threads();
    }

    /** @return the engine's defaults, or the fixed budget of --iterations, with these options */
    SolverSettings settings() {
        if (iterations != null && iterations < 1) {
            throw new IllegalArgumentException("--iterations must be >= 1, got " + iterations);
        }
        return physics.settings(iterations);
    }

    /** @return "defaults" or the fixed budget, for the reports */
    String budget() {
        return iterations == null ? "defaults" : Integer.toString(iterations);
    }
}
