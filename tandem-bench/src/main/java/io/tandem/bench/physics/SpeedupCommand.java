package io.tandem.bench.physics;

import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
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
 * {@code tandem bench speedup}: wall time per step of the stir-rod scene on 1 thread and on N threads,
 * stepped in alternating blocks of a few steps, so that the drifting load of a shared machine
 * falls on both alike (timed one after the other, the 1-thread time alone moved by 25 % between
 * runs on the 2-core development machine). The step is bitwise the same for any thread count, so
 * both engines follow the same trajectory; the command checks that their final states are equal.
 */
@Command(name = "speedup", mixinStandardHelpOptions = true,
        description = "Wall time per step of the stir-rod scene (spheres stirred by a kinematic rod) on 1 thread against --threads N (2 if not given), interleaved,"
                + " and their ratio.")
public final class SpeedupCommand implements Callable<Integer> {
    /** steps per alternating block */
    static final int BLOCK = 10;

    @Spec
    private CommandSpec spec;

    @Option(names = "--spheres", defaultValue = "10000", description = "Spheres in the stir scene (default: ${DEFAULT-VALUE}).")
    int spheres;

    @Option(names = "--warmup-steps", defaultValue = "30",
            description = "Untimed steps of each engine first (default: ${DEFAULT-VALUE}).")
    int warmupSteps;

    @Mixin
    SolverOptions options;

    @Override
    public Integer call() {
        // --threads keeps its shared default of 1 elsewhere: here 1 is the baseline, so 1 means 2
        int threads = Math.max(2, options.threads());
        // --steps keeps its shared default of 1000 elsewhere; a 10^4-sphere step is 100 times a pile's
        int steps = options.steps == 1000 ? 200 : options.steps;
        if (spheres < 1 || steps < 1 || warmupSteps < 0 || options.threads() < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--spheres, --steps and --threads must be >= 1 and --warmup-steps >= 0");
        }
        SolverSettings parallel = options.settings().withThreads(threads);
        PhysicsModel one = PhysicsScenes.stir(spheres, 1.0 / 240, parallel.withThreads(1));
        PhysicsModel many = PhysicsScenes.stir(spheres, 1.0 / 240, parallel);
        PhysicsState s1 = one.newState();
        PhysicsState sn = many.newState();
        long wall1 = 0;
        long wallN = 0;
        long iterations = 0;
        try (PhysicsEngine e1 = new PhysicsEngine(one); PhysicsEngine en = new PhysicsEngine(many)) {
            for (int k = 0; k < warmupSteps; k++) {
                e1.step(s1);
                en.step(sn);
            }
            for (int done = 0; done < steps; done += BLOCK) {
                int block = Math.min(BLOCK, steps - done);
                StepTiming a = StepTiming.measure(e1, s1, block);
                StepTiming b = StepTiming.measure(en, sn, block);
                wall1 += a.wallNs();
                wallN += b.wallNs();
                iterations += a.iterations();
            }
        }
        boolean same = Arrays.equals(s1.pos, sn.pos) && Arrays.equals(s1.quat, sn.quat)
                && Arrays.equals(s1.linVel, sn.linVel) && Arrays.equals(s1.angVel, sn.angVel);
        double ms1 = wall1 / 1e6 / steps;
        double msN = wallN / 1e6 / steps;
        PrintWriter out = spec.commandLine().getOut();
        if (options.json) {
            out.printf(Locale.ROOT, "{\"scenario\":\"stir-rod\",\"solver\":\"%s\",\"budget\":\"%s\",\"mean_iterations\":%.2f,\"spheres\":%d,"
                            + "\"steps\":%d,\"threads\":%d,\"wall_ms_per_step_1\":%.3f,\"wall_ms_per_step_n\":%.3f,\"speedup\":%.3f,"
                            + "\"bitwise_equal\":%b,\"cores\":%d}%n",
                    options.solver().name().toLowerCase(Locale.ROOT), options.budget(), (double) iterations / steps, spheres, steps,
                    threads, ms1, msN, ms1 / msN, same, Runtime.getRuntime().availableProcessors());
        } else {
            out.printf(Locale.ROOT, "stir, %d spheres, %d steps in alternating blocks of %d, %s (budget: %s, %.1f iterations/step)%n",
                    spheres, steps, BLOCK, options.solver(), options.budget(), (double) iterations / steps);
            out.printf(Locale.ROOT, "  1 thread:  %.2f ms/step (wall)%n", ms1);
            out.printf(Locale.ROOT, "  %d threads: %.2f ms/step (wall), speed-up %.2fx on %d cores%n", threads, msN, ms1 / msN,
                    Runtime.getRuntime().availableProcessors());
            out.printf(Locale.ROOT, "  final states bitwise equal: %s%n", same ? "yes" : "NO");
            out.printf(Locale.ROOT, "  goals: >= 1.8x on 2 cores, >= 10x on 16%n");
        }
        out.flush();
        return same ? 0 : 1;
    }
}
