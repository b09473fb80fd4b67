package io.tandem.cli.view;

import io.tandem.world.PoseRecorder;
import io.tandem.world.record.McapReader;
import io.tandem.world.view.SceneDescription;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Plays a recording ({@code --record FILE.mcap}) to the viewer: a playhead in simulated time that
 * runs at {@code speed} times the wall clock while playing, and the recorded frame and state at or
 * before it sent to the hub. The page's timeline acts on it: play, pause, seek (keeping the pause
 * state, unlike gz-sim #720), step N frames, speed. Runs on a thread of its own
 * ({@link #start()}); the controls are thread-safe and never block.
 */
public final class Replay implements ViewerControl, AutoCloseable {
    private final ViewerHub hub;
    private final List<McapReader.Message> frames;
    private final long[] frameNs;
    private final List<McapReader.Message> states;
    private final long[] stateNs;
    private final LongSupplier nanoClock;
    private final Thread thread;
    private final String problem;
    /** a closed loop's spikes and plotted signals, or null for a world run */
    private final SignalWindow signals;
    private volatile boolean closed;

    // guarded by this
    private long playheadNs;
    private boolean paused;
    private double speed = 1;
    private int stepFrames;
    private boolean dirty = true;

    /**
     * @param recording the recording, read
     * @param hub       where the page's messages go
     * @param nanoClock a monotonic clock, ns (the playing speed)
     * @param play      whether to start playing (else paused at the start)
     * @throws ViewerException when the recording has no viewer channels (written before they existed, or not by Tandem)
     */
    public Replay(McapReader.Recording recording, String name, ViewerHub hub, LongSupplier nanoClock, boolean play) {
        List<McapReader.Message> scene = recording.topic(PoseRecorder.SCENE_TOPIC);
        this.frames = recording.topic(PoseRecorder.FRAMES_TOPIC);
        if (scene.isEmpty() || frames.isEmpty()) {
            throw new ViewerException(name + ": no " + (scene.isEmpty() ? PoseRecorder.SCENE_TOPIC : PoseRecorder.FRAMES_TOPIC)
                    + " channel to replay (its channels: " + recording.channels().values().stream()
                            .map(McapReader.Channel::topic).toList() + "); record with tandem sim WORLD --record FILE.mcap");
        }
        this.hub = hub;
        this.states = recording.topic(PoseRecorder.STATE_TOPIC);
        this.frameNs = times(frames);
        this.stateNs = times(states);
        this.nanoClock = nanoClock;
        this.problem = recording.problem();
        this.paused = !play;
        this.playheadNs = frameNs[0];
        this.signals = signals(recording);
        hub.scene(new String(scene.get(0).data(), java.nio.charset.StandardCharsets.UTF_8));
        thread = new Thread(this::run, "tandem-replay");
        thread.setDaemon(true);
    }

    private static final java.util.regex.Pattern SPIKE = java.util.regex.Pattern.compile(
            "\\[(-?[0-9.eE+-]+),([0-9]+),([0-9]+)\\]");
    private static final java.util.regex.Pattern VALUE = java.util.regex.Pattern.compile(
            "\"((?:[^\"\\\\]|\\\\.)*)\":(-?[0-9.eE+-]+|null)");

    /** @return a closed loop's /tandem/spikes and /tandem/signals, read; null when the recording has neither */
    static SignalWindow signals(McapReader.Recording recording) {
        List<McapReader.Message> spikes = recording.topic("/tandem/spikes");
        List<McapReader.Message> values = recording.topic("/tandem/signals");
        if (spikes.isEmpty() && values.isEmpty()) {
            return null;
        }
        SignalWindow w = new SignalWindow();
        for (McapReader.Channel c : recording.channels().values()) {
            if (c.topic().equals("/tandem/spikes") && c.metadata().get("recorders") != null) {
                for (String name : c.metadata().get("recorders").split(",")) {
                    if (!name.isEmpty()) {
                        w.recorder(name);
                    }
                }
            }
        }
        for (McapReader.Message m : spikes) {
            java.util.regex.Matcher k = SPIKE.matcher(new String(m.data(), java.nio.charset.StandardCharsets.UTF_8));
            while (k.find()) {
                int r = Integer.parseInt(k.group(2));
                while (w.recorders().size() <= r) {
                    w.recorder("recorder " + w.recorders().size());
                }
                w.spike(Double.parseDouble(k.group(1)), r, Integer.parseInt(k.group(3)));
            }
        }
        for (McapReader.Message m : values) {
            String text = new String(m.data(), java.nio.charset.StandardCharsets.UTF_8);
            int at = text.indexOf("\"values\":{");
            if (at < 0) {
                continue;
            }
            double t = m.logTimeNs() / 1e9;
            java.util.regex.Matcher k = VALUE.matcher(text.substring(at + 10));
            while (k.find()) {
                String name = k.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
                w.sample(name, t, k.group(2).equals("null") ? Double.NaN : Double.parseDouble(k.group(2)));
            }
        }
        return w;
    }

    private static long[] times(List<McapReader.Message> messages) {
        long[] t = new long[messages.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = messages.get(i).logTimeNs();
        }
        return t;
    }

    /** @return the first frame's time, ns */
    public long startNs() {
        return frameNs[0];
    }

    /** @return the last frame's time, ns */
    public long endNs() {
        return frameNs[frameNs.length - 1];
    }

    /** @return the number of frames */
    public int frames() {
        return frameNs.length;
    }

    /** Starts playing (or showing the start, paused) on its own thread. */
    public void start() {
        thread.start();
    }

    @Override
    public synchronized String apply(String op, double value) {
        switch (op) {
            case "play" -> {
                if (playheadNs >= endNs()) {
                    playheadNs = startNs();
                }
                paused = false;
            }
            case "pause" -> paused = true;
            case "seek" -> {
                if (!Double.isFinite(value)) {
                    return "seek takes a time in seconds, got " + value;
                }
                playheadNs = Math.max(startNs(), Math.min(endNs(), Math.round(value * 1e9)));
            }
            case "step" -> {
                String refused = ViewerControl.stepRefusal(value);
                if (refused != null) {
                    return refused;
                }
                paused = true;
                stepFrames += (int) value;
            }
            case "speed" -> {
                if (!(value > 0) || value > 1000) {
                    return "speed takes a factor in (0, 1000], got " + value;
                }
                speed = value;
            }
            case "reset" -> playheadNs = startNs();
            default -> {
                return "unknown control '" + op + "' (play, pause, seek, step, speed)";
            }
        }
        dirty = true;
        LockSupport.unpark(thread);
        return null;
    }

    /** @return the index of the last message at or before t, or 0 */
    private static int at(long[] times, long t) {
        int lo = 0;
        int hi = times.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (times[mid] <= t) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private void run() {
        int shownFrame = -1;
        int shownState = -1;
        long last = nanoClock.getAsLong();
        long lastStatus = 0;
        long lastSignals = 0;
        while (!closed) {
            long now = nanoClock.getAsLong();
            boolean changed;
            long t;
            boolean p;
            double s;
            synchronized (this) {
                if (!paused) {
                    playheadNs += (long) ((now - last) * speed);
                    if (playheadNs >= endNs()) {
                        playheadNs = endNs();
                        paused = true;
                        dirty = true;
                    }
                }
                if (stepFrames > 0) {
                    int i = Math.min(frameNs.length - 1, at(frameNs, playheadNs) + stepFrames);
                    playheadNs = frameNs[i];
                    stepFrames = 0;
                }
                changed = dirty;
                dirty = false;
                t = playheadNs;
                p = paused;
                s = speed;
            }
            last = now;
            int f = at(frameNs, t);
            if (!states.isEmpty()) {
                int st = at(stateNs, t);
                if (st != shownState) {
                    shownState = st;
                    hub.state(new String(states.get(st).data(), java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            if (f != shownFrame) {
                shownFrame = f;
                hub.frame(ByteBuffer.wrap(frames.get(f).data()));
                if (signals != null && (changed || p || now - lastSignals > 33_000_000L)) {
                    // the raster and plots of the window ending at the frame shown
                    lastSignals = now;
                    hub.signals(signals.json(frameNs[f] / 1e9));
                }
            }
            if (changed || !p && now - lastStatus > 100_000_000L) {
                lastStatus = now;
                hub.status(status(t, p, s));
            }
            LockSupport.parkNanos(this, 8_000_000L);
        }
    }

    private String status(long t, boolean p, double s) {
        return String.format(Locale.ROOT, "{\"type\":\"status\",\"mode\":\"replay\",\"role\":\"replay\",\"paused\":%b,"
                + "\"startS\":%s,\"endS\":%s,\"timeS\":%s,\"speed\":%s,\"ended\":%s,\"peers\":[]}", p, frameNs[0] / 1e9,
                endNs() / 1e9, t / 1e9, s, problem == null ? "null" : SceneDescription.jsonString("recording cut short: "
                        + problem));
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
