package io.tandem.cli.cle;

import io.tandem.cle.record.SpikeTrains;
import io.tandem.cli.view.SignalWindow;
import io.tandem.world.Pose;
import io.tandem.world.WorldRunner;
import io.tandem.world.view.SceneDescription;
import java.util.ArrayList;
import java.util.List;

/**
 * A closed loop's signals after each loop step: the spikes its recorders got since the last step
 * and a sample of each plotted world signal ({@code MODEL::JOINT} position, {@code MODEL::JOINT/velocity},
 * {@code MODEL/x|y|z}), kept in a {@link SignalWindow} for the viewer and written as JSON messages to
 * an MCAP record ({@code /tandem/spikes}, {@code /tandem/signals}). On the loop thread, between loop
 * steps (every engine idle).
 */
final class CleSignals {
    /** the form a plotted signal takes, for messages */
    static final String FORM = " (MODEL::JOINT, MODEL::JOINT/position, MODEL::JOINT/velocity, or MODEL/x, /y, /z)";

    /** one plotted signal */
    private record Series(String name, String model, String joint, char what) {
    }

    private final WorldRunner world;
    private final List<SpikeTrains> trains;
    private final int[] cursor;
    private final int[] recorder;
    private final List<Series> series = new ArrayList<>();
    private final double[] values;
    private final SignalWindow window = new SignalWindow();
    private final StringBuilder newSpikes = new StringBuilder();

    /**
     * @param plots the signals to plot
     * @throws IllegalArgumentException naming a signal the world does not have, with the form expected
     */
    CleSignals(WorldRunner world, List<SpikeTrains> trains, List<String> plots) {
        this.world = world;
        this.trains = trains;
        this.cursor = new int[trains.size()];
        this.recorder = new int[trains.size()];
        for (int i = 0; i < trains.size(); i++) {
            recorder[i] = window.recorder(trains.get(i).recorder());
        }
        for (String p : plots) {
            series.add(parse(p, world));
        }
        values = new double[series.size()];
    }

    /** @return the signal parsed, checked against the world */
    private static Series parse(String p, WorldRunner world) {
        int slash = p.lastIndexOf('/');
        String head = slash < 0 ? p : p.substring(0, slash);
        String tail = slash < 0 ? "position" : p.substring(slash + 1);
        if (head.contains("::")) {
            try {
                world.jointHandle(head);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("plot '" + p + "': " + e.getMessage());
            }
            char what = switch (tail) {
                case "position" -> 'p';
                case "velocity" -> 'v';
                default -> throw new IllegalArgumentException("plot '" + p + "': a joint plots position or velocity, not '"
                        + tail + "'" + FORM);
            };
            return new Series(p, null, head, what);
        }
        if (world.world().model(head).isEmpty()) {
            throw new IllegalArgumentException("plot '" + p + "': world '" + world.world().name() + "' has no model '" + head
                    + "'" + FORM);
        }
        if (!tail.equals("x") && !tail.equals("y") && !tail.equals("z")) {
            throw new IllegalArgumentException("plot '" + p + "': a model plots x, y or z, not '" + tail + "'" + FORM);
        }
        return new Series(p, head, null, tail.charAt(0));
    }

    /** @return the window the viewer shows */
    SignalWindow window() {
        return window;
    }

    /** @return the spike recorders' names, in the order the spikes' recorder index counts */
    List<String> recorders() {
        return window.recorders();
    }

    /** Takes the new spikes and a sample of each signal, after a loop step that ended at timeNs. */
    void afterStep(long timeNs) {
        newSpikes.setLength(0);
        for (int r = 0; r < trains.size(); r++) {
            SpikeTrains tr = trains.get(r);
            for (; cursor[r] < tr.size(); cursor[r]++) {
                double t = tr.timeNs(cursor[r]) / 1e9;
                window.spike(t, recorder[r], tr.sender(cursor[r]));
                newSpikes.append(newSpikes.length() == 0 ? "[" : ",[").append(t).append(',').append(recorder[r]).append(',')
                        .append(tr.sender(cursor[r])).append(']');
            }
        }
        double t = timeNs / 1e9;
        for (int i = 0; i < series.size(); i++) {
            values[i] = sample(series.get(i));
            window.sample(series.get(i).name(), t, values[i]);
        }
    }

    private double sample(Series s) {
        if (s.joint() != null) {
            return s.what() == 'p' ? world.jointPosition(s.joint()) : world.jointVelocity(s.joint());
        }
        Pose p = world.modelPose(s.model());
        if (p == null) {
            return Double.NaN;
        }
        return s.what() == 'x' ? p.x() : s.what() == 'y' ? p.y() : p.z();
    }

    /** @return the last step's new spikes as a /tandem/spikes message ({@code [t s, recorder, node]} each), or null for none */
    String spikesMessage(long timeNs) {
        return newSpikes.length() == 0 ? null : "{\"timeS\":" + timeNs / 1e9 + ",\"spikes\":[" + newSpikes + "]}";
    }

    /** @return the last step's samples as a /tandem/signals message, or null when nothing is plotted */
    String signalsMessage(long timeNs) {
        if (series.isEmpty()) {
            return null;
        }
        StringBuilder b = new StringBuilder(64 + 32 * series.size());
        b.append("{\"timeS\":").append(timeNs / 1e9).append(",\"values\":{");
        for (int i = 0; i < series.size(); i++) {
            b.append(i == 0 ? "" : ",").append(SceneDescription.jsonString(series.get(i).name())).append(':')
                    .append(Double.isFinite(values[i]) ? Double.toString(values[i]) : "null");
        }
        return b.append("}}").toString();
    }
}
