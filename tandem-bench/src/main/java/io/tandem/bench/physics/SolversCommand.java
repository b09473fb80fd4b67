package io.tandem.bench.physics;

import io.tandem.bench.internal.ProgressBar;
import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverKind;
import io.tandem.physics.SolverSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tandem bench solvers}: the shape of Table I of the SubADMM paper for the solvers that
 * exist: per solver and iteration budget, the average solver time per step (AT, ms) and the
 * average constraint error (AA; see {@link PhysicsEngine#lastConstraintError()}).
 */
@Command(name = "solvers", mixinStandardHelpOptions = true,
        description = "Average solver time (AT) and constraint error (AA) per solver and iteration budget.")
public final class SolversCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", defaultValue = "stir", description = "stir (the Panda stirring spheres, the paper's),"
            + " stir-rod (a kinematic rod stirring spheres, the earlier scene) or pile (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--iterations", split = ",", defaultValue = "30,60,90", description = "Budgets (default: ${DEFAULT-VALUE}).")
    List<Integer> iterations;

    @Option(names = "--solvers", split = ",", defaultValue = "PGS,PROJECTED_JACOBI,SUB_ADMM",
            description = "Solvers (default: ${DEFAULT-VALUE}); also the Table I baselines FULL_ADMM and NONSMOOTH_NEWTON,"
                    + " whose budget counts Newton steps (Table I: 3,6,9; run it with its own --iterations).")
    List<SolverKind> solvers;

    @Option(names = "--spheres", description = "Spheres in the stir scene (default: 400 for stir, 1000 for stir-rod).")
    Integer spheres;

    @Option(names = "--steps", description = "Steps (default: 500 of 2 ms for stir, 240 of 1/240 s for stir-rod and pile).")
    Integer steps;

    @Option(names = "--seeds", split = ",", defaultValue = "1", description = "Seeds of the stir scene's jitter; AT and AA"
            + " are averaged over them (default: ${DEFAULT-VALUE}).")
    List<Long> seeds;

    @Option(names = "--discard", paramLabel = "SECONDS", defaultValue = "0", description = "Simulated seconds at the start"
            + " left out of AT and AA (default: ${DEFAULT-VALUE}).")
    double discardS;

    @Option(names = "--recipe", description = "shared/specs/physics-wave2.md 9.1's runs: 10 s each (stir: 5000 steps),"
            + " the first 0.5 s discarded, seeds 1, 2 and 3 (overrides --steps, --discard and --seeds).")
    boolean recipe;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Also draw Table I's bars (AT and AA per solver and"
            + " budget) into this PNG file.")
    Path plot;

    @Option(names = "--csv", description = "Also write the table as CSV to this file.")
    Path csv;

    @Option(names = "--json", description = "One JSON object per (scenario, solver, iterations) with at_ms and aa.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        if (!scenario.equals("stir") && !scenario.equals("stir-rod") && !scenario.equals("pile")) {
            throw new ParameterException(spec.commandLine(), "unknown scenario '" + scenario + "': use stir, stir-rod or pile");
        }
        if (plot != null) {
            try {
                io.tandem.cli.plot.Figures.requirePng(plot);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        boolean panda = scenario.equals("stir");
        int spheres = this.spheres != null ? this.spheres : panda ? 400 : 1000;
        double h = panda ? PandaStir.STEP_S : 1.0 / 240;
        int steps = this.steps != null ? this.steps : panda ? 500 : 240;
        if (recipe) {
            steps = (int) Math.round(10.0 / h);
            discardS = 0.5;
            seeds = List.of(1L, 2L, 3L);
        }
        if (!(discardS >= 0)) {
            throw new ParameterException(spec.commandLine(), "--discard must be >= 0 seconds, got " + discardS);
        }
        int discard = (int) Math.round(discardS / h);
        if (discard >= steps) {
            throw new ParameterException(spec.commandLine(), "--discard " + discardS + " s leaves none of the " + steps
                    + " steps to measure: discard less or run more --steps");
        }
        if (!panda && (seeds.size() != 1 || seeds.get(0) != 1L)) {
            throw new ParameterException(spec.commandLine(), "--seeds applies to the stir scene only");
        }
        PrintWriter out = spec.commandLine().getOut();
        double[][] at = new double[solvers.size()][iterations.size()];
        double[][] aa = new double[solvers.size()][iterations.size()];
        double[][] tracking = new double[solvers.size()][iterations.size()];
        ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), "solvers",
                (long) solvers.size() * iterations.size() * seeds.size() * steps, !json);
        long doneSteps = 0;
        int measured = steps - discard;
        for (int si = 0; si < solvers.size(); si++) {
            for (int ii = 0; ii < iterations.size(); ii++) {
                SolverSettings st = new SolverSettings(solvers.get(si), iterations.get(ii), SolverSettings.DEFAULT_KAPPA, 0, 1);
                long solveNs = 0;
                double err = 0;
                double tip = 0;
                for (long seed : seeds) {
                    PandaStir stir = panda ? PandaStir.build(spheres, st, seed) : null;
                    PhysicsModel m = panda ? stir.model() : scenario.equals("stir-rod") ? PhysicsScenes.stir(spheres, h, st)
                            : PhysicsScenes.pile(10, h, st);
                    PhysicsState s = panda ? stir.state() : m.newState();
                    try (PhysicsEngine e = new PhysicsEngine(m, System::nanoTime)) {
                        for (int k = 0; k < steps; k++) {
                            if (panda) {
                                stir.control();
                            }
                            e.step(s);
                            if (k >= discard) {
                                solveNs += e.lastSolveNanos();
                                err += e.lastConstraintError();
                            }
                            bar.update(++doneSteps);
                        }
                    }
                    if (panda) {
                        tip = Math.max(tip, stir.trackingError());
                        stir.close();
                    }
                }
                at[si][ii] = solveNs / 1e6 / ((double) measured * seeds.size());
                aa[si][ii] = err / ((double) measured * seeds.size());
                tracking[si][ii] = tip;
                if (json) {
                    out.printf(Locale.ROOT, "{\"scenario\":\"%s\",\"solver\":\"%s\",\"iterations\":%d,\"spheres\":%d,\"steps\":%d,"
                                    + "\"discarded_steps\":%d,\"seeds\":%s,\"step_s\":%.6g,\"at_ms\":%.4f,\"aa\":%.6g%s}%n", scenario,
                            solvers.get(si).name().toLowerCase(Locale.ROOT), iterations.get(ii), scenario.equals("pile") ? 0 : spheres,
                            steps, discard, seeds.toString().replace(" ", ""), h, at[si][ii], aa[si][ii],
                            panda ? String.format(Locale.ROOT, ",\"tip_error_m\":%.5f", tracking[si][ii]) : "");
                    out.flush();
                }
            }
        }
        bar.done();
        StringBuilder md = new StringBuilder();
        StringBuilder csvText = new StringBuilder("scenario,solver,iterations,at_ms,aa\n");
        md.append("| Solver |");
        for (SolverKind k : solvers) {
            md.append(' ').append(k).append(" |");
        }
        md.append("\n|---|");
        md.append("---|".repeat(solvers.size()));
        md.append("\n| Iterations |");
        for (int si = 0; si < solvers.size(); si++) {
            md.append(' ').append(join(iterations)).append(" |");
        }
        for (String metric : new String[] {"AT (ms)", "AA"}) {
            md.append("\n| ").append(scenario).append(": ").append(metric).append(" |");
            for (int si = 0; si < solvers.size(); si++) {
                md.append(' ');
                for (int ii = 0; ii < iterations.size(); ii++) {
                    double v = metric.startsWith("AT") ? at[si][ii] : aa[si][ii];
                    md.append(ii == 0 ? "" : " / ").append(String.format(Locale.ROOT, metric.startsWith("AT") ? "%.2f" : "%.2e", v));
                }
                md.append(" |");
            }
        }
        for (int si = 0; si < solvers.size(); si++) {
            for (int ii = 0; ii < iterations.size(); ii++) {
                csvText.append(String.format(Locale.ROOT, "%s,%s,%d,%.4f,%.6g%n", scenario,
                        solvers.get(si).name().toLowerCase(Locale.ROOT), iterations.get(ii), at[si][ii], aa[si][ii]));
            }
        }
        if (!json) {
            out.println(md);
            out.printf(Locale.ROOT, "%n%s, %d steps of %s (the first %d left out), seeds %s, 1 thread; AT = solver time per"
                    + " step, AA = mean constraint error (|Jv+e| hard, Fischer-Burmeister + Coulomb residual contacts)%n",
                    panda ? "stir (the Panda) with " + spheres + " spheres" : scenario.equals("stir-rod") ? "stir-rod with "
                            + spheres + " spheres" : "pile", steps, panda ? "2 ms" : "1/240 s", discard, seeds);
        }
        if (csv != null) {
            Files.writeString(csv, csvText, StandardCharsets.UTF_8);
        }
        if (plot != null) {
            List<String> names = new java.util.ArrayList<>();
            for (SolverKind k : solvers) {
                names.add(k.name().toLowerCase(Locale.ROOT));
            }
            io.tandem.cli.plot.Figures.solvers(plot, scenario + (panda ? " (" + spheres + " spheres)" : ""), names, iterations,
                    at, aa);
            if (!json) {
                out.println("figure: " + plot);
            }
        }
        out.flush();
        return 0;
    }

    private static String join(List<Integer> v) {
        StringBuilder b = new StringBuilder();
        for (int x : v) {
            b.append(b.length() == 0 ? "" : " / ").append(x);
        }
        return b.toString();
    }
}
