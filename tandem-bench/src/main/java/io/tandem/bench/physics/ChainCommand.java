package io.tandem.bench.physics;

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
 * {@code tandem bench chain}: the 50-link ball-joint chain of the reference measurements
 * (shared/specs/physics.md 2.2): time per step and the largest joint separation during the run.
 * Each run is done twice from the same start: once timed (stepping only), once sampling the joint
 * error every step; the engine is deterministic, so both follow the same trajectory.
 */
@Command(name = "chain", mixinStandardHelpOptions = true,
        description = "Time per step and joint error of a pinned chain of box links with ball joints.")
public final class ChainCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--links", defaultValue = "50", description = "Links (default: ${DEFAULT-VALUE}).")
    int links;

    @Option(names = "--subsystems", defaultValue = "chain",
            description = "SubADMM subsystems: 'chain' (all links in one subsystem, joints solved exactly inside it)"
                    + " or 'link' (one per link, every joint split); the baselines ignore it (default: ${DEFAULT-VALUE}).")
    String subsystems;

    @Option(names = "--runs", defaultValue = "3", description = "Timed runs after the warm-up (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup-steps", defaultValue = "20000",
            description = "Steps run untimed first, from fresh starts of the run's length, so that the JIT has compiled the"
                    + " step (the native peers need none; a 50-link step is still being compiled after 3000 steps)"
                    + " (default: ${DEFAULT-VALUE}).")
    int warmupSteps;

    @Mixin
    SolverOptions options;

    @Override
    public Integer call() {
        if (links < 1 || options.steps < 1 || runs < 1 || warmupSteps < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "links, steps and runs must be >= 1 and --warmup-steps >= 0");
        }
        SolverSettings settings = options.settings();
        int steps = options.steps;
        boolean json = options.json;
        int threads = options.threads();
        SolverKind solver = options.solver();
        if (!subsystems.equals("chain") && !subsystems.equals("link")) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--subsystems must be 'chain' or 'link', got '" + subsystems + "'");
        }
        PhysicsModel model = PhysicsScenes.chain(links, 1.0 / 240, settings, subsystems.equals("chain"));
        PrintWriter out = spec.commandLine().getOut();
        double[] wallUs = new double[runs];
        double[] cpuUs = new double[runs];
        double error = 0;
        double meanIterations = 0;
        try (PhysicsEngine engine = new PhysicsEngine(model)) {
            // warm-up: whole runs from the start (the same states the timed runs see)
            for (int done = 0; done < warmupSteps; done += steps) {
                StepTiming.measure(engine, model.newState(), Math.min(steps, warmupSteps - done));
            }
            for (int r = 0; r < runs; r++) {
                StepTiming t = StepTiming.measure(engine, model.newState(), steps);
                wallUs[r] = t.wallMsPerStep() * 1e3;
                meanIterations = t.meanIterations();
                cpuUs[r] = t.cpuMsPerStep() * 1e3;
                if (r == 0) {
                    error = measureError(engine, model);
                }
                if (json) {
                    out.printf(Locale.ROOT, "{\"scenario\":\"chain\",\"solver\":\"%s\",\"subsystems\":\"%s\",\"budget\":\"%s\",\"mean_iterations\":%.2f,\"threads\":%d,"
                                    + "\"links\":%d,\"steps\":%d,\"us_per_step\":%.2f,\"cpu_us_per_step\":%.2f,"
                                    + "\"max_joint_error_m\":%.6g,\"run\":%d}%n",
                            solver.name().toLowerCase(Locale.ROOT), subsystems, options.budget(), t.meanIterations(), threads, links,
                            steps, wallUs[r],
                            cpuUs[r], error, r + 1);
                }
            }
        }
        if (!json) {
            double[] sorted = cpuUs.clone();
            Arrays.sort(sorted);
            out.printf(Locale.ROOT, "chain: %d links, %d steps of 1/240 s, %s (budget: %s, %.1f iterations/step), %d thread(s),"
                    + " subsystems: %s, after %d warm-up steps%n", links, steps, solver, options.budget(), meanIterations, threads,
                    subsystems, warmupSteps);
            out.printf(Locale.ROOT, "  CPU time per step: median %.1f us (runs: %s)%n", sorted[runs / 2], round(cpuUs));
            out.printf(Locale.ROOT, "  max joint error during the run: %.3g mm%n", error * 1e3);
            out.printf(Locale.ROOT, "  compare side by side: run shared/anchors/physics-peers (Jolt, Bullet) in the same sitting."
                    + " Goal: joint error <= 1 mm at <= 1.5x Jolt's time per step%n");
        }
        out.flush();
        return 0;
    }

    private double measureError(PhysicsEngine engine, PhysicsModel model) {
        PhysicsState s = model.newState();
        double[] scratch = new double[6];
        double worst = 0;
        for (int k = 0; k < options.steps; k++) {
            engine.step(s);
            worst = Math.max(worst, PhysicsScenes.chainJointError(model, s, scratch));
        }
        return worst;
    }

    private static String round(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double x : v) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", x));
        }
        return b.toString();
    }
}
