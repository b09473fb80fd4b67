package io.tandem.cli.cle;

import io.tandem.cle.record.SpikeTrains;
import io.tandem.cli.view.LiveViewer;
import io.tandem.cli.view.ViewerControl;
import io.tandem.world.Pose;
import io.tandem.world.WorldRunner;
import io.tandem.world.view.SceneDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The viewer of a closed-loop run ({@code tandem cle --view}): the world's 3D scene (its runner's
 * {@link io.tandem.world.view.ViewFeed}), a spike raster of the last {@link #RASTER_WINDOW_NS} of
 * simulated time, as the NRP cockpit's spike-train panel, and rolling plots of the last
 * {@link #PLOT_WINDOW_NS} (the NRP joint plot's 10 s) of the signals chosen with {@code --view-plot}:
 * {@code MODEL::JOINT} (its position, rad or m), {@code MODEL::JOINT/velocity}, {@code MODEL/x},
 * {@code /y}, {@code /z} (m). Play, pause and step N loop steps from the page hold the loop between
 * two loop steps.
 *
 * <p>{@link #afterStep} runs on the loop thread, after each loop step (every engine idle); the
 * signals message is sent at most 30 times a second of wall time, latest-wins.
 */
final class CleViewer implements ViewerControl {
    static final long RASTER_WINDOW_NS = 2_000_000_000L;
    static final long PLOT_WINDOW_NS = 10_000_000_000L;
    private static final long SIGNALS_PERIOD_NS = 1_000_000_000L / 30;

    /** one plotted signal: a ring of (time, value) over the plot window */
    private static final class Series {
        final String name;
        final String model;
        final String joint;
        final char what; // p position, v velocity, x y z
        final double[] t;
        final double[] v;
        int head;
        int size;

        Series(String name, String model, String joint, char what, int capacity) {
            this.name = name;
            this.model = model;
            this.joint = joint;
            this.what = what;
            this.t = new double[capacity];
            this.v = new double[capacity];
        }
    }

    private final LiveViewer viewer;
    private final WorldRunner world;
    private final List<SpikeTrains> spikes;
    private final List<Series> series = new ArrayList<>();
    private final long targetIterations;
    private volatile boolean paused;
    private final AtomicLong steps = new AtomicLong();
    private long lastSignalsNs;
    private final int[] scanned;
    private final int[] top;
    private long shownPausedAt = -1;

    /**
     * @param plots the --view-plot signals, checked
     * @param targetIterations the world's iterations at the end of the run (the HUD's target)
     * @throws IllegalArgumentException naming a signal the world does not have, with the form expected
     */
    CleViewer(LiveViewer viewer, WorldRunner world, List<SpikeTrains> spikes, List<String> plots, long loopStepNs,
              long targetIterations, boolean paused) {
        this.viewer = viewer;
        this.world = world;
        this.spikes = spikes;
        this.targetIterations = targetIterations;
        this.paused = paused;
        this.scanned = new int[spikes.size()];
        this.top = new int[spikes.size()];
        int capacity = (int) Math.min(100_000, PLOT_WINDOW_NS / loopStepNs + 2);
        for (String p : plots) {
            series.add(parse(p, world, capacity));
        }
    }

    /** @return the signal parsed, checked against the world */
    static Series parse(String p, WorldRunner world, int capacity) {
        String form = " (MODEL::JOINT, MODEL::JOINT/position, MODEL::JOINT/velocity, or MODEL/x, /y, /z)";
        int slash = p.lastIndexOf('/');
        String head = slash < 0 ? p : p.substring(0, slash);
        String tail = slash < 0 ? "position" : p.substring(slash + 1);
        if (head.contains("::")) {
            try {
                world.jointHandle(head);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--view-plot '" + p + "': " + e.getMessage());
            }
            char what = switch (tail) {
                case "position" -> 'p';
                case "velocity" -> 'v';
                default -> throw new IllegalArgumentException("--view-plot '" + p + "': a joint plots position or velocity,"
                        + " not '" + tail + "'" + form);
            };
            return new Series(p, null, head, what, capacity);
        }
        if (world.world().model(head).isEmpty()) {
            throw new IllegalArgumentException("--view-plot '" + p + "': world '" + world.world().name() + "' has no model '"
                    + head + "'" + form);
        }
        if (!tail.equals("x") && !tail.equals("y") && !tail.equals("z")) {
            throw new IllegalArgumentException("--view-plot '" + p + "': a model plots x, y or z, not '" + tail + "'" + form);
        }
        return new Series(p, head, null, tail.charAt(0), capacity);
    }

    @Override
    public String apply(String op, double value) {
        switch (op) {
            case "play" -> paused = false;
            case "pause" -> paused = true;
            case "step" -> {
                if (!(value >= 1) || value > 1e9 || value != Math.rint(value)) {
                    return "step takes a whole number of loop steps >= 1, got " + value;
                }
                paused = true;
                steps.addAndGet((long) value);
            }
            case "reset" -> {
                return "reset is not available in a closed-loop run: restart it";
            }
            case "seek", "speed" -> {
                return op + " is for recordings: tandem view RECORDING.mcap";
            }
            default -> {
                return "unknown control '" + op + "' (play, pause, step)";
            }
        }
        return null;
    }

    /** @return the viewer */
    LiveViewer viewer() {
        return viewer;
    }

    /** The page's status before the first step; holds there when started paused. */
    void started(java.util.function.BooleanSupplier stop) {
        viewer.status(paused, targetIterations, null, List.of());
        hold(0, world.simTimeNs(), stop);
    }

    /** The page's status after the run. */
    void ended(String why) {
        viewer.feed().flush(world);
        viewer.status(true, targetIterations, why, List.of());
    }

    /**
     * Samples the plotted signals, sends the signals when due, and holds the loop while paused.
     *
     * @param step   the loop step just run (0-based)
     * @param timeNs the loop's time after it
     * @param stop   whether the run is being stopped (Ctrl-C)
     */
    void afterStep(long step, long timeNs, java.util.function.BooleanSupplier stop) {
        double t = timeNs / 1e9;
        for (Series s : series) {
            double v = sample(s);
            int i = (s.head + s.size) % s.t.length;
            if (s.size == s.t.length) {
                s.head = (s.head + 1) % s.t.length;
            } else {
                s.size++;
            }
            s.t[i] = t;
            s.v[i] = v;
            while (s.size > 0 && s.t[s.head] < t - PLOT_WINDOW_NS / 1e9) {
                s.head = (s.head + 1) % s.t.length;
                s.size--;
            }
        }
        long now = System.nanoTime();
        if (now - lastSignalsNs >= SIGNALS_PERIOD_NS) {
            lastSignalsNs = now;
            viewer.hub().signals(signals(timeNs));
        }
        hold(step + 1, timeNs, stop);
    }

    /** While paused and no step is due: the page shows this very step, the loop waits. */
    private void hold(long done, long timeNs, java.util.function.BooleanSupplier stop) {
        boolean wasPaused = false;
        while (!stop.getAsBoolean()) {
            if (!paused) {
                if (wasPaused) {
                    shownPausedAt = -1;
                    viewer.status(false, targetIterations, null, List.of());
                }
                return;
            }
            long n = steps.get();
            if (n > 0 && steps.compareAndSet(n, n - 1)) {
                return;
            }
            if (shownPausedAt != done) {
                shownPausedAt = done;
                viewer.feed().flush(world);
                viewer.hub().signals(signals(timeNs));
                viewer.status(true, targetIterations, null, List.of());
            }
            wasPaused = true;
            LockSupport.parkNanos(2_000_000L);
        }
    }

    private double sample(Series s) {
        if (s.joint != null) {
            return s.what == 'p' ? world.jointPosition(s.joint) : world.jointVelocity(s.joint);
        }
        Pose p = world.modelPose(s.model);
        if (p == null) {
            return Double.NaN;
        }
        return s.what == 'x' ? p.x() : s.what == 'y' ? p.y() : p.z();
    }

    /** The signals message: the spikes of the raster window ending at timeNs, and every plotted series. */
    String signals(long timeNs) {
        StringBuilder b = new StringBuilder(4096);
        b.append("{\"type\":\"signals\",\"timeS\":").append(timeNs / 1e9).append(",\"windowS\":")
                .append(RASTER_WINDOW_NS / 1e9).append(",\"plotWindowS\":").append(PLOT_WINDOW_NS / 1e9);
        if (!spikes.isEmpty()) {
            int neurons = 1;
            b.append(",\"spikes\":[");
            int k = 0;
            int offset = 0; // several recorders: stacked
            for (int r = 0; r < spikes.size(); r++) {
                SpikeTrains tr = spikes.get(r);
                // the neurons' range over the whole run so far, so the raster does not rescale
                for (; scanned[r] < tr.size(); scanned[r]++) {
                    top[r] = Math.max(top[r], tr.sender(scanned[r]));
                }
                // spikes come in time order per brain step: start a little early, keep those in the window
                long start = timeNs - RASTER_WINDOW_NS;
                for (int i = firstAtOrAfter(tr, start - 100_000_000L); i < tr.size(); i++) {
                    long ti = tr.timeNs(i);
                    if (ti >= start && ti <= timeNs) {
                        b.append(k++ == 0 ? "[" : ",[").append(ti / 1e9).append(',').append(offset + tr.sender(i)).append(']');
                    }
                }
                offset += top[r] + 1;
                neurons = Math.max(neurons, offset);
            }
            b.append("],\"neurons\":").append(neurons);
        }
        if (!series.isEmpty()) {
            b.append(",\"series\":{");
            for (int j = 0; j < series.size(); j++) {
                Series s = series.get(j);
                b.append(j == 0 ? "" : ",").append(SceneDescription.jsonString(s.name)).append(":[[");
                for (int i = 0; i < s.size; i++) {
                    b.append(i == 0 ? "" : ",").append(s.t[(s.head + i) % s.t.length]);
                }
                b.append("],[");
                for (int i = 0; i < s.size; i++) {
                    double v = s.v[(s.head + i) % s.v.length];
                    b.append(i == 0 ? "" : ",").append(Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null");
                }
                b.append("]]");
            }
            b.append('}');
        }
        return b.append('}').toString();
    }

    /** @return the first spike at or after t (spikes are recorded in time order) */
    private static int firstAtOrAfter(SpikeTrains tr, long t) {
        int lo = 0;
        int hi = tr.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (tr.timeNs(mid) < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
