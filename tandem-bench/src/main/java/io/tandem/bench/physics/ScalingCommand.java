package io.tandem.bench.physics;

import io.tandem.bench.internal.ProgressBar;
import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tandem bench scaling}: time per step of a scene against its size (spheres of the stir
 * scenes, segments of the cable scenes), with a least-squares line t = a + b N and its R^2. Single
 * runs after a short warm-up per size.
 */
@Command(name = "scaling", mixinStandardHelpOptions = true,
        description = "Time per step vs. sphere or segment count, with a linear fit and R^2.")
public final class ScalingCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", defaultValue = "stir", description = "stir (the Panda stirring spheres, 2 ms steps),"
            + " stir-rod (a kinematic rod, 1/240 s steps), cable (two mobile manipulators carrying a 2 m cable cut into N"
            + " segments) or cable-drag (a cable of N 5 cm segments dragged over the ground) (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--sizes", split = ",", description = "Sphere or segment counts (default: 100,200,400,800 for stir,"
            + " 1000,2000,4000,6000,8000,10000 for stir-rod, 20,40,80,120 for cable, 125,250,500,750,1000 for cable-drag).")
    List<Integer> sizes;

    private static final List<String> SCENARIOS = List.of("stir", "stir-rod", "cable", "cable-drag");

    /** A scene at its start: the model, its state and what runs before each step. */
    private record Scene(PhysicsModel model, PhysicsState state, Runnable control, Runnable close) {
    }

    private Scene scene(int n) {
        switch (scenario) {
            case "stir" -> {
                PandaStir s = PandaStir.build(n, options.settings());
                return new Scene(s.model(), s.state(), s::control, s::close);
            }
            case "cable" -> {
                CableCarry c = CableCarry.build(n, options.settings());
                return new Scene(c.model(), c.state(), c::control, c::close);
            }
            case "cable-drag" -> {
                PhysicsModel m = PhysicsScenes.cableDrag(n, options.settings());
                return new Scene(m, m.newState(), () -> { }, () -> { });
            }
            default -> {
                PhysicsModel m = PhysicsScenes.stir(n, 1.0 / 240, options.settings());
                return new Scene(m, m.newState(), () -> { }, () -> { });
            }
        }
    }

    @Mixin
    SolverOptions options;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Also draw the points and the fitted line into this PNG file.")
    java.nio.file.Path plot;

    @Override
    public Integer call() {
        if (!SCENARIOS.contains(scenario)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "unknown scenario '" + scenario + "': use "
                    + String.join(", ", SCENARIOS));
        }
        if (plot != null) {
            try {
                io.tandem.cli.plot.Figures.requirePng(plot);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        if (sizes == null) {
            sizes = switch (scenario) {
                case "stir" -> List.of(100, 200, 400, 800);
                case "cable" -> List.of(20, 40, 80, 120);
                case "cable-drag" -> List.of(125, 250, 500, 750, 1000);
                default -> List.of(1000, 2000, 4000, 6000, 8000, 10000);
            };
        }
        boolean segments = scenario.startsWith("cable");
        PrintWriter out = spec.commandLine().getOut();
        int steps = options.steps == 1000 ? 120 : options.steps;
        double[] n = new double[sizes.size()];
        double[] t = new double[sizes.size()];
        // one warm-up for the JIT before any size is timed (else the first size pays for it)
        Scene warm = scene(sizes.get(0));
        try (PhysicsEngine e = new PhysicsEngine(warm.model())) {
            for (int k = 0; k < 150; k++) {
                warm.control().run();
                e.step(warm.state());
            }
        }
        warm.close().run();
        ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), "scaling", sizes.size(), !options.json);
        for (int i = 0; i < sizes.size(); i++) {
            bar.update(i);
            Scene sc = scene(sizes.get(i));
            PhysicsState s = sc.state();
            try (PhysicsEngine e = new PhysicsEngine(sc.model())) {
                for (int k = 0; k < 20; k++) {
                    sc.control().run();
                    e.step(s);
                }
                StepTiming timing = StepTiming.measure(e, s, steps, sc.control());
                double wallMs = timing.wallMsPerStep();
                double cpuMs = timing.cpuMsPerStep();
                n[i] = sizes.get(i);
                t[i] = options.threads() > 1 ? wallMs : cpuMs;
                if (options.json) {
                    out.printf(Locale.ROOT, "{\"scenario\":\"" + scenario + "\",\"solver\":\"%s\",\"budget\":\"%s\",\"mean_iterations\":%.2f,\"threads\":%d,\"" + (segments ? "segments" : "spheres") + "\":%d,"
                                    + "\"steps\":%d,\"ms_per_step\":%.3f,\"cpu_ms_per_step\":%.3f,\"wall_ms_per_step\":%.3f}%n",
                            options.solver().name().toLowerCase(Locale.ROOT), options.budget(), timing.meanIterations(),
                            options.threads(), sizes.get(i),
                            steps, t[i], cpuMs, wallMs);
                } else {
                    bar.done();
                    out.printf(Locale.ROOT, "N = %6d %s: %.2f ms/step (%s), %d contacts%n", sizes.get(i), segments ? "segments" : "spheres", t[i],
                            options.threads() > 1 ? "wall" : "CPU", e.contactCount());
                }
                out.flush();
            }
            sc.close().run();
        }
        // least squares t = a + b N
        int k = n.length;
        double mn = 0;
        double mt = 0;
        for (int i = 0; i < k; i++) {
            mn += n[i] / k;
            mt += t[i] / k;
        }
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < k; i++) {
            sxy += (n[i] - mn) * (t[i] - mt);
            sxx += (n[i] - mn) * (n[i] - mn);
            syy += (t[i] - mt) * (t[i] - mt);
        }
        double b = sxx > 0 ? sxy / sxx : 0;
        double a = mt - b * mn;
        double r2 = sxx > 0 && syy > 0 ? sxy * sxy / (sxx * syy) : 1;
        if (plot != null) {
            try {
                io.tandem.cli.plot.Figures.scaling(plot, "bench scaling, " + scenario, n, t, a, b, r2);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot write " + plot + ": " + e.getMessage(), e);
            }
        }
        if (options.json) {
            out.printf(Locale.ROOT, "{\"scenario\":\"" + scenario + "\",\"fit\":\"linear\",\"intercept_ms\":%.4f,\"us_per_" + (segments ? "segment" : "sphere") + "\":%.4f,\"r2\":%.5f}%n",
                    a, b * 1e3, r2);
        } else {
            out.printf(Locale.ROOT, "fit: t = %.3f ms + %.3f us x N, R^2 = %.4f (goal: R^2 >= 0.99)%n", a, b * 1e3, r2);
        }
        out.flush();
        return 0;
    }
}
