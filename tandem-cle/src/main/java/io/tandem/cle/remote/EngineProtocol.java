package io.tandem.cle.remote;

import io.tandem.cosim.spi.FrameErrors;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;
import java.util.ArrayList;
import java.util.List;

/*
 * Implementation notes.
 *
 * The wire protocol between a RemoteEngine (client) and an EngineServer (NRP-core's engine
 * client/server pair, nrp.md 2.1), over two tandem-cosim topics per engine:
 *   tandem/cle/engine/NAME/request  client -> server
 *   tandem/cle/engine/NAME/reply    server -> client
 * Every frame: magic "TCL", protocol version, kind, frame length (int), request sequence number
 * (long), then the body; little-endian. The frame length lets a sender reuse a larger, padded
 * buffer (tandem-cosim sends the whole array it is given): bytes after it are ignored.
 *
 *   ATTACH      c->s  client participant name                    -> HELLO
 *   HELLO       s->c  engine name, server participant name, timestep, time, device names
 *   DEVICE      c->s  device name, device type id                -> DEVICE_FOUND | ABSENT | ERROR
 *   DEVICE_FOUND s->c type id, device descriptor (DeviceCodec): the client builds its mirror
 *   ABSENT      s->c  the engine has no device of that name
 *   INITIALIZE  c->s                                             -> VALUES
 *   STEP        c->s  sync iteration, duration ns, command block -> VALUES
 *   RESET       c->s                                             -> VALUES
 *   SHUTDOWN    c->s                                             -> DONE
 *   VALUES      s->c  engine name, sync iteration, engine time, the server's advance wall time,
 *                     reading block
 *   DONE        s->c  the engine is closed
 *   ERROR       s->c  a message (the engine threw, or the request was refused)
 * Command block: count, then per command device (in the order the devices were created) its type
 * id, a changed flag and, when changed, its value. Reading block: count, then per reading device
 * its type id, a published flag and, when published, its value (DeviceCodec).
 */

/**
 * The remote-engine protocol: constants, the frame header (checked by {@link #wrap}, written by
 * {@link Outbox}) and its errors; bodies are written and read with tandem-cosim's
 * {@link FrameWriter} and {@link FrameReader}. Stateless.
 */
final class EngineProtocol {
    /** the protocol version; frames of another version are refused naming both (2: generator windows, multimeter) */
    static final byte VERSION = 3;
    static final byte ATTACH = 1;
    static final byte HELLO = 2;
    static final byte DEVICE = 3;
    static final byte DEVICE_FOUND = 4;
    static final byte ABSENT = 5;
    static final byte INITIALIZE = 6;
    static final byte STEP = 7;
    static final byte RESET = 8;
    static final byte SHUTDOWN = 9;
    static final byte VALUES = 10;
    static final byte DONE = 11;
    static final byte ERROR = 12;
    /** magic (3), version, kind, frame length (4), sequence number (8) */
    static final int HEADER = 17;
    static final int LENGTH_OFFSET = 5;
    static final int SEQ_OFFSET = 9;
    /** the media type of every frame */
    static final String MEDIA_TYPE = "application/x-tandem-cle-engine";

    /** how a malformed frame is reported: an IllegalArgumentException naming the frame's kind */
    static final FrameErrors ERRORS = new FrameErrors() {
        @Override
        public RuntimeException truncated(FrameReader frame, String field, int needed) {
            return new IllegalArgumentException("truncated remote-engine " + kindName(frame.type()) + " frame ("
                    + frame.length() + " bytes)");
        }

        @Override
        public RuntimeException trailingBytes(FrameReader frame) {
            return new IllegalArgumentException(frame.remaining() + " unexpected bytes after a remote-engine "
                    + kindName(frame.type()) + " frame");
        }

        @Override
        public RuntimeException invalid(FrameReader frame, String field, long value) {
            return new IllegalArgumentException("corrupt " + field + " " + value + " in a remote-engine "
                    + kindName(frame.type()) + " frame");
        }
    };

    private EngineProtocol() {
    }

    /** @return the request topic of the engine {@code engine} */
    static String requestTopic(String engine) {
        return "tandem/cle/engine/" + engine + "/request";
    }

    /** @return the reply topic of the engine {@code engine} */
    static String replyTopic(String engine) {
        return "tandem/cle/engine/" + engine + "/reply";
    }

    /** @return a frame kind's name, for messages */
    static String kindName(int kind) {
        switch (kind) {
            case ATTACH: return "attach";
            case HELLO: return "hello";
            case DEVICE: return "device";
            case DEVICE_FOUND: return "device-found";
            case ABSENT: return "absent";
            case INITIALIZE: return "initialize";
            case STEP: return "step";
            case RESET: return "reset";
            case SHUTDOWN: return "shutdown";
            case VALUES: return "values";
            case DONE: return "done";
            case ERROR: return "error";
            default: return "kind " + kind;
        }
    }

