package io.tandem.cle.remote;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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

/** The remote-engine protocol: constants, and the frame writer and reader. Stateless. */
final class EngineProtocol {
    /** the protocol version; frames of another version are refused naming both (2: generator windows, multimeter) */
    static final byte VERSION = 2;
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

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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
        return (long) LONG.get(frame, SEQ_OFFSET);
    }

    /**
     * Writes frames into a growable buffer, then hands out a padded copy to publish. Allocates only
     * when the buffer grows or a frame needs a padded length not seen among the last
     * {@value #POOL} (the buffers are reused). Not thread-safe.
     */
    static final class Writer {
        private static final int POOL = 32;
        private byte[] buf;
        private int pos;
        private final int[] poolLengths = new int[POOL];
        private final byte[][] pool = new byte[POOL][];
        private int poolNext;

        Writer(int capacity) {
            buf = new byte[Math.max(HEADER, capacity)];
        }

        /** Starts a frame (sequence number 0 until {@link #seq}). */
        Writer begin(byte kind) {
            pos = 0;
            ensure(HEADER);
            buf[0] = 'T';
            buf[1] = 'C';
            buf[2] = 'L';
            buf[3] = VERSION;
            buf[4] = kind;
            pos = HEADER;
            return this;
        }

        /** @return the bytes written so far (the frame's length when sealed) */
        int position() {
            return pos;
        }

        /** Sets the frame's sequence number. */
        void seq(long seq) {
            LONG.set(buf, SEQ_OFFSET, seq);
        }

        /** Overwrites a long already written at {@code at}. */
        void setLong(int at, long v) {
            LONG.set(buf, at, v);
        }

        void putByte(int v) {
            ensure(1);
            buf[pos++] = (byte) v;
        }

        void putInt(int v) {
            ensure(4);
            INT.set(buf, pos, v);
            pos += 4;
        }

        void putLong(long v) {
            ensure(8);
            LONG.set(buf, pos, v);
            pos += 8;
        }

        /** Writes the raw bits, so every value (NaN payloads too) survives bitwise. */
        void putDouble(double v) {
            putLong(Double.doubleToRawLongBits(v));
        }

        void putBytes(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, pos, len);
            pos += len;
        }

        /** Length-prefixed bytes (an encoded string kept by the caller). */
        void putBlob(byte[] b) {
            putInt(b.length);
            putBytes(b, 0, b.length);
        }

        /** UTF-8, length-prefixed (allocates: not for per-step frames). */
        void putString(String s) {
            putBlob(s.getBytes(StandardCharsets.UTF_8));
        }

        /** A count, then each string (allocates). */
        void putStrings(List<String> l) {
            putInt(l.size());
            for (String s : l) {
                putString(s);
            }
        }

        private void ensure(int n) {
            if (pos + n > buf.length) {
                long want = Math.max((long) pos + n, 2L * buf.length);
                if (want > Integer.MAX_VALUE - 16) {
                    throw new IllegalArgumentException("remote-engine frame too large: " + want + " bytes");
                }
                buf = Arrays.copyOf(buf, (int) want);
            }
        }

        /**
         * Ends the frame: writes its length and copies it into a reused buffer of a padded length
         * (at most an eighth longer). The result stays valid until a later seal needs its buffer:
         * publish it at once.
         *
         * @return the bytes to publish
         */
        byte[] seal() {
            int n = pos;
            INT.set(buf, LENGTH_OFFSET, n);
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
            System.arraycopy(buf, 0, out, 0, n);
            return out;
        }

        /** @return n rounded up to 64 bytes, or to an eighth of its power of two above 512 bytes */
        static int paddedLength(int n) {
            int step = Math.max(64, Integer.highestOneBit(Math.max(1, n - 1)) >>> 3);
            long p = ((long) n + step - 1) / step * step;
            return (int) Math.min(p, Integer.MAX_VALUE - 8);
        }
    }

    /**
     * Reads one frame in place (no copy). {@link #wrap} checks the header; the getters throw
     * {@link IllegalArgumentException} past the frame's end. Not thread-safe; allocates only in
     * {@link #getString}.
     */
    static final class Reader {
        private byte[] buf;
        private int pos;
        private int limit;
        private byte kind;
        private long seq;

        /**
         * @param frame a received frame (not modified)
         * @return this, positioned at the body
         * @throws IllegalArgumentException for something that is not a frame of this version
         */
        Reader wrap(byte[] frame) {
            if (frame.length < HEADER || frame[0] != 'T' || frame[1] != 'C' || frame[2] != 'L') {
                throw new IllegalArgumentException("not a Tandem remote-engine frame (" + frame.length + " bytes)");
            }
            if (frame[3] != VERSION) {
                throw new IllegalArgumentException("remote-engine protocol version " + frame[3] + " from the peer, this process"
                        + " speaks version " + VERSION + ": run the same Tandem version on both sides");
            }
            int length = (int) INT.get(frame, LENGTH_OFFSET);
            if (length < HEADER || length > frame.length) {
                throw new IllegalArgumentException("remote-engine frame says " + length + " bytes but has " + frame.length);
            }
            buf = frame;
            limit = length;
            kind = frame[4];
            seq = (long) LONG.get(frame, SEQ_OFFSET);
            pos = HEADER;
            return this;
        }

        byte kind() {
            return kind;
        }

        /** @return the frame last wrapped */
        byte[] frame() {
            return buf;
        }

        long seq() {
            return seq;
        }

        /** @return whether the whole body was read */
        boolean atEnd() {
            return pos == limit;
        }

        /** @throws IllegalArgumentException when bytes are left after the body */
        void expectEnd() {
            if (pos != limit) {
                throw new IllegalArgumentException((limit - pos) + " unexpected bytes after a remote-engine " + kindName(kind)
                        + " frame");
            }
        }

        private void need(int n) {
            if (n < 0 || pos + n > limit) {
                throw new IllegalArgumentException("truncated remote-engine " + kindName(kind) + " frame (" + limit + " bytes)");
            }
        }

        byte getByte() {
            need(1);
            return buf[pos++];
        }

        int getInt() {
            need(4);
            int v = (int) INT.get(buf, pos);
            pos += 4;
            return v;
        }

        long getLong() {
            need(8);
            long v = (long) LONG.get(buf, pos);
            pos += 8;
            return v;
        }

        double getDouble() {
            return Double.longBitsToDouble(getLong());
        }

        void getBytes(byte[] dst, int off, int len) {
            need(len);
            System.arraycopy(buf, pos, dst, off, len);
            pos += len;
        }

        /** @return whether the next length-prefixed bytes equal {@code expected} (consumed either way) */
        boolean blobEquals(byte[] expected) {
            int n = getInt();
            need(n);
            boolean eq = Arrays.equals(buf, pos, pos + n, expected, 0, expected.length);
            pos += n;
            return eq;
        }

        String getString() {
            int n = getInt();
            need(n);
            String s = new String(buf, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }

        List<String> getStrings() {
            int n = getInt();
            if (n < 0 || n > limit) {
                throw new IllegalArgumentException("corrupt string count " + n + " in a remote-engine " + kindName(kind) + " frame");
            }
            List<String> l = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                l.add(getString());
            }
            return l;
        }
    }
}
