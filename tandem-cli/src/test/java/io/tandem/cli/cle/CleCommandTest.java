package io.tandem.cli.cle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CleCommandTest {
    private static final Path HUSKY = Path.of("../examples/experiments/husky-braitenberg.json");
    private StringWriter out = new StringWriter();
    private StringWriter err = new StringWriter();

    @TempDir
    Path tmp;

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        return TandemCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":(\"[^\"]*\"|[^,}]*)").matcher(json);
        assertThat(m.find()).as("field %s in %s", name, json).isTrue();
        return m.group(1).replace("\"", "");
    }

    @Test
    void cle_huskyParallelAndSerial_sameTrajectory_robotEndsWithinOneMetreOfRed() throws IOException {
        assertThat(run("cle", HUSKY.toString(), "--json", "--out", tmp.resolve("p").toString())).as("%s", err).isZero();
        String parallel = out.toString().trim();
        assertThat(parallel.lines()).hasSize(1);
        assertThat(run("cle", HUSKY.toString(), "--mode", "serial", "--json", "--out", tmp.resolve("s").toString()))
                .as("%s", err).isZero();
        String serial = out.toString().trim();
        assertThat(field(parallel, "mode")).isEqualTo("parallel");
        assertThat(field(serial, "mode")).isEqualTo("serial");
        assertThat(field(parallel, "steps")).isEqualTo("750");
        assertThat(field(serial, "trajectory_sha256")).isEqualTo(field(parallel, "trajectory_sha256")).hasSize(64);
        assertThat(Double.parseDouble(field(parallel, "final_distance_to_red_m"))).isLessThan(1.0);
        for (String f : List.of("experiment", "sim_time_s", "wall_ms_per_step", "brain_ms_per_step", "physics_ms_per_step")) {
            field(parallel, f);
        }
        assertThat(Files.readAllLines(tmp.resolve("p/trajectory.csv"), StandardCharsets.UTF_8)).hasSize(1 + 751);
        assertThat(Files.readString(tmp.resolve("s/trajectory.csv"), StandardCharsets.UTF_8))
                .isEqualTo(Files.readString(tmp.resolve("p/trajectory.csv"), StandardCharsets.UTF_8));
        assertThat(Files.readString(tmp.resolve("s/spikes.csv"), StandardCharsets.UTF_8))
                .isEqualTo(Files.readString(tmp.resolve("p/spikes.csv"), StandardCharsets.UTF_8));
    }

    @Test
    void cle_blueScreen_robotKeepsTurningFarFromTheScreen() {
        assertThat(run("cle", HUSKY.toString(), "--set", "screen_color=blue", "--out", tmp.toString())).as("%s", err).isZero();
        Matcher m = Pattern.compile("final distance to red_screen ([0-9.]+) m").matcher(out.toString());
        assertThat(m.find()).as(out.toString()).isTrue();
        assertThat(Double.parseDouble(m.group(1))).isGreaterThan(3.5);
        assertThat(out.toString()).contains("wrote ");
    }

    @Test
    void cle_badInput_clearErrorNonZeroExitNothingWritten() throws IOException {
        Path outDir = tmp.resolve("never");
        assertThat(run("cle", HUSKY.toString(), "--set", "screen_colour=blue", "--out", outDir.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("screen_colour", "screen_color");
        assertThat(run("cle", HUSKY.toString(), "--mode", "sideways", "--out", outDir.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--mode", "parallel or serial");
        assertThat(run("cle", HUSKY.toString(), "--set", "screen_color", "--out", outDir.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--set");
        Path broken = tmp.resolve("broken.json");
        Files.writeString(broken, "{\n  \"name\": \"x\",\n  \"timeout_s\": -1\n}\n", StandardCharsets.UTF_8);
        assertThat(run("cle", broken.toString(), "--out", outDir.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("broken.json:3:");
        assertThat(run("cle", tmp.resolve("missing.json").toString(), "--out", outDir.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("missing.json");
        assertThat(outDir).doesNotExist();
    }

    @Test
    void cle_brainInASeparateProcess_sameTrajectoryAsInProcess() {
        assertThat(run("cle", HUSKY.toString(), "--json", "--out", tmp.resolve("a").toString())).as("%s", err).isZero();
        String inProcess = out.toString().trim();
        assertThat(run("cle", HUSKY.toString(), "--json", "--separate", "brain", "--out", tmp.resolve("b").toString()))
                .as("%s", err).isZero();
        assertThat(field(out.toString().trim(), "trajectory_sha256")).isEqualTo(field(inProcess, "trajectory_sha256"));
        assertThat(run("cle", HUSKY.toString(), "--separate", "cerebellum")).isEqualTo(2);
        assertThat(err.toString()).contains("--separate takes brain or world");
    }

    /** --plot: the raster beside the path, a PNG of its size with something drawn, listed as written; not .png is refused. */
    @Test
    void plot_cle_writesTheSpikeRasterBesideTheRobotsPath() throws IOException {
        Path png = tmp.resolve("figures/husky.png");
        assertThat(run("cle", HUSKY.toString(), "--out", tmp.resolve("o").toString(), "--plot", png.toString()))
                .as("%s", err).isZero();
        assertThat(out.toString()).contains("wrote " + png);
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img).as("a PNG ImageIO reads").isNotNull();
        assertThat(img.getWidth()).isEqualTo(1400);
        assertThat(img.getHeight()).isEqualTo(640);
        assertThat(colours(img)).as("colours drawn").isGreaterThan(20);
        // both panels drawn: each half has marks of its own
        assertThat(colours(img.getSubimage(0, 0, 760, 640))).isGreaterThan(10);
        assertThat(colours(img.getSubimage(760, 0, 640, 640))).isGreaterThan(10);
        try (var left = Files.list(png.getParent())) {
            assertThat(left.toList()).as("no temporary file left").containsExactly(png);
        }

        Path jpg = tmp.resolve("husky.jpg");
        assertThat(run("cle", HUSKY.toString(), "--out", tmp.resolve("never").toString(), "--plot", jpg.toString()))
                .isEqualTo(2);
        assertThat(err.toString().lines().findFirst()).hasValueSatisfying(l -> assertThat(l)
                .contains("--plot takes a .png file, got '" + jpg + "'"));
        assertThat(err.toString()).doesNotContain("Exception");
        assertThat(jpg).doesNotExist();
        assertThat(tmp.resolve("never")).doesNotExist();
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
