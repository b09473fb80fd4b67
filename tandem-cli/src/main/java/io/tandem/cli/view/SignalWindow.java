package io.tandem.cli.view;

import io.tandem.world.view.SceneDescription;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A closed loop's signals as the page shows them, live ({@code tandem cle --view}) or replayed
 * ({@code tandem view}): every spike (time, recorder, neuron) and every sample of each plotted
 * signal so far, and the {@code signals} message of a window ending at a time: the spikes of the
 * last {@link #RASTER_WINDOW_S} (raster rows stacked recorder after recorder) and the samples of
 * the last {@link #PLOT_WINDOW_S} (the NRP joint plot's 10 s).
 *
 * <p>Not thread-safe: one thread appends and builds. Appending grows arrays (amortized); building
 * a message allocates it.
 */
public final class SignalWindow {
    /** the raster's window, s of simulated time */
    public static final double RASTER_WINDOW_S = 2;
    /** the plots' window, s of simulated time */
    public static final double PLOT_WINDOW_S = 10;

    private final List<String> recorders = new ArrayList<>();
    private int[] recorderTop = new int[0];
    private double[] spikeT = new double[1024];
    private int[] spikeRow = new int[1024];
    private int[] spikeRecorder = new int[1024];
    private int spikes;
    private final Map<String, double[][]> series = new LinkedHashMap<>();
    private final Map<String, int[]> seriesSize = new LinkedHashMap<>();

    /** @return the index of a spike recorder, added on first use */
    public int recorder(String name) {
        int i = recorders.indexOf(name);
        if (i < 0) {
            recorders.add(name);
            recorderTop = Arrays.copyOf(recorderTop, recorders.size());
            i = recorders.size() - 1;
        }
        return i;
    }

    /** @return the recorders, in the order first seen */
    public List<String> recorders() {
        return List.copyOf(recorders);
    }

    /**
     * @param timeS    when, s (spikes come in time order within a few ms)
     * @param recorder from {@link #recorder}
     * @param node     the neuron's id
     */
    public void spike(double timeS, int recorder, int node) {
        if (spikes == spikeT.length) {
            spikeT = Arrays.copyOf(spikeT, 2 * spikes);
            spikeRow = Arrays.copyOf(spikeRow, 2 * spikes);
            spikeRecorder = Arrays.copyOf(spikeRecorder, 2 * spikes);
        }
        spikeT[spikes] = timeS;
        spikeRow[spikes] = node;
        spikeRecorder[spikes] = recorder;
        spikes++;
        recorderTop[recorder] = Math.max(recorderTop[recorder], node);
    }

    /** @return the spikes so far */
    public int spikes() {
        return spikes;
    }

    /** Adds a sample of a plotted signal (its series made on first use). */
    public void sample(String name, double timeS, double value) {
        double[][] s = series.computeIfAbsent(name, n -> new double[][] {new double[256], new double[256]});
        int[] size = seriesSize.computeIfAbsent(name, n -> new int[1]);
        if (size[0] == s[0].length) {
            s[0] = Arrays.copyOf(s[0], 2 * size[0]);
            s[1] = Arrays.copyOf(s[1], 2 * size[0]);
        }
        s[0][size[0]] = timeS;
        s[1][size[0]] = value;
        size[0]++;
    }

    /** @return the plotted signals' names, in the order first sampled */
    public List<String> seriesNames() {
        return List.copyOf(series.keySet());
    }

    /**
     * @param timeS the window's end, s
     * @return the {@code signals} message: {@code {"type":"signals","timeS":..,"windowS":2,"plotWindowS":10,
     *         "spikes":[[t,row],..],"neurons":N,"series":{name:[[t..],[v..]]}}}
     */
    public String json(double timeS) {
        StringBuilder b = new StringBuilder(4096);
        b.append("{\"type\":\"signals\",\"timeS\":").append(timeS).append(",\"windowS\":").append(RASTER_WINDOW_S)
                .append(",\"plotWindowS\":").append(PLOT_WINDOW_S);
        if (!recorders.isEmpty()) {
            int[] offset = new int[recorders.size()];
            int neurons = 0;
            for (int r = 0; r < offset.length; r++) {
                offset[r] = neurons;
                neurons += recorderTop[r] + 1;
            }
            b.append(",\"spikes\":[");
            double start = timeS - RASTER_WINDOW_S;
            int k = 0;
            // in time order within a brain step: start a little early, keep those in the window
            for (int i = first(spikeT, spikes, start - 0.1); i < spikes && spikeT[i] <= timeS + 0.1; i++) {
                if (spikeT[i] >= start && spikeT[i] <= timeS) {
                    b.append(k++ == 0 ? "[" : ",[").append(spikeT[i]).append(',')
                            .append(offset[spikeRecorder[i]] + spikeRow[i]).append(']');
                }
            }
            b.append("],\"neurons\":").append(Math.max(1, neurons));
        }
        if (!series.isEmpty()) {
            b.append(",\"series\":{");
            int j = 0;
            for (Map.Entry<String, double[][]> e : series.entrySet()) {
                double[] t = e.getValue()[0];
                double[] v = e.getValue()[1];
                int n = seriesSize.get(e.getKey())[0];
                int from = first(t, n, timeS - PLOT_WINDOW_S);
                int to = from;
                while (to < n && t[to] <= timeS) {
                    to++;
                }
                b.append(j++ == 0 ? "" : ",").append(SceneDescription.jsonString(e.getKey())).append(":[[");
                for (int i = from; i < to; i++) {
                    b.append(i == from ? "" : ",").append(t[i]);
                }
                b.append("],[");
                for (int i = from; i < to; i++) {
                    b.append(i == from ? "" : ",").append(Double.isFinite(v[i]) ? String.format(Locale.ROOT, "%.6g", v[i])
                            : "null");
                }
                b.append("]]");
            }
            b.append('}');
        }
        return b.append('}').toString();
    }

    /** @return the first index whose time is at or after t (times ascending, near enough) */
    private static int first(double[] times, int n, double t) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (times[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
