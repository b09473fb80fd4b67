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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.DoubleSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tandem bench solvers}: Table I of the SubADMM paper (seed 002): per scenario, solver and
 * iteration budget, the average solver time per step (AT, ms; collision detection and assembly
 * excluded) and the average constraint error (AA; see {@link PhysicsEngine#lastConstraintError()}).
 * The scenarios are shared/specs/physics-wave2.md 9.2-9.4's stir, cable and beam, plus the earlier
 * stir-rod and pile. Every solver runs every scenario; one that cannot (it diverges, or its solve
 * fails) gets "-" with the reason in a footnote.
 */
@Command(name = "solvers", mixinStandardHelpOptions = true,
        description = "Table I: average solver time (AT) and constraint error (AA) per scenario, solver and iteration budget.")
public final class SolversCommand implements Callable<Integer> {
    static final List<String> SCENARIOS = List.of("stir", "cable", "beam", "stir-rod", "pile");

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", split = ",", defaultValue = "stir", description = "Any of stir (the Panda stirring"
            + " spheres), cable (two mobile manipulators carrying a cable), beam (the Panda inserting an FEM beam), stir-rod"
            + " (a kinematic rod stirring spheres) and pile, comma-separated (default: ${DEFAULT-VALUE}).")
    List<String> scenarios;

    @Option(names = "--iterations", split = ",", defaultValue = "30,60,90", description = "Budgets of the iterative solvers"
            + " (default: ${DEFAULT-VALUE}).")
    List<Integer> iterations;

    @Option(names = "--newton-iterations", split = ",", description = "NONSMOOTH_NEWTON's budgets, one per --iterations"
            + " budget (default: a tenth of each, at least 1: 3, 6, 9 for Table I's 30, 60, 90).")
    List<Integer> newtonIterations;

    @Option(names = "--solvers", split = ",", defaultValue = "PGS,PROJECTED_JACOBI,FULL_ADMM,NONSMOOTH_NEWTON,SUB_ADMM",
            description = "Solvers (default: ${DEFAULT-VALUE}).")
    List<SolverKind> solvers;

    @Option(names = "--threads", defaultValue = "1", description = "Solver threads (default: ${DEFAULT-VALUE}; FULL_ADMM and"
            + " NONSMOOTH_NEWTON run on one).")
    int threads;

    @Option(names = "--spheres", description = "Spheres in the stir scenes (default: 400 for stir, 1000 for stir-rod).")
    Integer spheres;

    @Option(names = "--steps", description = "Steps (default: 500 of 2 ms for stir, cable and beam, 240 of 1/240 s for"
            + " stir-rod and pile).")
    Integer steps;

    @Option(names = "--seeds", split = ",", defaultValue = "1", description = "Seeds of the stir scene's jitter; AT and AA"
            + " are averaged over them (default: ${DEFAULT-VALUE}; cable and beam have no randomness and run once).")
    List<Long> seeds;

    @Option(names = "--discard", paramLabel = "SECONDS", defaultValue = "0", description = "Simulated seconds at the start"
            + " left out of AT and AA (default: ${DEFAULT-VALUE}).")
    double discardS;

    @Option(names = "--recipe", description = "shared/specs/physics-wave2.md 9.1's runs: 10 s each (5000 steps of 2 ms),"
            + " the first 0.5 s discarded, seeds 1, 2 and 3 (overrides --steps, --discard and --seeds).")
    boolean recipe;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Also draw Table I's bars (AT and AA per solver and"
            + " budget) of one scenario into this PNG file.")
    Path plot;

    @Option(names = "--csv", description = "Also write the table as CSV to this file.")
    Path csv;

    @Option(names = "--json", description = "One JSON object per (scenario, solver, iterations) with at_ms and aa.")
    boolean json;

    /** One scene to step: its model, state, per-step control, a tracking figure and its release. */
    private record Scene(PhysicsModel model, PhysicsState state, Runnable control, Runnable close, String trackingName,
                         DoubleSupplier tracking) {
    }

    @Override
    public Integer call() throws IOException {
        for (String s : scenarios) {
            if (!SCENARIOS.contains(s)) {
                throw new ParameterException(spec.commandLine(), "unknown scenario '" + s + "': use any of "
                        + String.join(", ", SCENARIOS));
            }
        }
        if (newtonIterations == null) {
            newtonIterations = new ArrayList<>();
            for (int n : iterations) {
                newtonIterations.add(Math.max(1, n / 10));
            }
        }
        if (newtonIterations.size() != iterations.size()) {
            throw new ParameterException(spec.commandLine(), "--newton-iterations needs one budget per --iterations budget ("
                    + iterations.size() + "), got " + newtonIterations.size());
        }
        if (threads < 1) {
            throw new ParameterException(spec.commandLine(), "--threads must be >= 1, got " + threads);
        }
        if (plot != null) {
            try {
                io.tandem.cli.plot.Figures.requirePng(plot);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            if (scenarios.size() != 1) {
                throw new ParameterException(spec.commandLine(), "--plot draws one scenario's bars: give one --scenario");
            }
        }
        if (!(discardS >= 0)) {
            throw new ParameterException(spec.commandLine(), "--discard must be >= 0 seconds, got " + discardS);
        }
        if (recipe) {
            seeds = List.of(1L, 2L, 3L);
            discardS = 0.5;
        }
        boolean onlyStirSeeded = scenarios.stream().noneMatch(s -> s.equals("stir"));
        if (onlyStirSeeded && (seeds.size() != 1 || seeds.get(0) != 1L) && !recipe) {
            throw new ParameterException(spec.commandLine(), "--seeds applies to the stir scene only");
        }
        PrintWriter out = spec.commandLine().getOut();
        int ns = solvers.size();
        int nb = iterations.size();
        int nsc = scenarios.size();
        double[][][] at = new double[nsc][ns][nb];
        double[][][] aa = new double[nsc][ns][nb];
        String[][][] failed = new String[nsc][ns][nb];
        long total = 0;
        for (String sc : scenarios) {
            total += (long) ns * nb * stepsOf(sc) * (sc.equals("stir") ? seeds.size() : 1);
        }
        ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), "solvers", total, !json);
        long[] done = {0};
        for (int c = 0; c < nsc; c++) {
            String sc = scenarios.get(c);
            int steps = stepsOf(sc);
            double h = stepOf(sc);
            int discard = (int) Math.round(discardS / h);
            if (discard >= steps) {
                throw new ParameterException(spec.commandLine(), "--discard " + discardS + " s leaves none of the " + steps
                        + " steps of " + sc + " to measure: discard less or run more --steps");
            }
            List<Long> runs = sc.equals("stir") ? seeds : List.of(1L);
            int measured = steps - discard;
            for (int si = 0; si < ns; si++) {
                for (int ii = 0; ii < nb; ii++) {
                    SolverKind kind = solvers.get(si);
                    int budget = budget(kind, ii);
                    SolverSettings st = new SolverSettings(kind, budget, SolverSettings.DEFAULT_KAPPA, 0, threads);
                    long solveNs = 0;
                    double err = 0;
                    double track = 0;
                    String trackName = null;
                    for (long seed : runs) {
                        Scene scene = null;
                        try {
                            scene = scene(sc, st, seed);
                            trackName = scene.trackingName();
                            try (PhysicsEngine e = new PhysicsEngine(scene.model(), System::nanoTime)) {
                                for (int k = 0; k < steps; k++) {
                                    scene.control().run();
                                    e.step(scene.state());
                                    if (k >= discard) {
                                        solveNs += e.lastSolveNanos();
                                        err += e.lastConstraintError();
                                    }
                                    bar.update(++done[0]);
                                }
                            }
                            if (scene.tracking() != null) {
                                track = Math.max(track, scene.tracking().getAsDouble());
                            }
                        } catch (RuntimeException e) {
                            failed[c][si][ii] = firstLine(e);
                            break;
                        } finally {
                            if (scene != null) {
                                scene.close().run();
                            }
                        }
                    }
                    at[c][si][ii] = solveNs / 1e6 / ((double) measured * runs.size());
                    aa[c][si][ii] = err / ((double) measured * runs.size());
                    if (json) {
                        String name = kind.name().toLowerCase(Locale.ROOT);
                        if (failed[c][si][ii] != null) {
                            out.printf(Locale.ROOT, "{\"scenario\":\"%s\",\"solver\":\"%s\",\"iterations\":%d,\"steps\":%d,"
                                            + "\"threads\":%d,\"at_ms\":null,\"aa\":null,\"failed\":\"%s\"}%n", sc, name, budget, steps,
                                    threads, jsonText(failed[c][si][ii]));
                        } else {
                            out.printf(Locale.ROOT, "{\"scenario\":\"%s\",\"solver\":\"%s\",\"iterations\":%d,\"spheres\":%d,"
                                            + "\"steps\":%d,\"discarded_steps\":%d,\"seeds\":%s,\"step_s\":%.6g,\"threads\":%d,"
                                            + "\"at_ms\":%.4f,\"aa\":%.6g%s}%n", sc, name, budget, sc.startsWith("stir") ? spheresOf(sc) : 0,
                                    steps, discard, runs.toString().replace(" ", ""), h, threads, at[c][si][ii], aa[c][si][ii],
                                    trackName == null ? "" : String.format(Locale.ROOT, ",\"%s\":%.5f", trackName, track));
                        }
                        out.flush();
                    }
                }
            }
        }
        bar.done();
        List<String> notes = new ArrayList<>();
        String md = markdown(at, aa, failed, notes);
        StringBuilder csvText = new StringBuilder("scenario,solver,iterations,at_ms,aa\n");
        for (int c = 0; c < nsc; c++) {
            for (int si = 0; si < ns; si++) {
                for (int ii = 0; ii < nb; ii++) {
                    boolean f = failed[c][si][ii] != null;
                    csvText.append(String.format(Locale.ROOT, "%s,%s,%d,%s,%s%n", scenarios.get(c),
                            solvers.get(si).name().toLowerCase(Locale.ROOT), budget(solvers.get(si), ii),
                            f ? "-" : String.format(Locale.ROOT, "%.4f", at[c][si][ii]),
                            f ? "-" : String.format(Locale.ROOT, "%.6g", aa[c][si][ii])));
                }
            }
        }
        if (!json) {
            out.println(md);
            for (String n : notes) {
                out.println(n);
            }
            out.printf(Locale.ROOT, "%n%s; %s; %d thread(s); AT = solver time per step, AA = mean constraint error (|Jv+e|"
                    + " hard, Fischer-Burmeister + Coulomb residual contacts)%n", describeRuns(), recipe ? "the recipe (10 s,"
                    + " 0.5 s discarded, seeds 1-3 for stir)" : "first " + discardS + " s left out", threads);
        }
        if (csv != null) {
            Files.writeString(csv, csvText, StandardCharsets.UTF_8);
        }
        if (plot != null) {
            List<String> names = new ArrayList<>();
            for (SolverKind k : solvers) {
                names.add(k.name().toLowerCase(Locale.ROOT));
            }
            io.tandem.cli.plot.Figures.solvers(plot, scenarios.get(0), names, iterations, at[0], aa[0]);
            if (!json) {
                out.println("figure: " + plot);
            }
        }
        out.flush();
        return 0;
    }

    /** The scene of a scenario with these solver settings. */
    private Scene scene(String sc, SolverSettings st, long seed) {
        switch (sc) {
            case "stir" -> {
                PandaStir s = PandaStir.build(spheresOf(sc), st, seed);
                return new Scene(s.model(), s.state(), s::control, s::close, "tip_error_m", s::trackingError);
            }
            case "beam" -> {
                PandaBeam b = PandaBeam.build(st);
                return new Scene(b.model(), b.state(), b::control, b::close, "held_error_m", b::trackingError);
            }
            case "cable" -> {
                CableCarry k = CableCarry.build(st);
                return new Scene(k.model(), k.state(), k::control, k::close, "weld_error_m", k::weldError);
            }
            case "stir-rod" -> {
                PhysicsModel m = PhysicsScenes.stir(spheresOf(sc), 1.0 / 240, st);
                return new Scene(m, m.newState(), () -> { }, () -> { }, null, null);
            }
            default -> {
                PhysicsModel m = PhysicsScenes.pile(10, 1.0 / 240, st);
                return new Scene(m, m.newState(), () -> { }, () -> { }, null, null);
            }
        }
    }

    private int budget(SolverKind kind, int ii) {
        return kind == SolverKind.NONSMOOTH_NEWTON ? newtonIterations.get(ii) : iterations.get(ii);
    }

    private int spheresOf(String sc) {
        return spheres != null ? spheres : sc.equals("stir") ? 400 : 1000;
    }

    private static double stepOf(String sc) {
        return sc.equals("stir-rod") || sc.equals("pile") ? 1.0 / 240 : PandaStir.STEP_S;
    }

    private int stepsOf(String sc) {
        if (recipe) {
            return (int) Math.round(10.0 / stepOf(sc));
        }
        return steps != null ? steps : stepOf(sc) == PandaStir.STEP_S ? 500 : 240;
    }

    /** Table I: a column per solver, rows Iterations and per scenario AT and AA; a failed cell "-" with a footnote. */
    private String markdown(double[][][] at, double[][][] aa, String[][][] failed, List<String> notes) {
        StringBuilder md = new StringBuilder("| Solver |");
        for (SolverKind k : solvers) {
            md.append(' ').append(k).append(" |");
        }
        md.append("\n|---|").append("---|".repeat(solvers.size()));
        md.append("\n| Iterations |");
        for (SolverKind k : solvers) {
            md.append(' ');
            for (int ii = 0; ii < iterations.size(); ii++) {
                md.append(ii == 0 ? "" : " / ").append(budget(k, ii));
            }
            md.append(" |");
        }
        List<String> reasons = new ArrayList<>();
        for (int c = 0; c < scenarios.size(); c++) {
            for (String metric : new String[] {"AT (ms)", "AA"}) {
                md.append("\n| ").append(scenarios.get(c)).append(": ").append(metric).append(" |");
                for (int si = 0; si < solvers.size(); si++) {
                    md.append(' ');
                    for (int ii = 0; ii < iterations.size(); ii++) {
                        md.append(ii == 0 ? "" : " / ");
                        String f = failed[c][si][ii];
                        if (f != null) {
                            int n = reasons.indexOf(f);
                            if (n < 0) {
                                reasons.add(f);
                                n = reasons.size() - 1;
                            }
                            md.append("-[").append(n + 1).append(']');
                        } else {
                            double v = metric.startsWith("AT") ? at[c][si][ii] : aa[c][si][ii];
                            md.append(String.format(Locale.ROOT, metric.startsWith("AT") ? "%.2f" : "%.2e", v));
                        }
                    }
                    md.append(" |");
                }
            }
        }
        for (int n = 0; n < reasons.size(); n++) {
            notes.add("[" + (n + 1) + "] " + reasons.get(n));
        }
        return md.toString();
    }

    private String describeRuns() {
        List<String> parts = new ArrayList<>();
        for (String sc : scenarios) {
            String what = switch (sc) {
                case "stir" -> "stir (the Panda, " + spheresOf(sc) + " spheres, seeds " + seeds + ")";
                case "cable" -> "cable (two mobile manipulators, 40 segments)";
                case "beam" -> "beam (the Panda, a 4-block FEM beam)";
                case "stir-rod" -> "stir-rod (" + spheresOf(sc) + " spheres)";
                default -> "pile";
            };
            parts.add(what + ": " + stepsOf(sc) + " steps of " + (stepOf(sc) == PandaStir.STEP_S ? "2 ms" : "1/240 s"));
        }
        return String.join("; ", parts);
    }

    private static String firstLine(RuntimeException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private static String jsonText(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
