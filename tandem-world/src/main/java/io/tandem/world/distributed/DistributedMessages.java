package io.tandem.world.distributed;

import io.tandem.cosim.spi.FrameErrors;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;
import io.tandem.physics.ContactWarmStart;
import io.tandem.world.ModelState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/*
 * Implementation notes.
 *
 * The messages of a distributed world (the Gazebo protocol, shared/specs/gazebo.md 1.3-1.6, with
 * what it lacked), as records with an explicit little-endian binary codec (no Java serialization):
 *   hello     secondary -> primary (topic announce): its name and the world it loaded (name and a
 *             digest of the file), so a secondary that loaded another world is refused;
 *   step      primary -> every secondary: iteration, sim time, step size, paused, whether to report
 *             every dynamic model or only the performers' models (Gazebo's acks carry only the
 *             performers' models; the level manager needs no more), the secondaries
 *             of the run (a secondary not named is refused: Gazebo counted a late joiner's ack),
 *             the affinity changes effective this iteration, the performers whose owner must
 *             report their full state in this iteration's ack (a handover in two steps: the state
 *             is taken after iteration k on the old owner and applied before iteration k + 1 on the
 *             new one, so no secondary waits for another), the handed-over states, and the models
 *             that became runtime performers in this iteration (every secondary registers them; the
 *             owner is named by the affinity changes);
 *   step_ack  secondary -> primary: its name and the iteration it answers (Gazebo's ack carries
 *             neither, so it can only count acks), how long its step took, the state of every dynamic model it simulates,
 *             and the full state (contact warm starts too) of the performers it was asked to release;
 *   stop      primary -> every secondary: the run ended (finished, or a failure named in reason);
 *   refuse    primary -> one secondary: it cannot join (named reason);
 *   control   anyone -> primary (topic control): pause, resume, step N iterations, or make a
 *             model a performer (Gazebo's level/set_performer).
 * Frame: magic "TWD" + version byte + kind byte, then the body. A different version is refused
 * with a message naming both versions; a truncated or inconsistent frame is refused too.
 */

/** The messages of a distributed world and their codec. Stateless; allocates what it decodes. */
final class DistributedMessages {
    static final int VERSION = 7;
    /** a contact warm start on the wire: two (body id, shape) pairs, the feature, three impulses */
    private static final int CONTACT_BYTES = 2 * (8 + 4) + 4 + 3 * 8;
    private static final byte KIND_HELLO = 1;
    private static final byte KIND_STEP = 2;
    private static final byte KIND_ACK = 3;
    private static final byte KIND_STOP = 4;
    private static final byte KIND_REFUSE = 5;
    private static final byte KIND_CONTROL = 6;
    private static final int MAX_COUNT = 1 << 24;
    /** a truncated frame or bytes after it (the counts are checked here, naming what is wrong) */
    private static final FrameErrors ERRORS = new MessageErrors("distributed-world message", "message");

    private DistributedMessages() {
    }

    /** Every message. */
    sealed interface Message permits Hello, Step, Ack, Stop, Refuse, Control {
    }

    /** A performer moving to another secondary: the levels it was in and its models' full state. */
    record Handover(String performer, List<String> levels, List<ModelState> models) {
        Handover {
            levels = List.copyOf(levels);
            models = List.copyOf(models);
        }
    }

    /** secondary -> primary, on connecting. */
    record Hello(String secondary, String world, String worldDigest) implements Message {
    }

    /** primary -> secondaries, once per iteration. */
    record Step(long iteration, long simTimeNs, long stepSizeNs, boolean paused, boolean allStates, List<String> secondaries,
                List<Affinities.Change> affinity, List<String> release, List<Handover> handovers, List<String> runtimePerformers,
                List<Control> robotCommands) implements Message {
        Step {
            secondaries = List.copyOf(secondaries);
            affinity = List.copyOf(affinity);
            release = List.copyOf(release);
            handovers = List.copyOf(handovers);
            runtimePerformers = List.copyOf(runtimePerformers);
            robotCommands = List.copyOf(robotCommands);
        }

        /** A step without robot commands. */
        Step(long iteration, long simTimeNs, long stepSizeNs, boolean paused, boolean allStates, List<String> secondaries,
             List<Affinities.Change> affinity, List<String> release, List<Handover> handovers, List<String> runtimePerformers) {
            this(iteration, simTimeNs, stepSizeNs, paused, allStates, secondaries, affinity, release, handovers, runtimePerformers,
                    List.of());
        }
    }

    /**
     * secondary -> primary, once per iteration: stepNs, how long its step took (for the overhead
     * figure); models, the world indices of the dynamic models it simulates, and values, their
     * body states one after the other (13 per link, as in {@link ModelState}): one block, not an
     * object per model (a secondary of a heavy world reports thousands); released, the full state
     * of the performers it was asked to release.
     */
    record Ack(String secondary, long iteration, long stepNs, int[] models, double[] values, List<Handover> released)
            implements Message {
        Ack {
            released = List.copyOf(released);
        }
    }