    /**
     * The sequence number of a frame without decoding it (a receiving thread's filter).
     *
     * @param frame a frame
     * @return its sequence number (whatever its protocol version), or -1 for something that is not
     *         a remote-engine frame
     */
    static long peekSeq(byte[] frame) {
        if (frame.length < HEADER || frame[0] != 'T' || frame[1] != 'C' || frame[2] != 'L') {
            return -1;
        }
        return FrameReader.longAt(frame, SEQ_OFFSET);
    }

    /**
     * Checks a received frame's header and wraps the reader around its body (no copy); the
     * reader's {@link FrameReader#type()} is the frame's kind. Does not allocate unless it throws.
     *
     * @param r     a reader with {@link #ERRORS}
     * @param frame a received frame (not modified)
     * @return r, positioned at the body
     * @throws IllegalArgumentException for something that is not a frame of this version
     */
    static FrameReader wrap(FrameReader r, byte[] frame) {
        if (frame.length < HEADER || frame[0] != 'T' || frame[1] != 'C' || frame[2] != 'L') {
            throw new IllegalArgumentException("not a Tandem remote-engine frame (" + frame.length + " bytes)");
        }
        if (frame[3] != VERSION) {
            throw new IllegalArgumentException("remote-engine protocol version " + frame[3] + " from the peer, this process"
                    + " speaks version " + VERSION + ": run the same Tandem version on both sides");
        }
        int length = FrameReader.intAt(frame, LENGTH_OFFSET);
        if (length < HEADER || length > frame.length) {
            throw new IllegalArgumentException("remote-engine frame says " + length + " bytes but has " + frame.length);
        }
        return r.wrap(frame, 0, length, HEADER, frame[4]);
    }

    /** @return the sequence number of the frame {@code r} wraps ({@link #wrap}) */
    static long seq(FrameReader r) {
        return FrameReader.longAt(r.array(), SEQ_OFFSET);
    }

    /**
     * Reads a count, then each string (allocates).
     *
     * @throws IllegalArgumentException for a count larger than the frame
     */
    static List<String> getStrings(FrameReader r) {
        int n = r.getInt();
        if (n < 0 || n > r.length()) {
            throw r.invalid("string count", n);
        }
        List<String> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            l.add(r.getString());
        }
        return l;
    }

    /**
     * Builds one frame at a time in a {@link FrameWriter}, then hands out a padded copy to publish.
     * Allocates only when the writer grows or a frame needs a padded length not seen among the last
     * {@value #POOL} (the buffers are reused). Not thread-safe.
     */
    static final class Outbox {
        private static final int POOL = 32;
        private final FrameWriter frame;
        private final int[] poolLengths = new int[POOL];
        private final byte[][] pool = new byte[POOL][];
        private int poolNext;

        Outbox(int capacity) {
            frame = new FrameWriter("remote-engine", Math.max(HEADER, capacity));
        }

        /**
         * Starts a frame: its header, with length and sequence number 0 until {@link #seal} and
         * {@link #seq}.
         *
         * @return the writer of its body
         */
        FrameWriter begin(byte kind) {
            return frame.reset().putByte('T').putByte('C').putByte('L').putByte(VERSION).putByte(kind).putInt(0)
                    .putLong(0);
        }

        /** @return the bytes written so far (the frame's length when sealed) */
        int position() {
            return frame.position();
        }

        /** Sets the frame's sequence number. */
        void seq(long seq) {
            frame.setLong(SEQ_OFFSET, seq);
        }

        /** Overwrites a long already written at {@code at}. */
        void setLong(int at, long v) {
            frame.setLong(at, v);
        }

        /**
         * Ends the frame: writes its length and copies it into a reused buffer of a padded length
         * (at most an eighth longer). The result stays valid until a later seal needs its buffer:
         * publish it at once.
         *
         * @return the bytes to publish
         */
        byte[] seal() {
            int n = frame.position();
            frame.setInt(LENGTH_OFFSET, n);
            int padded = paddedLength(n);
            byte[] out = null;
            for (int i = 0; i < POOL; i++) {
                if (poolLengths[i] == padded) {
                    out = pool[i];
                    break;
                }
            }
            if (out == null) {
                out = new byte[padded];
                pool[poolNext] = out;
                poolLengths[poolNext] = padded;
                poolNext = (poolNext + 1) % POOL;
            }
            System.arraycopy(frame.array(), 0, out, 0, n);
            return out;
        }

        /** @return n rounded up to 64 bytes, or to an eighth of its power of two above 512 bytes */
        static int paddedLength(int n) {
            int step = Math.max(64, Integer.highestOneBit(Math.max(1, n - 1)) >>> 3);
            long p = ((long) n + step - 1) / step * step;
            return (int) Math.min(p, Integer.MAX_VALUE - 8);
        }
    }
}
