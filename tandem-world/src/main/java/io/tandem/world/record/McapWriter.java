package io.tandem.world.record;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/*
 * Implementation notes.
 *
 * MCAP, format version 0 (mcap.dev/spec): magic, Header, the data section, DataEnd, the summary
 * section, SummaryOffset records, Footer, magic. Records are opcode (1 byte), content length
 * (uint64 LE) and content; strings and byte arrays carry a uint32 length, maps a uint32 byte length.
 *
 * This writer puts every Schema and Channel in the data section before the first chunk (so a
 * sequential reader knows them before any message), then the messages in uncompressed Chunks of
 * about chunkBytes each, each Chunk followed by one MessageIndex per channel it holds (log time
 * and the message's offset in the chunk's records). The summary repeats the schemas and channels
 * and adds Statistics and one ChunkIndex per chunk (what Foxglove, Lichtblick and @mcap/core's
 * indexed reader seek by), with a SummaryOffset per group. CRCs: each chunk's records, the data
 * section and the summary (CRC-32, as java.util.zip.CRC32 computes it).
 *
 * A chunk is written and the stream flushed when it is full, so a run killed while recording
 * leaves a file whose complete chunks McapReader still reads.
 */

/**
 * Writes an indexed MCAP file: schemas, channels and timestamped messages in chunks, with message
 * indexes, chunk indexes and statistics. Not thread-safe (one writer thread); allocates per
 * message only while a chunk's buffer grows. {@link #close()} writes the summary and the footer
 * and closes the stream.
 */
public final class McapWriter implements AutoCloseable {
    static final byte[] MAGIC = {(byte) 0x89, 'M', 'C', 'A', 'P', '0', '\r', '\n'};
    static final int OP_HEADER = 0x01;
    static final int OP_FOOTER = 0x02;
    static final int OP_SCHEMA = 0x03;
    static final int OP_CHANNEL = 0x04;
    static final int OP_MESSAGE = 0x05;
    static final int OP_CHUNK = 0x06;
    static final int OP_MESSAGE_INDEX = 0x07;
    static final int OP_CHUNK_INDEX = 0x08;
    static final int OP_STATISTICS = 0x0B;
    static final int OP_SUMMARY_OFFSET = 0x0E;
    static final int OP_DATA_END = 0x0F;

    /** the default size of a chunk's records before it is written, bytes */
    public static final int DEFAULT_CHUNK_BYTES = 1 << 20;

    private final OutputStream out;
    private final int chunkBytes;
    private long position;
    private final CRC32 dataCrc = new CRC32();
    private final List<byte[]> schemaRecords = new ArrayList<>();
    private final List<byte[]> channelRecords = new ArrayList<>();
    private final List<Integer> channelSchema = new ArrayList<>();
    private final List<byte[]> chunkIndexes = new ArrayList<>();
    private long[] channelCounts = new long[4]; // by channel: messages written (no boxing per message)
    private int[] countOrder = new int[4];      // channels in the order of their first message
    private int countedChannels;
    private final Buffer chunk = new Buffer(1024);
    private final Buffer record = new Buffer(256);
    /** per channel: the (log time, offset) pairs of the open chunk */
    private final List<long[]> index = new ArrayList<>();
    private int[] indexSize = new int[4];
    private long chunkStart = Long.MAX_VALUE;
    private long chunkEnd = Long.MIN_VALUE;
    private long messageCount;
    private long firstTime = Long.MAX_VALUE;
    private long lastTime = Long.MIN_VALUE;
    private int chunkCount;
    private boolean messagesStarted;
    private boolean closed;

    /**
     * @param out        the file's stream, written from its start; closed by {@link #close()}
     * @param profile    the Header's profile ("" for none)
     * @param library    the Header's library, e.g. "tandem 0.1.0"
     * @param chunkBytes about how many bytes of records a chunk holds before it is written (at least 1)
     * @throws IOException from the stream
     */
    public McapWriter(OutputStream out, String profile, String library, int chunkBytes) throws IOException {
        if (chunkBytes < 1) {
            throw new IllegalArgumentException("chunkBytes must be >= 1, got " + chunkBytes);
        }
        this.out = out;
        this.chunkBytes = chunkBytes;
        writeData(MAGIC, 0, MAGIC.length);
        record.clear();
        record.string(profile).string(library);
        writeRecord(OP_HEADER, record);
    }

    /**
     * Declares a schema (before the first message).
     *
     * @param name     e.g. "foxglove.FrameTransforms"
     * @param encoding e.g. "jsonschema" ("" for a schema-less channel's placeholder)
     * @param data     the schema itself
     * @return its id (1, 2, ...)
     */
    public int schema(String name, String encoding, byte[] data) throws IOException {
        beforeMessages("schema");
        int id = schemaRecords.size() + 1;
        record.clear();
        record.u16(id).string(name).string(encoding).bytes(data);
        schemaRecords.add(record.copy());
        writeRecord(OP_SCHEMA, record);
        return id;
    }

