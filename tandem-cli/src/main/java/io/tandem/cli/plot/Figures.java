package io.tandem.cli.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The commands' figures as PNG files ({@code --plot FILE.png}), drawn with XChart (headless AWT)
 * from what a run measured: Table I's bars (solver time and constraint error per solver and
 * budget), the scaling points with their least-squares line, lockstep throughput against the
 * number of participants, a world's real-time factor standalone and distributed, and a closed
 * loop's spike raster beside the robot's path. Each method writes to a temporary file beside
 * {@code file} and moves it into place, so a failure leaves no half-written figure. Every method
 * allocates (the charts and their images); call from one thread at a time.
 */
public final class Figures {
    static {
        // a command draws without a display (CI, a server)
        System.setProperty("java.awt.headless", "true");
    }

    private static final BasicStroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f);
    private static final Color REFERENCE = new Color(110, 110, 110);
    /** the path panel's plot area, width over height (its 640 x 640 pixels less title, axes and legend) */
    private static final double PATH_ASPECT = 1.1;

    private Figures() {
    }

    /**
     * Checks a {@code --plot} file name before a run. Allocates nothing.
     *
     * @param file a path ending in .png (any case)
     * @throws IllegalArgumentException naming the fix when it does not (one line, for a usage error)
     */
    public static void requirePng(Path file) {
        Path name = file.getFileName();
        if (name == null || !name.toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
            throw new IllegalArgumentException("--plot takes a .png file, got '" + file + "'");
        }
    }

    /**
     * Table I's shape: AT (ms) and AA side by side, one bar per solver at each iteration budget;
     * 1280 x 480 pixels.
     *
     * @param file    the PNG to write (replaced if it exists)
     * @param title   the scene, put before each panel's title
     * @param solvers the solvers' names, one series each
     * @param budgets the iteration budgets, one group each
     * @param at      [solver][budget] solver time per step, ms
     * @param aa      [solver][budget] mean constraint error (dimensionless)
     * @throws IOException when the file cannot be written
     */
    public static void solvers(Path file, String title, List<String> solvers, List<Integer> budgets, double[][] at, double[][] aa)
            throws IOException {
        List<String> x = new ArrayList<>();
        for (int b : budgets) {
            x.add(b + " iterations");
        }
        CategoryChart time = new CategoryChartBuilder().width(640).height(480).title(title + ": AT").xAxisTitle("budget")
                .yAxisTitle("solver time per step (ms)").build();
        // the errors span decades: lines over the budgets on a log axis, unless one is 0 (a run without contacts)
        XYChart error = new XYChartBuilder().width(640).height(480).title(title + ": AA").xAxisTitle("iterations per step")
                .yAxisTitle("mean constraint error").build();
        boolean positive = true;
        for (double[] row : aa) {
            for (double v : row) {
                positive &= v > 0;
            }
        }
        error.getStyler().setYAxisLogarithmic(positive);
        double[] budget = new double[budgets.size()];
        for (int k = 0; k < budget.length; k++) {
            budget[k] = budgets.get(k);
        }
        for (int s = 0; s < solvers.size(); s++) {
            time.addSeries(solvers.get(s), x, boxed(at[s]));
            error.addSeries(solvers.get(s), budget, aa[s]);
        }
        write(file, BitmapEncoder.getBufferedImage(time), BitmapEncoder.getBufferedImage(error));
    }

    /**
     * The scaling points (N, ms per step) and the line t = a + b N with its R^2; 800 x 560 pixels.
     *
     * @param file  the PNG to write (replaced if it exists)
     * @param title the bench and scenario, put before the fit in the title
     * @param n     sphere counts
     * @param t     time per step at each count, ms
     * @param a     the line's intercept, ms
     * @param b     the line's slope, ms per sphere
     * @param r2    the fit's coefficient of determination
     * @throws IOException when the file cannot be written
     */
    public static void scaling(Path file, String title, double[] n, double[] t, double a, double b, double r2) throws IOException {
        XYChart chart = new XYChartBuilder().width(800).height(560)
                .title(String.format(Locale.ROOT, "%s: t = %.3f ms + %.3f us x N, R^2 = %.4f", title, a, b * 1e3, r2))
                .xAxisTitle("spheres N").yAxisTitle("time per step (ms)").build();
        XYSeries points = chart.addSeries("measured", n, t);
        points.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        double lo = n[0];
        double hi = n[0];
        for (double v : n) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        XYSeries fit = chart.addSeries("least-squares line", new double[] {lo, hi}, new double[] {a + b * lo, a + b * hi});
        fit.setMarker(SeriesMarkers.NONE);
        write(file, BitmapEncoder.getBufferedImage(chart));
    }

    /**
     * Lockstep throughput against the number of participants (on a log axis where the figures
     * span a decade or more): the median of the runs at each count as a line, each run as a point,
     * and beside them a published reference range (its lowest and highest figure, dashed) where
     * one is given; 900 x 600 pixels.
     *
     * @param file           the PNG to write (replaced if it exists)
     * @param title          the chart's title
     * @param measured       what was measured (the transport), the series' name
     * @param participants   participant counts, at least one, in any order
     * @param stepsPerS      [count][run] virtual steps per wall second, at least one run per count, all > 0
     * @param reference      the reference's name, e.g. "SIL Kit 5.0.8"; ignored when refParticipants is empty
     * @param refParticipants participant counts the reference gives figures for, increasing (may be empty)
     * @param refLow         [count] its lowest figure, steps/s
     * @param refHigh        [count] its highest figure, steps/s
     * @throws IOException when the file cannot be written
     */
    public static void timesync(Path file, String title, String measured, int[] participants, double[][] stepsPerS,
            String reference, int[] refParticipants, double[] refLow, double[] refHigh) throws IOException {
        // a log axis where the figures span a decade or more (a log axis labels only powers of 10)
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (double[] runs : stepsPerS) {
            for (double v : runs) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        for (int i = 0; i < refParticipants.length; i++) {
            lo = Math.min(lo, refLow[i]);
            hi = Math.max(hi, refHigh[i]);
        }
        boolean log = lo > 0 && hi >= 10 * lo;
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title).xAxisTitle("participants N")
                .yAxisTitle("virtual steps per wall second (steps/s" + (log ? ", log scale)" : ")")).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setXAxisDecimalPattern("#").setYAxisDecimalPattern("#,###").setYAxisLogarithmic(log);
        // the line runs over the counts in increasing order, whatever order they were measured in
        Integer[] order = new Integer[participants.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(participants[a], participants[b]));
        double[] n = new double[participants.length];
        double[] median = new double[participants.length];
        int points = 0;
        for (int i = 0; i < n.length; i++) {
            n[i] = participants[order[i]];
            median[i] = median(stepsPerS[order[i]]);
            points += stepsPerS[i].length;
        }
        XYSeries med = chart.addSeries(measured + ": median of the runs", n, median);
        med.setMarker(SeriesMarkers.CIRCLE);
        if (points > n.length) {
            double[] x = new double[points];
            double[] y = new double[points];
            int k = 0;
            for (int i = 0; i < n.length; i++) {
                for (double v : stepsPerS[i]) {
                    x[k] = participants[i];
                    y[k++] = v;
                }
            }
            XYSeries runs = chart.addSeries(measured + ": each run", x, y);
            runs.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            runs.setMarker(SeriesMarkers.DIAMOND);
        }
        if (refParticipants.length > 0) {
            double[] rn = new double[refParticipants.length];
            for (int i = 0; i < rn.length; i++) {
                rn[i] = refParticipants[i];
            }
            // the reference's range: its two bounds in one colour
            XYSeries high = chart.addSeries(reference + ": highest", rn, refHigh);
            high.setLineStyle(DASHED);
            high.setLineColor(REFERENCE);
            high.setMarkerColor(REFERENCE);
            high.setMarker(SeriesMarkers.TRIANGLE_UP);
            XYSeries low = chart.addSeries(reference + ": lowest", rn, refLow);
            low.setLineStyle(DASHED);
            low.setLineColor(REFERENCE);
            low.setMarkerColor(REFERENCE);
            low.setMarker(SeriesMarkers.TRIANGLE_DOWN);
        }
        write(file, BitmapEncoder.getBufferedImage(chart));
    }

    /**
     * A world's real-time factor standalone and distributed, run by run and their medians (left),
     * and the distributed runs' lockstep overhead per iteration (right); each bar is labelled with
     * its value; 1400 x 560 pixels.
     *
     * @param file           the PNG to write (replaced if it exists)
     * @param title          the world and its iterations, put before each panel's title
     * @param distributed    the distributed mode's name, e.g. "distributed (2 secondaries)"
     * @param standaloneRtf  each standalone run's real-time factor (simulated s per wall s), at least one
     * @param distributedRtf each distributed run's real-time factor, as many
     * @param overheadUs     each distributed run's lockstep overhead, us per iteration, as many
     * @throws IOException when the file cannot be written
     */
    public static void world(Path file, String title, String distributed, double[] standaloneRtf, double[] distributedRtf,
            double[] overheadUs) throws IOException {
        List<String> runs = new ArrayList<>();
        for (int r = 1; r <= standaloneRtf.length; r++) {
            runs.add("run " + r);
        }
        runs.add("median");
        CategoryChart rtf = new CategoryChartBuilder().width(720).height(560)
                .title(title + ": real-time factor").xAxisTitle("run")
                .yAxisTitle("real-time factor (simulated s per wall s)").build();
        rtf.getStyler().setLabelsVisible(true);
        rtf.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        rtf.getStyler().setYAxisDecimalPattern("#,##0.##");
        rtf.addSeries("standalone", runs, withMedian(standaloneRtf));
        rtf.addSeries(distributed, runs, withMedian(distributedRtf));
        // one series, named on the x axis: the primary's wait from publishing a step to holding every
        // secondary's ack, less the slowest secondary's own step
        CategoryChart overhead = new CategoryChartBuilder().width(680).height(560)
                .title(title + ": lockstep overhead")
                .xAxisTitle(distributed + " run: the wait for every ack, less the slowest step")
                .yAxisTitle("overhead per iteration (us)").build();
        overhead.getStyler().setLabelsVisible(true);
        overhead.getStyler().setLegendVisible(false);
        overhead.getStyler().setYAxisDecimalPattern("#,##0.#");
        overhead.getStyler().setSeriesColors(new Color[] {rtf.getStyler().getSeriesColors()[1]});
        overhead.addSeries(distributed, runs, withMedian(overheadUs));
        write(file, BitmapEncoder.getBufferedImage(rtf), BitmapEncoder.getBufferedImage(overhead));
    }

    /**
     * One spike recorder's spikes, for {@link #closedLoop}. Holds the arrays it is given.
     *
     * @param recorder the recorder's name, the series' name
     * @param timeS    each spike's time, s
     * @param node     each spike's neuron (node id), as many
     */
    public record Spikes(String recorder, double[] timeS, double[] node) {
    }

    /**
     * A closed loop's run: the spike raster (neuron against time, a small mark per spike, one
     * series per recorder) on the left, the robot's path in the plane on the right (x and y on the
     * same scale, its start and end marked, the target where it was at the end); 1400 x 640 pixels.
     * A panel without data says so in its title.
     *
     * @param file    the PNG to write (replaced if it exists)
     * @param title   the experiment's name, put before each panel's title
     * @param spikes  the recorders' spikes (may be empty)
     * @param robot   the robot's model name, or null when no trajectory was recorded
     * @param x       the robot's x at each sample, m (empty when robot is null)
     * @param y       the robot's y at each sample, m, as many
     * @param target  the target's model name, or null
     * @param targetX the target's x, m (ignored without a target)
     * @param targetY the target's y, m (ignored without a target)
     * @throws IOException when the file cannot be written
     */
    public static void closedLoop(Path file, String title, List<Spikes> spikes, String robot, double[] x, double[] y,
            String target, double targetX, double targetY) throws IOException {
        int count = 0;
        for (Spikes s : spikes) {
            count += s.timeS().length;
        }
        XYChart raster = new XYChartBuilder().width(760).height(640)
                .title(title + ": " + (count == 0 ? "no spikes recorded" : String.format(Locale.ROOT, "spike raster (%,d spikes)",
                        count)))
                .xAxisTitle("simulated time (s)").yAxisTitle("neuron (node id)").build();
        raster.getStyler().setYAxisDecimalPattern("#");
        raster.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal)
                .setMarkerSize(3);
        boolean any = false;
        for (Spikes s : spikes) {
            if (s.timeS().length > 0) {
                XYSeries r = raster.addSeries(s.recorder(), s.timeS(), s.node());
                r.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                r.setMarker(SeriesMarkers.CIRCLE);
                any = true;
            }
        }
        if (!any) {
            raster.getStyler().setLegendVisible(false);
        }
        XYChart path = new XYChartBuilder().width(640).height(640)
                .title(title + ": " + (robot == null || x.length == 0 ? "no trajectory recorded" : robot + "'s path"))
                .xAxisTitle("x (m)").yAxisTitle("y (m)").build();
        path.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal)
                .setMarkerSize(9);
        if (robot != null && x.length > 0) {
            XYSeries p = path.addSeries(robot, x, y);
            p.setMarker(SeriesMarkers.NONE);
            int last = x.length - 1;
            point(path, "start", x[0], y[0], SeriesMarkers.CIRCLE);
            point(path, "end", x[last], y[last], SeriesMarkers.DIAMOND);
            double minX = Arrays.stream(x).min().orElseThrow();
            double maxX = Arrays.stream(x).max().orElseThrow();
            double minY = Arrays.stream(y).min().orElseThrow();
            double maxY = Arrays.stream(y).max().orElseThrow();
            if (target != null) {
                point(path, target, targetX, targetY, SeriesMarkers.SQUARE);
                minX = Math.min(minX, targetX);
                maxX = Math.max(maxX, targetX);
                minY = Math.min(minY, targetY);
                maxY = Math.max(maxY, targetY);
            }
            // about the same metres per pixel on both axes: spans in the plot area's proportions, centred
            double halfY = Math.max(0.5, 0.55 * Math.max((maxX - minX) / PATH_ASPECT, maxY - minY));
            double halfX = halfY * PATH_ASPECT;
            double cx = (minX + maxX) / 2;
            double cy = (minY + maxY) / 2;
            path.getStyler().setXAxisMin(cx - halfX).setXAxisMax(cx + halfX).setYAxisMin(cy - halfY).setYAxisMax(cy + halfY);
        } else {
            path.getStyler().setLegendVisible(false);
        }
        write(file, BitmapEncoder.getBufferedImage(raster), BitmapEncoder.getBufferedImage(path));
    }

    private static void point(XYChart chart, String name, double x, double y, Marker marker) {
        XYSeries s = chart.addSeries(name, new double[] {x}, new double[] {y});
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(marker);
    }

    private static List<Double> withMedian(double[] v) {
        List<Double> out = boxed(v);
        out.add(median(v));
        return out;
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    private static List<Double> boxed(double[] v) {
        List<Double> out = new ArrayList<>();
        for (double d : v) {
            out.add(d);
        }
        return out;
    }

    /** The images side by side, into file through a temporary file beside it. */
    private static void write(Path file, BufferedImage... images) throws IOException {
        int w = 0;
        int h = 0;
        for (BufferedImage i : images) {
            w += i.getWidth();
            h = Math.max(h, i.getHeight());
        }
        BufferedImage all = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = all.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        int x = 0;
        for (BufferedImage i : images) {
            g.drawImage(i, x, 0, null);
            x += i.getWidth();
        }
        g.dispose();
        Path abs = file.toAbsolutePath();
        Files.createDirectories(abs.getParent());
        Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName(), ".tmp");
        try {
            if (!ImageIO.write(all, "png", tmp.toFile())) {
                throw new IOException("no PNG writer in this JVM");
            }
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
