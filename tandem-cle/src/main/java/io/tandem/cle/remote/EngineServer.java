package io.tandem.cle.remote;

import io.tandem.cle.Engine;
import io.tandem.cle.device.Device;
import io.tandem.cle.internal.SystemNanoClock;
import io.tandem.cosim.Participant;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * NRP-core's engine server (nrp.md 2.1) on a tandem-cosim participant: it subscribes to the
 * engine's request topic and answers on its reply topic (EngineProtocol). Requests are served on
 * the participant's thread, in the data handler (as DistributedSecondary serves its steps), which
 * saves a thread hand-off per step: a step decodes the command values into the server's own
 * command devices (their setters, as a transfer function would), then applyInputs, advance,
 * publishOutputs, and answers with the values its reading devices published (latched here, so
 * the front buffers hold them). The devices served are those the client asked for, by name and
 * type, each created with engine.device; their order is the order of both blocks.
 *
 * One client: the first that attaches. Its participant lost (the process killed, the network)
 * ends the server with a RemoteEngineException naming it, so a server never outlives its loop.
 */

/**
 * Serves one {@link Engine} to a {@link RemoteEngine} in another participant (usually another
 * process): NRP-core's engine server. Construct it on a connected participant, then
 * {@link #serve} until the client shuts it down. Requests run on the participant's thread;
 * the engine's own calls therefore never overlap. Per step, the server allocates nothing beyond
 * the engine and tandem-cosim (received and published messages); a step that publishes more
 * spikes than ever before grows the reply buffer.
 *
 * <p>Thread-safe: {@link #serve} and {@link #close} from any thread.
 */
