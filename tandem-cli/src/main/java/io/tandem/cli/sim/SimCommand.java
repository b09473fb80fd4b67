package io.tandem.cli.sim;

import io.tandem.physics.SolverKind;
import io.tandem.physics.SolverSettings;
import io.tandem.world.PoseRecorder;
import io.tandem.world.SdfLoader;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import io.tandem.world.WorldRunner;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tandem sim WORLD.sdf}: runs a world standalone, as fast as it can or paced with
 * {@code --rtf}, prints a progress line and a summary. The record is written to a temporary file
 * beside the target and moved into place when the run ends, so a failed run leaves no half
 * written record. Runs on the calling thread.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = {"Runs an SDF world: levels, physics, pose recording.",
            "Example: tandem sim world.sdf --levels --iterations 5000 --record poses.csv"})
public final class SimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WORLD", description = "The SDF world file.")
    Path world;

    @Option(names = "--iterations", description = "Stop after N iterations (default: ${DEFAULT-VALUE}).", defaultValue = "1000")
    long iterations;

    @Option(names = "--rtf", description = "Pace to X times real time; 0 (the default) runs as fast as it can.",
            defaultValue = "0")
    double rtf;

    @Option(names = "--levels", description = "Turn levels on (load and unload levels around performers).")
    boolean useLevels;

    @Option(names = "--record", paramLabel = "FILE", description = "Write every model's pose each iteration, and level"
            + " events, to FILE (.csv or .jsonl).")
    Path record;

    @Option(names = "--solver", description = "SUB_ADMM, PGS or PROJECTED_JACOBI (default: ${DEFAULT-VALUE}).",
            defaultValue = "SUB_ADMM")
    SolverKind solver;

    @Option(names = "--solver-iterations", description = "Solver iterations per step (default: ${DEFAULT-VALUE}).",
            defaultValue = "10")
    int solverIterations;

    @Option(names = "--threads", description = "Solver threads (default: ${DEFAULT-VALUE}).", defaultValue = "1")
    int threads;

    @Option(names = "--seed", description = "Random seed (default: ${DEFAULT-VALUE}); the physics is deterministic, the"
            + " seed is reported for the record.", defaultValue = "0")
    long seed;

    @Override
    public Integer call() throws IOException {
        if (iterations < 1) {
            throw new ParameterException(spec.commandLine(), "--iterations must be >= 1, got " + iterations);
        }
        if (!(rtf >= 0) || Double.isInfinite(rtf)) {
            throw new ParameterException(spec.commandLine(), "--rtf must be a finite number >= 0, got " + rtf);
        }
        if (threads < 1 || solverIterations < 1) {
            throw new ParameterException(spec.commandLine(), "--threads and --solver-iterations must be >= 1");
        }
        PoseRecorder.Format format = null;
        if (record != null) {
            try {
                format = PoseRecorder.formatOf(record.getFileName().toString());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        World w;
        try {
            w = SdfLoader.load(world, warning -> err.println("warning: " + warning));
        } catch (WorldFormatException e) {
            err.println("tandem sim: " + e.getMessage());
            return 1;
        }
        SolverSettings kind = switch (solver) {
            case SUB_ADMM -> SolverSettings.subAdmm(solverIterations);
            case PGS -> SolverSettings.pgs(solverIterations);
            case PROJECTED_JACOBI -> SolverSettings.projectedJacobi(solverIterations);
        };
        SolverSettings settings = kind.withThreads(threads);
        Path tmp = record == null ? null : Files.createTempFile(record.toAbsolutePath().getParent(), ".tandem-record", ".tmp");
        boolean done = false;
        try (Writer recordOut = tmp == null ? Writer.nullWriter() : new BufferedWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8), 1 << 16);
             WorldRunner runner = new WorldRunner(w, settings, useLevels)) {
            if (tmp != null) {
                runner.addListener(new PoseRecorder(recordOut, format));
            }
            int[] levelEvents = new int[1];
            runner.addListener((r, it, c) -> {
                for (String l : c.loadedLevels()) {
                    err.println("Loaded level [" + l + "] at iteration " + it);
                    levelEvents[0]++;
                }
                for (String l : c.unloadedLevels()) {
                    err.println("Unloaded level [" + l + "] at iteration " + it);
                    levelEvents[0]++;
                }
            });
            long start = System.nanoTime();
            long lastProgress = start;
            double stepS = w.stepSizeNs() / 1e9;
            for (long i = 0; i < iterations; i++) {
                runner.step();
                long now = System.nanoTime();
                if (rtf > 0) {
                    // pace: simulated time / rtf must not run ahead of wall time
                    long due = start + (long) (runner.simTimeNs() / rtf);
                    while ((now = System.nanoTime()) < due) {
                        LockSupport.parkNanos(due - now);
                    }
                }
                if (now - lastProgress > 1_000_000_000L) {
                    lastProgress = now;
                    err.printf(Locale.ROOT, "iteration %d / %d, sim time %.3f s, real-time factor %.2f, %d models loaded%n",
                            runner.iteration(), iterations, runner.simTimeNs() / 1e9,
                            runner.simTimeNs() / (double) (now - start), runner.loadedModels().size());
                }
            }
            double wallS = (System.nanoTime() - start) / 1e9;
            out.printf(Locale.ROOT, "world %s: %d iterations of %.4g s, sim time %.3f s in %.3f s wall, real-time factor %.2f,"
                            + " %d level loads/unloads, %d models loaded at the end, seed %d%n",
                    w.name(), runner.iteration(), stepS, runner.simTimeNs() / 1e9, wallS,
                    runner.simTimeNs() / 1e9 / wallS, levelEvents[0], runner.loadedModels().size(), seed);
            done = true;
        } finally {
            if (tmp != null) {
                if (done) {
                    Files.move(tmp, record, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } else {
                    Files.deleteIfExists(tmp);
                }
            }
        }
        if (record != null) {
            out.println("record: " + record);
        }
        return 0;
    }
}
