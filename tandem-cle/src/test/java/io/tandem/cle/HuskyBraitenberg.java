package io.tandem.cle;

import io.tandem.cle.engine.BrainEngine;
import io.tandem.cle.engine.WorldEngine;
import io.tandem.cle.tf.EyeSensorTransmit;
import io.tandem.cle.tf.LinearTwist;
import io.tandem.neuro.BraitenbergBrain;
import io.tandem.neuro.BrunelNetwork;
import io.tandem.world.World;
import io.tandem.world.robot.SkidSteerDrive;
import io.tandem.world.sdf.SdfLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NRP's Husky Braitenberg experiment (shared/specs/nrp.md 3), assembled in code: the world
 * {@code examples/experiments/husky_braitenberg/world.sdf} (engine {@value #WORLD}), the
 * {@link BraitenbergBrain} (engine {@value #BRAIN}: 8 {@code iaf_cond_alpha} neurons, Poisson
 * eyes, leaky-integrator actors, a spike recorder on neurons 0-7), and the two TFs
 * {@link EyeSensorTransmit} and {@link LinearTwist}. The loop records the robot's trajectory,
 * tracks both screens and records the spikes.
 *
 * <p>Device names, as the NRP's TFs use them: brain {@code red_left_eye}, {@code red_right_eye},
 * {@code green_blue_eye} (Poisson), {@code left_wheel_neuron}, {@code right_wheel_neuron} (leaky
 * integrators of neurons 6 and 7), {@code all_neurons} (spike recorder); world
 * {@value #CAMERA} (camera), {@value #ROBOT} (twist and pose), {@value #RED_SCREEN},
 * {@value #BLUE_SCREEN} (poses). Stateless; building allocates.
 */
public final class HuskyBraitenberg {
    private static final Logger LOG = LoggerFactory.getLogger(HuskyBraitenberg.class);
    /** The brain engine's name. */
    public static final String BRAIN = "brain";
    /** The world engine's name. */
    public static final String WORLD = "world";
    /** The robot model (and its twist device). */
    public static final String ROBOT = "husky";
    /** The red screen model, at (+4, 0). */
    public static final String RED_SCREEN = "red_screen";
    /** The blue screen model, at (-4, 0). */
    public static final String BLUE_SCREEN = "blue_screen";
    /** The robot's camera. */
    public static final String CAMERA = EyeSensorTransmit.DEFAULT_CAMERA;
    /** The spike recorder device on neurons 0-7. */
    public static final String SPIKES = "all_neurons";
    /** The world file, relative to the repository root. */
    public static final String WORLD_FILE = "examples/experiments/husky_braitenberg/world.sdf";
    private static final String[] LEFT_WHEELS = {"husky::front_left_wheel_joint", "husky::rear_left_wheel_joint"};
    private static final String[] RIGHT_WHEELS = {"husky::front_right_wheel_joint", "husky::rear_right_wheel_joint"};

    private HuskyBraitenberg() {
    }

    /** @return a builder: the checkout's world file, seed 1, PARALLEL, loop step 20 ms, red screen red */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The world file of the checkout: {@value #WORLD_FILE} in the working directory or one of its parents.
     *
     * @return its path
     * @throws IllegalStateException when there is none
     */
    public static Path findWorldFile() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null) {
            Path c = p.resolve(WORLD_FILE);
            if (Files.isRegularFile(c)) {
                return c;
            }
            p = p.getParent();
        }
        throw new IllegalStateException("no " + WORLD_FILE + " in " + Path.of("").toAbsolutePath() + " or its parents: give the"
                + " world file with worldFile(path)");
    }

    /**
     * The Braitenberg brain as an engine with the NRP's device names.
     *
     * @param name  the engine's name
     * @param brain the brain (the engine owns its network)
     * @return the engine
     */
    public static BrainEngine brainEngine(String name, BraitenbergBrain brain) {
        return BrainEngine.builder(name, brain.network())
                .poissonSource("red_left_eye", brain.leftEyeGenerator())
                .poissonSource("red_right_eye", brain.rightEyeGenerator())
                .poissonSource("green_blue_eye", brain.greenBlueGenerator())
                .leakyIntegrator("left_wheel_neuron", brain.leftIntegrator())
                .leakyIntegrator("right_wheel_neuron", brain.rightIntegrator())
                .spikeRecorder(SPIKES, brain.spikeRecorder())
                .build();
    }

    /**
     * The Braitenberg brain as an engine with the NRP's device names, built from its options (as
     * {@link Builder#build()} builds it; an engine server builds the same).
     *
     * @param name         the engine's name
     * @param seed         the brain's seed (Poisson trains)
     * @param extraNeurons 0, or at least 10: a Brunel network simulated with the brain (see {@link Builder#extraBrainNeurons})
     * @param threads      the network's update threads
     * @return the engine
     */
    public static BrainEngine brainEngine(String name, long seed, int extraNeurons, int threads) {
        if (extraNeurons != 0 && extraNeurons < 10) {
            throw new IllegalArgumentException("extra brain neurons must be 0 or at least 10, got " + extraNeurons);
        }
        BraitenbergBrain brain = BraitenbergBrain.build(seed, threads, b -> {
            if (extraNeurons > 0) {
                BrunelNetwork.define(b, extraNeurons, false);
            }
        });
        return brainEngine(name, brain);
    }

    /**
     * The Husky world of a world file as an engine (see {@link #worldEngine(String, World, boolean)}).
     *
     * @param name      the engine's name
     * @param worldFile the world file (null: {@link #findWorldFile()})
     * @param redIsBlue whether the red screen is recoloured blue
     * @return the engine
     */
    public static WorldEngine worldEngine(String name, Path worldFile, boolean redIsBlue) {
        Path file = worldFile == null ? findWorldFile() : worldFile;
        World world = SdfLoader.load(file, w -> LOG.warn("{}: {}", file, w));
        return worldEngine(name, world, redIsBlue);
    }

    /**
     * The Husky world as an engine: the skid-steer drive {@value #ROBOT} with NRP's constants
     * (half track 0.275 m, gain 7 rad/m).
     *
     * @param name      the engine's name
     * @param world     the world
     * @param redIsBlue whether the red screen is recoloured blue (the experiment's screen colour switch)
     * @return the engine
     */
    public static WorldEngine worldEngine(String name, World world, boolean redIsBlue) {
        WorldEngine.Builder b = WorldEngine.builder(name, world)
                .skidSteer(ROBOT, LEFT_WHEELS, RIGHT_WHEELS, SkidSteerDrive.NRP_HALF_TRACK, SkidSteerDrive.NRP_GAIN);
        if (redIsBlue) {
            b.visualColor(RED_SCREEN, 0, 0, 1);
        }
        return b.build();
    }

    /** The experiment's options. Not thread-safe. */
    public static final class Builder {
        private Path worldFile;
        private boolean redIsBlue;
        private long seed = 1;
        private SyncMode mode = SyncMode.PARALLEL;
        private long loopStepNs = ClosedLoop.DEFAULT_LOOP_STEP_NS;
        private long timeoutNs;
        private int extraNeurons;
        private int brainThreads = 1;
        private LongSupplier clock;
        private Engine givenBrain;
        private Engine givenWorld;

        private Builder() {
        }

        /**
         * Uses this engine as the brain (engine {@value #BRAIN}) instead of building one, e.g. a
         * {@link io.tandem.cle.remote.RemoteEngine} whose server runs this brain ({@code HuskyEngineServer}) in another
         * process; the seed, extra neurons and brain threads are then the server's. The loop owns it.
         *
         * @param engine an engine named {@value #BRAIN} with the brain's devices
         * @return this
         */
        public Builder brainEngine(Engine engine) {
            givenBrain = engine;
            return this;
        }

        /**
         * Uses this engine as the world (engine {@value #WORLD}) instead of building one, e.g. a
         * {@link io.tandem.cle.remote.RemoteEngine} serving this world ({@code HuskyEngineServer}); the world file and
         * screen colour are then the server's. The loop owns it.
         *
         * @param engine an engine named {@value #WORLD} with the world's devices
         * @return this
         */
        public Builder worldEngine(Engine engine) {
            givenWorld = engine;
            return this;
        }

        /**
         * @param p the world file (default {@link #findWorldFile()})
         * @return this
         */
        public Builder worldFile(Path p) {
            worldFile = p;
            return this;
        }

        /**
         * @param blue whether to recolour the red screen blue (the robot should then keep turning)
         * @return this
         */
        public Builder redScreenBlue(boolean blue) {
            redIsBlue = blue;
            return this;
        }

        /**
         * @param s the brain's seed (Poisson trains)
         * @return this
         */
        public Builder seed(long s) {
            seed = s;
            return this;
        }

        /**
         * @param m PARALLEL or SERIAL
         * @return this
         */
        public Builder mode(SyncMode m) {
            mode = m;
            return this;
        }

        /**
         * @param ns the loop step, a multiple of the 2 ms physics step (default 20 ms)
         * @return this
         */
        public Builder loopStepNs(long ns) {
            loopStepNs = ns;
            return this;
        }

        /**
         * @param ns simulated time at which runs stop (0: none)
         * @return this
         */
        public Builder timeoutNs(long ns) {
            timeoutNs = ns;
            return this;
        }

        /**
         * Loads the brain engine with a Brunel network of {@code neurons} neurons simulated with the
         * Braitenberg brain (the same network, after its 14 nodes; it does not touch the circuit):
         * a heavier brain for timing, the same behaviour.
         *
         * @param neurons 0 (default) or at least 10
         * @return this
         */
        public Builder extraBrainNeurons(int neurons) {
            if (neurons != 0 && neurons < 10) {
                throw new IllegalArgumentException("extra brain neurons must be 0 or at least 10, got " + neurons);
            }
            extraNeurons = neurons;
            return this;
        }

        /**
         * @param threads the network's update threads (default 1)
         * @return this
         */
        public Builder brainThreads(int threads) {
            brainThreads = threads;
            return this;
        }

        /**
         * @param wallClockNs the timing clock (default System::nanoTime)
         * @return this
         */
        public Builder wallClock(LongSupplier wallClockNs) {
            clock = wallClockNs;
            return this;
        }

        /**
         * @return the closed loop, initialized lazily at its first run
         * @throws IllegalArgumentException for an invalid option (loop step, world file, ...)
         */
        public ClosedLoop build() {
            Engine brainEngine = givenBrain;
            Engine worldEngine = givenWorld;
            try {
                if (brainEngine == null) {
                    brainEngine = HuskyBraitenberg.brainEngine(BRAIN, seed, extraNeurons, brainThreads);
                }
                if (worldEngine == null) {
                    worldEngine = HuskyBraitenberg.worldEngine(WORLD, worldFile, redIsBlue);
                }
            } catch (RuntimeException e) {
                closeAll(brainEngine, worldEngine);
                throw e;
            }
            ClosedLoop.Builder b = ClosedLoop.builder()
                    .engine(brainEngine)
                    .engine(worldEngine)
                    .transferFunction(new EyeSensorTransmit())
                    .transferFunction(new LinearTwist())
                    .recordTrajectory(ROBOT)
                    .trackModel(RED_SCREEN, BLUE_SCREEN)
                    .recordSpikes(SPIKES)
                    .mode(mode)
                    .loopStepNs(loopStepNs)
                    .timeoutNs(timeoutNs);
            if (clock != null) {
                b.wallClock(clock);
            }
            try {
                return b.build();
            } catch (RuntimeException e) {
                closeAll(brainEngine, worldEngine);
                throw e;
            }
        }

        private static void closeAll(Engine... engines) {
            for (Engine e : engines) {
                if (e != null) {
                    e.close();
                }
            }
        }
    }
}
