package io.tandem.cle.remote;

import io.tandem.cle.Engine;
import io.tandem.cle.device.Device;
import io.tandem.cle.internal.SystemNanoClock;
import io.tandem.cosim.Participant;
import io.tandem.cosim.Registry;
import io.tandem.cosim.process.ChildJvm;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * NRP-core's engine client (nrp.md 2.1) as an Engine: each Engine call is one request on the
 * engine's request topic and one answer on its reply topic (EngineProtocol), matched by sequence
 * number; a per-step exchange is one STEP (the sync iteration, the duration and the command
 * devices' values, encoded by applyInputs on the loop thread, sent by advance) and one VALUES
 * (the reading devices' values, decoded into the local devices' back buffers by publishOutputs).
 * So the loop sees a remote engine exactly as a local one, and the values arrive bitwise: both
 * synchronization modes give the results of the all-in-process loop.
 *
 * The waiting thread (the engine's worker in PARALLEL, the loop thread in SERIAL) spins briefly,
 * yields, then parks in slices of at most 10 ms; the participant's thread hands the answer over
 * through an atomic slot and unparks it. Between slices it checks the server: lost (the
 * participant-disconnected handler; about a second after a kill -9 on tandem://), its process
 * ended (when this engine started it), or the timeout passed. For steps of a millisecond or more
 * the client's participant is told to expect quiet for 3/4 of the server's recent advances (see
 * Participant.expectQuietFor), which leaves the CPUs to the engines on a small host.
 */

/**
 * An engine served by an {@link EngineServer} in another participant, usually another process
 * (NRP-core's engine client): a {@link io.tandem.cle.ClosedLoop} uses it like any engine. {@link #device}
 * asks the server for the device and builds a local device of the same type (the loop's transfer
 * functions use that one); {@link #applyInputs()} captures the command values; {@link #advance}
 * sends one message (the commands and the duration) and blocks until the server's answer;
 * {@link #publishOutputs()} writes the received readings into the local devices' back buffers.
 * The timestep and device names come from the server's hello.
 *
 * <p>Failures: a server that is lost (its process killed or crashed), too slow (the step
 * timeout), or whose engine fails makes the call throw a {@link RemoteEngineException} naming
 * the engine, the server's participant and the sync iteration.
 *
 * <p>Build one with {@link #builder(String)}: connect to a server that runs already, or
 * {@linkplain Builder#launch launch} one in a child JVM, which {@link #close()} ends.
 *
 * <p>Threads as {@link Engine}. Per step it allocates nothing beyond tandem-cosim's own message
 * copies (request and reply frames are encoded in reused buffers); a reply with more spikes than
 * ever before grows a buffer.
 */
public final class RemoteEngine implements Engine {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteEngine.class);
    /** The simulation name engines are served in unless told otherwise. */
    public static final String DEFAULT_SIMULATION = "tandem-cle";
    private static final int SPINS = 200;
    private static final int YIELDS = 2_000;
    private static final long PARK_SLICE_NS = 10_000_000L;
    private static final long QUIET_MIN_NS = 1_000_000L;
    private static final long SHUTDOWN_TIMEOUT_NS = 5_000_000_000L;

    private final String name;
    private final byte[] nameBytes;
    private final String registryUri;
    private final Participant participant;
    private final DataPublisher requests;
    private final LongSupplier clock;
    private final long stepTimeoutNs;
    private final Registry hostedRegistry;
    private final ChildJvm process;
    private final EngineProtocol.Outbox writer = new EngineProtocol.Outbox(4096);
    private final FrameReader reader = new FrameReader(EngineProtocol.ERRORS);
    private final AtomicReference<byte[]> replySlot = new AtomicReference<>();
    private volatile long awaitedSeq = -1;
    private volatile Thread waiter;
    /** why the server is gone (null while it is there) */
    private volatile String lostReason;
    private volatile String serverName = "";
    private final Map<String, Device> devices = new HashMap<>();
    private final List<Device> commandList = new ArrayList<>();
    private final List<Device> readingList = new ArrayList<>();
    private Device[] commands = new Device[0];
    private byte[] commandIds = new byte[0];
    private Device[] readings = new Device[0];
    private byte[] readingIds = new byte[0];
    private long timestepNs;
    private List<String> deviceNames = List.of();
    private long seq;
    private long iteration;
    private long timeNs;
    private boolean inputsEncoded;
    /** the VALUES frame publishOutputs decodes (null: none pending) */
    private byte[] pendingValues;
    private long lastAdvanceNs;
    private long previousAdvanceNs;
    private long serverAdvanceNs;
    private boolean closed;

    private RemoteEngine(Builder b, String registryUri, Registry hostedRegistry, ChildJvm process, Participant participant) {
        this.name = b.engine;
        this.nameBytes = name.getBytes(StandardCharsets.UTF_8);
        this.registryUri = registryUri;
        this.hostedRegistry = hostedRegistry;
        this.process = process;
        this.participant = participant;
        this.clock = b.clock;
        this.stepTimeoutNs = b.stepTimeoutNs;
        participant.addParticipantDisconnectedHandler(this::onDisconnected);
        participant.addConnectionLostHandler(this::onConnectionLost);
        participant.createDataSubscriber("engine-reply", PubSubSpec.of(EngineProtocol.replyTopic(name), EngineProtocol.MEDIA_TYPE),
                e -> onReply(e.data()));
        // history 1: a request sent before the server's subscriber is known reaches it when it is
        requests = participant.createDataPublisher("engine-request",
                PubSubSpec.of(EngineProtocol.requestTopic(name), EngineProtocol.MEDIA_TYPE), 1);
    }

    /**
     * @param engine the engine's name: the server's engine has this name
     * @return a builder (simulation {@value #DEFAULT_SIMULATION}, connect timeout 60 s, step timeout 30 s)
     */
    public static Builder builder(String engine) {
        return new Builder(engine);
    }

    private void attach(long timeoutNs) {
        FrameWriter w = writer.begin(EngineProtocol.ATTACH);
        w.putString(participant.name());
        FrameReader r = call(timeoutNs, "attach");
        expect(r, EngineProtocol.HELLO, "attach");
        String engine = r.getString();
        if (!engine.equals(name)) {
            throw failure("the server on its topic serves engine '" + engine + "'");
        }
        serverName = r.getString();
        timestepNs = r.getLong();
        timeNs = r.getLong();
        deviceNames = List.copyOf(EngineProtocol.getStrings(r));
        r.expectEnd();
        if (!participant.isParticipantConnected(serverName)) {
            onDisconnected(serverName);
        }
        LOG.info("Remote engine '{}': attached to server [{}] on {} (timestep {} ns)", name, serverName, registryUri, timestepNs);
    }

    /** @return the server's participant name */
    public String serverName() {
        return serverName;
    }

    /** @return the registry URI both participants are on */
    public String registryUri() {
        return registryUri;
    }

    /** @return the server's JVM's process id, or -1 when this engine did not launch it */
    public long serverPid() {
        return process == null ? -1 : process.pid();
    }

    /**
     * Whether the server is still there, for a monitor (a viewer's list of peers): any thread,
     * allocates nothing while it is there.
     *
     * @return why the server is gone (it left or stopped answering, its process ended, the
     *         registry was lost), or null while it is there
     */
    public String lostReason() {
        String r = lostReason;
        if (r == null && process != null && !process.isAlive()) {
            return "lost its server '" + label() + "': the server's process ended";
        }
        return r;
    }

    /** @return the server's wall time for the last advance and publish, ns (without the transport) */
    public long lastServerAdvanceNs() {
        return serverAdvanceNs;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long timestepNs() {
        return timestepNs;
    }

    @Override
    public long timeNs() {
        return timeNs;
    }

    /**
     * Asks the server for the device and returns a local device of the same type (created on
     * the first request; loop thread, at build time; one round trip, allocates).
     *
     * @throws IllegalArgumentException as the server's engine does, or for a type that is not a
     *                                  concrete device class
     * @throws RemoteEngineException    when the server does not answer
     */
    @Override
    public <D extends Device> D device(String deviceName, Class<D> type) {
        String key = type.getName() + '\u0000' + deviceName;
        Device d = devices.get(key);
        if (d != null) {
            return type.cast(d);
        }
        byte id = DeviceCodec.typeId(type);
        if (id == 0) {
            throw new IllegalArgumentException("remote engine '" + name + "' serves devices by their concrete class (PoissonSource,"
                    + " CameraImage, ...), not " + type.getSimpleName());
        }
        FrameWriter w = writer.begin(EngineProtocol.DEVICE);
        w.putString(deviceName);
        w.putByte(id);
        FrameReader r = call(stepTimeoutNs, "device request");
        if (r.type() == EngineProtocol.ABSENT) {
            return null;
        }
        if (r.type() == EngineProtocol.ERROR) {
            throw new IllegalArgumentException(r.getString());
        }
        expect(r, EngineProtocol.DEVICE_FOUND, "device request");
        byte got = r.getByte();
        if (got != id) {
            throw failure("asked for a " + type.getSimpleName() + " '" + deviceName + "', the server answered with type id " + got);
        }
        d = DeviceCodec.readDescriptor(id, deviceName, name, r);
        r.expectEnd();
        if (d.isCommand()) {
            commandList.add(d);
            commands = commandList.toArray(new Device[0]);
            commandIds = ids(commands);
        } else {
            readingList.add(d);
            readings = readingList.toArray(new Device[0]);
            readingIds = ids(readings);
        }
        devices.put(key, d);
        return type.cast(d);
    }

    private static byte[] ids(Device[] ds) {
        byte[] ids = new byte[ds.length];
        for (int i = 0; i < ds.length; i++) {
            ids[i] = DeviceCodec.typeId(ds[i].getClass());
        }
        return ids;
    }

    /** @return the server engine's device description (from its hello) */
    @Override
    public List<String> deviceNames() {
        return deviceNames;
    }

    @Override
    public void initialize() {
        writer.begin(EngineProtocol.INITIALIZE);
        FrameReader r = call(stepTimeoutNs, "initialize");
        expect(r, EngineProtocol.VALUES, "initialize");
        pendingValues = r.array();
        iteration = 0;
        inputsEncoded = false;
    }

    /** Captures the command devices' changed values into the next step's message (loop thread; allocates nothing). */
    @Override
    public void applyInputs() {
        FrameWriter w = writer.begin(EngineProtocol.STEP);
        w.putLong(0); // iteration, set by advance
        w.putLong(0); // duration, set by advance
        w.putInt(commands.length);
        for (int i = 0; i < commands.length; i++) {
            w.putByte(commandIds[i]);
            if (DeviceCodec.takeChanged(commandIds[i], commands[i])) {
                w.putByte(1);
                DeviceCodec.writeValue(commandIds[i], commands[i], w);
            } else {
                w.putByte(0);
            }
        }
        inputsEncoded = true;
    }

    /**
     * Sends the step and blocks until the server has advanced and answered.
     *
     * @param durationNs a positive multiple of {@link #timestepNs()}
     * @throws RemoteEngineException when the server is lost, does not answer within the step
     *                               timeout, or its engine failed
     */
    @Override
    public void advance(long durationNs) {
        if (!inputsEncoded) {
            applyInputs();
        }
        inputsEncoded = false;
        writer.setLong(EngineProtocol.HEADER, iteration + 1);
        writer.setLong(EngineProtocol.HEADER + 8, durationNs);
        long quiet = Math.min(lastAdvanceNs, previousAdvanceNs);
        if (quiet >= QUIET_MIN_NS) {
            participant.expectQuietFor(quiet - quiet / 4);
        }
        FrameReader r = call(stepTimeoutNs, "step");
        expect(r, EngineProtocol.VALUES, "step");
        pendingValues = r.array();
        iteration++;
    }

    /** Writes the values of the last answer into the local reading devices' back buffers (allocates nothing). */
    @Override
    public void publishOutputs() {
        byte[] f = pendingValues;
        if (f == null) {
            return;
        }
        pendingValues = null;
        FrameReader r = EngineProtocol.wrap(reader, f);
        try {
            if (!r.bytesEqual(nameBytes)) {
                throw new IllegalArgumentException("the values are not engine '" + name + "''s");
            }
            long it = r.getLong();
            if (it != iteration) {
                throw new IllegalArgumentException("the values are of sync iteration " + it);
            }
            timeNs = r.getLong();
            serverAdvanceNs = r.getLong();
            previousAdvanceNs = lastAdvanceNs;
            lastAdvanceNs = serverAdvanceNs;
            int n = r.getInt();
            if (n != readings.length) {
                throw new IllegalArgumentException("the server sent " + n + " reading values for " + readings.length + " devices");
            }
            for (int i = 0; i < n; i++) {
                byte id = r.getByte();
                if (id != readingIds[i]) {
                    throw new IllegalArgumentException("reading value " + i + " has device type id " + id + ", but " + readings[i]
                            + " has id " + readingIds[i]);
                }
                if (r.getByte() != 0) {
                    DeviceCodec.readValue(id, readings[i], r);
                }
            }
            r.expectEnd();
        } catch (IllegalArgumentException e) {
            throw failure("malformed values from the server: " + e.getMessage());
        }
    }

    @Override
    public void reset() {
        writer.begin(EngineProtocol.RESET);
        FrameReader r = call(stepTimeoutNs, "reset");
        expect(r, EngineProtocol.VALUES, "reset");
        pendingValues = r.array();
        iteration = 0;
        inputsEncoded = false;
        lastAdvanceNs = 0;
        previousAdvanceNs = 0;
    }

    /**
     * Shuts the server's engine down (when it is still there), leaves the simulation, ends the
     * server's JVM if this engine launched it (SIGKILL after a short grace) and stops a registry
     * it hosted. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (lostReason == null && !serverName.isEmpty()) {
                writer.begin(EngineProtocol.SHUTDOWN);
                FrameReader r = call(Math.min(stepTimeoutNs, SHUTDOWN_TIMEOUT_NS), "shutdown");
                expect(r, EngineProtocol.DONE, "shutdown");
            }
        } catch (RuntimeException e) {
            LOG.warn("Remote engine '{}': the server did not shut down cleanly: {}", name, e.getMessage());
        } finally {
            closeResources(participant, process, hostedRegistry);
        }
    }

    private static void closeResources(Participant participant, ChildJvm process, Registry registry) {
        try {
            if (participant != null) {
                participant.close();
            }
        } finally {
            try {
                if (process != null) {
                    process.end(3_000);
                }
            } finally {
                if (registry != null) {
                    registry.close();
                }
            }
        }
    }

    /** Sends the frame in the writer and waits for the answer with its sequence number. */
    private FrameReader call(long timeoutNs, String what) {
        if (closed && !"shutdown".equals(what)) {
            throw new IllegalStateException("remote engine '" + name + "' is closed");
        }
        if (lostReason != null) {
            throw failure(lostReason + " before the " + what + " of sync iteration " + (iteration + 1));
        }
        long s = ++seq;
        writer.seq(s);
        byte[] frame = writer.seal();
        waiter = Thread.currentThread();
        awaitedSeq = s;
        replySlot.set(null);
        requests.publish(frame);
        byte[] reply = await(s, timeoutNs, what);
        FrameReader r;
        try {
            r = EngineProtocol.wrap(reader, reply);
        } catch (IllegalArgumentException e) {
            throw failure("the server's answer to the " + what + " is malformed: " + e.getMessage());
        }
        if (r.type() == EngineProtocol.ERROR && !"device request".equals(what)) {
            String message = r.getString();
            throw failure("the server failed the " + what + (what.equals("step") ? " of sync iteration " + (iteration + 1) : "")
                    + ": " + message);
        }
        return r;
    }

    private byte[] await(long s, long timeoutNs, String what) {
        long start = clock.getAsLong();
        int rounds = 0;
        while (true) {
            byte[] r = replySlot.getAndSet(null);
            if (r != null && EngineProtocol.peekSeq(r) == s) {
                return r;
            }
            if (lostReason != null) {
                throw failure(lostReason + " while waiting for the " + what + stepSuffix(what));
            }
            if (rounds < SPINS) {
                Thread.onSpinWait();
            } else {
                if (process != null && !process.isAlive()) {
                    String report = process.exitReport();
                    lostReason = "lost its server '" + label() + "': the server's process ended";
                    throw failure(lostReason + " while waiting for the " + what + stepSuffix(what) + " (" + report + ")");
                }
                long waited = clock.getAsLong() - start;
                if (waited >= timeoutNs) {
                    throw failure("no answer from server '" + label() + "' to the " + what + stepSuffix(what) + " within "
                            + timeoutNs / 1e9 + " s: it is hung or too slow"
                            + (what.equals("step") ? " (raise the step timeout if its steps are that long)" : ""));
                }
                if (rounds < SPINS + YIELDS) {
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(this, Math.min(PARK_SLICE_NS, timeoutNs - waited));
                }
            }
            rounds++;
        }
    }

    private String stepSuffix(String what) {
        return what.equals("step") ? " of sync iteration " + (iteration + 1) : "";
    }

    private String label() {
        return serverName.isEmpty() ? "(not attached yet)" : serverName;
    }

    private static void expect(FrameReader r, byte kind, String what) {
        if (r.type() != kind) {
            throw new IllegalArgumentException("expected a " + EngineProtocol.kindName(kind) + " answer to the " + what + ", got a "
                    + EngineProtocol.kindName(r.type()));
        }
    }

    private RemoteEngineException failure(String what) {
        return new RemoteEngineException(name, serverName, iteration, "remote engine '" + name + "' (server '" + label() + "' on "
                + registryUri + ", sync iteration " + iteration + "): " + what);
    }

    /** The participant's thread: an answer. */
    private void onReply(byte[] frame) {
        if (EngineProtocol.peekSeq(frame) == awaitedSeq) {
            replySlot.set(frame);
            LockSupport.unpark(waiter);
        }
    }

    private void onDisconnected(String participantName) {
        if (participantName.equals(serverName) && lostReason == null) {
            lostReason = "lost its server '" + participantName + "' (its process ended or stopped answering)";
            LOG.warn("Remote engine '{}': {} at sync iteration {}", name, lostReason, iteration);
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    private void onConnectionLost(String message) {
        if (lostReason == null) {
            lostReason = "lost the registry (" + message + ")";
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    /**
     * Where the server is and how to reach it. Not thread-safe.
     */
    public static final class Builder {
        private final String engine;
        private String registry;
        private String simulation = DEFAULT_SIMULATION;
        private String clientName;
        private String serverName;
        private long connectTimeoutNs = 60_000_000_000L;
        private long stepTimeoutNs = 30_000_000_000L;
        private LongSupplier clock = SystemNanoClock.MONOTONIC_NS;
        private EngineLauncher launcher;
        private List<String> launchArgs;

        private Builder(String engine) {
            if (engine == null || engine.isEmpty()) {
                throw new IllegalArgumentException("a remote engine needs the non-empty name of the served engine");
            }
            this.engine = engine;
        }

        /**
         * @param uri the registry both sides connect to ({@code tandem://HOST:PORT}, or
         *            {@code tandem+inproc://NAME} for a server in this JVM); without one, a
         *            launched server gets a registry this engine hosts on a free loopback port
         * @return this
         */
        public Builder registry(String uri) {
            registry = uri;
            return this;
        }

        /**
         * @param name the simulation both participants join (default {@value #DEFAULT_SIMULATION})
         * @return this
         */
        public Builder simulation(String name) {
            simulation = name;
            return this;
        }

        /**
         * @param name this side's participant name (default {@code cle-client-ENGINE})
         * @return this
         */
        public Builder clientName(String name) {
            clientName = name;
            return this;
        }

        /**
         * @param name the launched server's participant name (default {@code cle-engine-ENGINE})
         * @return this
         */
        public Builder serverName(String name) {
            serverName = name;
            return this;
        }

        /**
         * @param ns how long to wait for the server's hello (a launched JVM's start and engine build included), ns
         * @return this
         */
        public Builder connectTimeoutNs(long ns) {
            if (ns <= 0) {
                throw new IllegalArgumentException("connect timeout must be > 0 ns, got " + ns);
            }
            connectTimeoutNs = ns;
            return this;
        }

        /**
         * @param ns how long one request (a step: the server's advance and the transport) may take before the loop fails, ns
         * @return this
         */
        public Builder stepTimeoutNs(long ns) {
            if (ns <= 0) {
                throw new IllegalArgumentException("step timeout must be > 0 ns, got " + ns);
            }
            stepTimeoutNs = ns;
            return this;
        }

        /**
         * @param wallClockNs the monotonic clock of the timeouts (default System::nanoTime)
         * @return this
         */
        public Builder wallClock(LongSupplier wallClockNs) {
            if (wallClockNs == null) {
                throw new IllegalArgumentException("clock must not be null");
            }
            clock = wallClockNs;
            return this;
        }

        /**
         * Starts the server in a process of its own with {@code launcher} (as {@code tandem sim
         * --local-secondaries} starts its secondaries); {@link RemoteEngine#close()} ends it, and it
         * exits by itself when this JVM ends.
         *
         * @param launcher   starts the server program (the {@code tandem} command's runs {@code tandem engine-server})
         * @param engineArgs the engine to serve, in the launcher's program's terms
         * @return this
         */
        public Builder launch(EngineLauncher launcher, List<String> engineArgs) {
            if (launcher == null) {
                throw new IllegalArgumentException("launch needs a launcher (EngineLauncher) to start the server with");
            }
            if (engineArgs == null || engineArgs.isEmpty()) {
                throw new IllegalArgumentException("launch needs the engine's arguments (what the server should serve)");
            }
            this.launcher = launcher;
            launchArgs = List.copyOf(engineArgs);
            return this;
        }

        /**
         * Launches the server if asked, connects this side's participant and attaches to the
         * server (blocking: its hello).
         *
         * @return the engine, attached
         * @throws RemoteEngineException    when no server answers within the connect timeout, or a
         *                                  launched one exits first (with its last output)
         * @throws IllegalArgumentException for a launch on an in-process registry
         */
        public RemoteEngine connect() {
            String client = clientName != null ? clientName : "cle-client-" + engine;
            Registry hosted = null;
            ChildJvm process = null;
            Participant participant = null;
            String uri = registry;
            try {
                if (launchArgs != null) {
                    if (uri != null && uri.startsWith("tandem+inproc:")) {
                        throw new IllegalArgumentException("a launched engine server runs in another JVM: it needs a networked"
                                + " registry (tandem://HOST:PORT), not " + uri);
                    }
                    if (uri == null) {
                        hosted = Registry.start("tandem://127.0.0.1:0");
                        uri = hosted.uri();
                    }
                    String server = serverName != null ? serverName : "cle-engine-" + engine;
                    process = launcher.launch(new EngineServerAddress(uri, simulation, server, engine,
                            Math.max(1, connectTimeoutNs / 1_000_000_000L)), launchArgs);
                } else if (uri == null) {
                    throw new IllegalArgumentException("remote engine '" + engine + "': give the registry of its server, or launch one");
                }
                participant = Participant.connect(uri, simulation, client);
            } catch (RuntimeException x) {
                closeResources(null, process, hosted);
                throw x;
            }
            RemoteEngine e;
            try {
                e = new RemoteEngine(this, uri, hosted, process, participant);
            } catch (RuntimeException x) {
                closeResources(participant, process, hosted);
                throw x;
            }
            try {
                e.attach(connectTimeoutNs);
            } catch (RuntimeException x) {
                e.lostReason = "not attached";
                e.close();
                throw x;
            }
            return e;
        }
    }
}
