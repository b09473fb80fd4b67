package io.tandem.bench.physics;

import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import io.tandem.world.urdf.UrdfLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tandem bench robot}: microseconds per step of robots in joint coordinates, single
 * thread, h = 2 ms (issue 17): the Panda alone holding its home pose under its joint-space PD (no
 * contacts, the scene MuJoCo's anchor figure is for), the stir scene with 400 spheres, and the
 * mobile manipulator (Husky-like base carrying the Panda, 10 joint coordinates) driving a circle
 * at 1 m/s and 0.5 rad/s with its arm held. {@code --mjcf FILE} writes the held Panda as MuJoCo
 * MJCF for {@code mujoco-testspeed}, the side-by-side comparison (see the README).
 */
@Command(name = "robot", mixinStandardHelpOptions = true,
        description = "Microseconds per step of robots in joint coordinates: the Panda holding a pose, the stir scene,"
                + " a mobile manipulator driving.")
public final class RobotCommand implements Callable<Integer> {
    private static final List<String> SCENARIOS = List.of("panda", "stir", "mobile");

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", split = ",", description = "Any of panda, stir, mobile (default: all three).")
    List<String> scenarios;

    @Option(names = "--spheres", defaultValue = "400", description = "Spheres in the stir scene (default: ${DEFAULT-VALUE}).")
    int spheres;

    @Option(names = "--repeats", defaultValue = "5", description = "Timed runs of --steps each; the median is reported"
            + " (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--mjcf", paramLabel = "FILE", description = "Write the held Panda as MuJoCo MJCF to FILE and stop.")
    Path mjcf;

    @Mixin
    SolverOptions options;

    /** A scene at its start: the model, its state and what runs before each step. */
    private record Scene(PhysicsModel model, PhysicsState state, Runnable control, Runnable close, int dofs, int bodies,
                         java.util.function.Supplier<String> check) {
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (mjcf != null) {
            writeMjcf(mjcf);
            out.println("wrote " + mjcf + ": run it with mujoco-testspeed " + mjcf + " 20000 1 0");
            out.flush();
            return 0;
        }
        List<String> chosen = scenarios == null ? SCENARIOS : scenarios;
        for (String s : chosen) {
            if (!SCENARIOS.contains(s)) {
                throw new ParameterException(spec.commandLine(), "unknown scenario '" + s + "': choose from " + SCENARIOS);
            }
        }
        if (repeats < 1) {
            throw new ParameterException(spec.commandLine(), "--repeats must be >= 1, got " + repeats);
        }
        if (spheres < 1) {
            throw new ParameterException(spec.commandLine(), "--spheres must be >= 1, got " + spheres);
        }
        for (String s : chosen) {
            int steps = options.steps == 1000 ? (s.equals("stir") ? 500 : 20000) : options.steps;
            Scene sc = scene(s);
            double[] us = new double[repeats];
            double[] wallUs = new double[repeats];
            try (PhysicsEngine e = new PhysicsEngine(sc.model())) {
                // warm-up for the JIT: as many steps as one timed run, at least 2000
                for (int k = 0; k < Math.max(2000, s.equals("stir") ? 300 : steps); k++) {
                    sc.control().run();
                    e.step(sc.state());
                }
                for (int r = 0; r < repeats; r++) {
                    StepTiming t = StepTiming.measure(e, sc.state(), steps, sc.control());
                    us[r] = (options.threads() > 1 ? t.wallMsPerStep() : t.cpuMsPerStep()) * 1e3;
                    wallUs[r] = t.wallMsPerStep() * 1e3;
                }
                java.util.Arrays.sort(wallUs);
                double[] sorted = us.clone();
                java.util.Arrays.sort(sorted);
                double median = sorted[repeats / 2];
                if (options.json) {
                    out.printf(Locale.ROOT, "{\"bench\":\"robot\",\"scenario\":\"%s\",\"solver\":\"%s\",\"budget\":\"%s\",\"threads\":%d,"
                                    + "\"dofs\":%d,\"bodies\":%d,\"step_s\":%s,\"steps\":%d,\"repeats\":%d,\"us_per_step\":%.3f,"
                                    + "\"us_per_step_min\":%.3f,\"us_per_step_max\":%.3f,\"wall_us_per_step\":%.3f,\"contacts\":%d,%s}%n",
                            s, options.solver().name().toLowerCase(Locale.ROOT), options.budget(), options.threads(), sc.dofs(),
                            sc.bodies(), PandaStir.STEP_S, steps, repeats, median, sorted[0], sorted[repeats - 1], wallUs[repeats / 2],
                            e.contactCount(),
                            sc.check().get());
                } else {
                    out.printf(Locale.ROOT, "%-7s %2d dofs, %4d bodies: %9.2f us/step (%s, median of %d x %d steps; min %.2f,"
                                    + " max %.2f), %d contacts; %s%n", s, sc.dofs(), sc.bodies(), median,
                            options.threads() > 1 ? "wall" : "CPU", repeats, steps, sorted[0], sorted[repeats - 1], e.contactCount(),
                            sc.check().get().replace("\"", ""));
                }
                out.flush();
            } finally {
                sc.close().run();
            }
        }
        return 0;
    }

    private Scene scene(String name) {
        switch (name) {
            case "panda" -> {
                WorldRunner r = new WorldRunner(PandaStir.armAlone(), options.settings(), false);
                PhysicsState st = r.physicsState();
                PhysicsModel m = r.physicsModel();
                PandaStir.hold(m, st);
                int a = m.articulationIndex("panda");
                return new Scene(m, st, () -> { }, r::close, m.dofCount(), m.bodyCount(), () -> {
                    // how far the held pose sagged: the largest joint's distance from home
                    double worst = 0;
                    for (int i = 0; i < 7; i++) {
                        worst = Math.max(worst, Math.abs(st.dofPosition(m.dof(a, i)) - PandaStir.HOME[i]));
                    }
                    return String.format(Locale.ROOT, "\"hold_error_rad\":%.3g", worst);
                });
            }
            case "stir" -> {
                PandaStir s = PandaStir.build(spheres, options.settings());
                return new Scene(s.model(), s.state(), s::control, s::close, s.model().dofCount(), s.model().bodyCount(),
                        () -> String.format(Locale.ROOT, "\"tip_error_m\":%.3g", s.trackingError()));
            }
            default -> {
                World w = load("mobile_manipulator.urdf");
                WorldRunner r = new WorldRunner(w, options.settings(), false);
                PhysicsState st = r.physicsState();
                PhysicsModel m = r.physicsModel();
                String model = w.models().get(0).name();
                for (int i = 0; i < 7; i++) {
                    int h = r.jointHandle(model + "::joint" + (i + 1));
                    r.setJointGains(h, PandaStir.KP[i], PandaStir.KP[i] / 10);
                    r.setJointTarget(h, PandaStir.HOME[i], 0);
                }
                r.setTwist(model, 1.0, 0.5);
                double[] v = new double[3];
                // the twist again before every step, as a cmd_vel stream gives it: the base's velocity
                // targets turn with its heading (what WorldRunner.step does for a planar base)
                return new Scene(m, st, () -> r.setTwist(model, 1.0, 0.5), r::close, m.dofCount(), m.bodyCount(), () -> {
                    // the base's velocity in its own frame: 1 m/s forward, 0.5 rad/s, nothing sideways
                    r.baseVelocity(model, v);
                    return String.format(Locale.ROOT, "\"forward_m_s\":%.4f,\"lateral_m_s\":%.2g,\"yaw_rate_rad_s\":%.4f", v[0], v[1], v[2]);
                });
            }
        }
    }

    private static World load(String file) {
        try (InputStream in = RobotCommand.class.getResourceAsStream("/io/tandem/bench/robots/" + file)) {
            if (in == null) {
                throw new IllegalStateException(file + " is missing from the tandem jar (built from examples/robots)");
            }
            return UrdfLoader.load(in, file, w -> { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeMjcf(Path file) throws IOException {
        World.Model arm = PandaStir.armAlone().models().get(0);
        List<String> joints = new ArrayList<>();
        double[] kd = new double[7];
        for (int i = 0; i < 7; i++) {
            joints.add("joint" + (i + 1));
            kd[i] = PandaStir.KP[i] / 10;
        }
        String xml = MjcfExport.write(arm, joints, PandaStir.HOME, PandaStir.KP, kd, PandaStir.STEP_S);
        Path abs = file.toAbsolutePath();
        Path tmp = Files.createTempFile(abs.getParent(), ".mjcf", ".tmp");
        try {
            Files.writeString(tmp, xml, StandardCharsets.UTF_8);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
