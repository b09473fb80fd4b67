package io.tandem.world;

import io.tandem.world.internal.PoseMath;
import io.tandem.world.record.FoxgloveFrameTransforms;
import io.tandem.world.record.McapWriter;
import io.tandem.world.record.ShortestDecimal;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes every loaded model's pose after each iteration (and each link's of a model of several
 * links, each cable segment's and each deformable body's node's, named {@code NAME::LINK} or
 * {@code NAME::INDEX}), and every level load and unload, as CSV
 * ({@code iteration,sim_time_s,model,x,y,z,qx,qy,qz,qw,event}: pose rows leave event empty,
 * event rows leave the pose empty) or JSON lines ({"iteration":..,"sim_time_s":..,"model":..,
 * "x":..,...} and {"iteration":..,"sim_time_s":..,"event":"Loaded level [NAME] at iteration N"}).
 * Numbers are written in full precision, as the shortest decimal that parses back to the double
 * ({@link ShortestDecimal}: {@link Double#toString}'s text from JDK 19 on, the same text on every JDK),
 * so two runs compare exactly.
 * Or MCAP ({@link #open}): the JSON lines' joint and event objects as messages on
 * {@code /tandem/joints} and {@code /tandem/events}, logged at the simulated time (the pose rows on
 * {@code /tandem/poses} too with {@link #posesJson}), and
 * each iteration's model and link frames on {@code /tf} in Foxglove's well-known
 * {@code foxglove.FrameTransforms} schema, protobuf-encoded ({@link FoxgloveFrameTransforms}), so that
 * Foxglove Studio, Lichtblick and Rerun show the run's frames; and the viewer's own channels, so {@code tandem view FILE.mcap} replays it:
 * {@code /tandem/scene} (once), {@code /tandem/state} (on every level change) and
 * {@code /tandem/frames}, a {@link io.tandem.world.view.PoseFrame} every iteration. An indexed file
 * (McapWriter). A {@link WorldView.Listener} on the stepping thread;
 * allocates its lines. A recorder made by {@link #open} (any format) reads the run on the stepping
 * thread and formats and writes on a thread of its own, in order (handed over 256 writes at a time,
 * at most 64 batches behind; then the stepping thread waits, so nothing is lost), so a recording
 * costs the run little more than reading its poses, and closes its file in {@link #close()}. One
 * made on a caller's writer formats and writes on the stepping thread and leaves the writer to the
 * caller.
 */
public final class PoseRecorder implements WorldView.Listener, Closeable {
    /** Output formats. */
    public enum Format { CSV, JSONL, MCAP }

    /** the MCAP channels' topics */
    public static final String POSES_TOPIC = "/tandem/poses";
    public static final String JOINTS_TOPIC = "/tandem/joints";
    public static final String EVENTS_TOPIC = "/tandem/events";
    public static final String TF_TOPIC = "/tf";
    /** the viewer's scene message, once ({@link io.tandem.world.view.SceneDescription}) */
    public static final String SCENE_TOPIC = "/tandem/scene";
    /** the viewer's state messages, on every change */
    public static final String STATE_TOPIC = "/tandem/state";
    /** the viewer's pose frames ({@link io.tandem.world.view.PoseFrame}), every iteration */
    public static final String FRAMES_TOPIC = "/tandem/frames";
    /** the message encoding of {@link #FRAMES_TOPIC} */
    public static final String FRAME_ENCODING = "x-tandem-pose-frame";

    /** /tf's parent frame of every transform */
    private static final byte[] WORLD_FRAME = "world".getBytes(StandardCharsets.UTF_8);

    /** the CSV header line (with its newline) */
    public static final String CSV_HEADER = "iteration,sim_time_s,model,x,y,z,qx,qy,qz,qw,event\n";

    /** a caller's writer (CSV, JSON lines), or null */
    private final Writer out;
    /** the CSV or JSON lines file this recorder opened, or null */
    private final OutputStream file;
    private final Format format;
    /** the MCAP file, or null */
    private final McapWriter mcap;
    private final int[] mcapChannel = new int[7];
    private final long[] mcapSequence = new long[7];
    /** MCAP: formats and writes on a thread of its own, in order, so the stepping thread only reads the run */
    private Thread writer;
    private static final int BATCH = 256;
    private static final int BATCHES = 64;
    /** bytes of the blocks /tandem/frames are packed into on the stepping thread */
    private static final int FRAME_BLOCK_BYTES = 1 << 16;
    private byte[] frameBlock = new byte[0]; // the stepping thread's; the writer reads what was packed
    /** blocks the writer has written out, for the stepping thread to pack into again */
    private final java.util.concurrent.BlockingQueue<byte[]> freeFrameBlocks = new java.util.concurrent.ArrayBlockingQueue<>(8);
    private int frameBlockUsed;
    private final java.util.concurrent.BlockingQueue<List<Runnable>> writes =
            new java.util.concurrent.ArrayBlockingQueue<>(BATCHES);
    private List<Runnable> batch = new ArrayList<>(BATCH);
    private volatile Throwable writeFailure;
    private static final Runnable END = () -> { };
    /** the stepping thread's simulated time while the view feed sends (its sink runs on that thread) */
    private long feedTimeNs;
    /** MCAP: the simulated time between two iterations written on the JSON channels (0: every iteration) */
    private long jsonPeriodNs;
    private long nextJsonNs;
    /** MCAP: whether the pose rows go on /tandem/poses too (/tf holds the same doubles) */
    private boolean posesJson;
    /** whether {@link #time} holds this iteration's sim_time_s text yet (made when a text row needs it) */
    private boolean timeWritten;
    /** the viewer's channels (MCAP): a frame every iteration, the scene and state */
    private io.tandem.world.view.ViewFeed viewFeed;
    private final boolean ownsWriter;
    /** the callers' channels (MCAP): the next sequence of each */
    private final Map<Integer, Long> extraSequence = new HashMap<>();
    /** this iteration's /tf message (MCAP) */
    private final FoxgloveFrameTransforms tf = new FoxgloveFrameTransforms();
    /** the formatting thread's: a row's bytes */
    private final Line line = new Line(256);
    /** the doubles' text (the formatting thread's: the record's own for a file from {@link #open}, else the stepping thread) */
    private final ShortestDecimal decimal = new ShortestDecimal();
    /** this iteration's sim_time_s text */
    private final Line time = new Line(32);
    private double timeT;
    private long timeNs;
    /** per model: what its rows read (filled at the first step) */
    private Map<String, ModelRows> modelRows;
    /** the cables' segments and deformable bodies' nodes: their rows' names ({@code NAME::i}) and global body ids */
    private String[] elasticRows;
    private long[] elasticIds;
    private final double[] scratchPose = new double[7];
    /** the most rows an iteration had: the next capture's capacity */
    private int rowsCapacity = 16;
    /** the writer's: the UTF-8 bytes of each row's name, for /tf */
    private final Map<String, byte[]> utf8Names = new HashMap<>();
    /** the writer's: the UTF-8 bytes of each row's name escaped for a JSON string */
    private final Map<String, byte[]> jsonNames = new HashMap<>();

    /**
     * @param out    where to write (buffer it)
     * @param format CSV or JSON lines
     */
    public PoseRecorder(Writer out, Format format) {
        this(out, null, format, null, false);
        if (format == Format.MCAP) {
            throw new IllegalArgumentException("an MCAP record is binary: open it with PoseRecorder.open(file, MCAP)");
        }
    }

    private PoseRecorder(Writer out, OutputStream file, Format format, McapWriter mcap, boolean ownsWriter) {
        this.out = out;
        this.file = file;
        this.format = format;
        this.mcap = mcap;
        this.ownsWriter = ownsWriter;
        if (format == Format.CSV) {
            write(CSV_HEADER);
        }
    }

    /**
     * A recorder writing a file in a format, which {@link #close()} finishes and closes (an MCAP
     * file gets its summary and footer then).
     *
     * @param file   the file (created or truncated)
     * @param format its format
     * @return the recorder
     * @throws IOException from the file system
     */
    public static PoseRecorder open(Path file, Format format) throws IOException {
        if (format != Format.MCAP) {
            PoseRecorder r = new PoseRecorder(null, new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), format, null,
                    true);
            return r.startWriter(file);
        }
        McapWriter w = new McapWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), "", "tandem",
                McapWriter.DEFAULT_CHUNK_BYTES);
        PoseRecorder r = new PoseRecorder(null, null, format, w, true);
        int tfSchema = w.schema(FoxgloveFrameTransforms.SCHEMA_NAME, FoxgloveFrameTransforms.ENCODING, FoxgloveFrameTransforms.schema());
        r.mcapChannel[0] = -1; // /tandem/poses: posesJson
        r.mcapChannel[1] = w.channel(JOINTS_TOPIC, 0, "json", Map.of());
        r.mcapChannel[2] = w.channel(EVENTS_TOPIC, 0, "json", Map.of());
        r.mcapChannel[3] = w.channel(TF_TOPIC, tfSchema, FoxgloveFrameTransforms.ENCODING, Map.of());
        r.mcapChannel[4] = w.channel(SCENE_TOPIC, 0, "json", Map.of());
        r.mcapChannel[5] = w.channel(STATE_TOPIC, 0, "json", Map.of());
        r.mcapChannel[6] = w.channel(FRAMES_TOPIC, 0, FRAME_ENCODING, Map.of());
        return r.startWriter(file);
    }

    /** Starts the thread that formats and writes the file's rows and messages. */
    private PoseRecorder startWriter(Path file) {
        writer = new Thread(this::writeLoop, "tandem-record-" + file.getFileName());
        writer.setDaemon(true);
        writer.start();
        return this;
    }

    /**
     * Adds a JSON channel of the caller's to an MCAP record (a closed loop's spikes and signals);
     * call it before the first step.
     *
     * @param topic    the channel's topic
     * @param metadata the channel's metadata
     * @return the channel, for {@link #message}
     * @throws IllegalStateException for a CSV or JSON lines record
     * @throws IOException from the file system
     */
    public int jsonChannel(String topic, Map<String, String> metadata) throws IOException {
        if (mcap == null) {
            throw new IllegalStateException("only an MCAP record has channels");
        }
        int id = mcap.channel(topic, 0, "json", metadata);
        extraSequence.put(id, 0L);
        return id;
    }

    /**
     * Writes a message on a channel from {@link #jsonChannel}, on the thread that steps the world
     * or between its steps.
     *
     * @param channel the channel
     * @param timeNs  its log time, simulated ns
     * @param json    the message, one JSON object
     */
    public void message(int channel, long timeNs, String json) {
        failed();
        Runnable w = () -> {
            byte[] b = json.getBytes(StandardCharsets.UTF_8);
            long sequence = extraSequence.merge(channel, 1L, Long::sum) - 1;
            try {
                mcap.message(channel, sequence, timeNs, timeNs, b, 0, b.length);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the record: " + e.getMessage(), e);
            }
        };
        if (writer == null) {
            w.run();
        } else {
            submit(w);
        }
    }

    /**
     * An MCAP record: writes the JSON channels ({@code /tandem/poses}, {@code /tandem/joints},
     * {@code /tf}) once per period of simulated time (the first iteration at or after each multiple
     * of it) rather than every iteration; {@code /tandem/frames} keeps every iteration and
     * {@code /tandem/events} every event. Formatting every pose as JSON text costs more than a light
     * world's physics step; viewers draw at 60 Hz.
     *
     * @param periodNs the period, simulated ns; 0 for every iteration (the default)
     * @return this recorder
     */
    public PoseRecorder jsonEvery(long periodNs) {
        if (periodNs < 0) {
            throw new IllegalArgumentException("periodNs must be >= 0, got " + periodNs);
        }
        jsonPeriodNs = periodNs;
        return this;
    }

    /**
     * An MCAP record: also writes each pose row (models, links, cable segments, deformable nodes)
     * on {@code /tandem/poses} as the JSON lines record's object, at the JSON channels' period.
     * Off by default: {@code /tf} holds the same poses, the same doubles, with their names and
     * times, and their text is the largest part of what a recording adds (most of the writer's
     * work, much of the file, and code the JIT compiles while the physics waits for its own
     * compilation); a JSON lines record ({@code .jsonl}) holds every iteration's rows as text.
     * Call it before the first step.
     *
     * @param on whether to write /tandem/poses
     * @return this recorder
     * @throws IllegalStateException for a CSV or JSON lines record
     * @throws IOException from the file system
     */
    public PoseRecorder posesJson(boolean on) throws IOException {
        if (mcap == null) {
            throw new IllegalStateException("only an MCAP record has channels: a CSV or JSON lines record holds every row");
        }
        if (on && mcapChannel[0] < 0) {
            mcapChannel[0] = mcap.channel(POSES_TOPIC, 0, "json", Map.of());
        }
        posesJson = on;
        return this;
    }

    /** @return the format for a file name ending in .csv, .jsonl or .mcap */
    public static Format formatOf(String fileName) {
        String f = fileName.toLowerCase(Locale.ROOT);
        if (f.endsWith(".csv")) {
            return Format.CSV;
        }
        if (f.endsWith(".jsonl") || f.endsWith(".json")) {
            return Format.JSONL;
        }
        if (f.endsWith(".mcap")) {
            return Format.MCAP;
        }
        throw new IllegalArgumentException("record file '" + fileName + "' must end in .csv, .jsonl or .mcap");
    }

    /** Finishes and closes a file this recorder opened ({@link #open}); nothing for a caller's writer. */
    @Override
    public void close() throws IOException {
        if (!ownsWriter) {
            return;
        }
        if (writer != null) {
            submit(END);
            try {
                writer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while finishing the record");
            }
            writer = null;
            Throwable f = writeFailure;
            if (f != null) {
                closeFile();
                throw f instanceof UncheckedIOException u ? u.getCause() : new IOException(f.getMessage(), f);
            }
        }
        closeFile();
    }

    private void closeFile() throws IOException {
        if (mcap != null) {
            mcap.close();
        } else if (file != null) {
            file.close();
        } else {
            out.close();
        }
    }

    // stepped() is called every iteration: it stays small (a JIT compiles it whole), the rest is in methods of their own
    @Override
    public void stepped(WorldView runner, long iteration, LevelManager.Changes changes) {
        failed();
        double t = runner.simTimeNs() / 1e9;
        long now = runner.simTimeNs();
        // read the run here (the stepping thread), format and write on the writer's thread (MCAP)
        List<String> events = changes.loadedLevels().isEmpty() && changes.unloadedLevels().isEmpty() ? List.of()
                : events(iteration, changes);
        if (modelRows == null) {
            names(runner);
        }
        // MCAP: the JSON channels at their period of simulated time (the first iteration, then each period);
        // the frames below hold every iteration
        boolean rows = mcap == null || jsonPeriodNs == 0 || iteration == 0 || now >= nextJsonNs;
        if (rows && mcap != null && jsonPeriodNs > 0) {
            nextJsonNs = (now / jsonPeriodNs + 1) * jsonPeriodNs;
        }
        Rows captured = rows ? capture(runner) : null;
        if (writer == null) {
            format(iteration, t, now, events, captured);
            return;
        }
        if (rows || !events.isEmpty()) {
            submit(() -> format(iteration, t, now, events, captured));
        }
        if (mcap == null) {
            return;
        }
        if (viewFeed == null) {
            viewFeed = frameFeed(runner);
        }
        feedTimeNs = now;
        viewFeed.stepped(runner, iteration, changes);
    }

    private static List<String> events(long iteration, LevelManager.Changes changes) {
        List<String> events = new ArrayList<>(2);
        for (String level : changes.loadedLevels()) {
            events.add("Loaded level [" + level + "] at iteration " + iteration);
        }
        for (String level : changes.unloadedLevels()) {
            events.add("Unloaded level [" + level + "] at iteration " + iteration);
        }
        return events;
    }

    /** At the first step: the rows' names of links, joints, cable segments and deformable nodes. */
    private void names(WorldView runner) {
        List<String> elastic = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        if (runner instanceof WorldRunner r) {
            r.elasticBodyIds().forEach((name, bodies) -> {
                for (int i = 0; i < bodies.length; i++) {
                    elastic.add(name + "::" + i);
                    ids.add(bodies[i]);
                }
            });
        }
        elasticRows = elastic.toArray(new String[0]);
        elasticIds = ids.stream().mapToLong(Long::longValue).toArray();
        Map<String, ModelRows> byModel = new HashMap<>();
        WorldRunner r = runner instanceof WorldRunner w ? w : null;
        for (World.Model m : runner.world().models()) {
            int handle = r == null ? -1 : r.modelHandle(m.name());
            if (m.links().size() <= 1) {
                byModel.put(m.name(), new ModelRows(handle, null, null, null));
                continue;
            }
            String[] links = new String[m.links().size()];
            for (int i = 0; i < links.length; i++) {
                links[i] = m.name() + "::" + m.links().get(i).name();
            }
            String[] joints = new String[m.joints().size()];
            int[] handles = new int[joints.length];
            for (int i = 0; i < joints.length; i++) {
                joints[i] = m.name() + "::" + m.joints().get(i).name();
                handles[i] = r == null ? -1 : r.jointHandle(joints[i]);
            }
            byModel.put(m.name(), new ModelRows(handle, links, joints, handles));
        }
        modelRows = byModel;
    }

    /**
     * What a model's rows read: its handle in a {@link WorldRunner} (-1 for another view) and, for a
     * model of several links (a robot), its links' and joints' scoped names (MODEL::LINK, MODEL::JOINT,
     * as Gazebo scopes them) and its joints' handles; null for a model of one link.
     */
    private record ModelRows(int handle, String[] links, String[] joints, int[] jointHandles) {
    }

    /**
     * One captured iteration's rows, handed from the stepping thread to the writer: a name and 7 values
     * (x y z qw qx qy qz) per pose row, a name and 1 value per joint's row (at the row's first value).
     */
    private static final class Rows {
        String[] names;
        boolean[] joint;
        double[] values;
        int count;

        Rows(int capacity) {
            names = new String[capacity];
            joint = new boolean[capacity];
            values = new double[7 * capacity];
        }

        /** a pose row: its 7 values from q */
        void pose(String name, double[] q) {
            int k = next(name);
            System.arraycopy(q, 0, values, 7 * k, 7);
        }

        /** a joint's row */
        void joint(String name, double q) {
            int k = next(name);
            joint[k] = true;
            values[7 * k] = q;
        }

        private int next(String name) {
            if (count == names.length) {
                names = java.util.Arrays.copyOf(names, 2 * count);
                joint = java.util.Arrays.copyOf(joint, 2 * count);
                values = java.util.Arrays.copyOf(values, 14 * count);
            }
            names[count] = name;
            return count++;
        }
    }

    /**
     * @return the rows of this iteration, in order: each loaded model's pose, then for a robot its links'
     *         poses and its joints' coordinates; then the cables' segments and deformable bodies' nodes.
     *         A runner's are read by handle into arrays, bitwise its {@link WorldRunner#modelPose(String)}
     *         and {@link WorldRunner#linkPose(String, int)} (the values a distributed primary records)
     */
    private Rows capture(WorldView runner) {
        Rows rows = new Rows(rowsCapacity);
        WorldRunner r = runner instanceof WorldRunner w ? w : null;
        double[] q = scratchPose;
        for (String model : runner.loadedModels()) {
            ModelRows m = modelRows.get(model);
            if (!(r != null ? r.modelPose(m.handle(), q) : values(runner.modelPose(model), q))) {
                continue;
            }
            rows.pose(model, q);
            String[] links = m.links();
            if (links == null) {
                continue;
            }
            for (int i = 0; i < links.length; i++) {
                if (r != null ? r.linkPose(m.handle(), i, q) : values(runner.linkPose(model, i), q)) {
                    rows.pose(links[i], q);
                }
            }
            // and its joints' coordinates (revolute, continuous, prismatic; others have none)
            String[] joints = m.joints();
            int[] handles = m.jointHandles();
            for (int i = 0; i < joints.length; i++) {
                double jq = r == null ? runner.jointPosition(model, i) : r.jointPositionOrNaN(handles[i]);
                if (!Double.isNaN(jq)) {
                    rows.joint(joints[i], jq);
                }
            }
        }
        // a row per cable segment and deformable node (always loaded), named as a link row; its state's
        // quaternion normalized as a Pose normalizes it
        for (int i = 0; i < elasticRows.length; i++) {
            if (r.bodyPose(elasticIds[i], q)) {
                PoseMath.set(q, 0, q[0], q[1], q[2], q[3], q[4], q[5], q[6]);
                rows.pose(elasticRows[i], q);
            }
        }
        rowsCapacity = Math.max(rowsCapacity, rows.count);
        return rows;
    }

    /** p's values into q (x y z qw qx qy qz); false for null */
    private static boolean values(Pose p, double[] q) {
        if (p == null) {
            return false;
        }
        q[0] = p.x();
        q[1] = p.y();
        q[2] = p.z();
        q[3] = p.qw();
        q[4] = p.qx();
        q[5] = p.qy();
        q[6] = p.qz();
        return true;
    }

    /** The feed of MCAP's /tandem/scene, /tandem/state and /tandem/frames: the viewer's messages, to the writer. */
    private io.tandem.world.view.ViewFeed frameFeed(WorldView runner) {
        return new io.tandem.world.view.ViewFeed(new io.tandem.world.view.SceneDescription(runner.world()),
                runner.world(), new io.tandem.world.view.ViewFeed.Sink() {
                    @Override
                    public void scene(String json) {
                        long at = feedTimeNs;
                        submit(() -> emit(4, json + "\n", at));
                    }

                    @Override
                    public void state(String json) {
                        long at = feedTimeNs;
                        submit(() -> emit(5, json + "\n", at));
                    }

                    @Override
                    public void frame(java.nio.ByteBuffer frame) {
                        long at = feedTimeNs;
                        submit(() -> message(6, frame.array(), frame.arrayOffset() + frame.position(), frame.remaining(), at));
                    }

                    @Override
                    public void frame(io.tandem.world.view.SceneDescription scene, WorldView view) {
                        // packed into a block handed to the writer with the writes: no buffer per iteration
                        if (frameBlock.length - frameBlockUsed < scene.frameBytes()) {
                            nextFrameBlock(scene.frameBytes());
                        }
                        byte[] block = frameBlock;
                        int off = frameBlockUsed;
                        int length = scene.frame(view, block, off);
                        frameBlockUsed += length;
                        long at = feedTimeNs;
                        submit(() -> message(6, block, off, length, at));
                    }
                }, () -> 0L, 0, Map::of);
    }

    /** Hands the full block back through the writer and packs into one it has written (still in cache) or a new one. */
    private void nextFrameBlock(int frameBytes) {
        byte[] full = frameBlock;
        if (full.length > 0) {
            submit(() -> freeFrameBlocks.offer(full));
        }
        byte[] reused = freeFrameBlocks.poll();
        frameBlock = reused != null && reused.length >= frameBytes ? reused : new byte[Math.max(FRAME_BLOCK_BYTES, frameBytes)];
        frameBlockUsed = 0;
    }

    /** Writes one iteration's events, rows, joints and (MCAP) /tf message: the record's own thread for a file from {@link #open}. */
    private void format(long iteration, double t, long now, List<String> events, Rows captured) {
        timeNs = now;
        tf.clear();
        // the time's text once per iteration, when a text row first needs it (an MCAP record without
        // /tandem/poses writes none for a world without joints)
        timeT = t;
        timeWritten = false;
        for (String e : events) {
            event(iteration, e);
        }
        for (int k = 0; captured != null && k < captured.count; k++) {
            if (captured.joint[k]) {
                joint(iteration, captured.names[k], captured.values[7 * k]);
            } else {
                row(iteration, captured.names[k], captured.values, 7 * k);
            }
        }
        if (mcap != null && tf.size() > 0) {
            message(3, tf.bytes(), tf.length(), timeNs);
        }
    }

    /** A line to the file, or its JSON object to MCAP channel k (without the newline), at this iteration's time. */
    private void emit(int k, String line) {
        emit(k, line, timeNs);
    }

    /** A row to the file, or its JSON object to MCAP channel k (without the newline), at this iteration's time. */
    private void emit(int k, Line l) {
        if (mcap == null) {
            write(l);
        } else {
            message(k, l.b, l.n - 1, timeNs);
        }
    }

    private void emit(int k, String line, long atNs) {
        if (mcap == null) {
            write(line);
            return;
        }
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        message(k, b, b.length - 1, atNs);
    }

    /** The first length bytes of b as a message on MCAP channel k, logged at atNs (the writer's thread). */
    private void message(int k, byte[] b, int length, long atNs) {
        message(k, b, 0, length, atNs);
    }

    private void message(int k, byte[] b, int off, int length, long atNs) {
        try {
            mcap.message(mcapChannel[k], mcapSequence[k]++, atNs, atNs, b, off, length);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the pose record: " + e.getMessage(), e);
        }
    }

    /**
     * Adds a write to the batch for the writer's thread, handing the batch over when it is full
     * (one wake-up of that thread per {@link #BATCH} writes, not one per iteration); waits while the
     * writer is {@link #BATCHES} batches behind (a record loses nothing).
     */
    private void submit(Runnable task) {
        batch.add(task);
        if (batch.size() >= BATCH || task == END) {
            try {
                writes.put(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UncheckedIOException(new java.io.InterruptedIOException("interrupted while recording"));
            }
            batch = new ArrayList<>(BATCH);
        }
    }

    /** Rethrows, on the stepping thread, a failure of the writer's thread. */
    private void failed() {
        Throwable f = writeFailure;
        if (f != null) {
            throw f instanceof UncheckedIOException u ? u : new UncheckedIOException(new IOException(f.getMessage(), f));
        }
    }

    /** The writer's thread: runs the writes in order until the end marker. */
    private void writeLoop() {
        while (true) {
            List<Runnable> tasks;
            try {
                tasks = writes.take();
            } catch (InterruptedException e) {
                return;
            }
            for (Runnable task : tasks) {
                if (task == END) {
                    return;
                }
                if (writeFailure != null) {
                    continue; // drain: the stepping thread reports the failure
                }
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    writeFailure = e;
                }
            }
        }
    }

    /** A joint's row. */
    private void joint(long iteration, String name, double q) {
        Line b = line.clear();
        if (format == Format.CSV) {
            b.num(iteration).ch(',').bytes(time()).ch(',').bytes(utf8(name)).ch(',').num(decimal, q).ascii(",,,,,,,joint\n");
        } else {
            b.ascii("{\"iteration\":").num(iteration).ascii(",\"sim_time_s\":").bytes(time()).ascii(",\"joint\":\"")
                    .bytes(jsonName(name)).ascii("\",\"position\":").num(decimal, q).ascii("}\n");
        }
        emit(1, b);
    }

    /** A pose row, at this iteration's {@link #time}: x y z qw qx qy qz at v[o..o+6]. */
    private void row(long iteration, String name, double[] v, int o) {
        double x = v[o];
        double y = v[o + 1];
        double z = v[o + 2];
        double qw = v[o + 3];
        double qx = v[o + 4];
        double qy = v[o + 5];
        double qz = v[o + 6];
        if (mcap != null) {
            tf.add(timeNs, WORLD_FRAME, utf8(name), x, y, z, qx, qy, qz, qw);
            if (!posesJson) {
                return;
            }
        }
        Line b = line.clear();
        if (format == Format.CSV) {
            write(csvRow(b, decimal, iteration, time(), utf8(name), x, y, z, qx, qy, qz, qw));
            return;
        }
        b.ascii("{\"iteration\":").num(iteration).ascii(",\"sim_time_s\":").bytes(time()).ascii(",\"model\":\"")
                .bytes(jsonName(name)).ch('"');
        b.ascii(",\"x\":").num(decimal, x);
        b.ascii(",\"y\":").num(decimal, y);
        b.ascii(",\"z\":").num(decimal, z);
        b.ascii(",\"qx\":").num(decimal, qx);
        b.ascii(",\"qy\":").num(decimal, qy);
        b.ascii(",\"qz\":").num(decimal, qz);
        b.ascii(",\"qw\":").num(decimal, qw);
        b.ascii("}\n");
        emit(0, b);
    }

    /** @return this iteration's sim_time_s text, written at its first use */
    private Line time() {
        if (!timeWritten) {
            time.clear().num(decimal, timeT);
            timeWritten = true;
        }
        return time;
    }

    /** @return a row's name as UTF-8 (the formatting thread's cache) */
    private byte[] utf8(String name) {
        return utf8Names.computeIfAbsent(name, n -> n.getBytes(StandardCharsets.UTF_8));
    }

    /** @return a row's name escaped for a JSON string, as UTF-8 (the formatting thread's cache) */
    private byte[] jsonName(String name) {
        return jsonNames.computeIfAbsent(name, n -> json(n).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @return a CSV pose row as this recorder writes it (with its newline), for tools that print
     *         poses in the record's format (allocates)
     */
    public static String csvRow(long iteration, double simTimeS, String model, Pose p) {
        ShortestDecimal d = new ShortestDecimal();
        Line time = new Line(ShortestDecimal.MAX_LENGTH).num(d, simTimeS);
        return csvRow(new Line(128), d, iteration, time, model.getBytes(StandardCharsets.UTF_8), p.x(), p.y(), p.z(), p.qx(),
                p.qy(), p.qz(), p.qw()).string();
    }

    private static Line csvRow(Line b, ShortestDecimal d, long iteration, Line time, byte[] model,
                               double x, double y, double z, double qx, double qy, double qz, double qw) {
        b.num(iteration).ch(',').bytes(time).ch(',').bytes(model).ch(',');
        b.num(d, x).ch(',');
        b.num(d, y).ch(',');
        b.num(d, z).ch(',');
        b.num(d, qx).ch(',');
        b.num(d, qy).ch(',');
        b.num(d, qz).ch(',');
        return b.num(d, qw).ascii(",\n");
    }

    /** An event's row, at this iteration's {@link #time}. */
    private void event(long iteration, String text) {
        if (format == Format.CSV) {
            write(iteration + "," + time().string() + ",,,,,,,,," + text + "\n");
        } else {
            emit(2, "{\"iteration\":" + iteration + ",\"sim_time_s\":" + time().string() + ",\"event\":\"" + json(text) + "\"}\n");
        }
    }

    private static String json(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private void write(String s) {
        try {
            if (file != null) {
                file.write(s.getBytes(StandardCharsets.UTF_8));
            } else {
                out.write(s);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the pose record: " + e.getMessage(), e);
        }
    }

    private void write(Line l) {
        try {
            if (file != null) {
                file.write(l.b, 0, l.n);
            } else {
                out.write(l.string());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the pose record: " + e.getMessage(), e);
        }
    }

    /**
     * A line of text as UTF-8 bytes (rows are ASCII but for their names), grown as needed: what a row
     * is formatted into, so that its text is never a String, a char[] or re-encoded on the way to the file.
     */
    private static final class Line {
        byte[] b;
        int n;

        Line(int capacity) {
            b = new byte[capacity];
        }

        Line clear() {
            n = 0;
            return this;
        }

        private void room(int k) {
            if (b.length - n < k) {
                b = java.util.Arrays.copyOf(b, Math.max(2 * b.length, n + k));
            }
        }

        /** s, of ASCII characters only */
        Line ascii(String s) {
            int k = s.length();
            room(k);
            for (int i = 0; i < k; i++) {
                b[n++] = (byte) s.charAt(i);
            }
            return this;
        }

        Line ch(char c) {
            room(1);
            b[n++] = (byte) c;
            return this;
        }

        Line bytes(byte[] x) {
            room(x.length);
            System.arraycopy(x, 0, b, n, x.length);
            n += x.length;
            return this;
        }

        Line bytes(Line x) {
            room(x.n);
            System.arraycopy(x.b, 0, b, n, x.n);
            n += x.n;
            return this;
        }

        /** v in decimal, as Long.toString writes it */
        Line num(long v) {
            if (v < 0) {
                if (v == Long.MIN_VALUE) {
                    return ascii(Long.toString(v));
                }
                ch('-');
                v = -v;
            }
            int digits = 1;
            for (long p = 10; digits < 19 && v >= p; p *= 10) {
                digits++;
            }
            room(digits);
            for (int i = n + digits - 1; i >= n; i--) {
                b[i] = (byte) ('0' + v % 10);
                v /= 10;
            }
            n += digits;
            return this;
        }

        /** v's shortest text ({@link ShortestDecimal}) */
        Line num(ShortestDecimal d, double v) {
            room(ShortestDecimal.MAX_LENGTH);
            n = d.write(b, n, v);
            return this;
        }

        String string() {
            return new String(b, 0, n, StandardCharsets.UTF_8);
        }
    }
}
