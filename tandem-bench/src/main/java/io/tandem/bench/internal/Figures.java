package io.tandem.bench.internal;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The benches' figures as PNG files ({@code --plot FILE.png}), drawn with XChart (headless AWT):
 * Table I's bars (solver time and constraint error per solver and budget) and the scaling points
 * with their least-squares line. Writes to a temporary file moved into place, so a failed run
 * leaves no half-written figure. Allocates; call from one thread.
 */
public final class Figures {
    static {
        // a bench draws without a display (CI, a server)
        System.setProperty("java.awt.headless", "true");
    }

    private Figures() {
    }

    /**
     * @param file a path ending in .png
     * @throws IllegalArgumentException naming the fix when it does not
     */
    public static void requirePng(Path file) {
        if (!file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
            throw new IllegalArgumentException("--plot takes a .png file, got '" + file + "'");
        }
    }

    /**
     * Table I's shape: AT (ms) and AA side by side, one bar per solver at each iteration budget.
     *
     * @param at    [solver][budget] solver time per step, ms
     * @param aa    [solver][budget] mean constraint error
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

    /** The scaling points (N, ms per step) and the line t = a + b N with its R^2. */
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
