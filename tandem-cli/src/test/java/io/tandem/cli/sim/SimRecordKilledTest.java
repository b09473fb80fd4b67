package io.tandem.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import io.tandem.cli.tools.TestChild;
import io.tandem.world.PoseRecorder;
import io.tandem.world.record.McapReader;
import io.tandem.world.view.PoseFrame;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run killed (kill -9) while it records MCAP: its temporary file holds every complete chunk,
 * which the reader reads, saying where the file ends, and {@code tandem view --partial} replays;
 * without {@code --partial} the viewer refuses it in one line saying what it holds.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimRecordKilledTest {
    @TempDir
    Path tmp;

    @Test
    void killedWhileRecordingMcap_readableUpToItsLastCompleteChunk() throws Exception {
        Path record = tmp.resolve("run.mcap");
        Path partial;
        try (TestChild sim = TestChild.tandem("sim", "sim", "../examples/worlds/drop.sdf", "--levels", "--iterations",
                "100000000", "--record", record.toString())) {
            partial = awaitTempFileOver(3 << 20, sim);
            sim.process.destroyForcibly();
            sim.process.waitFor(20, TimeUnit.SECONDS);
        }
        assertThat(record).doesNotExist();
        McapReader.Recording r = McapReader.read(partial);
        assertThat(r.complete()).isFalse();
        assertThat(r.problem()).contains("ends at byte");
        assertThat(r.chunks()).isGreaterThanOrEqualTo(2);
        List<McapReader.Message> frames = r.topic(PoseRecorder.FRAMES_TOPIC);
        assertThat(frames).hasSizeGreaterThan(500);
        for (int i = 0; i < frames.size(); i++) {
            assertThat(PoseFrame.iteration(ByteBuffer.wrap(frames.get(i).data()))).isEqualTo(i);
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(TandemCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "view", partial.toString(),
                "--port", "0")).isEqualTo(2);
        assertThat(err.toString().strip()).doesNotContain("\n").contains(partial + ": ends at byte",
                "without its summary and footer", " chunks before it; add --partial to replay what it holds");
        assertThat(TandemCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "view", partial.toString(),
                "--port", "0", "--partial", "--for-s", "0.2")).isZero();
        assertThat(out.toString()).contains("viewer: http://127.0.0.1:", "(" + frames.size() + " frames,");
    }

    /** @return the run's temporary record once it holds more than n bytes */
    private Path awaitTempFileOver(long n, TestChild sim) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Stream<Path> files = Files.list(tmp)) {
                for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".tandem-tmp")).toList()) {
                    if (Files.size(p) > n) {
                        return p;
                    }
                }
            }
            LockSupport.parkNanos(50_000_000L);
        }
        throw new AssertionError("no temporary record over " + n + " bytes in " + tmp + "; output:\n" + sim.output());
    }
}