    /** primary -> secondaries: the run ended; failed says whether with an error. */
    record Stop(long iteration, boolean failed, String reason) implements Message {
    }

    /** primary -> one secondary: not admitted. */
    record Refuse(String secondary, String reason) implements Message {
    }

    /**
     * Commands to the primary. The last two drive a robot: the primary passes them on with the next
     * step to the secondaries, and the one simulating the model applies them before that step.
     */
    enum Command { PAUSE, RESUME, STEP, SET_PERFORMER, TWIST, JOINT_TARGET }

    /**
     * anyone -> primary: pause, resume, (while paused) step count iterations, make model a
     * runtime performer, drive model by a twist (a: forward m/s, b: yaw rate rad/s), or set the
     * target of joint model::joint (a: position, b: velocity); count, model, a and b are only read
     * by the commands that use them.
     */
    record Control(Command command, long count, String model, double a, double b) implements Message {
        Control(Command command, long count) {
            this(command, count, "");
        }

        Control(Command command, long count, String model) {
            this(command, count, model, 0, 0);
        }
    }

    static byte[] encode(Message m) {
        // java 17: no pattern switch; the sealed interface keeps this list complete
        if (m instanceof Hello h) {
            return begin(KIND_HELLO).putString(h.secondary()).putString(h.world()).putString(h.worldDigest())
                    .toByteArray();
        }
        if (m instanceof Step s) {
            FrameWriter w = begin(KIND_STEP).putLong(s.iteration()).putLong(s.simTimeNs()).putLong(s.stepSizeNs())
                    .putByte((s.paused() ? 1 : 0) | (s.allStates() ? 2 : 0)).putStrings(s.secondaries())
                    .putInt(s.affinity().size());
            for (Affinities.Change c : s.affinity()) {
                w.putString(c.performer()).putString(c.from() == null ? "" : c.from()).putString(c.to());
            }
            w.putStrings(s.release());
            putHandovers(w, s.handovers());
            w.putStrings(s.runtimePerformers()).putInt(s.robotCommands().size());
            for (Control c : s.robotCommands()) {
                putControl(w, c);
            }
            return w.toByteArray();
        }
        if (m instanceof Ack a) {
            FrameWriter w = begin(KIND_ACK).putString(a.secondary()).putLong(a.iteration()).putLong(a.stepNs())
                    .putInt(a.models().length).putInts(a.models()).putInt(a.values().length).putDoubles(a.values());
            putHandovers(w, a.released());
            return w.toByteArray();
        }
        if (m instanceof Stop s) {
            return begin(KIND_STOP).putLong(s.iteration()).putBoolean(s.failed()).putString(s.reason()).toByteArray();
        }
        if (m instanceof Refuse r) {
            return begin(KIND_REFUSE).putString(r.secondary()).putString(r.reason()).toByteArray();
        }
        return putControl(begin(KIND_CONTROL), (Control) m).toByteArray();
    }

    private static FrameWriter putControl(FrameWriter w, Control c) {
        return w.putByte(c.command().ordinal()).putLong(c.count()).putString(c.model()).putDouble(c.a()).putDouble(c.b());
    }

    private static Control control(FrameReader b) {
        int c = b.getByte();
        if (c < 0 || c >= Command.values().length) {
            throw new IllegalArgumentException("unknown control command " + c);
        }
        Command command = Command.values()[c];
        long count = b.getLong();
        String model = string(b);
        return new Control(command, count, model, b.getDouble(), b.getDouble());
    }

    /** @return a new writer holding the frame header: "TWD", the version, the kind */
    private static FrameWriter begin(byte kind) {
        return new FrameWriter("distributed-world", 256).putByte('T').putByte('W').putByte('D').putByte(VERSION)
                .putByte(kind);
    }

    private static void putStates(FrameWriter w, List<ModelState> states) {
        w.putInt(states.size());
        for (ModelState s : states) {
            w.putString(s.model());
            w.putInt(s.links().length).putDoubles(s.links());
            w.putInt(s.jointImpulses().length).putDoubles(s.jointImpulses());
            w.putInt(s.motors().length).putDoubles(s.motors());
            w.putInt(s.dofs().length).putDoubles(s.dofs());
            w.putInt(s.contacts().size());
            for (ContactWarmStart c : s.contacts()) {
                w.putLong(c.bodyA()).putInt(c.shapeA()).putLong(c.bodyB()).putInt(c.shapeB()).putInt(c.feature())
                        .putDouble(c.normal()).putDouble(c.tangent1()).putDouble(c.tangent2());
            }
        }
    }

    private static void putHandovers(FrameWriter w, List<Handover> hs) {
        w.putInt(hs.size());
        for (Handover h : hs) {
            w.putString(h.performer()).putStrings(h.levels());
            putStates(w, h.models());
        }
    }

