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

    /** @return settings for {@code iterations} with these options */
    SolverSettings settings(int iterations) {
        return new SolverSettings(physics.solver(), iterations, SolverSettings.DEFAULT_KAPPA, 0, physics.threads());
    }
}
