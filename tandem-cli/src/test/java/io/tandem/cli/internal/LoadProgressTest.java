package io.tandem.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The progress lines of a long load, on a manual clock: share read, then each named phase. */
class LoadProgressTest {
    @Test
    void tick_throughTheLoad_namesTheShareReadThenEachPhaseWithTheTime() throws Exception {
        StringWriter out = new StringWriter();
        long[] nowNs = {0};
        LoadProgress p = LoadProgress.manual("big.sdf", 4_000_000, new PrintWriter(out, true), () -> nowNs[0]);
        try (InputStream in = p.count(new ByteArrayInputStream(new byte[4_000_000]))) {
            in.readNBytes(1_000_000);
            nowNs[0] = 2_000_000_000L;
            p.tick();
            in.read();
            in.readNBytes(2_999_999);
            nowNs[0] = 7_000_000_000L;
            p.tick();
        }
        p.phase("compiling the physics of 1000 models");
        nowNs[0] = 12_000_000_000L;
        p.tick();
        p.close();
        assertThat(out.toString().lines()).containsExactly(
                "loading big.sdf: reading, 25 % (1 MB of 4 MB, 2 s)",
                "loading big.sdf: building the world's models (7 s)",
                "loading big.sdf: compiling the physics of 1000 models (12 s)");
    }

    @Test
    void start_quickLoad_printsNothing() {
        StringWriter out = new StringWriter();
        try (LoadProgress p = LoadProgress.start("small.sdf", 10, new PrintWriter(out, true))) {
            p.phase("compiling");
        }
        assertThat(out.toString()).isEmpty();
    }
}
