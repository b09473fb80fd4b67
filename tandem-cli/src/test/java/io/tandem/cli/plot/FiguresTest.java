package io.tandem.cli.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The figures on their own: the file name rule, drawing from the data given, panels without data. */
class FiguresTest {
    @TempDir
    Path tmp;

    @Test
    void requirePng_acceptsPngInAnyCase_refusesOtherNamesInOneLine() {
        Figures.requirePng(Path.of("out/a.png"));
        Figures.requirePng(Path.of("B.PNG"));
        for (String bad : new String[] {"a.jpg", "png", "a.png.txt"}) {
            assertThatThrownBy(() -> Figures.requirePng(Path.of(bad))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--plot takes a .png file, got '" + bad + "'");
        }
        assertThatThrownBy(() -> Figures.requirePng(Path.of("/").getRoot())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void timesync_countsWithoutReference_drawsTheMeasuredPointsOnly() throws IOException {
        Path f = tmp.resolve("t.png");
        Figures.timesync(f, "t", "Tandem in-process", new int[] {16, 3}, new double[][] {{2.0e4}, {3.0e5, 2.5e5}},
                "SIL Kit", new int[0], new double[0], new double[0]);
        BufferedImage img = read(f, 900, 600);
        assertThat(colours(img)).isGreaterThan(20);
    }

    @Test
    void world_differentMeasurements_differentImages() throws IOException {
        Path a = tmp.resolve("a.png");
        Path b = tmp.resolve("b.png");
        Figures.world(a, "w", "distributed (2 secondaries)", new double[] {1.5, 1.4}, new double[] {0.4, 0.5},
                new double[] {800, 900});
        Figures.world(b, "w", "distributed (2 secondaries)", new double[] {1.5, 1.4}, new double[] {0.9, 0.5},
                new double[] {800, 900});
        BufferedImage ia = read(a, 1400, 560);
        BufferedImage ib = read(b, 1400, 560);
        assertThat(colours(ia)).isGreaterThan(20);
        assertThat(ia.getRGB(0, 0, 1400, 560, null, 0, 1400)).isNotEqualTo(ib.getRGB(0, 0, 1400, 560, null, 0, 1400));
    }

    @Test
    void closedLoop_noSpikesNoTrajectory_stillDrawsBothPanelsSayingSo() throws IOException {
        Path f = tmp.resolve("sub/c.png");
        Figures.closedLoop(f, "empty", List.of(new Figures.Spikes("spikes", new double[0], new double[0])), null,
                new double[0], new double[0], null, Double.NaN, Double.NaN);
        read(f, 1400, 640);
        try (var files = Files.list(f.getParent())) {
            assertThat(files.toList()).as("no temporary file left").containsExactly(f);
        }
    }

    @Test
    void closedLoop_spikesAndPath_drawn() throws IOException {
        Path f = tmp.resolve("c.png");
        double[] t = new double[200];
        double[] node = new double[200];
        double[] x = new double[200];
        double[] y = new double[200];
        for (int i = 0; i < t.length; i++) {
            t[i] = i * 0.01;
            node[i] = i % 5;
            x[i] = Math.cos(i * 0.03);
            y[i] = Math.sin(i * 0.03);
        }
        Figures.closedLoop(f, "circle", List.of(new Figures.Spikes("spikes", t, node)), "robot", x, y, "goal", 2, 0);
        assertThat(colours(read(f, 1400, 640))).isGreaterThan(20);
    }

    private static BufferedImage read(Path f, int width, int height) throws IOException {
        BufferedImage img = ImageIO.read(f.toFile());
        assertThat(img).as("a PNG ImageIO reads: %s", f).isNotNull();
        assertThat(img.getWidth()).isEqualTo(width);
        assertThat(img.getHeight()).isEqualTo(height);
        return img;
    }

    private static int colours(BufferedImage img) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                seen.add(img.getRGB(x, y));
            }
        }
        return seen.size();
    }
}
