package io.tandem.bench.physics;

import io.tandem.bench.internal.ProgressBar;
import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverKind;
import io.tandem.physics.SolverSettings;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tandem bench pile}: the 1000-sphere pile of the reference measurements
 * (shared/specs/physics.md 2.2): CPU time per step of the stepping thread, then the final max
 * penetration and mean height.
 */
@Command(name = "pile", mixinStandardHelpOptions = true,
        description = "CPU time per step, max penetration and mean height of 1000 spheres falling into a box.")
public final class PileCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--per-side", defaultValue = "10", description = "Spheres per grid side (default: ${DEFAULT-VALUE}, i.e. 1000).")
    int perSide;

    @Option(names = "--runs", defaultValue = "1", description = "Timed runs after one warm-up (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the spheres' +-1 cm jitter (default: ${DEFAULT-VALUE},"
            + " the peers' scene). The pile is chaotic: another seed, or a change of rounding, moves the mean iterations by"
            + " about 1.5, so compare code changes over several seeds.")
    long seed;

    @Mixin
    SolverOptions options;

    @Override
    public Integer call() {
        if (perSide < 1 || options.steps < 1 || runs < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "per-side, steps and runs must be >= 1");
        }
        SolverSettings settings = options.settings();
        int steps = options.steps;
        boolean json = options.json;
        int threads = options.threads();
        SolverKind solver = options.solver();
        PhysicsModel model = PhysicsScenes.pile(perSide, 1.0 / 240, settings, seed);
        PrintWriter out = spec.commandLine().getOut();
        double[] cpuMs = new double[runs];
        ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), "pile", (long) (runs + 1) * steps, !json);
        try (PhysicsEngine engine = new PhysicsEngine(model)) {
            for (int r = -1; r < runs; r++) {
                bar.update((long) (r + 1) * steps);
                PhysicsState s = model.newState();
                StepTiming t = StepTiming.measure(engine, s, steps);
                bar.update((long) (r + 2) * steps);
                if (r < 0) {
                    continue;
                }
                cpuMs[r] = t.cpuMsPerStep();
                double pen = PhysicsScenes.pileMaxPenetration(model, s);
                double height = PhysicsScenes.pileMeanHeight(model, s);
                if (json) {
                    out.printf(Locale.ROOT, "{\"scenario\":\"pile\",\"solver\":\"%s\",\"budget\":\"%s\",\"mean_iterations\":%.2f,"
                                    + "\"threads\":%d,\"bodies\":%d,\"steps\":%d,\"cpu_ms_per_step\":%.3f,\"wall_ms_per_step\":%.3f,"
                                    + "\"max_penetration_m\":%.6g,\"mean_height_m\":%.4f,\"seed\":%d,\"run\":%d}%n",
                            solver.name().toLowerCase(Locale.ROOT), options.budget(), t.meanIterations(), threads,
                            model.bodyCount() - PhysicsScenes.PILE_STATIC,
                            steps, cpuMs[r], t.wallMsPerStep(), pen, height, seed, r + 1);
                } else {
                    bar.done();
                    out.printf(Locale.ROOT, "run %d: %.2f ms CPU/step (%.2f wall), %.1f solver iterations/step, max penetration"
                            + " %.2f mm, mean height %.3f m, %d contacts at the end%n", r + 1, cpuMs[r], t.wallMsPerStep(),
                            t.meanIterations(), pen * 1e3, height, engine.contactCount());
                }
            }
        }
        if (!json) {
            double[] sorted = cpuMs.clone();
            Arrays.sort(sorted);
            out.printf(Locale.ROOT, "pile: %d spheres, %d steps of 1/240 s, %s (budget: %s), %d thread(s): median %.2f ms CPU/step%n",
                    model.bodyCount() - PhysicsScenes.PILE_STATIC, steps, solver, options.budget(), threads, sorted[runs / 2]);
            out.printf(Locale.ROOT, "  compare side by side: run shared/anchors/physics-peers (Jolt, Bullet) in the same sitting."
                    + " Goal: <= 0.8x Jolt's CPU time per step, penetration <= 1.5 mm%n");
        }
        out.flush();
        return 0;
    }
}