    /**
     * Declares a channel (before the first message).
     *
     * @param topic           e.g. "/tandem/poses"
     * @param schemaId        a {@link #schema} id, or 0 for none
     * @param messageEncoding e.g. "json"
     * @param metadata        key-value pairs (may be empty)
     * @return its id (0, 1, ...)
     */
    public int channel(String topic, int schemaId, String messageEncoding, Map<String, String> metadata) throws IOException {
        beforeMessages("channel");
        if (schemaId < 0 || schemaId > schemaRecords.size()) {
            throw new IllegalArgumentException("channel '" + topic + "': no schema " + schemaId);
        }
        int id = channelRecords.size();
        record.clear();
        record.u16(id).u16(schemaId).string(topic).string(messageEncoding);
        Buffer map = new Buffer(64);
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            map.string(e.getKey()).string(e.getValue());
        }
        record.u32(map.size).raw(map.data, 0, map.size);
        channelRecords.add(record.copy());
        channelSchema.add(schemaId);
        index.add(new long[16]);
        if (index.size() > indexSize.length) {
            indexSize = Arrays.copyOf(indexSize, 2 * index.size());
            channelCounts = Arrays.copyOf(channelCounts, 2 * index.size());
            countOrder = Arrays.copyOf(countOrder, 2 * index.size());
        }
        writeRecord(OP_CHANNEL, record);
        return id;
    }

    private void beforeMessages(String what) {
        if (closed) {
            throw new IllegalStateException("the MCAP writer is closed");
        }
        if (messagesStarted) {
            throw new IllegalStateException("declare every " + what + " before the first message");
        }
    }

    /**
     * Adds a message to the open chunk (written when full).
     *
     * @param channel     a {@link #channel} id
     * @param sequence    the channel's sequence number
     * @param logTimeNs   when it was recorded (Tandem: the simulated time), ns
     * @param publishTimeNs when it was published, ns
     * @param data        the message bytes [off, off + len)
     */
    public void message(int channel, long sequence, long logTimeNs, long publishTimeNs, byte[] data, int off, int len)
            throws IOException {
        if (closed) {
            throw new IllegalStateException("the MCAP writer is closed");
        }
        if (channel < 0 || channel >= channelRecords.size()) {
            throw new IllegalArgumentException("no channel " + channel);
        }
        messagesStarted = true;
        long offset = chunk.size;
        chunk.u8(OP_MESSAGE).u64(2 + 4 + 8 + 8 + (long) len);
        chunk.u16(channel).u32(sequence).u64(logTimeNs).u64(publishTimeNs).raw(data, off, len);
        long[] idx = index.get(channel);
        int n = indexSize[channel];
        if (2 * n + 2 > idx.length) {
            idx = Arrays.copyOf(idx, 2 * idx.length);
            index.set(channel, idx);
        }
        idx[2 * n] = logTimeNs;
        idx[2 * n + 1] = offset;
        indexSize[channel] = n + 1;
        chunkStart = Math.min(chunkStart, logTimeNs);
        chunkEnd = Math.max(chunkEnd, logTimeNs);
        firstTime = Math.min(firstTime, logTimeNs);
        lastTime = Math.max(lastTime, logTimeNs);
        messageCount++;
        if (channelCounts[channel]++ == 0) {
            countOrder[countedChannels++] = channel;
        }
        if (chunk.size >= chunkBytes) {
            flushChunk();
        }
    }

    /** Writes the open chunk (if it holds messages) and its message indexes, and flushes the stream. */
    public void flushChunk() throws IOException {
        if (chunk.size == 0) {
            return;
        }
        CRC32 crc = new CRC32();
        crc.update(chunk.data, 0, chunk.size);
        long start = position;
        record.clear();
        record.u64(chunkStart).u64(chunkEnd).u64(chunk.size).u32(crc.getValue()).string("").u64(chunk.size)
                .raw(chunk.data, 0, chunk.size);
        writeRecord(OP_CHUNK, record);
        long chunkLength = position - start;
        // one message index per channel with messages in this chunk, in channel order
        Buffer offsets = new Buffer(64);
        long indexStart = position;
        for (int c = 0; c < index.size(); c++) {
            int n = indexSize[c];
            if (n == 0) {
                continue;
            }
            offsets.u16(c).u64(position);
            long[] idx = index.get(c);
            record.clear();
            record.u16(c).u32(16L * n);
            for (int k = 0; k < n; k++) {
                record.u64(idx[2 * k]).u64(idx[2 * k + 1]);
            }
            writeRecord(OP_MESSAGE_INDEX, record);
            indexSize[c] = 0;
        }
        Buffer ci = new Buffer(128);
        ci.u64(chunkStart).u64(chunkEnd).u64(start).u64(chunkLength).u32(offsets.size).raw(offsets.data, 0, offsets.size)
                .u64(position - indexStart).string("").u64(chunk.size).u64(chunk.size);
        chunkIndexes.add(ci.copy());
        chunkCount++;
        chunk.clear();
        chunkStart = Long.MAX_VALUE;
        chunkEnd = Long.MIN_VALUE;
        out.flush();
    }

    /** Writes the last chunk, DataEnd, the summary, the footer and the closing magic; closes the stream. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            flushChunk();
            record.clear();
            record.u32(dataCrc.getValue());
            writeRecord(OP_DATA_END, record);
            long summaryStart = position;
            CRC32 summaryCrc = new CRC32();
            List<long[]> groups = new ArrayList<>();
            groups.add(group(OP_SCHEMA, schemaRecords, summaryCrc));
            groups.add(group(OP_CHANNEL, channelRecords, summaryCrc));
            Buffer stats = new Buffer(128);
            Buffer counts = new Buffer(64);
            for (int k = 0; k < countedChannels; k++) {
                counts.u16(countOrder[k]).u64(channelCounts[countOrder[k]]);
            }
            stats.u64(messageCount).u16(schemaRecords.size()).u32(channelRecords.size()).u32(0).u32(0).u32(chunkCount)
                    .u64(messageCount == 0 ? 0 : firstTime).u64(messageCount == 0 ? 0 : lastTime).u32(counts.size)
                    .raw(counts.data, 0, counts.size);
            groups.add(group(OP_STATISTICS, List.of(stats.copy()), summaryCrc));
            groups.add(group(OP_CHUNK_INDEX, chunkIndexes, summaryCrc));
            long summaryOffsetStart = position;
            for (long[] g : groups) {
                if (g[2] == 0) {
                    continue;
                }
                record.clear();
                record.u8((int) g[0]).u64(g[1]).u64(g[2]);
                writeSummary(OP_SUMMARY_OFFSET, record, summaryCrc);
            }
            // the footer: its CRC covers the summary through the footer's summary_offset_start
            record.clear();
            record.u64(summaryStart).u64(summaryOffsetStart);
            Buffer head = new Buffer(32);
            head.u8(OP_FOOTER).u64(8 + 8 + 4).raw(record.data, 0, record.size);
            summaryCrc.update(head.data, 0, head.size);
            record.u32(summaryCrc.getValue());
            writeRecord(OP_FOOTER, record);
            writeData(MAGIC, 0, MAGIC.length);
            out.flush();
        } finally {
            closed = true;
            out.close();
        }
    }

    /** Writes a summary group's records; returns {opcode, start, length}. */
    private long[] group(int opcode, List<byte[]> records, CRC32 crc) throws IOException {
        long start = position;
        for (byte[] r : records) {
            record.clear();
            record.raw(r, 0, r.length);
            writeSummary(opcode, record, crc);
        }
        return new long[] {opcode, start, position - start};
    }

    private void writeSummary(int opcode, Buffer content, CRC32 crc) throws IOException {
        Buffer head = new Buffer(9);
        head.u8(opcode).u64(content.size);
        crc.update(head.data, 0, head.size);
        crc.update(content.data, 0, content.size);
        writeRecord(opcode, content);
    }

    private void writeRecord(int opcode, Buffer content) throws IOException {
        byte[] head = new byte[9];
        head[0] = (byte) opcode;
        long n = content.size;
        for (int k = 0; k < 8; k++) {
            head[1 + k] = (byte) (n >>> (8 * k));
        }
        writeData(head, 0, 9);
        writeData(content.data, 0, content.size);
    }

    private void writeData(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        dataCrc.update(b, off, len);
        position += len;
    }

    /** A growable little-endian byte buffer. */
    static final class Buffer {
        private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
        private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        byte[] data;
        int size;

        Buffer(int capacity) {
            data = new byte[capacity];
        }

        void clear() {
            size = 0;
        }

        byte[] copy() {
            return Arrays.copyOf(data, size);
        }

        private void room(int n) {
            if (size + n > data.length) {
                data = Arrays.copyOf(data, Math.max(size + n, 2 * data.length));
            }
        }

        Buffer u8(int v) {
            room(1);
            data[size++] = (byte) v;
            return this;
        }

        Buffer u16(int v) {
            room(2);
            data[size++] = (byte) v;
            data[size++] = (byte) (v >>> 8);
            return this;
        }

        Buffer u32(long v) {
            room(4);
            I32.set(data, size, (int) v);
            size += 4;
            return this;
        }

        Buffer u64(long v) {
            room(8);
            I64.set(data, size, v);
            size += 8;
            return this;
        }

        Buffer raw(byte[] b, int off, int len) {
            room(len);
            System.arraycopy(b, off, data, size, len);
            size += len;
            return this;
        }

        Buffer bytes(byte[] b) {
            return u32(b.length).raw(b, 0, b.length);
        }

        Buffer string(String s) {
            return bytes(s.getBytes(StandardCharsets.UTF_8));
        }
    }
}
