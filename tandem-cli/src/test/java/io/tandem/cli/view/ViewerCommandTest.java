package io.tandem.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The viewer's bad input, without a browser: one line each, exit code 2, nothing recorded. */
class ViewerCommandTest {
    private static final String DROP = Path.of("../examples/worlds/drop.sdf").toString();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path tmp;

    private int run(String... args) {
        return TandemCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private String errLine() {
        String e = err.toString().strip();
        assertThat(e).doesNotContain("\n").doesNotContain("Exception").doesNotContain("\tat ");
        return e;
    }

    private void assertNothingRecorded() throws IOException {
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.filter(f -> !f.getFileName().toString().equals("taken.txt")).toList()).isEmpty();
        }
    }

    @Test
    void sim_portInUse_oneLineNamingTheAddressAndTheFixExit2NoRecord() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThat(run("sim", DROP, "--iterations", "10", "--view", Integer.toString(port), "--record",
                    tmp.resolve("run.csv").toString())).isEqualTo(2);
            assertThat(errLine()).startsWith("tandem sim: the viewer cannot listen on 127.0.0.1:" + port)
                    .contains("give another with --view PORT (0: any free port)");
        }
        assertNothingRecorded();
    }

    @Test
    void view_portInUse_oneLineExit2() throws IOException {
        Path mcap = tmp.resolve("run.mcap");
        assertThat(run("sim", DROP, "--iterations", "20", "--record", mcap.toString())).isZero();
        err.getBuffer().setLength(0);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThat(run("view", mcap.toString(), "--port", Integer.toString(taken.getLocalPort()))).isEqualTo(2);
            assertThat(errLine()).startsWith("tandem view: the viewer cannot listen on 127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    void sim_followUnknownOrStaticModel_oneLineWithTheNearestExit2() throws IOException {
        assertThat(run("sim", DROP, "--iterations", "10", "--view", "0", "--follow", "bal", "--record",
                tmp.resolve("run.csv").toString())).isEqualTo(2);
        assertThat(errLine()).isEqualTo("tandem sim: --follow 'bal': world 'drop' has no such model (did you mean 'ball'?);"
                + " models that move: [ball]");
        err.getBuffer().setLength(0);
        assertThat(run("sim", DROP, "--iterations", "10", "--view", "0", "--follow", "pad")).isEqualTo(2);
        assertThat(errLine()).isEqualTo("tandem sim: --follow 'pad': that model is static; follow one that moves: [ball]");
        assertNothingRecorded();
    }

    @Test
    void sim_viewOptionsWithoutView_refused() {
        assertThat(run("sim", DROP, "--follow", "ball")).isEqualTo(2);
        assertThat(err.toString()).contains("--follow needs --view");
    }

    @Test
    void cle_recordNotMcapOrBadPlot_oneLineExit2() {
        String husky = "../examples/experiments/husky-braitenberg.json";
        assertThat(run("cle", husky, "--record", tmp.resolve("x.csv").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--record writes MCAP: give a file ending in .mcap");
        err.getBuffer().setLength(0);
        assertThat(run("cle", husky, "--out", tmp.resolve("out").toString(), "--view", "0", "--view-plot", "husky/w"))
                .isEqualTo(2);
        assertThat(errLine()).isEqualTo("tandem cle: plot 'husky/w': a model plots x, y or z, not 'w' (MODEL::JOINT,"
                + " MODEL::JOINT/position, MODEL::JOINT/velocity, or MODEL/x, /y, /z)");
    }

    @Test
    void view_mcapWithoutTheViewersChannels_oneLineNamingWhatItHoldsExit2() throws IOException {
        Path other = tmp.resolve("other.mcap");
        try (io.tandem.world.record.McapWriter w = new io.tandem.world.record.McapWriter(Files.newOutputStream(other), "",
                "someone else", io.tandem.world.record.McapWriter.DEFAULT_CHUNK_BYTES)) {
            int c = w.channel("/chatter", 0, "json", java.util.Map.of());
            byte[] hello = "{\"text\":\"hello\"}".getBytes(StandardCharsets.UTF_8);
            w.message(c, 0, 1, 1, hello, 0, hello.length);
        }
        assertThat(run("view", other.toString(), "--port", "0")).isEqualTo(2);
        assertThat(errLine()).isEqualTo("tandem view: " + other + ": no /tandem/scene channel to replay (its channels:"
                + " [/chatter]); record with tandem sim WORLD --record FILE.mcap");
    }

    @Test
    void view_notMcapOrMissing_oneLineExit2() throws IOException {
        Path text = tmp.resolve("taken.txt");
        Files.writeString(text, "iteration,sim_time_s\n", StandardCharsets.UTF_8);
        assertThat(run("view", text.toString(), "--port", "0")).isEqualTo(2);
        assertThat(errLine()).isEqualTo("tandem view: " + text + ": not an MCAP recording (it does not start with MCAP's magic"
                + " bytes); give a file written with --record FILE.mcap");
        err.getBuffer().setLength(0);
        assertThat(run("view", tmp.resolve("none.mcap").toString(), "--port", "0")).isEqualTo(2);
        assertThat(errLine()).contains("none.mcap: no such file");
    }
}
