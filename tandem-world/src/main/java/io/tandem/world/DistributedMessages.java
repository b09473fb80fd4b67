package io.tandem.world;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/*
 * Implementation notes.
 *
 * The two per-iteration messages of the Gazebo protocol (shared/specs/gazebo.md 1.5, 1.6), as
 * records with an explicit little-endian binary codec (no Java serialization):
 *   step     primary -> every secondary: iteration, sim time, step size, paused, the affinity
 *            changes of this iteration and, for every performer that changes secondary, its
 *            model's full dynamic state (Gazebo's tutorial promised that; its message never had it);
 *   step_ack secondary -> primary: the secondary's name and the iteration it answers (Gazebo's
 *            ack carries neither, so it can only count acks), and the state of its performers'
 *            models after the step.
 * Frame: magic "TWD" + version byte + kind byte, then the body. A different version is refused
 * with a message naming both versions; a truncated or inconsistent frame is refused too.
 */

/** The step and step_ack messages of a distributed world, and their codec. Stateless. */
final class DistributedMessages {
    static final int VERSION = 1;
    private static final byte KIND_STEP = 1;
    private static final byte KIND_ACK = 2;
    private static final int MAX_COUNT = 1 << 20;

    private DistributedMessages() {
    }

    /**
     * One model's dynamic state: per link (the model's link order) 13 doubles (position, (w, x, y,
     * z) orientation, linear and angular velocity), and the warm-start impulses its joints carry.
     */
    record ModelState(String model, double[] links, double[] jointImpulses) {
        ModelState {
            if (links.length % 13 != 0) {
                throw new IllegalArgumentException("model state needs 13 values per link, got " + links.length);
            }
        }
    }

    /** primary -> secondaries, once per iteration. */
    record Step(long iteration, long simTimeNs, long stepSizeNs, boolean paused, List<Affinities.Change> affinity,
                List<ModelState> handovers) {
        Step {
            affinity = List.copyOf(affinity);
            handovers = List.copyOf(handovers);
        }
    }

    /** secondary -> primary, once per iteration. */
    record Ack(String secondary, long iteration, List<ModelState> states) {
        Ack {
            states = List.copyOf(states);
        }
    }

    static byte[] encode(Step s) {
        Writer w = new Writer(KIND_STEP);
        w.ensure(25);
        w.buf.putLong(s.iteration()).putLong(s.simTimeNs()).putLong(s.stepSizeNs()).put((byte) (s.paused() ? 1 : 0));
        w.putInt(s.affinity().size());
        for (Affinities.Change c : s.affinity()) {
            w.putString(c.performer());
            w.putString(c.from() == null ? "" : c.from());
            w.putString(c.to());
        }
        w.putStates(s.handovers());
        return w.bytes();
    }

    static byte[] encode(Ack a) {
        Writer w = new Writer(KIND_ACK);
        w.putString(a.secondary());
        w.ensure(8);
        w.buf.putLong(a.iteration());
        w.putStates(a.states());
        return w.bytes();
    }

    static Step decodeStep(byte[] frame) {
        ByteBuffer b = header(frame, KIND_STEP);
        try {
            long it = b.getLong();
            long t = b.getLong();
            long dt = b.getLong();
            boolean paused = b.get() != 0;
            int n = count(b);
            List<Affinities.Change> aff = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String p = string(b);
                String from = string(b);
                aff.add(new Affinities.Change(p, from.isEmpty() ? null : from, string(b)));
            }
            List<ModelState> states = states(b);
            end(b);
            return new Step(it, t, dt, paused, aff, states);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated step message (" + frame.length + " bytes)", e);
        }
    }

    static Ack decodeAck(byte[] frame) {
        ByteBuffer b = header(frame, KIND_ACK);
        try {
            String secondary = string(b);
            long it = b.getLong();
            List<ModelState> states = states(b);
            end(b);
            return new Ack(secondary, it, states);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated step_ack message (" + frame.length + " bytes)", e);
        }
    }

    private static ByteBuffer header(byte[] frame, byte kind) {
        if (frame.length < 5 || frame[0] != 'T' || frame[1] != 'W' || frame[2] != 'D') {
            throw new IllegalArgumentException("not a Tandem distributed-world message (" + frame.length + " bytes)");
        }
        if (frame[3] != VERSION) {
            throw new IllegalArgumentException("distributed-world protocol version " + frame[3] + " from the peer, this"
                    + " process speaks version " + VERSION + ": run the same Tandem version on every machine");
        }
        if (frame[4] != kind) {
            throw new IllegalArgumentException("expected message kind " + kind + ", got " + frame[4]);
        }
        return ByteBuffer.wrap(frame, 5, frame.length - 5).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    private static void end(ByteBuffer b) {
        if (b.hasRemaining()) {
            throw new IllegalArgumentException(b.remaining() + " unexpected bytes after the message");
        }
    }

    private static int count(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > MAX_COUNT || n > b.remaining()) {
            throw new IllegalArgumentException("bad element count " + n + ": a truncated or corrupt distributed-world message");
        }
        return n;
    }

    private static String string(ByteBuffer b) {
        int n = count(b);
        byte[] s = new byte[n];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    private static List<ModelState> states(ByteBuffer b) {
        int n = count(b);
        List<ModelState> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String model = string(b);
            double[] links = doubles(b);
            double[] joints = doubles(b);
            if (links.length % 13 != 0) {
                throw new IllegalArgumentException("model '" + model + "': " + links.length + " link values, not a multiple of 13");
            }
            out.add(new ModelState(model, links, joints));
        }
        return out;
    }

    private static double[] doubles(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining() / 8) {
            throw new IllegalArgumentException("bad value count " + n + ": a truncated or corrupt distributed-world message");
        }
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = b.getDouble();
        }
        return d;
    }

    /** A growing little-endian buffer. */
    private static final class Writer {
        ByteBuffer buf = ByteBuffer.allocate(256).order(java.nio.ByteOrder.LITTLE_ENDIAN);

        Writer(byte kind) {
            buf.put((byte) 'T').put((byte) 'W').put((byte) 'D').put((byte) VERSION).put(kind);
        }

        void ensure(int n) {
            if (buf.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n))
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
        }

        void putInt(int v) {
            ensure(4);
            buf.putInt(v);
        }

        void putString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            ensure(4 + b.length);
            buf.putInt(b.length).put(b);
        }

        void putDoubles(double[] d) {
            ensure(4 + 8 * d.length);
            buf.putInt(d.length);
            for (double v : d) {
                buf.putDouble(v);
            }
        }

        void putStates(List<ModelState> states) {
            putInt(states.size());
            for (ModelState s : states) {
                putString(s.model());
                putDoubles(s.links());
                putDoubles(s.jointImpulses());
            }
        }

        byte[] bytes() {
            ensure(0);
            byte[] out = new byte[buf.position()];
            buf.flip();
            buf.get(out);
            return out;
        }
    }
}
