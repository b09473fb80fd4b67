package io.tandem.cle.engine;

import io.tandem.cle.Engine;
import io.tandem.cle.device.CameraImage;
import io.tandem.cle.device.Device;
import io.tandem.cle.device.JointState;
import io.tandem.cle.device.JointPositionCommand;
import io.tandem.cle.device.JointVelocityCommand;
import io.tandem.cle.device.ModelPose;
import io.tandem.cle.device.TwistCommand;
import io.tandem.physics.SolverSettings;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import io.tandem.world.robot.RayCastCamera;
import io.tandem.world.robot.SkidSteerDrive;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The robot and its world as an {@link Engine}: a {@link WorldRunner} (the Gazebo of the NRP).
 * Its timestep is the world's physics step; an advance runs whole physics steps. Devices, created
 * on request by scoped name: {@link CameraImage} (model::link::sensor; a frame rendered at a sync
 * where the sensor's update_rate makes one due, at most one per sync), {@link JointState} and
 * {@link JointVelocityCommand} (model::joint), {@link ModelPose} (model), and {@link TwistCommand}
 * for the skid-steer drives declared with
 * {@link Builder#skidSteer}. Commands are applied at the sync, so they act from the next physics
 * step on.
 *
 * <p>Threads as {@link Engine}. Per step, {@link #advance}, the cameras, the joint states and the
 * model poses allocate nothing (poses through the runner's handle reader,
 * {@link WorldRunner#modelPose(int, double[])}).
 */
public final class WorldEngine implements Engine {
    private final String name;
    private final World world;
    private final SolverSettings solver;
    private final boolean useLevels;
    private final Map<String, DriveSpec> driveSpecs;
    private final List<double[]> colours;
    private final List<String> colourModels;
    private final Map<String, Device> devices = new HashMap<>();
    private WorldRunner runner;
    // per device kind: the device and what drives it
    private final List<CameraImage> cameras = new ArrayList<>();
    private final List<RayCastCamera> renderers = new ArrayList<>();
    private final List<JointState> jointStates = new ArrayList<>();
    private final List<JointVelocityCommand> jointCommands = new ArrayList<>();
    private final List<ModelPose> poses = new ArrayList<>();
    private final List<TwistCommand> twists = new ArrayList<>();
    private final List<SkidSteerDrive> drives = new ArrayList<>();
    private int[] stateHandles = new int[0];
    private int[] commandHandles = new int[0];
    /** per ModelPose device (poses order): its model's handle, valid for every runner of the world */
    private int[] poseHandles = new int[0];
    /** the pose reader's scratch: x y z qw qx qy qz */
    private final double[] pose = new double[WorldRunner.POSE_VALUES];
    // arrays for the per-step loops (rebuilt when devices are added, at build time)
    private CameraImage[] cameraArray = new CameraImage[0];
    private RayCastCamera[] rendererArray = new RayCastCamera[0];
    /** per camera: the simulated time from which its next frame is due, ns */
    private long[] nextFrameNs = new long[0];
    private JointState[] stateArray = new JointState[0];
    private JointVelocityCommand[] commandArray = new JointVelocityCommand[0];
    private final List<JointPositionCommand> positionCommands = new ArrayList<>();
    private JointPositionCommand[] positionArray = new JointPositionCommand[0];
    private int[] positionHandles = new int[0];
    private ModelPose[] poseArray = new ModelPose[0];
    private TwistCommand[] twistArray = new TwistCommand[0];
    private SkidSteerDrive[] driveArray = new SkidSteerDrive[0];

    private WorldEngine(Builder b) {
        this.name = b.name;
        this.world = b.world;
        this.solver = b.solver;
        this.useLevels = b.useLevels;
        this.driveSpecs = new LinkedHashMap<>(b.drives);
        this.colours = new ArrayList<>(b.colours);
        this.colourModels = new ArrayList<>(b.colourModels);
        this.runner = newRunner();
        try {
            for (DriveSpec d : driveSpecs.values()) {
                buildDrive(d); // fails now, naming the joint, if a wheel is wrong
            }
        } catch (RuntimeException e) {
            runner.close();
            throw e;
        }
    }

    private WorldRunner newRunner() {
        WorldRunner r = new WorldRunner(world, solver, useLevels);
        try {
            for (int i = 0; i < colours.size(); i++) {
                double[] c = colours.get(i);
                r.setVisualColor(colourModels.get(i), c[0], c[1], c[2]);
            }
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
        return r;
    }

    private SkidSteerDrive buildDrive(DriveSpec s) {
        return SkidSteerDrive.builder(runner).leftWheels(s.left).rightWheels(s.right).halfTrack(s.halfTrack).gain(s.gain).build();
    }

    /**
     * @param name  the engine's name
     * @param world the world (its physics step is the engine's timestep)
     * @return a builder (solver sub-ADMM 30 iterations, no levels)
     */
    public static Builder builder(String name, World world) {
        return new Builder(name, world);
    }

    /** @return the world runner now (a reset replaces it; touch it only while the loop is not running) */
    public WorldRunner runner() {
        return runner;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long timestepNs() {
        return world.stepSizeNs();
    }

    @Override
    public long timeNs() {
        return runner.simTimeNs();
    }

    @Override
    public <D extends Device> D device(String deviceName, Class<D> type) {
        String key = type.getName() + '\u0000' + deviceName;
        Device d = devices.get(key);
        if (d == null) {
            d = create(deviceName, type);
            if (d == null) {
                return null;
            }
            devices.put(key, d);
            refreshArrays();
        }
        return type.cast(d);
    }

    private Device create(String deviceName, Class<?> type) {
        if (type == CameraImage.class) {
            RayCastCamera cam = RayCastCamera.of(runner, deviceName);
            CameraImage c = new CameraImage(deviceName, name, cam.width(), cam.height());
            cameras.add(c);
            renderers.add(cam);
            return c;
        }
        if (type == JointState.class) {
            int h = runner.jointHandle(deviceName);
            runner.jointPosition(h); // fails now for a ball or fixed joint
            JointState s = new JointState(deviceName, name);
            jointStates.add(s);
            stateHandles = append(stateHandles, h);
            return s;
        }
        if (type == JointVelocityCommand.class) {
            int h = runner.jointHandle(deviceName);
            runner.setJointVelocity(h, runner.jointVelocityCommand(h)); // fails now without a motor
            JointVelocityCommand c = new JointVelocityCommand(deviceName, name);
            jointCommands.add(c);
            commandHandles = append(commandHandles, h);
            return c;
        }
        if (type == JointPositionCommand.class) {
            int h = runner.jointHandle(deviceName);
            runner.jointEffort(h); // fails now for a joint that is not in joint coordinates
            JointPositionCommand c = new JointPositionCommand(deviceName, name);
            positionCommands.add(c);
            positionHandles = append(positionHandles, h);
            return c;
        }
        if (type == ModelPose.class) {
            if (world.model(deviceName).isEmpty()) {
                List<String> models = new ArrayList<>();
                for (World.Model m : world.models()) {
                    models.add(m.name());
                }
                throw new IllegalArgumentException("world '" + world.name() + "' has no model '" + deviceName + "'; it has " + models);
            }
            int h = runner.modelHandle(deviceName);
            ModelPose p = new ModelPose(deviceName, name);
            poses.add(p);
            poseHandles = append(poseHandles, h);
            return p;
        }
        if (type == TwistCommand.class) {
            DriveSpec s = driveSpecs.get(deviceName);
            if (s == null && !runner.hasTwistDrive(deviceName)) {
                throw new IllegalArgumentException("no skid-steer drive '" + deviceName + "'; declared: " + driveSpecs.keySet()
                        + " (declare one with WorldEngine.Builder.skidSteer), and no model of that name with a DiffDrive"
                        + " plugin or planar coordinates");
            }
            TwistCommand t = new TwistCommand(deviceName, name);
            twists.add(t);
            // null: the model's own DiffDrive or planar base (WorldRunner.setTwist)
            drives.add(s == null ? null : buildDrive(s));
            return t;
        }
        return null;
    }

    private static int[] append(int[] a, int v) {
        int[] r = java.util.Arrays.copyOf(a, a.length + 1);
        r[a.length] = v;
        return r;
    }

    private void refreshArrays() {
        cameraArray = cameras.toArray(new CameraImage[0]);
        rendererArray = renderers.toArray(new RayCastCamera[0]);
        nextFrameNs = new long[rendererArray.length];
        stateArray = jointStates.toArray(new JointState[0]);
        commandArray = jointCommands.toArray(new JointVelocityCommand[0]);
        positionArray = positionCommands.toArray(new JointPositionCommand[0]);
        poseArray = poses.toArray(new ModelPose[0]);
        twistArray = twists.toArray(new TwistCommand[0]);
        driveArray = drives.toArray(new SkidSteerDrive[0]);
    }

    @Override
    public List<String> deviceNames() {
        List<String> l = new ArrayList<>();
        l.add("ModelPose for any model");
        l.add("JointState / JointVelocityCommand by model::joint");
        l.add("JointPositionCommand by model::joint (a robot in joint coordinates)");
        l.add("CameraImage by model::link::sensor");
        l.add("TwistCommand " + driveSpecs.keySet() + " or a model with a DiffDrive plugin or planar coordinates");
        return l;
    }

    @Override
    public void initialize() {
    }

    @Override
    public void applyInputs() {
        for (int i = 0; i < commandArray.length; i++) {
            if (commandArray[i].takeChanged()) {
                runner.setJointVelocity(commandHandles[i], commandArray[i].velocity());
            }
        }
        for (int i = 0; i < positionArray.length; i++) {
            JointPositionCommand c = positionArray[i];
            if (c.takeChanged()) {
                if (!Double.isNaN(c.kp())) {
                    runner.setJointGains(positionHandles[i], c.kp(), c.kd());
                }
                runner.setJointTarget(positionHandles[i], c.position(), c.velocity());
            }
        }
        for (int i = 0; i < twistArray.length; i++) {
            if (twistArray[i].takeChanged()) {
                if (driveArray[i] == null) {
                    runner.setTwist(twistArray[i].name(), twistArray[i].linearX(), twistArray[i].angularZ());
                } else {
                    driveArray[i].setTwist(twistArray[i].linearX(), twistArray[i].angularZ());
                }
            }
        }
    }

    @Override
    public void advance(long durationNs) {
        long step = world.stepSizeNs();
        if (durationNs <= 0 || durationNs % step != 0) {
            throw new IllegalArgumentException("world engine '" + name + "': advance " + durationNs + " ns is not a positive multiple"
                    + " of the physics step " + step + " ns");
        }
        for (long k = durationNs / step; k > 0; k--) {
            runner.step();
        }
    }

    @Override
    public void publishOutputs() {
        long t = runner.simTimeNs();
        for (int i = 0; i < cameraArray.length; i++) {
            // Gazebo's update_rate: a frame at a sync where one is due (at most one per sync); the
            // image and its time otherwise stay the last frame's
            long period = rendererArray[i].updatePeriodNs();
            if (period > 0 && t < nextFrameNs[i]) {
                continue;
            }
            rendererArray[i].render(cameraArray[i].backBuffer());
            cameraArray[i].published(t);
            if (period > 0) {
                nextFrameNs[i] = (t / period + 1) * period;
            }
        }
        for (int i = 0; i < stateArray.length; i++) {
            stateArray[i].publish(runner.jointPosition(stateHandles[i]), runner.jointVelocity(stateHandles[i]));
        }
        double[] q = pose;
        for (int i = 0; i < poseArray.length; i++) {
            if (runner.modelPose(poseHandles[i], q)) {
                poseArray[i].publish(q[0], q[1], q[2], q[3], q[4], q[5], q[6]);
            } else {
                poseArray[i].publish(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
        }
    }

    @Override
    public void reset() {
        runner.close();
        runner = newRunner();
        for (int i = 0; i < cameras.size(); i++) {
            renderers.set(i, RayCastCamera.of(runner, cameras.get(i).name()));
        }
        int k = 0;
        for (TwistCommand t : twists) {
            drives.set(k++, buildDrive(driveSpecs.get(t.name())));
        }
        refreshArrays();
    }

    @Override
    public void close() {
        runner.close();
    }

    private static final class DriveSpec {
        final String[] left;
        final String[] right;
        final double halfTrack;
        final double gain;

        DriveSpec(String[] left, String[] right, double halfTrack, double gain) {
            this.left = left.clone();
            this.right = right.clone();
            this.halfTrack = halfTrack;
            this.gain = gain;
        }
    }

    /** Configures the world engine. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private final World world;
        private SolverSettings solver = SolverSettings.defaults();
        private boolean useLevels;
        private final Map<String, DriveSpec> drives = new LinkedHashMap<>();
        private final List<double[]> colours = new ArrayList<>();
        private final List<String> colourModels = new ArrayList<>();

        private Builder(String name, World world) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("a world engine needs a non-empty name");
            }
            if (world == null) {
                throw new IllegalArgumentException("world engine '" + name + "' needs a world");
            }
            this.name = name;
            this.world = world;
        }

        /**
         * @param s the physics solver (default sub-ADMM, 30 iterations)
         * @return this
         */
        public Builder solver(SolverSettings s) {
            if (s == null) {
                throw new IllegalArgumentException("solver must not be null");
            }
            solver = s;
            return this;
        }

        /**
         * @param on whether levels are on (Gazebo's --levels)
         * @return this
         */
        public Builder useLevels(boolean on) {
            useLevels = on;
            return this;
        }

        /**
         * Declares a skid-steer drive, the {@link TwistCommand} device {@code drive}.
         *
         * @param drive     the device's name (e.g. the robot model's)
         * @param left      scoped names of the left wheel joints (each with a velocity motor)
         * @param right     scoped names of the right wheel joints
         * @param halfTrack half the wheel track, m
         * @param gain      wheel speed per forward speed, rad/m ({@link SkidSteerDrive#NRP_GAIN} for the NRP Husky)
         * @return this
         */
        public Builder skidSteer(String drive, String[] left, String[] right, double halfTrack, double gain) {
            if (drives.containsKey(drive)) {
                throw new IllegalArgumentException("skid-steer drive '" + drive + "' is declared twice");
            }
            drives.put(drive, new DriveSpec(left, right, halfTrack, gain));
            return this;
        }

        /**
         * Recolours a model's visuals as cameras see them (the experiment's screen colour).
         *
         * @param model the model
         * @param r     red in [0, 1]
         * @param g     green in [0, 1]
         * @param b     blue in [0, 1]
         * @return this
         */
        public Builder visualColor(String model, double r, double g, double b) {
            colourModels.add(model);
            colours.add(new double[] {r, g, b});
            return this;
        }

        /**
         * @return the engine (its world runner is created now, so wrong joints, models and colours fail here)
         */
        public WorldEngine build() {
            return new WorldEngine(this);
        }
    }
}
