package io.tandem.cle.experiment;

import io.tandem.cle.SyncMode;
import io.tandem.world.World;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An experiment file, parsed and checked: the world, the brain, the engines' timesteps, the
 * transfer functions, the timeout, what to record (the NRP's experiment and BIBI files,
 * NRP-core's {@code simulation_config.json}). The format is documented in
 * {@code examples/experiments/README.md} and, as JSON Schema, in
 * {@code examples/experiments/experiment.schema.json}.
 *
 * <p>{@link #load(Path, ExperimentOverrides)} reads the file (JSON; or, when its name ends in
 * {@code .yaml} or {@code .yml}, the same content in YAML 1.2, see
 * {@code io.tandem.cle.internal.json.YamlReader}), applies {@code --set}
 * overrides to the declared {@code parameters}, substitutes {@code ${name}} in string values,
 * checks the result against the schema, resolves relative paths against the file's folder, loads
 * the world (to check model names and take its step) and checks the brain with the network
 * builder; every problem is reported as {@code file:line:column: what is wrong and the fix}.
 *
 * <p>The record tree is immutable. Times are {@code long} nanoseconds of simulated time.
 *
 * @param source            the experiment file as given
 * @param name              the experiment's name
 * @param description       what it shows ("" if none)
 * @param parameters        the parameters' effective values (String, Double or Boolean), defaults
 *                          overridden by {@code --set}, in declaration order (immutable)
 * @param world             the world
 * @param brain             the brain
 * @param engines           the engines' steps and the synchronization mode
 * @param timeoutNs         how long the experiment runs (simulated ns, > 0)
 * @param transferFunctions the transfer functions, in file order (immutable)
 * @param robot             what is recorded about the robot, if anything
 * @param outputs           output file names
 * @param view              what {@code tandem cle --view} shows
 */
public record ExperimentFile(Path source, String name, String description, Map<String, Object> parameters,
        WorldSpec world, BrainSpec brain, Engines engines, long timeoutNs, List<TransferFunctionEntry> transferFunctions,
        Optional<Robot> robot, Outputs outputs, View view) {

    /** Validates and copies. */
    public ExperimentFile {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        Objects.requireNonNull(world, "world");
        Objects.requireNonNull(brain, "brain");
        Objects.requireNonNull(engines, "engines");
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("timeoutNs must be > 0, got " + timeoutNs);
        }
        transferFunctions = List.copyOf(transferFunctions);
        Objects.requireNonNull(robot, "robot");
        Objects.requireNonNull(outputs, "outputs");
        Objects.requireNonNull(view, "view");
    }

    /**
     * Loads an experiment file with the parameters' defaults.
     *
     * @throws ExperimentFileException listing every problem as {@code file:line:column: problem}
     */
    public static ExperimentFile load(Path file) {
        return load(file, ExperimentOverrides.none());
    }

    /**
     * Loads an experiment file with {@code --set} overrides given as a map.
     *
     * @param overrides parameter name to value text. Not modified.
     * @throws ExperimentFileException listing every problem, including an override of an
     *                                 undeclared parameter (naming the declared ones)
     */
    public static ExperimentFile load(Path file, Map<String, String> overrides) {
        return load(file, new ExperimentOverrides(overrides));
    }

    /**
     * Loads an experiment file with {@code --set} overrides.
     *
     * @throws ExperimentFileException listing every problem, including an override of an
     *                                 undeclared parameter (naming the declared ones)
     */
    public static ExperimentFile load(Path file, ExperimentOverrides overrides) {
        return new ExperimentFileReader(file, overrides).read(ExperimentFileReader.readText(file));
    }

    /**
     * Parses experiment text as if it were the file {@code file} (relative paths resolve against
     * its folder, messages name it, a .yaml or .yml name means YAML); the file itself is not read.
     *
     * @throws ExperimentFileException listing every problem
     */
    public static ExperimentFile parse(String text, Path file, ExperimentOverrides overrides) {
        return new ExperimentFileReader(file, overrides).read(text);
    }

    /** @return this experiment with another synchronization mode (the CLI's {@code --mode}) */
    public ExperimentFile withMode(SyncMode mode) {
        return new ExperimentFile(source, name, description, parameters, world, brain,
                new Engines(engines.physicsTimestepNs(), engines.brainTimestepNs(), engines.loopStepNs(), mode,
                        engines.physicsSyncStepNs(), engines.brainSyncStepNs()),
                timeoutNs, transferFunctions, robot, outputs, view);
    }

    /** @return the number of loop steps the experiment runs: ceil(timeout / loop step) */
    public long loopSteps() {
        return (timeoutNs + engines.loopStepNs() - 1) / engines.loopStepNs();
    }

    /**
     * The world.
     *
     * @param file         the SDF file, absolute
     * @param sdf          the loaded world (its {@code stepSizeNs} is the SDF's max_step_size)
     * @param visualColors colour overrides of models' visuals, in file order (immutable)
     */
    public record WorldSpec(Path file, World sdf, List<VisualColor> visualColors) {
        /** Validates and copies. */
        public WorldSpec {
            if (!file.isAbsolute()) {
                throw new IllegalArgumentException("the world file must be absolute, got " + file);
            }
            Objects.requireNonNull(sdf, "sdf");
            visualColors = List.copyOf(visualColors);
        }
    }

    /**
     * A colour for every visual of a model (as {@code WorldRunner.setVisualColor}).
     *
     * @param model    the model's name in the world
     * @param r        red in [0, 1]
     * @param g        green in [0, 1]
     * @param b        blue in [0, 1]
     * @param location where it is set
     */
    public record VisualColor(String model, double r, double g, double b, ExperimentFileLocation location) {
        /** Validates. */
        public VisualColor {
            Objects.requireNonNull(model, "model");
            if (!(r >= 0 && r <= 1 && g >= 0 && g <= 1 && b >= 0 && b <= 1)) {
                throw new IllegalArgumentException("colour components are in [0, 1], got " + r + " " + g + " " + b);
            }
        }

        /** @return a new {r, g, b} */
        public double[] rgb() {
            return new double[] {r, g, b};
        }
    }

    /**
     * The engines' steps and the synchronization mode. The loop step is a whole multiple of both
     * engine timesteps; each loop step runs the physics {@code loopStepNs / physicsTimestepNs}
     * times and the brain {@code loopStepNs / brainTimestepNs} times.
     *
     * @param physicsTimestepNs the physics step (default: the world's max_step_size)
     * @param brainTimestepNs   how far the brain runs per call (default: the loop step)
     * @param loopStepNs        the closed loop's step (default 20 ms, the NRP CLE's)
     * @param mode              parallel (default) or serial
     * @param physicsSyncStepNs how often the physics engine syncs with the loop (NRP-core's
     *                          EngineTimestep; default: every loop step)
     * @param brainSyncStepNs   how often the brain engine syncs (default: every loop step)
     */
    public record Engines(long physicsTimestepNs, long brainTimestepNs, long loopStepNs, SyncMode mode,
                          long physicsSyncStepNs, long brainSyncStepNs) {
        /** The NRP CLE's loop step, 20 ms. */
        public static final long DEFAULT_LOOP_STEP_NS = 20_000_000L;

        /** Engines that both sync every loop step. */
        public Engines(long physicsTimestepNs, long brainTimestepNs, long loopStepNs, SyncMode mode) {
            this(physicsTimestepNs, brainTimestepNs, loopStepNs, mode, loopStepNs, loopStepNs);
        }

        /** Validates. */
        public Engines {
            if (physicsSyncStepNs <= 0 || brainSyncStepNs <= 0 || loopStepNs <= 0
                    || physicsSyncStepNs % loopStepNs != 0 || brainSyncStepNs % loopStepNs != 0) {
                throw new IllegalArgumentException("sync steps must be positive multiples of the loop step " + loopStepNs
                        + " ns, got physics " + physicsSyncStepNs + ", brain " + brainSyncStepNs);
            }
            if (physicsTimestepNs <= 0 || brainTimestepNs <= 0 || loopStepNs <= 0) {
                throw new IllegalArgumentException("timesteps must be > 0 ns, got physics " + physicsTimestepNs
                        + ", brain " + brainTimestepNs + ", loop " + loopStepNs);
            }
            if (loopStepNs % physicsTimestepNs != 0 || loopStepNs % brainTimestepNs != 0) {
                throw new IllegalArgumentException("the loop step " + loopStepNs + " ns must be a whole multiple of the"
                        + " physics step " + physicsTimestepNs + " ns and the brain step " + brainTimestepNs + " ns");
            }
            Objects.requireNonNull(mode, "mode");
        }

        /** @return physics steps per loop step */
        public long physicsStepsPerLoop() {
            return loopStepNs / physicsTimestepNs;
        }

        /** @return brain calls per loop step */
        public long brainStepsPerLoop() {
            return loopStepNs / brainTimestepNs;
        }
    }

    /**
     * A transfer function entry: the class the engine loads and its parameters.
     *
     * @param className a well-formed fully qualified class name (not loaded here)
     * @param name      a unique name (default: the class's simple name)
     * @param priority  higher runs first within a loop step; ties keep file order
     * @param active    whether it runs
     * @param params    name to value: String, Double, Boolean, List or Map of those (immutable, in
     *                  file order)
     * @param location  where it is declared
     */
    public record TransferFunctionEntry(String className, String name, int priority, boolean active,
            Map<String, Object> params, ExperimentFileLocation location) {
        /** Copies the parameters, keeping their order. */
        public TransferFunctionEntry {
            Objects.requireNonNull(className, "className");
            Objects.requireNonNull(name, "name");
            params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
            Objects.requireNonNull(location, "location");
        }

        /**
         * @return the parameter as a string
         * @throws ExperimentFileException naming the entry's location when missing or not a string
         */
        public String stringParam(String key) {
            Object v = param(key);
            if (!(v instanceof String s)) {
                throw new ExperimentFileException(location, name + ": parameter \"" + key + "\" must be a string, got "
                        + v);
            }
            return s;
        }

        /**
         * @return the parameter as a number
         * @throws ExperimentFileException naming the entry's location when missing or not a number
         */
        public double numberParam(String key) {
            Object v = param(key);
            if (!(v instanceof Double d)) {
                throw new ExperimentFileException(location, name + ": parameter \"" + key + "\" must be a number, got "
                        + v);
            }
            return d;
        }

        /** @return the parameter as a number, or {@code defaultValue} when absent */
        public double numberParam(String key, double defaultValue) {
            return params.containsKey(key) ? numberParam(key) : defaultValue;
        }

        private Object param(String key) {
            Object v = params.get(key);
            if (v == null) {
                throw new ExperimentFileException(location, name + " (" + className + ") needs the parameter \"" + key
                        + "\" in \"params\"; it has " + params.keySet());
            }
            return v;
        }
    }

    /**
     * What the run records about the robot.
     *
     * @param model  the robot's model in the world (its pose is recorded every loop step)
     * @param target a model the run measures the robot's final distance to, if any
     * @param drive  its skid-steer drive, if it has one
     */
    public record Robot(String model, Optional<String> target, Optional<Drive> drive) {
        /** Validates. */
        public Robot {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(drive, "drive");
        }

        /** A robot without a drive. */
        public Robot(String model, Optional<String> target) {
            this(model, target, Optional.empty());
        }
    }

    /**
     * The robot's skid-steer drive: a twist command becomes wheel speeds (see
     * {@code io.tandem.world.robot.SkidSteerDrive}).
     *
     * @param leftWheels  the left wheels' scoped joints
     * @param rightWheels the right wheels' scoped joints
     * @param halfTrackM  half the track (m)
     * @param wheelGain   wheel speed per ground speed (rad/m)
     */
    public record Drive(List<String> leftWheels, List<String> rightWheels, double halfTrackM, double wheelGain) {
        /** Copies the lists. */
        public Drive {
            leftWheels = List.copyOf(leftWheels);
            rightWheels = List.copyOf(rightWheels);
        }
    }

    /**
     * Output file names, relative to the run's output folder.
     *
     * @param spikes     spike trains of every spike_recorder device (CSV {@code time_ms,recorder,node})
     * @param trajectory the robot's pose per loop step (CSV)
     * @param multimeter samples of every multimeter device (CSV
     *                   {@code time_ms,multimeter,node,<variables>}), written when the brain has one
     */
    /**
     * What the viewer ({@code tandem cle --view}) shows; the command line's {@code --view-plot} and
     * {@code --follow} take precedence.
     *
     * @param plots  the rolling plots: {@code MODEL::JOINT} (its position), {@code MODEL::JOINT/velocity},
     *               {@code MODEL/x}, {@code /y} or {@code /z}; empty for the default (the robot's x and y)
     * @param follow the model the camera follows, if not the robot
     */
    public record View(List<String> plots, Optional<String> follow) {
        /** no plots named, no model to follow */
        public static final View DEFAULT = new View(List.of(), Optional.empty());

        public View {
            plots = List.copyOf(plots);
            Objects.requireNonNull(follow, "follow");
        }
    }

    public record Outputs(String spikes, String trajectory, String multimeter) {
        /** The defaults. */
        public static final Outputs DEFAULT = new Outputs("spikes.csv", "trajectory.csv", "multimeter.csv");

        /** Validates. */
        public Outputs {
            Objects.requireNonNull(spikes, "spikes");
            Objects.requireNonNull(trajectory, "trajectory");
            Objects.requireNonNull(multimeter, "multimeter");
        }

        /** Spike and trajectory files, the multimeter's default ({@code multimeter.csv}). */
        public Outputs(String spikes, String trajectory) {
            this(spikes, trajectory, DEFAULT.multimeter());
        }

        /** @return the spike file in {@code outputDir} */
        public Path spikesIn(Path outputDir) {
            return outputDir.resolve(spikes);
        }

        /** @return the trajectory file in {@code outputDir} */
        public Path trajectoryIn(Path outputDir) {
            return outputDir.resolve(trajectory);
        }

        /** @return the multimeter file in {@code outputDir} */
        public Path multimeterIn(Path outputDir) {
            return outputDir.resolve(multimeter);
        }
    }
}
