package io.tandem.world.record;

import io.tandem.world.WorldFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/*
 * Implementation notes.
 *
 * Reads MCAP (mcap.dev/spec) front to back: the magic, then records until the DataEnd record (the
 * data section), then the summary and the footer, checking that every record's length fits the
 * file and every chunk's CRC. Schemas and channels may come in or outside chunks; chunks must be
 * uncompressed (what McapWriter writes; a compressed chunk is refused naming the compression). A
 * file cut short (a run killed while recording) is read up to its last complete record: the result
 * says where it ends and why, and holds every message before that. Whole-file: the recording is read
 * into memory (a replay holds its frames anyway).
 */

/** Reads an MCAP recording: its channels and messages in file order. Stateless; allocates. */
public final class McapReader {
    private McapReader() {
    }

    /** A channel: id, topic, message encoding, its schema's name and encoding ("" for none), metadata. */
    public record Channel(int id, String topic, String messageEncoding, String schemaName, String schemaEncoding,
                          Map<String, String> metadata) {
    }

    /** A message: its channel id, sequence, log and publish times (ns) and bytes. */
    public record Message(int channel, long sequence, long logTimeNs, long publishTimeNs, byte[] data) {
    }

    /**
     * A recording as read.
     *
     * @param profile   the Header's profile
     * @param library   the Header's library
     * @param channels  by id
     * @param messages  in file order
     * @param chunks    complete chunks read
     * @param complete  whether the file ends with a summary, footer and closing magic
     * @param problem   why the file ends early (null when complete): what was read and up to which byte
     */
    public record Recording(String profile, String library, Map<Integer, Channel> channels, List<Message> messages, int chunks,
                            boolean complete, String problem) {
        /** @return the messages of one topic, in file order */
        public List<Message> topic(String topic) {
            List<Message> out = new ArrayList<>();
            for (Message m : messages) {
                Channel c = channels.get(m.channel());
                if (c != null && c.topic().equals(topic)) {
                    out.add(m);
                }
            }
            return out;
        }
    }

