package io.tandem.net.internal;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.tandem.cosim.ParticipantNameTakenException;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.spi.TransportListener;
import io.tandem.cosim.spi.TransportSession;
import io.tandem.net.MalformedFrameException;
import io.tandem.net.NetConfig;
import io.tandem.net.SharedSecretMismatchException;
import io.tandem.net.ProtocolVersionException;
import io.tandem.net.internal.ControlMessage.JoinCommit;
import io.tandem.net.internal.ControlMessage.JoinRejected;
import io.tandem.net.internal.ControlMessage.JoinRequest;
import io.tandem.net.internal.ControlMessage.JoinReserved;
import io.tandem.net.internal.ControlMessage.LeaveRequest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Event;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.NameCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One participant's membership in a simulation on a {@code tandem://} registry: a JGroups member
 * for membership and liveness, an Aeron publication and subscription for every message, and the
 * {@link SessionAgent} thread that calls the listener. See {@link SessionAgent} for the ordering
 * and newcomer arguments, {@link NetRegistry} for the join protocol.
 *
 * <p>Thread-safe. {@link #broadcastNextSimTask} does not allocate after a thread's first call.
 */
public final class NetSession implements TransportSession {
    private static final Logger LOG = LoggerFactory.getLogger(NetSession.class);
    private static final SecureRandom NONCES = new SecureRandom();

    private final NetConfig config;
    private final int version;
    private final RegistryAddress registry;
    private final String simulationName;
    private final String participantName;
    private final SessionAgent agent;
    private final AtomicBoolean closed = new AtomicBoolean();
    private AgentRunner runner;
    /** the agent thread's idle strategy, which parks through a participant's quiet periods */
    private final QuietIdleStrategy idle;
    private JChannel channel;
    private volatile Address registryAddress;
    /** the registry of our URI, whose media driver we use (the sequencer, unless the group has several) */
    private volatile Address homeAddress;
    private Aeron aeron;
    private Subscription subscription;
    private Subscription udpSubscription;
    private Publication publication;
    private volatile FrameSender sender;
    private int peerId;
    /** the shared secret, or null */
    private final SharedSecret secret;
    /** its control-frame signer, or null */
    private final FrameTag controlTag;

    private NetSession(NetConfig config, int version, RegistryAddress registry, String simulationName,
            String participantName, TransportListener listener) {
        this.config = config;
        this.version = version;
        this.registry = registry;
        this.simulationName = simulationName;
        this.participantName = participantName;
        this.agent = new SessionAgent("tandem-net-" + simulationName + "/" + participantName, simulationName, version,
                listener, NetClock.MONOTONIC, TimeUnit.MILLISECONDS.toNanos(config.registryTimeoutMs()));
        this.idle = new QuietIdleStrategy(idleStrategy(config), NetClock.MONOTONIC);
        this.secret = SharedSecret.load(config);
        this.controlTag = secret == null ? null : secret.frameTag();
        agent.secret(secret);
        agent.testDelayNs(testDelayNs());
    }

    /** @return the test-only delay of frames from other hosts ({@link SessionAgent#TEST_DELAY_PROP_NAME}), ns */
    private static long testDelayNs() {
        String v = System.getProperty(SessionAgent.TEST_DELAY_PROP_NAME);
        if (v == null || v.isBlank()) {
            return 0;
        }
        double ms;
        try {
            ms = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            ms = Double.NaN;
        }
        if (!(ms >= 0 && ms <= 10_000)) {
            throw new TandemException("-D" + SessionAgent.TEST_DELAY_PROP_NAME + " must be 0 to 10000 ms, got '" + v + "'");
        }
        if (ms > 0) {
            LOG.warn("delaying every frame from other hosts by {} ms (-D{}, for fault tests)", ms,
                    SessionAgent.TEST_DELAY_PROP_NAME);
        }
        return Math.round(ms * 1e6);
    }

    /**
     * Joins a simulation (see {@link io.tandem.cosim.spi.Transport#join}).
     *
     * @param version the wire protocol version to speak
     * @return the joined session
     * @throws ParticipantNameTakenException if the name is taken
     * @throws ProtocolVersionException       if the registry speaks another version
     * @throws TandemException                if the registry cannot be reached within the registry timeout
     */
    public static NetSession join(URI registryUri, String simulationName, String participantName,
            TransportListener listener, NetConfig config, int version) {
        RegistryAddress registry = RegistryAddress.parse(registryUri);
        if (registry.address().getPort() == 0) {
            throw new IllegalArgumentException("registry URI '" + registryUri + "' needs the registry's port");
        }
        NetSession s = new NetSession(config, version, registry, simulationName, participantName, listener);
        try {
            s.doJoin();
            return s;
        } catch (RuntimeException e) {
            s.release(true);
            throw e;
        }
    }

    private void doJoin() {
        runner = new AgentRunner(idle, e -> LOG.error("{}: {}", agent.roleName(), e.toString(), e),
                null, agent);
        AgentRunner.startOnThread(runner, r -> {
            Thread t = new Thread(r, agent.roleName());
            t.setDaemon(true);
            return t;
        });
        InetAddress bind = bindAddress();
        try {
            channel = JGroupsStack.create(config, bind, 0, registry.address(), config.registryTimeoutMs(), secret);
            channel.name(simulationName + "/" + participantName);
            channel.setReceiver(new ControlReceiver());
            channel.connect(JGroupsStack.CLUSTER_NAME);
        } catch (SecurityException e) {
            // JGroups AUTH refused us: no token, or one made with another secret
            throw new SharedSecretMismatchException(secret == null
                    ? "the registry at " + registry + " requires a shared secret and this participant has none: give it"
                            + " the group's secret file with --secret-file (" + NetConfig.SECRET_FILE_PROP_NAME + ")"
                    : "the registry at " + registry + " refused this participant's shared secret (" + secret.source()
                            + "): it was started with another one; give every member the same --secret-file", e);
        } catch (Exception e) {
            throw new TandemException("cannot reach the registry at " + registry + " from " + bind.getHostAddress() + ": " + e, e);
        }
        View view = channel.getView();
        Address coord = view.getCoord();
        if (secret != null && JGroupsStack.coordinatorHasNoSecret(channel)) {
            throw new SharedSecretMismatchException("the registry at " + registry + " has no shared secret and this"
                    + " participant has one (" + secret.source() + "); start the registry with the same --secret-file,"
                    + " or this one without", null);
        }
        if (view.size() < 2 || coord.equals(channel.getAddress())) {
            throw new TandemException("no registry answered at " + registry + " within " + config.registryTimeoutMs()
                    + " ms from " + bind.getHostAddress() + "; start one (tandem registry --listen " + registry + "), check the"
                    + " URI, or bind to another local address (" + NetConfig.BIND_ADDRESS_PROP_NAME + "; "
                    + NetConfig.REGISTRY_TIMEOUT_PROP_NAME + " sets the wait)");
        }
        String coordName = NameCache.get(coord);
        if (coordName == null || !coordName.startsWith(NetRegistry.NAME_PREFIX)) {
            throw new TandemException("the group at " + registry + " has no registry (its coordinator is " + coordName
                    + "): the registry may have crashed; restart it and its participants");
        }
        // several registries (one per host): ours hosts our media driver, the oldest sequences joins
        String homeName = NetRegistry.homeKey(registry.address());
        Address home = null;
        int registries = 0;
        for (Address a : view.getMembers()) {
            if (NetRegistry.isRegistry(a)) {
                registries++;
                Object physical = channel.down(new Event(Event.GET_PHYSICAL_ADDRESS, a));
                if (physical instanceof IpAddress ip && ip.getPort() == registry.address().getPort()
                        && ip.getIpAddress().equals(registry.address().getAddress())) {
                    home = a;
                }
            }
        }
        if (home == null) {
            if (registries > 1) {
                throw new TandemException("the group at " + registry + " has no registry listening on " + homeName
                        + "; connect to a registry by the address it listens on");
            }
            home = coord;
        }
        homeAddress = home;
        registryAddress = coord;
        boolean udp = registries > 1;
        long nonce = NONCES.nextLong();
        agent.nonce = nonce;
        send(coord, new JoinRequest(nonce, simulationName, participantName, home.equals(coord) ? "" : homeName));
        JoinReserved reservation;
        try {
            reservation = await(agent.reserved, "to answer the join request");
        } catch (SessionAgent.RejectedJoin e) {
            JoinRejected r = e.rejection;
            switch (r.reason()) {
                case NAME_TAKEN -> throw new ParticipantNameTakenException(r.message());
                case PROTOCOL_VERSION, OTHER -> throw new TandemException(r.message());
            }
            throw new TandemException(r.message());
        }
        peerId = reservation.self().peerId();
        aeron = AeronClients.acquire(reservation.aeronDirectory(), registry.toString());
        subscription = aeron.addSubscription(reservation.self().channel(), reservation.self().streamId());
        String udpEndpoint = "";
        if (udp) {
            // members of other registries send to us here (a port of our host, on our driver)
            udpSubscription = aeron.addSubscription("aeron:udp?endpoint=" + udpHost() + ":0",
                    reservation.self().streamId());
            udpEndpoint = awaitEndpoint(udpSubscription);
        }
        publication = aeron.addExclusivePublication(reservation.self().channel() + "?term-length=" + config.termLength()
                + "|session-id=" + reservation.self().sessionId(), reservation.self().streamId());
        sender = new FrameSender(publication, version, agent, agent.roleName(), aeron, config.termLength(),
                reservation.self().sessionId(), reservation.self().streamId(), config.clientTimeoutMs(), secret);
        agent.enqueue(new SessionAgent.Link(subscription, udpSubscription, publication, sender));
        await(agent.linked, "to let this participant see every member's Aeron publication");
        send(coord, new JoinCommit(simulationName, peerId, udpEndpoint));
        await(agent.joined, "to announce this participant");
        LOG.info("{} joined simulation '{}' at {} as peer {}", participantName, simulationName, registry, peerId);
    }

    /** @return the host part of our UDP endpoint: our registry's address (the host other hosts reach it by) */
    private String udpHost() {
        InetAddress a = registry.address().getAddress();
        String h = a.getHostAddress();
        return a instanceof java.net.Inet6Address ? "[" + h + "]" : h;
    }

    /** @return the subscription's bound {@code host:port}, once the driver has bound it */
    private String awaitEndpoint(Subscription s) {
        long deadlineNs = NetClock.MONOTONIC.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.registryTimeoutMs());
        IdleStrategy idle = new BackoffIdleStrategy(10, 10, 1_000, 1_000_000);
        while (true) {
            List<String> bound = s.localSocketAddresses();
            if (!bound.isEmpty()) {
                return bound.get(0);
            }
            if (NetClock.MONOTONIC.nanoTime() - deadlineNs > 0) {
                throw new TandemException("the media driver of " + registry + " did not bind a UDP endpoint for "
                        + participantName + " within " + config.registryTimeoutMs() + " ms");
            }
            idle.idle();
        }
    }

    private InetAddress bindAddress() {
        return bindAddressFor(config, registry.address());
    }

    /**
     * The local address a member binds to: the configured one; else, for a registry on loopback,
     * loopback; else the source address of the route to the registry (a connected UDP socket
     * asks the kernel, sending nothing). Not InetAddress.getLocalHost(): on Debian-style hosts the
     * host name maps to 127.0.1.1 or 127.0.0.1, and a member bound there cannot reach, nor be
     * reached by, a registry on another host.
     */
    static InetAddress bindAddressFor(NetConfig config, InetSocketAddress registry) {
        try {
            if (config.bindAddress() != null) {
                return InetAddress.getByName(config.bindAddress());
            }
            InetAddress r = registry.getAddress();
            if (r.isLoopbackAddress()) {
                return r;
            }
            try (java.net.DatagramSocket probe = new java.net.DatagramSocket()) {
                probe.connect(r, registry.getPort());
                InetAddress local = probe.getLocalAddress();
                if (local != null && !local.isAnyLocalAddress()) {
                    return local;
                }
            } catch (java.io.IOException | RuntimeException e) {
                LOG.debug("no route to the registry at {}: {}", registry, e.toString());
            }
            return InetAddress.getLocalHost();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve the bind address (" + NetConfig.BIND_ADDRESS_PROP_NAME
                    + "): " + e.getMessage(), e);
        }
    }

    private <T> T await(CompletableFuture<T> f, String what) {
        try {
            return f.get(config.registryTimeoutMs(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new TandemException("the registry at " + registry + " did not manage " + what + " within "
                    + config.registryTimeoutMs() + " ms (" + agent.describe() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TandemException("interrupted while joining " + registry, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new TandemException("joining " + registry + " failed: " + e.getCause(), e.getCause());
        }
    }

    private void send(Address dest, ControlMessage m) {
        try {
            channel.send(new BytesMessage(dest, ControlCodec.encode(version, m, controlTag)));
        } catch (Exception e) {
            throw new TandemException("cannot send " + m.getClass().getSimpleName() + " to the registry at " + registry
                    + ": " + e, e);
        }
    }

    @Override
    public int peerId() {
        return peerId;
    }

    @Override
    public void send(int toPeerId, CosimMessage message) {
        sender.send(toPeerId, message);
    }

    @Override
    public void broadcast(CosimMessage message) {
        sender.send(MessageCodec.ALL_PEERS, message);
    }

    @Override
    public void broadcastNextSimTask(long timePointNs, long durationNs) {
        sender.sendNextSimTask(timePointNs, durationNs);
    }

    /** Does the agent's work on the participant thread (see {@link SessionAgent}). */
    @Override
    public boolean peersInOtherProcesses() {
        return true;
    }

    @Override
    public void expectQuietFor(long durationNs) {
        idle.quietFor(durationNs);
    }

    @Override
    public int poll() {
        idle.participantAwake();
        return closed.get() ? 0 : agent.pollFromParticipant();
    }

    @Override
    public void participantParking() {
        idle.participantParking();
    }

    @Override
    public void close() {
        if (closed.get()) {
            return;
        }
        FrameSender s = sender;
        if (s != null) {
            s.close();
        }
        if (registryAddress != null && s != null && !agent.left.isDone()) {
            try {
                // receivers drain our stream up to here before they report us gone
                send(registryAddress, new LeaveRequest(simulationName, peerId, s.position()));
                agent.left.get(config.registryTimeoutMs(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                LOG.warn("{}: leaving {} cleanly failed ({}); leaving the group anyway", agent.roleName(), registry,
                        e.toString());
            }
        }
        release(false);
    }

    /** Frees everything; idempotent. */
    private void release(boolean failedJoin) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (failedJoin && registryAddress != null && peerId != 0) {
            try {
                channel.send(new BytesMessage(registryAddress, ControlCodec.encode(version,
                        new LeaveRequest(simulationName, peerId, -1), controlTag)));
            } catch (Exception e) {
                LOG.debug("cannot withdraw the reservation: {}", e.toString());
            }
        }
        FrameSender s = sender;
        if (s != null) {
            s.close();
        }
        CloseHelper.quietClose(runner);
        if (s != null) {
            s.closeRemotes();
        }
        CloseHelper.quietCloseAll(publication, subscription, udpSubscription);
        if (aeron != null) {
            AeronClients.release(aeron);
        }
        if (channel != null) {
            channel.close();
        }
    }

    /** @return the frame sender, for tests (null before the join links) */
    FrameSender sender() {
        return sender;
    }

    /** @return the IPC publication, for tests that forge frames on it */
    Publication publication() {
        return publication;
    }

    /** @return frames dropped as malformed or unauthenticated so far */
    long droppedFrames() {
        return agent.droppedFrames();
    }

    @Override
    public String toString() {
        return "NetSession[" + agent.describe() + "]";
    }

    private static IdleStrategy idleStrategy(NetConfig config) {
        return switch (config.idle()) {
            case BACKOFF -> new BackoffIdleStrategy(config.idleSpins(), config.idleYields(), 1_000, config.idleMaxParkNs());
            case YIELDING -> new YieldingIdleStrategy();
            case BUSY_SPIN -> new BusySpinIdleStrategy();
        };
    }

    /** Queues the registry's messages for the agent (JGroups threads). */
    private final class ControlReceiver implements Receiver {
        @Override
        public void receive(Message msg) {
            Address src = msg.getSrc();
            Address reg = registryAddress;
            if (reg == null || !reg.equals(src)) {
                return;
            }
            ControlMessage m;
            try {
                m = ControlCodec.decode(msg.getArray(), msg.getOffset(), msg.getLength(), version, "registry " + registry,
                        controlTag);
            } catch (ProtocolVersionException e) {
                agent.reserved.completeExceptionally(e);
                // join() throws it to the caller: logging it too would print it twice
                LOG.debug("{}: {}", agent.roleName(), e.getMessage());
                return;
            } catch (MalformedFrameException e) {
                LOG.warn("{}: dropping a malformed frame from the registry: {}", agent.roleName(), e.getMessage());
                return;
            } catch (UnauthenticatedFrameException e) {
                // a registry with another secret never admits us (AUTH); one without any does, then signs nothing
                agent.reserved.completeExceptionally(new SharedSecretMismatchException(e.getMessage(), e));
                LOG.warn("{}: dropping {}", agent.roleName(), e.getMessage());
                return;
            }
            if (m instanceof JoinRejected r) {
                if (r.nonce() == agent.nonce) {
                    agent.enqueue(m);
                }
            } else if (m.simulationName().equals(simulationName)) {
                agent.enqueue(m);
            }
        }

        @Override
        public void viewAccepted(View view) {
            Address reg = registryAddress;
            Address home = homeAddress;
            if (reg != null && !view.containsMember(reg)) {
                agent.enqueue(new SessionAgent.RegistryLost("lost the registry at " + registry
                        + (reg.equals(home) ? "" : " (the sequencer of its group, " + NameCache.get(reg) + ")")));
            } else if (home != null && !view.containsMember(home)) {
                agent.enqueue(new SessionAgent.RegistryLost("lost the registry at " + registry));
            }
        }
    }
}
