package io.tandem.world;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Writes every loaded model's pose after each iteration, and every level load and unload, as CSV
 * ({@code iteration,sim_time_s,model,x,y,z,qx,qy,qz,qw,event}: pose rows leave event empty,
 * event rows leave the pose empty) or JSON lines ({"iteration":..,"sim_time_s":..,"model":..,
 * "x":..,...} and {"iteration":..,"sim_time_s":..,"event":"Loaded level [NAME] at iteration N"}).
 * Numbers are written in full precision ({@link Double#toString}), so two runs compare exactly.
 * A {@link WorldView.Listener} on the stepping thread; allocates its lines. The caller owns
 * and closes the writer.
 */
public final class PoseRecorder implements WorldView.Listener {
    /** Output formats. */
    public enum Format { CSV, JSONL }

    /** the CSV header line (with its newline) */
    public static final String CSV_HEADER = "iteration,sim_time_s,model,x,y,z,qx,qy,qz,qw,event\n";

    private final Writer out;
    private final Format format;
    /** per model of several links, its links' scoped names (MODEL::LINK); filled at the first step */
    private Map<String, String[]> linkRows;
    /** per model of several links, its joints' scoped names (MODEL::JOINT); filled at the first step */
    private Map<String, String[]> jointRows;

    /**
     * @param out    where to write (buffer it)
     * @param format CSV or JSON lines
     */
    public PoseRecorder(Writer out, Format format) {
        this.out = out;
        this.format = format;
        if (format == Format.CSV) {
            write(CSV_HEADER);
        }
    }

    /** @return the format for a file name ending in .csv or .jsonl */
    public static Format formatOf(String fileName) {
        String f = fileName.toLowerCase(Locale.ROOT);
        if (f.endsWith(".csv")) {
            return Format.CSV;
        }
        if (f.endsWith(".jsonl") || f.endsWith(".json")) {
            return Format.JSONL;
        }
        throw new IllegalArgumentException("record file '" + fileName + "' must end in .csv or .jsonl");
    }

    @Override
    public void stepped(WorldView runner, long iteration, LevelManager.Changes changes) {
        double t = runner.simTimeNs() / 1e9;
        for (String level : changes.loadedLevels()) {
            event(iteration, t, "Loaded level [" + level + "] at iteration " + iteration);
        }
        for (String level : changes.unloadedLevels()) {
            event(iteration, t, "Unloaded level [" + level + "] at iteration " + iteration);
        }
        if (linkRows == null) {
            linkRows = new HashMap<>();
            jointRows = new HashMap<>();
            for (World.Model m : runner.world().models()) {
                if (m.links().size() > 1) {
                    String[] names = new String[m.links().size()];
                    for (int i = 0; i < names.length; i++) {
                        names[i] = m.name() + "::" + m.links().get(i).name();
                    }
                    linkRows.put(m.name(), names);
                    String[] joints = new String[m.joints().size()];
                    for (int i = 0; i < joints.length; i++) {
                        joints[i] = m.name() + "::" + m.joints().get(i).name();
                    }
                    jointRows.put(m.name(), joints);
                }
            }
        }
        for (String model : runner.loadedModels()) {
            Pose p = runner.modelPose(model);
            if (p == null) {
                continue;
            }
            row(iteration, t, model, p);
            // a model of several links (a robot): a row per link too, named as Gazebo scopes it
            String[] links = linkRows.get(model);
            if (links != null) {
                for (int i = 0; i < links.length; i++) {
                    Pose l = runner.linkPose(model, i);
                    if (l != null) {
                        row(iteration, t, links[i], l);
                    }
                }
                // and its joints' coordinates (revolute, continuous, prismatic; others have none)
                String[] joints = jointRows.get(model);
                for (int i = 0; i < joints.length; i++) {
                    double q = runner.jointPosition(model, i);
                    if (!Double.isNaN(q)) {
                        write(format == Format.CSV ? iteration + "," + t + "," + joints[i] + "," + q + ",,,,,,,joint\n"
                                : "{\"iteration\":" + iteration + ",\"sim_time_s\":" + t + ",\"joint\":\"" + json(joints[i])
                                        + "\",\"position\":" + q + "}\n");
                    }
                }
            }
        }
    }

    private void row(long iteration, double t, String name, Pose p) {
        if (format == Format.CSV) {
            write(csvRow(iteration, t, name, p));
        } else {
            write("{\"iteration\":" + iteration + ",\"sim_time_s\":" + t + ",\"model\":\"" + json(name) + "\",\"x\":"
                    + p.x() + ",\"y\":" + p.y() + ",\"z\":" + p.z() + ",\"qx\":" + p.qx() + ",\"qy\":" + p.qy()
                    + ",\"qz\":" + p.qz() + ",\"qw\":" + p.qw() + "}\n");
        }
    }

    /**
     * @return a CSV pose row as this recorder writes it (with its newline), for tools that print
     *         poses in the record's format (allocates)
     */
    public static String csvRow(long iteration, double simTimeS, String model, Pose p) {
        return iteration + "," + simTimeS + "," + model + "," + p.x() + "," + p.y() + "," + p.z() + "," + p.qx() + ","
                + p.qy() + "," + p.qz() + "," + p.qw() + ",\n";
    }

    private void event(long iteration, double t, String text) {
        if (format == Format.CSV) {
            write(iteration + "," + t + ",,,,,,,,," + text + "\n");
        } else {
            write("{\"iteration\":" + iteration + ",\"sim_time_s\":" + t + ",\"event\":\"" + json(text) + "\"}\n");
        }
    }

    private static String json(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private void write(String s) {
        try {
            out.write(s);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the pose record: " + e.getMessage(), e);
        }
    }
}
