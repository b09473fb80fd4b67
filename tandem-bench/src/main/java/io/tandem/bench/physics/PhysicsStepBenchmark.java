package io.tandem.bench.physics;

import io.tandem.physics.PhysicsEngine;
import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverKind;
import io.tandem.physics.SolverSettings;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/*
 * Implementation notes.
 *
 * One operation is one PhysicsEngine.step of a reference scene (PhysicsScenes). The setup steps
 * the scene past its transient (the pile settles within about 2 s, the chain is mid-swing after
 * 0.5 s), so the measured steps are the scene's steady state: a resting pile of about 2800
 * contact points, a swinging chain. Run with -prof gc to see that a step allocates nothing
 * (gc.alloc.rate.norm about 0 B/op).
 */

/**
 * JMH benchmark of one physics step of the reference scenes (pile: 1000 spheres at rest in a box;
 * chain: 50 ball-jointed links in one subsystem), per solver. Run with
 * {@code ./tandem bench jmh PhysicsStepBenchmark -prof gc}.
 *
 * <p>JMH drives it from one benchmark thread; not for other use.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@Threads(1)
public class PhysicsStepBenchmark {
    private static final double STEP = 1.0 / 240;

    /** The scene: pile or chain. */
    @Param({"pile", "chain"})
    public String scene;

    /** The solver: SUB_ADMM or PGS (any SolverKind name, with -p solver=FULL_ADMM say). */
    @Param({"SUB_ADMM", "PGS"})
    public String solver;

    /** Solver iterations per step (the references' budget on the pile; SubADMM's chain is exact in 1). */
    @Param({"10"})
    public int iterations;

    private PhysicsEngine engine;
    private PhysicsState state;

    @Setup
    public void setUp() {
        SolverKind kind = SolverKind.valueOf(solver);
        // a fixed budget, default kappa, 1 thread: SolverSettings.subAdmm, pgs, fullAdmm, ... for any kind
        SolverSettings settings = new SolverSettings(kind, iterations, SolverSettings.DEFAULT_KAPPA, 0, 1);
        PhysicsModel model = switch (scene) {
            case "pile" -> PhysicsScenes.pile(10, STEP, settings);
            case "chain" -> PhysicsScenes.chain(50, STEP, settings, true);
            default -> throw new IllegalArgumentException("scene must be pile or chain, got '" + scene + "'");
        };
        engine = new PhysicsEngine(model);
        state = model.newState();
        int settle = scene.equals("pile") ? 480 : 120;
        for (int k = 0; k < settle; k++) {
            engine.step(state);
        }
    }

    @TearDown
    public void tearDown() {
        engine.close();
    }

    /**
     * @return the state's step counter (consumed by JMH so the step is not eliminated)
     */
    @Benchmark
    public long step() {
        engine.step(state);
        return state.step;
    }
}