    /**
     * Reads a recording.
     *
     * @param file the .mcap file
     * @return what it holds; a file cut short reads up to its last complete record ({@link Recording#problem()})
     * @throws WorldFormatException for a file that cannot be read or is not MCAP (one line naming the file)
     */
    public static Recording read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new WorldFormatException(file + ": cannot read the recording: " + e.getMessage());
        }
        return read(bytes, file.toString());
    }

    /** {@link #read(Path)} of bytes in memory; {@code name} for messages. */
    public static Recording read(byte[] bytes, String name) {
        byte[] magic = McapWriter.MAGIC;
        for (int k = 0; k < magic.length; k++) {
            if (k >= bytes.length || bytes[k] != magic[k]) {
                throw new WorldFormatException(name + ": not an MCAP recording (it does not start with MCAP's magic bytes);"
                        + " give a file written with --record FILE.mcap");
            }
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        b.position(magic.length);
        Map<Integer, String[]> schemas = new LinkedHashMap<>();
        Map<Integer, Channel> channels = new LinkedHashMap<>();
        List<Message> messages = new ArrayList<>();
        String profile = null;
        String library = null;
        int chunks = 0;
        boolean dataEnd = false;
        String problem = null;
        int messagesBefore;
        while (true) {
            int at = b.position();
            if (b.remaining() == 0) {
                problem = "ends at byte " + at + " without its summary and footer (the run stopped while recording?)";
                break;
            }
            if (b.remaining() < 9) {
                problem = "ends at byte " + bytes.length + " inside a record's header at byte " + at;
                break;
            }
            int op = b.get() & 0xff;
            long len = b.getLong();
            if (len < 0 || len > b.remaining()) {
                problem = "ends at byte " + bytes.length + " inside a record (opcode 0x" + Integer.toHexString(op) + ", "
                        + len + " bytes) that starts at byte " + at;
                break;
            }
            int end = b.position() + (int) len;
            ByteBuffer c = b.slice().order(ByteOrder.LITTLE_ENDIAN);
            c.limit((int) len);
            b.position(end);
            try {
                switch (op) {
                    case McapWriter.OP_HEADER -> {
                        profile = string(c);
                        library = string(c);
                    }
                    case McapWriter.OP_SCHEMA -> schema(c, schemas);
                    case McapWriter.OP_CHANNEL -> channel(c, schemas, channels);
                    case McapWriter.OP_MESSAGE -> messages.add(message(c, (int) len));
                    case McapWriter.OP_CHUNK -> {
                        messagesBefore = messages.size();
                        try {
                            chunk(c, schemas, channels, messages, name, at);
                        } catch (RuntimeException e) {
                            messages.subList(messagesBefore, messages.size()).clear();
                            throw e;
                        }
                        chunks++;
                    }
                    case McapWriter.OP_DATA_END -> dataEnd = true;
                    default -> {
                        // message indexes, attachments, metadata: not needed to replay
                    }
                }
            } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
                throw new WorldFormatException(name + ": a malformed record (opcode 0x" + Integer.toHexString(op) + ") at byte " + at
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "; the file is damaged");
            }
            if (dataEnd) {
                break;
            }
        }
        boolean complete = false;
        if (dataEnd) {
            // the summary and footer: records to the end, the last 8 bytes the magic again
            complete = bytes.length >= 8 + 9 + 20 && java.util.Arrays.equals(java.util.Arrays.copyOfRange(bytes, bytes.length - 8,
                    bytes.length), magic) && (bytes[bytes.length - 8 - 20 - 9] & 0xff) == McapWriter.OP_FOOTER;
            if (!complete) {
                problem = "its data section is complete but its summary or footer is cut short (at byte " + bytes.length + ")";
            }
        }
        String read = messages.size() + " messages in " + chunks + " chunks";
        return new Recording(profile == null ? "" : profile, library == null ? "" : library, Collections.unmodifiableMap(channels),
                Collections.unmodifiableList(messages), chunks, complete,
                problem == null ? null : name + ": " + problem + "; read " + read + " before it");
    }

    private static void chunk(ByteBuffer c, Map<Integer, String[]> schemas, Map<Integer, Channel> channels, List<Message> out,
                              String name, int at) {
        c.getLong();
        c.getLong();
        long uncompressed = c.getLong();
        long crc = c.getInt() & 0xffffffffL;
        String compression = string(c);
        long size = c.getLong();
        if (!compression.isEmpty()) {
            throw new WorldFormatException(name + ": the chunk at byte " + at + " is compressed with '" + compression
                    + "', which Tandem does not read; write the recording uncompressed (mcap recover --compression none)");
        }
        if (size != uncompressed || size > c.remaining()) {
            throw new IllegalArgumentException("chunk sizes " + size + " / " + uncompressed + " do not match its " + c.remaining()
                    + " bytes of records");
        }
        ByteBuffer r = c.slice().order(ByteOrder.LITTLE_ENDIAN);
        r.limit((int) size);
        if (crc != 0) {
            CRC32 check = new CRC32();
            ByteBuffer dup = r.duplicate();
            check.update(dup);
            if (check.getValue() != crc) {
                throw new IllegalArgumentException("chunk CRC " + Long.toHexString(crc) + " does not match its records ("
                        + Long.toHexString(check.getValue()) + ")");
            }
        }
        while (r.remaining() > 0) {
            int op = r.get() & 0xff;
            long len = r.getLong();
            if (len < 0 || len > r.remaining()) {
                throw new IllegalArgumentException("a record inside the chunk runs past its end");
            }
            ByteBuffer s = r.slice().order(ByteOrder.LITTLE_ENDIAN);
            s.limit((int) len);
            r.position(r.position() + (int) len);
            switch (op) {
                case McapWriter.OP_SCHEMA -> schema(s, schemas);
                case McapWriter.OP_CHANNEL -> channel(s, schemas, channels);
                case McapWriter.OP_MESSAGE -> out.add(message(s, (int) len));
                default -> {
                    // nothing else belongs in a chunk
                }
            }
        }
    }

    private static void schema(ByteBuffer c, Map<Integer, String[]> schemas) {
        int id = c.getShort() & 0xffff;
        String name = string(c);
        String encoding = string(c);
        schemas.put(id, new String[] {name, encoding});
    }

    private static void channel(ByteBuffer c, Map<Integer, String[]> schemas, Map<Integer, Channel> channels) {
        int id = c.getShort() & 0xffff;
        int schema = c.getShort() & 0xffff;
        String topic = string(c);
        String encoding = string(c);
        long mapBytes = c.getInt() & 0xffffffffL;
        int end = c.position() + (int) mapBytes;
        if (mapBytes > c.remaining()) {
            throw new IllegalArgumentException("channel metadata runs past the record");
        }
        Map<String, String> meta = new LinkedHashMap<>();
        while (c.position() < end) {
            meta.put(string(c), string(c));
        }
        String[] s = schemas.getOrDefault(schema, new String[] {"", ""});
        channels.put(id, new Channel(id, topic, encoding, s[0], s[1], Collections.unmodifiableMap(meta)));
    }

    private static Message message(ByteBuffer c, int len) {
        int channel = c.getShort() & 0xffff;
        long sequence = c.getInt() & 0xffffffffL;
        long log = c.getLong();
        long publish = c.getLong();
        byte[] data = new byte[len - 22];
        c.get(data);
        return new Message(channel, sequence, log, publish, data);
    }

    private static String string(ByteBuffer c) {
        long n = c.getInt() & 0xffffffffL;
        if (n > c.remaining()) {
            throw new IllegalArgumentException("a string of " + n + " bytes runs past the record");
        }
        byte[] s = new byte[(int) n];
        c.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }
}
