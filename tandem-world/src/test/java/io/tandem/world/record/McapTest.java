package io.tandem.world.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.world.WorldFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The MCAP writer against its reader and against the format's own structure: every message back in
 * order; chunk indexes pointing at their chunks, message indexes at their messages, statistics and
 * CRCs right; a file cut anywhere reads up to its last complete chunk and says where it ends.
 */
class McapTest {
    private record Written(byte[] file, List<long[]> sent, List<byte[]> payloads) {
    }

    /** Three channels, n messages at 2 ms steps, seeded payload sizes; small chunks so that there are many. */
    private static Written write(int n, int chunkBytes, long seed) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Random rnd = new Random(seed);
        List<long[]> sent = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        try (McapWriter w = new McapWriter(out, "", "tandem test", chunkBytes)) {
            int s = w.schema("tandem.Pose", "jsonschema", "{\"type\":\"object\"}".getBytes(StandardCharsets.UTF_8));
            int[] ch = {w.channel("/tandem/poses", s, "json", Map.of()), w.channel("/tandem/events", 0, "json", Map.of("k", "v")),
                w.channel("/tf", s, "json", Map.of())};
            long[] seq = new long[3];
            for (int k = 0; k < n; k++) {
                int c = rnd.nextInt(3);
                byte[] p = new byte[rnd.nextInt(200)];
                rnd.nextBytes(p);
                long t = 2_000_000L * k;
                w.message(ch[c], seq[c]++, t, t + 1, p, 0, p.length);
                sent.add(new long[] {c, seq[c] - 1, t});
                payloads.add(p);
            }
        }
        return new Written(out.toByteArray(), sent, payloads);
    }

    @Test
    void writeThenRead_threeChannelsManyChunks_everyMessageBackInOrder() throws IOException {
        Written w = write(5000, 4096, 1);
        McapReader.Recording r = McapReader.read(w.file(), "t.mcap");
        assertThat(r.complete()).isTrue();
        assertThat(r.problem()).isNull();
        assertThat(r.library()).isEqualTo("tandem test");
        assertThat(r.chunks()).isGreaterThan(50);
        assertThat(r.channels().get(0).topic()).isEqualTo("/tandem/poses");
        assertThat(r.channels().get(0).schemaName()).isEqualTo("tandem.Pose");
        assertThat(r.channels().get(1).schemaName()).isEmpty();
        assertThat(r.channels().get(1).metadata()).containsEntry("k", "v");
        assertThat(r.messages()).hasSize(5000);
        for (int k = 0; k < 5000; k++) {
            McapReader.Message m = r.messages().get(k);
            assertThat(new long[] {m.channel(), m.sequence(), m.logTimeNs()}).isEqualTo(w.sent().get(k));
            assertThat(m.publishTimeNs()).isEqualTo(m.logTimeNs() + 1);
            assertThat(m.data()).isEqualTo(w.payloads().get(k));
        }
        assertThat(r.topic("/tf")).hasSize((int) w.sent().stream().filter(s -> s[0] == 2).count());
    }

    /** The summary a seeking reader uses: statistics, and chunk and message indexes that point where they say. */
    @Test
    void summary_chunkAndMessageIndexesPointAtTheirRecords_statisticsAndCrcsRight() throws IOException {
        Written w = write(3000, 8192, 2);
        byte[] f = w.file();
        ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        // footer: 8 bytes of magic at the end, before it opcode 0x02, length 20, summary start, summary offset start, crc
        int footer = f.length - 8 - 29;
        assertThat(f[footer]).isEqualTo((byte) McapWriter.OP_FOOTER);
        long summaryStart = b.getLong(footer + 9);
        long summaryOffsetStart = b.getLong(footer + 17);
        long summaryCrc = b.getInt(footer + 25) & 0xffffffffL;
        CRC32 crc = new CRC32();
        crc.update(f, (int) summaryStart, footer + 25 - (int) summaryStart);
        assertThat(summaryCrc).isEqualTo(crc.getValue());
        // DataEnd just before the summary: the CRC of everything before it
        int dataEnd = (int) summaryStart - 13;
        assertThat(f[dataEnd]).isEqualTo((byte) McapWriter.OP_DATA_END);
        CRC32 data = new CRC32();
        data.update(f, 0, dataEnd);
        assertThat(b.getInt(dataEnd + 9) & 0xffffffffL).isEqualTo(data.getValue());
        int chunkIndexes = 0;
        long indexed = 0;
        for (int p = (int) summaryStart; p < summaryOffsetStart; ) {
            int op = f[p] & 0xff;
            int len = (int) b.getLong(p + 1);
            int c = p + 9;
            if (op == McapWriter.OP_STATISTICS) {
                assertThat(b.getLong(c)).as("message count").isEqualTo(3000);
                assertThat(b.getShort(c + 8)).as("schemas").isEqualTo((short) 1);
                assertThat(b.getInt(c + 10)).as("channels").isEqualTo(3);
                assertThat(b.getLong(c + 34)).as("last time").isEqualTo(2_000_000L * 2999);
            }
            if (op == McapWriter.OP_CHUNK_INDEX) {
                chunkIndexes++;
                long start = b.getLong(c + 16);
                long length = b.getLong(c + 24);
                assertThat(f[(int) start]).as("a chunk at %d", start).isEqualTo((byte) McapWriter.OP_CHUNK);
                assertThat(9 + b.getLong((int) start + 1)).isEqualTo(length);
                // the chunk's records start after its fixed fields and empty compression string
                int records = (int) start + 9 + 8 + 8 + 8 + 4 + 4 + 8;
                int mapBytes = b.getInt(c + 32);
                for (int e = c + 36; e < c + 36 + mapBytes; e += 10) {
                    int idx = (int) b.getLong(e + 2);
                    assertThat(f[idx]).isEqualTo((byte) McapWriter.OP_MESSAGE_INDEX);
                    int channel = b.getShort(idx + 9);
                    assertThat(channel).isEqualTo(b.getShort(e));
                    int pairs = b.getInt(idx + 11) / 16;
                    for (int k = 0; k < pairs; k++) {
                        long time = b.getLong(idx + 15 + 16 * k);
                        int msg = records + (int) b.getLong(idx + 23 + 16 * k);
                        assertThat(f[msg]).isEqualTo((byte) McapWriter.OP_MESSAGE);
                        assertThat(b.getShort(msg + 9)).as("the indexed message's channel").isEqualTo((short) channel);
                        assertThat(b.getLong(msg + 15)).as("the indexed message's time").isEqualTo(time);
                        indexed++;
                    }
                }
            }
            p = c + len;
        }
        assertThat(chunkIndexes).isEqualTo(McapReader.read(f, "t").chunks());
        assertThat(indexed).as("messages reached through the indexes").isEqualTo(3000);
    }

    /** A run killed while recording: the file cut anywhere reads every message of its complete chunks and says where it ends. */
    @ParameterizedTest
    @ValueSource(ints = {1, 7, 100, 2000, 9000, 20000})
    void cutShort_readsUpToTheLastCompleteChunkAndSaysWhere(int keep) throws IOException {
        Written w = write(1000, 2048, 3);
        byte[] cut = Arrays.copyOf(w.file(), Math.min(keep + 8, w.file().length - 1));
        if (cut.length < 8) {
            return;
        }
        McapReader.Recording r = McapReader.read(cut, "cut.mcap");
        assertThat(r.complete()).isFalse();
        assertThat(r.problem()).startsWith("cut.mcap: ").contains("byte").contains("read " + r.messages().size() + " messages");
        for (int k = 0; k < r.messages().size(); k++) {
            assertThat(r.messages().get(k).data()).isEqualTo(w.payloads().get(k));
        }
        McapReader.Recording whole = McapReader.read(w.file(), "whole.mcap");
        // a cut file loses at most the open chunk: what it read is a prefix of the whole
        assertThat(r.messages().size()).isLessThanOrEqualTo(whole.messages().size());
    }

    @Test
    void notMcap_oneLineNamingTheFile() {
        assertThatThrownBy(() -> McapReader.read("iteration,sim_time_s,model\n".getBytes(StandardCharsets.UTF_8), "run.csv"))
                .isInstanceOf(WorldFormatException.class)
                .hasMessage("run.csv: not an MCAP recording (it does not start with MCAP's magic bytes); give a file written with"
                        + " --record FILE.mcap");
    }

    @Test
    void damagedChunk_crcMismatchNamedWithItsByte() throws IOException {
        Written w = write(200, 1 << 20, 4);
        byte[] f = w.file().clone();
        // a payload byte inside the (only) chunk flipped
        int chunk = -1;
        for (int p = 8; p < f.length; ) {
            if (f[p] == McapWriter.OP_CHUNK) {
                chunk = p;
                break;
            }
            p += 9 + (int) ByteBuffer.wrap(f, p + 1, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        }
        f[chunk + 200] ^= 0x5a;
        int at = chunk;
        assertThatThrownBy(() -> McapReader.read(f, "bad.mcap")).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith("bad.mcap: a malformed record (opcode 0x6) at byte " + at).hasMessageContaining("CRC");
    }

    @Test
    void noMessages_validEmptyRecording() throws IOException {
        Written w = write(0, 1024, 5);
        McapReader.Recording r = McapReader.read(w.file(), "empty.mcap");
        assertThat(r.complete()).isTrue();
        assertThat(r.messages()).isEmpty();
        assertThat(r.channels()).hasSize(3);
    }

    @Test
    void declaringAfterMessages_refused() throws IOException {
        try (McapWriter w = new McapWriter(new ByteArrayOutputStream(), "", "t", 100)) {
            int c = w.channel("/a", 0, "json", Map.of());
            w.message(c, 0, 0, 0, new byte[1], 0, 1);
            assertThatThrownBy(() -> w.channel("/b", 0, "json", Map.of())).hasMessageContaining("before the first message");
            assertThatThrownBy(() -> w.message(7, 0, 0, 0, new byte[1], 0, 1)).hasMessageContaining("no channel 7");
        }
    }

    /**
     * The official reader (npm @mcap/core 2.2.2, which Foxglove and Lichtblick build on) reads our
     * file: sequentially with CRC checks, and indexed, with a time-range query answered from the
     * chunk and message indexes. Needs node and the package in tandem-world/target/mcapjs (.ci/run
     * installs it); skipped with the reason otherwise.
     */
    @Test
    void officialReader_readsTheFileSequentiallyAndByItsIndexes(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        Written w = write(2000, 4096, 6);
        java.nio.file.Path file = dir.resolve("t.mcap");
        java.nio.file.Files.write(file, w.file());
        String output = NodeScript.run("mcap-check.cjs", dir, List.of("@mcap/core"), file.toString(), "1000000000", "1010000000");
        long chunks = McapReader.read(w.file(), "t").chunks();
        // times 1.000, 1.002, ..., 1.010 s: six messages, whatever their channels
        assertThat(output).isEqualTo("{\"done\":true,\"streamMessages\":2000,\"chunks\":" + chunks
                + ",\"statistics\":2000,\"topics\":[\"/tandem/poses\",\"/tandem/events\",\"/tf\"],\"queried\":6}");
    }
}