    /**
     * @param frame an encoded message
     * @return the message
     * @throws IllegalArgumentException for a frame of another protocol version, a truncated or a
     *                                  corrupt one, naming what is wrong on one line (a name quoted
     *                                  from the frame may hold line breaks)
     */
    static Message decode(byte[] frame) {
        try {
            return decodeFrame(frame);
        } catch (IllegalArgumentException e) {
            String line = io.tandem.world.WorldFormatException.oneLine(e.getMessage());
            throw line.equals(e.getMessage()) ? e : new IllegalArgumentException(line, e);
        }
    }

    private static Message decodeFrame(byte[] frame) {
        if (frame.length < 5 || frame[0] != 'T' || frame[1] != 'W' || frame[2] != 'D') {
            throw new IllegalArgumentException("not a Tandem distributed-world message (" + frame.length + " bytes)");
        }
        if (frame[3] != VERSION) {
            throw new IllegalArgumentException("distributed-world protocol version " + frame[3] + " from the peer, this"
                    + " process speaks version " + VERSION + ": run the same Tandem version on every machine");
        }
        FrameReader b = new FrameReader(ERRORS).wrap(frame, 0, frame.length, 5, frame[4]);
        Message m = switch (frame[4]) {
            case KIND_HELLO -> new Hello(string(b), string(b), string(b));
            case KIND_STEP -> step(b);
            case KIND_ACK -> new Ack(string(b), b.getLong(), b.getLong(), ints(b), doubles(b), handovers(b));
            case KIND_STOP -> new Stop(b.getLong(), b.getByte() != 0, string(b));
            case KIND_REFUSE -> new Refuse(string(b), string(b));
            case KIND_CONTROL -> control(b);
            default -> throw new IllegalArgumentException("unknown distributed-world message kind " + frame[4]);
        };
        b.expectEnd();
        return m;
    }

    private static Step step(FrameReader b) {
        long it = b.getLong();
        long t = b.getLong();
        long dt = b.getLong();
        int flags = b.getByte();
        boolean paused = (flags & 1) != 0;
        boolean allStates = (flags & 2) != 0;
        List<String> secondaries = strings(b);
        int n = count(b);
        List<Affinities.Change> aff = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String p = string(b);
            String from = string(b);
            aff.add(new Affinities.Change(p, from.isEmpty() ? null : from, string(b)));
        }
        List<String> release = strings(b);
        List<Handover> handovers = handovers(b);
        List<String> runtime = strings(b);
        int nc = count(b);
        List<Control> commands = new ArrayList<>(nc);
        for (int i = 0; i < nc; i++) {
            commands.add(control(b));
        }
        return new Step(it, t, dt, paused, allStates, secondaries, aff, release, handovers, runtime, commands);
    }

    private static int count(FrameReader b) {
        int n = b.getInt();
        if (n < 0 || n > MAX_COUNT || n > b.remaining()) {
            throw new IllegalArgumentException("bad element count " + n + ": a truncated or corrupt distributed-world message");
        }
        return n;
    }

    private static String string(FrameReader b) {
        int n = count(b);
        byte[] s = new byte[n];
        b.getRaw(s, 0, n);
        return new String(s, StandardCharsets.UTF_8);
    }

    private static List<String> strings(FrameReader b) {
        int n = count(b);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(string(b));
        }
        return out;
    }

    private static List<ModelState> states(FrameReader b) {
        int n = count(b);
        List<ModelState> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String model = string(b);
            double[] links = doubles(b);
            double[] joints = doubles(b);
            double[] motors = doubles(b);
            double[] dofs = doubles(b);
            if (dofs.length % ModelState.DOF_VALUES != 0) {
                throw new IllegalArgumentException("model '" + model + "': " + dofs.length + " joint-coordinate values, not a"
                        + " multiple of " + ModelState.DOF_VALUES);
            }
            if (links.length % ModelState.LINK_VALUES != 0) {
                throw new IllegalArgumentException("model '" + model + "': " + links.length + " link values, not a multiple of 13");
            }
            if (motors.length % 2 != 0) {
                throw new IllegalArgumentException("model '" + model + "': " + motors.length + " motor values, not a multiple of 2");
            }
            int k = count(b);
            List<ContactWarmStart> contacts = new ArrayList<>(k);
            for (int c = 0; c < k; c++) {
                contacts.add(new ContactWarmStart(b.getLong(), b.getInt(), b.getLong(), b.getInt(), b.getInt(), b.getDouble(),
                        b.getDouble(), b.getDouble()));
            }
            out.add(new ModelState(model, links, joints, motors, contacts, dofs));
        }
        return out;
    }

    private static List<Handover> handovers(FrameReader b) {
        int n = count(b);
        List<Handover> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new Handover(string(b), strings(b), states(b)));
        }
        return out;
    }

    private static int[] ints(FrameReader b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining() / 4) {
            throw new IllegalArgumentException("bad index count " + n + ": a truncated or corrupt distributed-world message");
        }
        int[] v = new int[n];
        b.getInts(v);
        return v;
    }

    private static double[] doubles(FrameReader b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining() / 8) {
            throw new IllegalArgumentException("bad value count " + n + ": a truncated or corrupt distributed-world message");
        }
        double[] d = new double[n];
        b.getDoubles(d);
        return d;
    }
}
