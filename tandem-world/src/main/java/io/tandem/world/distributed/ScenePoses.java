package io.tandem.world.distributed;

import io.tandem.cosim.Participant;
import io.tandem.cosim.pubsub.DataSubscriber;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.cosim.spi.FrameErrors;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;
import io.tandem.world.Pose;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scene a distributed world's primary publishes on {@link #topic} (Gazebo's SceneBroadcaster
 * {@code /world/NAME/pose/info}): after an iteration, every loaded model's pose and the loaded
 * levels. The primary publishes one every {@code --scene-every} iterations (and the initial scene,
 * iteration 0); the secondaries report every dynamic model in those iterations, so every pose is
 * that iteration's. The publisher keeps the last scene (history 1): a viewer that subscribes
 * late gets it at once.
 *
 * <p>Wire format: "TWS" + version byte, then little-endian: iteration, sim time, the model
 * names, 7 doubles per model (x y z in m, then the orientation quaternion qw qx qy qz), the
 * loaded levels. Immutable (the pose array is copied in and out); decoding allocates.
 *
 * @param world        the world's name
 * @param iteration    the iteration just completed (0: the initial scene)
 * @param simTimeNs    simulated time after it, ns
 * @param models       the loaded models, in the world's order
 * @param poses        7 values per model, in the order of models: x y z qw qx qy qz (m; unit quaternion)
 * @param loadedLevels the loaded levels, in the world's order
 */
public record ScenePoses(String world, long iteration, long simTimeNs, List<String> models, double[] poses,
                         List<String> loadedLevels) {
    /** values per model in {@link #poses} */
    public static final int POSE_VALUES = 7;
    static final int VERSION = 1;
    private static final Logger LOG = LoggerFactory.getLogger(ScenePoses.class);
    /** a truncated frame or bytes after it (the counts are checked here, naming what is wrong) */
    private static final FrameErrors ERRORS = new MessageErrors("scene message", "scene");

    /** Validates and copies. */
    public ScenePoses {
        models = List.copyOf(models);
        loadedLevels = List.copyOf(loadedLevels);
        if (poses.length != POSE_VALUES * models.size()) {
            throw new IllegalArgumentException("a scene needs 7 pose values per model: " + models.size() + " models, "
                    + poses.length + " values");
        }
        poses = poses.clone();
    }

    /** @return a copy of the pose values (7 per model) */
    @Override
    public double[] poses() {
        return poses.clone();
    }

    /**
     * @param i a model's index in {@link #models}
     * @return its pose (allocates)
     */
    public Pose pose(int i) {
        int o = POSE_VALUES * i;
        return new Pose(poses[o], poses[o + 1], poses[o + 2], poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]);
    }

    /**
     * @param model a model's name
     * @return its pose, or null when it is not in this scene (not loaded)
     */
    public Pose pose(String model) {
        int i = models.indexOf(model);
        return i < 0 ? null : pose(i);
    }

    /**
     * @param worldName a world's name (its {@code <world name=...>})
     * @return the topic its primary publishes the scene on
     */
    public static String topic(String worldName) {
        return DistributedPrimary.topic(worldName, "scene");
    }

    /**
     * Subscribes to a world's scene. Frames that are not scenes of this version are skipped with a
     * warning (once per subscriber).
     *
     * @param participant a participant of the run's simulation (same registry and partition)
     * @param worldName   the world's name
     * @param handler     called on the participant's thread with each scene
     * @return the subscriber
     */
    public static DataSubscriber subscribe(Participant participant, String worldName, Consumer<ScenePoses> handler) {
        boolean[] warned = new boolean[1];
        return participant.createDataSubscriber("scene-" + worldName, PubSubSpec.of(topic(worldName), ""), e -> {
            ScenePoses s;
            try {
                s = decode(e.data());
            } catch (IllegalArgumentException ex) {
                if (!warned[0]) {
                    warned[0] = true;
                    LOG.warn("Skipped a scene of world '{}': {}", worldName, ex.getMessage());
                }
                return;
            }
            handler.accept(s);
        });
    }

    /** @return this scene encoded */
    byte[] encode() {
        return new FrameWriter("scene", 64 + 8 * poses.length).putByte('T').putByte('W').putByte('S').putByte(VERSION)
                .putString(world).putLong(iteration).putLong(simTimeNs).putStrings(models)
                .putInt(poses.length).putDoubles(poses).putStrings(loadedLevels).toByteArray();
    }

    /**
     * @param frame an encoded scene
     * @return the scene
     * @throws IllegalArgumentException for a frame that is not a scene of this version, or a
     *                                  truncated or inconsistent one
     */
    public static ScenePoses decode(byte[] frame) {
        if (frame.length < 4 || frame[0] != 'T' || frame[1] != 'W' || frame[2] != 'S') {
            throw new IllegalArgumentException("not a Tandem scene message (" + frame.length + " bytes)");
        }
        if (frame[3] != VERSION) {
            throw new IllegalArgumentException("scene message version " + frame[3] + ", this process reads version " + VERSION
                    + ": run the same Tandem version as the primary");
        }
        FrameReader b = new FrameReader(ERRORS).wrap(frame, 0, frame.length, 4, 0);
        String world = string(b);
        long iteration = b.getLong();
        long simTimeNs = b.getLong();
        List<String> models = strings(b);
        int n = b.getInt();
        if (n != POSE_VALUES * models.size() || n > b.remaining() / 8) {
            throw new IllegalArgumentException("a scene of " + models.size() + " models with " + n + " pose values");
        }
        double[] poses = new double[n];
        b.getDoubles(poses);
        List<String> levels = strings(b);
        b.expectEnd();
        return new ScenePoses(world, iteration, simTimeNs, models, poses, levels);
    }

    private static List<String> strings(FrameReader b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining() / 4) {
            throw new IllegalArgumentException("bad name count " + n + ": a truncated or corrupt scene message");
        }
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(string(b));
        }
        return out;
    }

    private static String string(FrameReader b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("bad name length " + n + ": a truncated or corrupt scene message");
        }
        byte[] s = new byte[n];
        b.getRaw(s, 0, n);
        return new String(s, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScenePoses s && world.equals(s.world) && iteration == s.iteration && simTimeNs == s.simTimeNs
                && models.equals(s.models) && Arrays.equals(poses, s.poses) && loadedLevels.equals(s.loadedLevels);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * world.hashCode() + Long.hashCode(iteration)) + Arrays.hashCode(poses);
    }

    @Override
    public String toString() {
        return "ScenePoses[" + world + ", iteration " + iteration + ", " + models.size() + " models, levels " + loadedLevels + "]";
    }
}
