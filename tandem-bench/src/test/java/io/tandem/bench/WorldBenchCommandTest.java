package io.tandem.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.world.World;
import io.tandem.world.sdf.SdfLoader;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(180)
class WorldBenchCommandTest {
    private static final Pattern STANDALONE = Pattern.compile("\\{\"bench\":\"world\",\"world\":\"heavy\",\"mode\":\"standalone\","
            + "\"iterations\":40,\"runs\":1,\"rtf\":[0-9.]+,\"rtf_whole_run\":[0-9.]+}");
    private static final Pattern DISTRIBUTED = Pattern.compile("\\{\"bench\":\"world\",\"world\":\"heavy\",\"mode\":\"distributed\","
            + "\"secondaries\":2,\"iterations\":40,\"runs\":1,\"record\":true,\"rtf\":[0-9.]+,\"rtf_whole_run\":[0-9.]+,"
            + "\"overhead_us\":[0-9.]+,\"handovers\":0}");
    private static final Pattern RATIO = Pattern.compile("\\{\"bench\":\"world\",\"world\":\"heavy\",\"mode\":\"ratio\","
            + "\"distributed_over_standalone\":[0-9.]+}");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @AfterEach
    void noChildOutlivesTheCommand() {
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList()).isEmpty();
    }

    @Test
    void heavyWorld_twoPerformersEachWithHalfTheBoxesInItsOwnLevel() {
        World w = SdfLoader.load(new ByteArrayInputStream(WorldCommand.heavyWorld(10).getBytes(StandardCharsets.UTF_8)),
                "heavy.sdf", warning -> { });
        assertThat(w.performers()).hasSize(2);
        assertThat(w.levels()).hasSize(2);
        for (World.Level l : w.levels()) {
            // a plate and five boxes
            assertThat(l.refs()).hasSize(6);
        }
        assertThat(w.models().stream().filter(m -> !m.isStatic()).count()).isEqualTo(12);
    }

    @Test
    void execute_tinyHeavyRun_printsStandaloneDistributedAndRatioAsJson() {
        int code = BenchCli.run(out, err, "bench", "world", "--world", "heavy", "--bodies", "8", "--iterations", "40", "--runs",
                "1", "--record", "--json");

        assertThat(code).as("stderr: %s", err).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).matches(STANDALONE);
        assertThat(lines.get(1)).matches(DISTRIBUTED);
        assertThat(lines.get(2)).matches(RATIO);
    }

    @Test
    void execute_unknownWorld_exits2NamingIt() {
        assertThat(BenchCli.run(out, err, "bench", "world", "--world", "no-such.sdf")).isEqualTo(2);
        assertThat(err.toString()).contains("'no-such.sdf'");
    }

    /** --plot: the real-time factors and the lockstep overhead of the runs, a PNG of its size with something drawn. */
    @Test
    void plot_world_writesAPngOfTheMeasuredRuns(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("world.png");
        int code = BenchCli.run(out, err, "bench", "world", "--world", "heavy", "--bodies", "8", "--iterations", "40",
                "--runs", "1", "--plot", png.toString());

        assertThat(code).as("stderr: %s", err).isZero();
        assertThat(out.toString()).contains("figure: " + png);
        PngCheck.assertFigure(png, 1400, 560);
    }

    @Test
    void plot_worldNotPng_exits2InOneLineBeforeRunning(@TempDir Path dir) {
        Path pdf = dir.resolve("world.pdf");
        assertThat(BenchCli.run(out, err, "bench", "world", "--world", "heavy", "--plot", pdf.toString())).isEqualTo(2);
        assertThat(err.toString().lines().findFirst()).hasValueSatisfying(l -> assertThat(l)
                .contains("tandem: --plot takes a .png file, got '" + pdf + "'"));
        assertThat(err.toString()).doesNotContain("Exception");
        assertThat(out.toString()).isEmpty();
        assertThat(pdf).doesNotExist();
    }
}