public final class EngineServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EngineServer.class);

    /**
     * How a served run ended cleanly.
     *
     * @param steps  advances served
     * @param client the client's participant name
     */
    public record Result(long steps, String client) {
    }

    private final Engine engine;
    private final Participant participant;
    private final LongSupplier clock;
    private final DataPublisher replies;
    private final byte[] engineNameBytes;
    private final FrameReader reader = new FrameReader(EngineProtocol.ERRORS);
    private final EngineProtocol.Outbox writer = new EngineProtocol.Outbox(4096);
    private final CompletableFuture<Result> done = new CompletableFuture<>();
    private final Set<Device> served = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<Device> commandList = new ArrayList<>();
    private final List<Device> readingList = new ArrayList<>();
    private Device[] commands = new Device[0];
    private byte[] commandIds = new byte[0];
    private Device[] readings = new Device[0];
    private byte[] readingIds = new byte[0];
    /** the attached client's participant name (null: none yet) */
    private String client;
    private long iteration;
    private long steps;
    private boolean closed;

    /**
     * A server process's whole life (the body of {@code tandem engine-server} and of test
     * servers): connects {@code address.participant()} to {@code address.registry()}, serves
     * {@code engine} until its client shuts it down or is lost, and closes both. Blocking; the
     * engine is closed in every case.
     *
     * @param engine  the engine to serve (named {@code address.engine()} by its builder)
     * @param address where to connect, and how long to wait for the client
     * @param report  receives one line on how it ended (for the process's standard error)
     * @return the process's exit code: 0 shut down by the client, 1 failed (not connected, no
     *         client, client lost)
     */
    public static int serveProcess(Engine engine, EngineServerAddress address, Consumer<String> report) {
        String name = address.participant();
        Participant participant;
        try {
            participant = Participant.connect(address.registry(), address.simulation(), name);
        } catch (RuntimeException e) {
            engine.close();
            report.accept("engine server: cannot connect '" + name + "' to " + address.registry() + ": " + e.getMessage());
            return 1;
        }
        try (Participant p = participant; EngineServer server = new EngineServer(engine, p)) {
            Result r = server.serve(address.attachTimeoutS() * 1_000_000_000L);
            report.accept("engine server " + name + ": engine '" + engine.name() + "' shut down by client " + r.client()
                    + " after " + r.steps() + " steps");
            return 0;
        } catch (RemoteEngineException e) {
            report.accept("engine server: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Starts serving at once (on the participant's thread).
     *
     * @param engine      the engine (the server owns it: a shutdown or {@link #close()} closes it)
     * @param participant a connected participant of this process; the caller closes it after {@link #serve}
     */
    public EngineServer(Engine engine, Participant participant) {
        this(engine, participant, SystemNanoClock.MONOTONIC_NS);
    }

    /**
     * @param engine      the engine (the server owns it)
     * @param participant a connected participant; the caller closes it after {@link #serve}
     * @param wallClockNs a monotonic clock, ns, for the advance timings sent to the client
     */
    public EngineServer(Engine engine, Participant participant, LongSupplier wallClockNs) {
        if (engine == null || participant == null || wallClockNs == null) {
            throw new IllegalArgumentException("an engine server needs an engine, a participant and a clock");
        }
        this.engine = engine;
        this.participant = participant;
        this.clock = wallClockNs;
        this.engineNameBytes = engine.name().getBytes(StandardCharsets.UTF_8);
        participant.addParticipantDisconnectedHandler(this::onDisconnected);
        participant.addConnectionLostHandler(this::onConnectionLost);
        replies = participant.createDataPublisher("engine-reply",
                PubSubSpec.of(EngineProtocol.replyTopic(engine.name()), EngineProtocol.MEDIA_TYPE), 1);
        participant.createDataSubscriber("engine-request",
                PubSubSpec.of(EngineProtocol.requestTopic(engine.name()), EngineProtocol.MEDIA_TYPE), e -> onRequest(e.data()));
        LOG.info("Engine server [{}] serves engine '{}' (timestep {} ns)", participant.name(), engine.name(), engine.timestepNs());
    }

    /** @return the served engine's name */
    public String engineName() {
        return engine.name();
    }

    /**
     * Blocks until the client shuts the engine down.
     *
     * @param attachTimeoutNs how long to wait for a client to attach, ns
     * @return how the run ended
     * @throws RemoteEngineException when no client attached in time, the client was lost, or this
     *                               participant lost its registry
     */
    public Result serve(long attachTimeoutNs) {
        try {
            try {
                return done.get(attachTimeoutNs, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                synchronized (this) {
                    if (client == null) {
                        done.completeExceptionally(new RemoteEngineException(engine.name(), "", 0, "engine server '"
                                + participant.name() + "': no client attached to engine '" + engine.name() + "' within "
                                + attachTimeoutNs / 1e9 + " s; stopping"));
                    }
                }
                return done.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteEngineException(engine.name(), "", iteration, "engine server '" + participant.name() + "' interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** @return whether the server has ended (shut down, client lost, closed) */
    public boolean isDone() {
        return done.isDone();
    }

    private synchronized void onDisconnected(String name) {
        if (name.equals(client) && !done.isDone()) {
            LOG.warn("Engine server [{}]: lost client [{}] at sync iteration {}", participant.name(), name, iteration);
            done.completeExceptionally(new RemoteEngineException(engine.name(), name, iteration, "engine server '"
                    + participant.name() + "' of engine '" + engine.name() + "' lost its client '" + name + "' at sync iteration "
                    + iteration + " (its process ended or stopped answering); stopping"));
        }
    }

    private synchronized void onConnectionLost(String message) {
        if (!done.isDone()) {
            done.completeExceptionally(new RemoteEngineException(engine.name(), "", iteration, "engine server '"
                    + participant.name() + "' of engine '" + engine.name() + "' lost its registry at sync iteration " + iteration
                    + ": " + message));
        }
    }

    /** A request, on the participant's thread. */
    private synchronized void onRequest(byte[] frame) {
        if (closed) {
            return;
        }
        long seq = EngineProtocol.peekSeq(frame);
        FrameReader r;
        try {
            r = EngineProtocol.wrap(reader, frame);
        } catch (IllegalArgumentException e) {
            LOG.warn("Engine server [{}]: refused a request: {}", participant.name(), e.getMessage());
            if (seq >= 0) {
                sendError(seq, e.getMessage());
            }
            return;
        }
        try {
            switch (r.type()) {
                case EngineProtocol.ATTACH:
                    attach(r);
                    break;
                case EngineProtocol.DEVICE:
                    device(r);
                    break;
                case EngineProtocol.INITIALIZE:
                    r.expectEnd();
                    engine.initialize();
                    engine.publishOutputs();
                    iteration = 0;
                    sendValues(EngineProtocol.seq(r), 0);
                    break;
                case EngineProtocol.STEP:
                    step(r);
                    break;
                case EngineProtocol.RESET:
                    r.expectEnd();
                    engine.reset();
                    for (Device d : served) {
                        d.clear();
                    }
                    engine.publishOutputs();
                    iteration = 0;
                    sendValues(EngineProtocol.seq(r), 0);
                    break;
                case EngineProtocol.SHUTDOWN:
                    shutdown(EngineProtocol.seq(r));
                    break;
                default:
                    throw new IllegalArgumentException("engine server '" + participant.name() + "' got an unexpected "
                            + EngineProtocol.kindName(r.type()) + " frame");
            }
        } catch (RuntimeException | Error e) {
            LOG.warn("Engine server [{}]: engine '{}' failed serving a {} request at sync iteration {}", participant.name(),
                    engine.name(), EngineProtocol.kindName(r.type()), iteration, e);
            sendError(EngineProtocol.seq(r), e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    private void attach(FrameReader r) {
        String who = r.getString();
        r.expectEnd();
        if (client != null && !client.equals(who)) {
            throw new IllegalArgumentException("engine '" + engine.name() + "' is already served to client '" + client + "'");
        }
        client = who;
        LOG.info("Engine server [{}]: client [{}] attached to engine '{}'", participant.name(), who, engine.name());
        FrameWriter w = writer.begin(EngineProtocol.HELLO);
        writer.seq(EngineProtocol.seq(r));
        w.putString(engine.name());
        w.putString(participant.name());
        w.putLong(engine.timestepNs());
        w.putLong(engine.timeNs());
        w.putStrings(engine.deviceNames());
        replies.publish(writer.seal());
    }

    private void device(FrameReader r) {
        String name = r.getString();
        byte id = r.getByte();
        r.expectEnd();
        Device d = engine.device(name, DeviceCodec.type(id));
        FrameWriter w;
        if (d == null) {
            w = writer.begin(EngineProtocol.ABSENT);
        } else {
            if (!served.add(d)) {
                throw new IllegalArgumentException("device '" + name + "' of engine '" + engine.name() + "' is already served");
            }
            if (d.isCommand()) {
                commandList.add(d);
                commands = commandList.toArray(new Device[0]);
                commandIds = ids(commands);
            } else {
                readingList.add(d);
                readings = readingList.toArray(new Device[0]);
                readingIds = ids(readings);
            }
            w = writer.begin(EngineProtocol.DEVICE_FOUND);
            w.putByte(id);
            DeviceCodec.writeDescriptor(d, w);
        }
        writer.seq(EngineProtocol.seq(r));
        replies.publish(writer.seal());
    }

    private static byte[] ids(Device[] ds) {
        byte[] ids = new byte[ds.length];
        for (int i = 0; i < ds.length; i++) {
            ids[i] = DeviceCodec.typeId(ds[i].getClass());
        }
        return ids;
    }

    private void step(FrameReader r) {
        long it = r.getLong();
        long durationNs = r.getLong();
        if (it != iteration + 1) {
            throw new IllegalArgumentException("engine server '" + participant.name() + "' is at sync iteration " + iteration
                    + " but got the step of iteration " + it + ": the protocol is out of step");
        }
        int n = r.getInt();
        if (n != commands.length) {
            throw new IllegalArgumentException("the step carries " + n + " command values but engine '" + engine.name()
                    + "' serves " + commands.length + " command devices");
        }
        for (int i = 0; i < n; i++) {
            byte id = r.getByte();
            if (id != commandIds[i]) {
                throw new IllegalArgumentException("command value " + i + " has device type id " + id + ", but " + commands[i]
                        + " has id " + commandIds[i]);
            }
            if (r.getByte() != 0) {
                DeviceCodec.readValue(id, commands[i], r);
            }
        }
        r.expectEnd();
        engine.applyInputs();
        long t0 = clock.getAsLong();
        engine.advance(durationNs);
        engine.publishOutputs();
        long ns = clock.getAsLong() - t0;
        iteration = it;
        steps++;
        sendValues(EngineProtocol.seq(r), ns);
    }

    /** Answers with every reading device's value (latched: the published back buffer becomes the front). */
    private void sendValues(long seq, long advanceNs) {
        FrameWriter w = writer.begin(EngineProtocol.VALUES);
        writer.seq(seq);
        w.putBytes(engineNameBytes);
        w.putLong(iteration);
        w.putLong(engine.timeNs());
        w.putLong(advanceNs);
        w.putInt(readings.length);
        for (int i = 0; i < readings.length; i++) {
            Device d = readings[i];
            w.putByte(readingIds[i]);
            if (d.latch()) {
                w.putByte(1);
                DeviceCodec.writeValue(readingIds[i], d, w);
            } else {
                w.putByte(0);
            }
        }
        replies.publish(writer.seal());
    }

    private void sendError(long seq, String message) {
        FrameWriter w = writer.begin(EngineProtocol.ERROR);
        writer.seq(seq);
        w.putString(message);
        replies.publish(writer.seal());
    }

    private void shutdown(long seq) {
        LOG.info("Engine server [{}]: client [{}] shuts engine '{}' down after {} steps", participant.name(), client,
                engine.name(), steps);
        closeEngine();
        FrameWriter w = writer.begin(EngineProtocol.DONE);
        writer.seq(seq);
        replies.publish(writer.seal());
        done.complete(new Result(steps, client == null ? "" : client));
    }

    private void closeEngine() {
        if (!closed) {
            closed = true;
            engine.close();
        }
    }

    /** Stops serving and closes the engine (idempotent); {@link #serve} then ends. The participant stays open. */
    @Override
    public synchronized void close() {
        closeEngine();
        if (!done.isDone()) {
            done.completeExceptionally(new RemoteEngineException(engine.name(), client == null ? "" : client, iteration,
                    "engine server '" + participant.name() + "' of engine '" + engine.name() + "' was closed"));
        }
    }
}
