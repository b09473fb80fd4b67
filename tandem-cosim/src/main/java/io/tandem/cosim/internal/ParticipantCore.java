package io.tandem.cosim.internal;

import io.tandem.cosim.ConfigurationException;
import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.ParticipantStatus;
import io.tandem.cosim.SystemController;
import io.tandem.cosim.SystemMonitor;
import io.tandem.cosim.SystemState;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.VirtualTime;
import io.tandem.cosim.msg.BarrierReply;
import io.tandem.cosim.msg.BarrierRequest;
import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.msg.DataMessage;
import io.tandem.cosim.msg.LifecycleAnnouncement;
import io.tandem.cosim.msg.RpcCall;
import io.tandem.cosim.msg.RpcResult;
import io.tandem.cosim.msg.ServiceAnnouncement;
import io.tandem.cosim.msg.ServiceKind;
import io.tandem.cosim.msg.StatusUpdate;
import io.tandem.cosim.msg.SystemCommand;
import io.tandem.cosim.msg.WorkflowConfiguration;
import io.tandem.cosim.pubsub.DataMessageEvent;
import io.tandem.cosim.pubsub.DataMessageHandler;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.DataSubscriber;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.cosim.rpc.RpcCallEvent;
import io.tandem.cosim.rpc.RpcCallHandler;
import io.tandem.cosim.rpc.RpcCallResultEvent;
import io.tandem.cosim.rpc.RpcCallResultHandler;
import io.tandem.cosim.rpc.RpcCallStatus;
import io.tandem.cosim.rpc.RpcClient;
import io.tandem.cosim.rpc.RpcServer;
import io.tandem.cosim.rpc.RpcSpec;
import io.tandem.cosim.spi.Transport;
import io.tandem.cosim.spi.TransportListener;
import io.tandem.cosim.spi.TransportSession;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * One participant = one worker thread (SIL Kit's I/O worker): every handler runs on it, one at a
 * time, and all participant state below marked "worker" is touched only there. Transports call
 * the TransportListener methods from their own threads; those only enqueue into the MPSC inbox
 * (or, for NextSimTask, write the sender's PeerClock) and signal the worker.
 *
 * Ordering argument for time sync (the "no message with timestamp < T arrives after step T
 * starts" guarantee): a sender enqueues its data messages before it writes its PeerClock
 * (program order, then a volatile write). The worker decides to advance from PeerClock reads,
 * then drains the inbox once more; every message enqueued before the announcements it read is in
 * the inbox by then, so an empty second drain proves nothing earlier is pending.
 *
 * Losses. A peer that leaves without reaching Shutdown gets SIL Kit's synthetic Error "Connection
 * Lost"; if it was required, coordinated lifecycles end (ParticipantLifecycle). A transport that
 * loses the registry calls onConnectionLost before it reports the peers gone, so the lifecycle's
 * Error names the registry rather than the first peer.
 *
 * Idling: spin, then yield, then park; producers unpark only a parked worker (Dekker-style
 * signalled/parked volatiles), so a busy lockstep pays no syscalls. How long to spin depends on
 * how many workers of the JVM are not parked: while they fit the CPUs a worker spins long (2
 * participants on 2 cores: ~1.6M steps/s instead of ~0.2M when they park); beyond that spinning
 * steals the CPU the others need (8 participants on 2 cores fell from ~55k to ~400 steps/s), so
 * it yields after a few spins.
 */

/**
 * The transport-independent participant: implements {@link Participant} on top of a
 * {@link TransportSession}. Public only so the API package can create it.
 */
public final class ParticipantCore implements Participant, TransportListener {
    private static final Logger LOG = LoggerFactory.getLogger(ParticipantCore.class);
    /** system property: idle cycles a worker busy-spins before it starts yielding */
    public static final String IDLE_SPINS_PROP = "tandem.idle.spins";
    /** system property: idle cycles a worker yields before it parks */
    public static final String IDLE_YIELDS_PROP = "tandem.idle.yields";
    /** system property: idle cycles a worker busy-spins while no more workers run than there are CPUs */
    public static final String IDLE_SPINS_UNDERSUBSCRIBED_PROP = "tandem.idle.spins.undersubscribed";
    private static final int SPIN_LIMIT = Integer.getInteger(IDLE_SPINS_PROP, 64);
    private static final int SPIN_LIMIT_UNDERSUBSCRIBED = Integer.getInteger(IDLE_SPINS_UNDERSUBSCRIBED_PROP, 20_000);
    /** system property: idle cycles a worker busy-spins when its peers may be other processes */
    public static final String IDLE_SPINS_MULTIPROCESS_PROP = "tandem.idle.spins.multiprocess";
    /**
     * Measured on 2 cores, one participant per JVM over tandem:// (median of 5 runs of 10,000
     * steps): 4 spins gave N = 2 231k, N = 4 88k, N = 8 24.5k steps/s; 64 spins 201k, 44k, 9.9k;
     * 20,000 spins (the in-process default) held N = 8 near 100 steps/s. A process cannot see the
     * others' threads, so it spins briefly and yields the CPU to them.
     */
    private static final int SPIN_LIMIT_MULTIPROCESS = Integer.getInteger(IDLE_SPINS_MULTIPROCESS_PROP, 4);
    private static final int YIELD_LIMIT = Integer.getInteger(IDLE_YIELDS_PROP, 1000);
    private static final int CPUS = Runtime.getRuntime().availableProcessors();
    /**
     * participant workers of this JVM that are not parked. CPU oversubscription is a property of
     * the whole process, hence one counter per JVM: a worker spins only while spinning cannot
     * take a CPU from another worker.
     */
    private static final AtomicInteger RUNNING_WORKERS = new AtomicInteger();
    private static final long WALL_TICK_NS = 100_000;
    /** system property: how long connect waits for earlier peers' discovery replies (ms) */
    public static final String CONNECT_TIMEOUT_PROP = "tandem.connect.timeout.ms";
    private static final long CONNECT_TIMEOUT_MS = Long.getLong(CONNECT_TIMEOUT_PROP, 30_000);
    /** the reason of the synthetic Error of a participant that disconnected without shutting down (SIL Kit) */
    static final String CONNECTION_LOST = "Connection Lost";

    private final String registryUri;
    private final String simulationName;
    private final String name;
    private final LongSupplier wallClockNs;
    private final Thread worker;
    private final ConcurrentLinkedQueue<Object> inbox = new ConcurrentLinkedQueue<>();
    private volatile TransportSession session;
    private volatile int selfId;
    private volatile boolean running = true;
    private volatile boolean signalled;
    private volatile boolean parked;
    /** whether the session's peers may be in other processes (set once the session exists) */
    private volatile boolean multiProcess;

    // written by transport threads
    private final Object clockLock = new Object();
    private volatile PeerClock[] clocksById = new PeerClock[8];
    private final ConcurrentHashMap<String, Integer> connectedNames = new ConcurrentHashMap<>();

    // worker
    private final Map<Integer, Peer> peers = new LinkedHashMap<>();
    /** time-synced, connected peers' clocks, for the allocation-free advance check (worker) */
    PeerClock[] syncedClocks = new PeerClock[0];
    private final List<LocalPublisher> publishers = new ArrayList<>();
    private final List<LocalSubscriber> subscribers = new ArrayList<>();
    private final List<LocalRpcClient> rpcClients = new ArrayList<>();
    private final List<LocalRpcServer> rpcServers = new ArrayList<>();
    private int nextServiceId;
    final SystemStateTracker tracker = new SystemStateTracker();
    private volatile SystemState systemState = SystemState.INVALID;
    private final List<Consumer<ParticipantStatus>> statusHandlers = new ArrayList<>();
    private final List<Consumer<SystemState>> systemStateHandlers = new ArrayList<>();
    private final List<Consumer<String>> connectedHandlers = new ArrayList<>();
    private final List<Consumer<String>> disconnectedHandlers = new ArrayList<>();
    private final List<Consumer<String>> connectionLostHandlers = new ArrayList<>();
    /** why this participant lost its registry, null while connected (written by the worker) */
    private volatile String connectionLost;
    private WorkflowConfiguration workflowConfiguration;
    private boolean workflowConfigurationOwner;
    private final Map<Long, Barrier> barriers = new LinkedHashMap<>();
    private long nextBarrierId;

    private volatile ParticipantLifecycle lifecycle;
    private SystemMonitor monitor;
    private SystemController controller;

    // rpc, touched from any thread
    private final AtomicLong callIds = new AtomicLong();
    private final AtomicLong serverCallHandles = new AtomicLong();
    private final ConcurrentHashMap<Long, PendingCall> pendingCalls = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, ServerCall> serverCalls = new ConcurrentHashMap<>();
    private volatile int wallTimedCalls;
    /** wallClockNs before which the worker parks rather than spinning and yielding (0: none; expectQuietFor) */
    private volatile long quietUntilNs;

    private ParticipantCore(String registryUri, String simulationName, String name, LongSupplier wallClockNs) {
        this.registryUri = registryUri;
        this.simulationName = simulationName;
        this.name = name;
        this.wallClockNs = wallClockNs;
        this.worker = new Thread(this::runWorker, "tandem-participant-" + name);
        this.worker.setDaemon(true);
    }

    /**
     * Connects a participant (see {@link Participant#connect}).
     *
     * @param registryUri     registry URI
     * @param simulationName  simulation name
     * @param participantName participant name
     * @return the connected participant
     */
    public static Participant connect(String registryUri, String simulationName, String participantName) {
        requireName(simulationName, "simulation name");
        requireName(participantName, "participant name");
        if (simulationName.indexOf('/') >= 0) {
            throw new IllegalArgumentException("simulation name '" + simulationName + "' must not contain '/'");
        }
        URI uri = Transports.parse(registryUri);
        Transport transport = Transports.forScheme(uri);
        // a partition scopes the simulation name: groups in different partitions never meet
        String partition = Transports.partition(uri);
        String scoped = partition.isEmpty() ? simulationName : partition + "/" + simulationName;
        ParticipantCore core = new ParticipantCore(registryUri, simulationName, participantName, WallClock.MONOTONIC_NS);
        core.session = transport.join(Transports.withoutQuery(uri), scoped, participantName, core);
        core.multiProcess = core.session.peersInOtherProcesses();
        core.selfId = core.session.peerId();
        core.connectedNames.put(participantName, core.selfId);
        core.worker.start();
        // like SIL Kit's join handshake: return only once every earlier peer has replayed its
        // services to us, so a publisher created right after connect reaches their subscribers
        CompletableFuture<Void> discovered = new CompletableFuture<>();
        core.runOnWorker(() -> core.afterAllPeersReplied(() -> discovered.complete(null)));
        try {
            discovered.get(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            core.close();
            throw new TandemException("participant '" + participantName + "' joined simulation '" + simulationName
                    + "' at " + registryUri + " but not every peer answered within " + CONNECT_TIMEOUT_MS
                    + " ms (a peer blocked in a handler?); raise -D" + CONNECT_TIMEOUT_PROP + " if peers are slow", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            core.close();
            throw new TandemException("interrupted while connecting participant '" + participantName + "'", e);
        } catch (ExecutionException e) {
            core.close();
            throw new TandemException("connecting participant '" + participantName + "' failed", e.getCause());
        }
        return core;
    }

    private static void requireName(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be null or empty");
        }
    }

    // ---------------------------------------------------------------- transport listener (any thread)

    @Override
    public void onPeerJoined(int peerId, String participantName) {
        synchronized (clockLock) {
            PeerClock[] clocks = clocksById;
            if (peerId >= clocks.length) {
                clocks = Arrays.copyOf(clocks, Math.max(peerId + 1, clocks.length * 2));
            } else {
                clocks = clocks.clone();
            }
            clocks[peerId] = new PeerClock(peerId);
            clocksById = clocks;
        }
        connectedNames.put(participantName, peerId);
        post(new Joined(peerId, participantName));
    }

    @Override
    public void onPeerLeft(int peerId, String participantName, boolean connectionLost) {
        connectedNames.remove(participantName, peerId);
        post(new Left(peerId, participantName, connectionLost));
    }

    @Override
    public void onMessage(int fromPeerId, CosimMessage message) {
        post(new Inbound(fromPeerId, message));
    }

    @Override
    public void onConnectionLost(String reason) {
        post(new RegistryLost(reason == null ? "" : reason));
    }

    @Override
    public void onNextSimTask(int fromPeerId, long timePointNs, long durationNs) {
        PeerClock[] clocks = clocksById;
        if (fromPeerId < clocks.length) {
            PeerClock c = clocks[fromPeerId];
            if (c != null) {
                c.durationNs = durationNs;
                c.nextNs = timePointNs;
            }
        }
        signal();
    }

    // ---------------------------------------------------------------- worker loop

    private void post(Object event) {
        inbox.offer(event);
        signal();
    }

    void signal() {
        signalled = true;
        if (parked) {
            LockSupport.unpark(worker);
        }
    }

    private void runWorker() {
        RUNNING_WORKERS.incrementAndGet();
        try {
            workLoop();
        } finally {
            RUNNING_WORKERS.decrementAndGet();
        }
    }

    private void workLoop() {
        int idle = 0;
        while (running) {
            signalled = false;
            // a polling transport delivers on this thread while it is awake (no hand-off)
            TransportSession s = session;
            int work = s == null ? 0 : s.poll();
            work += drain();
            ParticipantLifecycle lc = lifecycle;
            if (lc != null) {
                work += lc.doWork();
            }
            if (wallTimedCalls > 0) {
                work += expireWallTimeouts(wallClockNs.getAsLong());
            }
            if (work > 0) {
                idle = 0;
            } else {
                idle = idle(idle);
            }
        }
        drain();
    }

    private int idle(int idle) {
        // a quiet hint: park through it (a signal still wakes the worker at once)
        if (idle == 0 && quietUntilNs != 0) {
            long left = quietUntilNs - wallClockNs.getAsLong();
            if (left > 0) {
                park(left);
                return 0;
            }
        }
        int spins = multiProcess ? SPIN_LIMIT_MULTIPROCESS
                : RUNNING_WORKERS.get() <= CPUS ? SPIN_LIMIT_UNDERSUBSCRIBED : SPIN_LIMIT;
        if (idle < spins) {
            Thread.onSpinWait();
        } else if (idle < spins + YIELD_LIMIT) {
            Thread.yield();
        } else {
            park(0);
            return 0;
        }
        return idle + 1;
    }

    /** Parks the worker until signalled, for at most maxNs when > 0, and at most a wall tick while wall-timed calls wait. */
    private void park(long maxNs) {
        parked = true;
        if (!signalled && running) {
            TransportSession s = session;
            if (s != null) {
                s.participantParking();
            }
            RUNNING_WORKERS.decrementAndGet();
            if (wallTimedCalls > 0) {
                LockSupport.parkNanos(this, maxNs > 0 ? Math.min(maxNs, WALL_TICK_NS) : WALL_TICK_NS);
            } else if (maxNs > 0) {
                LockSupport.parkNanos(this, maxNs);
            } else {
                LockSupport.park(this);
            }
            RUNNING_WORKERS.incrementAndGet();
        }
        parked = false;
    }

    /**
     * Handles every queued event.
     *
     * @return the number handled
     */
    int drain() {
        int n = 0;
        Object e;
        while ((e = inbox.poll()) != null) {
            n++;
            try {
                dispatch(e);
            } catch (RuntimeException ex) {
                LOG.error("participant '{}': failure while handling {}", name, e.getClass().getSimpleName(), ex);
            }
        }
        return n;
    }

    private void dispatch(Object e) {
        if (e instanceof Inbound in) {
            onInbound(in.from, in.message);
        } else if (e instanceof Runnable task) {
            task.run();
        } else if (e instanceof Joined j) {
            onJoined(j);
        } else if (e instanceof Left l) {
            onLeft(l);
        } else if (e instanceof RegistryLost r) {
            onRegistryLost(r.reason);
        }
    }

    boolean onWorkerThread() {
        return Thread.currentThread() == worker;
    }

    /** Runs a task on the worker and waits for it (directly if already on the worker). */
    <T> T callOnWorker(Callable<T> task) {
        if (onWorkerThread()) {
            try {
                return task.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new TandemException(e.getMessage(), e);
            }
        }
        if (!running) {
            throw new IllegalStateException("participant '" + name + "' is closed");
        }
        FutureTask<T> f = new FutureTask<>(task);
        post(f);
        try {
            // a task posted while the participant closes may never run: do not wait for it forever
            while (true) {
                try {
                    return f.get(100, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (!worker.isAlive() && !f.isDone()) {
                        throw new IllegalStateException("participant '" + name + "' was closed");
                    }
                }
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new TandemException("interrupted while waiting for participant '" + name + "'", ie);
        } catch (ExecutionException ee) {
            if (ee.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new TandemException(ee.getCause().getMessage(), ee.getCause());
        }
    }

    void runOnWorker(Runnable task) {
        callOnWorker(() -> {
            task.run();
            return null;
        });
    }

    /** Queues a task for the worker without waiting. */
    void defer(Runnable task) {
        post(task);
    }

    // ---------------------------------------------------------------- membership (worker)

    private void onJoined(Joined j) {
        PeerClock clock = clocksById[j.id];
        Peer p = new Peer(j.id, j.name, clock);
        peers.put(j.id, p);
        // history-1 state and discovery are replayed to the newcomer
        TransportSession s = session;
        for (LocalPublisher pub : publishers) {
            s.send(p.id, announcement(ServiceKind.DATA_PUBLISHER, pub.id, pub.spec.topic(), pub.spec.mediaType(),
                    pub.spec.labels(), pub.history));
        }
        for (LocalSubscriber sub : subscribers) {
            s.send(p.id, announcement(ServiceKind.DATA_SUBSCRIBER, sub.id, sub.spec.topic(), sub.spec.mediaType(),
                    sub.spec.labels(), 0));
        }
        for (LocalRpcClient c : rpcClients) {
            s.send(p.id, announcement(ServiceKind.RPC_CLIENT, c.id, c.spec.functionName(), c.spec.mediaType(),
                    c.spec.labels(), 0));
        }
        for (LocalRpcServer srv : rpcServers) {
            s.send(p.id, announcement(ServiceKind.RPC_SERVER, srv.id, srv.spec.functionName(), srv.spec.mediaType(),
                    srv.spec.labels(), 0));
        }
        ParticipantLifecycle lc = lifecycle;
        if (lc != null && lc.announced()) {
            s.send(p.id, lc.announcement());
            s.send(p.id, new StatusUpdate(lc.state(), lc.reason()));
        }
        if (workflowConfigurationOwner) {
            s.send(p.id, workflowConfiguration);
        }
        for (Consumer<String> h : List.copyOf(connectedHandlers)) {
            safeRun(() -> h.accept(j.name), "participant connected handler");
        }
    }

    private void onLeft(Left l) {
        Peer p = peers.remove(l.id);
        if (p == null) {
            return;
        }
        for (LocalPublisher pub : publishers) {
            pub.removePeer(p.id);
        }
        for (LocalRpcClient c : rpcClients) {
            c.removePeer(p.id);
        }
        if (p.timeSynced) {
            p.timeSynced = false;
            rebuildSyncedClocks();
        }
        // a participant gone without reaching Shutdown lost its connection (SIL Kit SystemMonitor)
        ParticipantState last = p.status == null ? null : p.status.state();
        boolean lostConnection = last != null && last != ParticipantState.SHUTDOWN && last != ParticipantState.INVALID;
        if (lostConnection) {
            applyStatus(new ParticipantStatus(p.name, ParticipantState.ERROR, CONNECTION_LOST));
        }
        if (tracker.remove(p.name)) {
            publishSystemState();
        }
        // beyond SIL Kit: a lost required participant ends the coordinated lifecycles, which would
        // otherwise wait in a system state of Error for good (see ParticipantLifecycle)
        ParticipantLifecycle lc = lifecycle;
        if (lostConnection && lc != null && workflowConfiguration != null
                && workflowConfiguration.requiredParticipantNames().contains(p.name)) {
            lc.onRequiredParticipantLost(p.name);
        }
        for (Barrier b : List.copyOf(barriers.values())) {
            b.pending.remove((Integer) p.id);
            completeBarrierIfDone(b);
        }
        for (Consumer<String> h : List.copyOf(disconnectedHandlers)) {
            safeRun(() -> h.accept(l.name), "participant disconnected handler");
        }
    }

    /** The transport lost the registry: tell the handlers, end a coordinated lifecycle (worker). */
    private void onRegistryLost(String reason) {
        if (connectionLost != null) {
            return;
        }
        String why = "participant '" + name + "' lost its connection to the registry at " + registryUri
                + (reason.isEmpty() ? "" : " (" + reason + ")");
        connectionLost = why;
        LOG.warn("{}", why);
        for (Consumer<String> h : List.copyOf(connectionLostHandlers)) {
            safeRun(() -> h.accept(why), "connection lost handler");
        }
        ParticipantLifecycle lc = lifecycle;
        if (lc != null) {
            lc.onConnectionLost(why);
        }
    }

    void rebuildSyncedClocks() {
        List<PeerClock> list = new ArrayList<>();
        for (Peer p : peers.values()) {
            if (p.timeSynced) {
                list.add(p.clock);
            }
        }
        syncedClocks = list.toArray(new PeerClock[0]);
    }

    // ---------------------------------------------------------------- inbound messages (worker)

    private void onInbound(int from, CosimMessage m) {
        Peer p = from == selfId ? null : peers.get(from);
        if (p == null && from != selfId) {
            return; // from a peer that already left
        }
        if (m instanceof DataMessage d) {
            onData(p, d);
        } else if (m instanceof ServiceAnnouncement a) {
            onAnnouncement(p, a);
        } else if (m instanceof StatusUpdate u) {
            p.status = new ParticipantStatus(p.name, u.state(), u.reason());
            if (p.timeSynced && leftTime(u.state())) {
                // beyond SIL Kit: a peer that is stopping will never announce another step, so it
                // stops holding back virtual time now rather than when it disconnects
                p.timeSynced = false;
                rebuildSyncedClocks();
            }
            applyStatus(p.status);
        } else if (m instanceof LifecycleAnnouncement la) {
            p.hasLifecycle = true;
            p.mode = la.mode();
            if (la.timeSyncActive() && !p.timeSynced && (p.status == null || !leftTime(p.status.state()))) {
                p.timeSynced = true;
                rebuildSyncedClocks();
                ParticipantLifecycle lc = lifecycle;
                if (lc != null) {
                    lc.onTimeSyncPeerDiscovered();
                }
            }
        } else if (m instanceof WorkflowConfiguration wc) {
            applyWorkflowConfiguration(wc);
        } else if (m instanceof SystemCommand c) {
            ParticipantLifecycle lc = lifecycle;
            if (c.kind() == SystemCommand.Kind.ABORT_SIMULATION && lc != null) {
                lc.abort();
            }
        } else if (m instanceof RpcCall call) {
            onRpcCall(from, p, call);
        } else if (m instanceof RpcResult r) {
            onRpcResult(r);
        } else if (m instanceof BarrierRequest br) {
            session.send(from, new BarrierReply(br.barrierId()));
        } else if (m instanceof BarrierReply reply) {
            Barrier b = barriers.get(reply.barrierId());
            if (b != null) {
                b.pending.remove((Integer) from);
                completeBarrierIfDone(b);
            }
        }
    }

    private static boolean leftTime(ParticipantState s) {
        return switch (s) {
            case STOPPING, STOPPED, SHUTTING_DOWN, SHUTDOWN, ABORTING -> true;
            case INVALID, SERVICES_CREATED, COMMUNICATION_INITIALIZING, COMMUNICATION_INITIALIZED, READY_TO_RUN,
                    RUNNING, PAUSED, ERROR -> false;
        };
    }

    private void onAnnouncement(Peer p, ServiceAnnouncement a) {
        p.put(a);
        switch (a.kind()) {
            case DATA_PUBLISHER -> {
                PubSubSpec spec = new PubSubSpec(a.topic(), a.mediaType(), a.labels());
                List<LocalSubscriber> matched = new ArrayList<>();
                for (LocalSubscriber s : subscribers) {
                    if (s.matches(spec)) {
                        matched.add(s);
                    }
                }
                p.matchedSubscribers[a.serviceId()] = matched.toArray(new LocalSubscriber[0]);
            }
            case DATA_SUBSCRIBER -> {
                PubSubSpec spec = new PubSubSpec(a.topic(), a.mediaType(), a.labels());
                for (LocalPublisher pub : publishers) {
                    if (subscriberMatches(spec, pub.spec)) {
                        pub.addMatch(p.id, a.serviceId());
                    }
                }
            }
            case RPC_CLIENT -> {
                RpcSpec spec = new RpcSpec(a.topic(), a.mediaType(), a.labels());
                List<LocalRpcServer> matched = new ArrayList<>();
                for (LocalRpcServer s : rpcServers) {
                    if (s.matches(spec)) {
                        matched.add(s);
                    }
                }
                p.matchedServers[a.serviceId()] = matched.toArray(new LocalRpcServer[0]);
            }
            case RPC_SERVER -> {
                RpcSpec spec = new RpcSpec(a.topic(), a.mediaType(), a.labels());
                for (LocalRpcClient c : rpcClients) {
                    if (c.matches(spec)) {
                        c.addServer(p.id);
                    }
                }
            }
        }
    }

    private static boolean subscriberMatches(PubSubSpec sub, PubSubSpec pub) {
        return Matching.matches(pub.topic(), pub.mediaType(), pub.labels(), sub.topic(), sub.mediaType(), sub.labels());
    }

    private void onData(Peer p, DataMessage d) {
        LocalSubscriber[] targets;
        if (p == null) {
            targets = selfMatches(d.publisherId());
        } else {
            LocalSubscriber[][] bySvc = p.matchedSubscribers;
            targets = d.publisherId() < bySvc.length ? bySvc[d.publisherId()] : null;
        }
        if (targets == null || targets.length == 0) {
            return;
        }
        long ts = receiverTimestampNs(d.timestampNs());
        DataMessageEvent event = new DataMessageEvent(ts, d.data());
        for (LocalSubscriber s : targets) {
            if (d.targetSubscriberId() < 0 || d.targetSubscriberId() == s.id) {
                try {
                    s.handler.onData(event);
                } catch (RuntimeException ex) {
                    LOG.warn("participant '{}': data handler of subscriber '{}' threw", name, s.name, ex);
                }
            }
        }
    }

    private LocalSubscriber[] selfMatches(int publisherId) {
        for (LocalPublisher pub : publishers) {
            if (pub.id == publisherId) {
                List<LocalSubscriber> out = new ArrayList<>();
                for (LocalSubscriber s : subscribers) {
                    if (s.matches(pub.spec)) {
                        out.add(s);
                    }
                }
                return out.toArray(new LocalSubscriber[0]);
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- timestamps

    /** SIL Kit rule: a time-synced sender stamps its Now(); others stamp the invalid time. */
    long senderTimestampNs() {
        ParticipantLifecycle lc = lifecycle;
        ConservativeTimeSync ts = lc == null ? null : lc.timeSync();
        return ts == null ? VirtualTime.INVALID_NS : ts.now();
    }

    /** SIL Kit rule: a time-synced receiver replaces an invalid timestamp with its own Now(). */
    long receiverTimestampNs(long sent) {
        if (sent != VirtualTime.INVALID_NS) {
            return sent;
        }
        ParticipantLifecycle lc = lifecycle;
        ConservativeTimeSync ts = lc == null ? null : lc.timeSync();
        return ts == null ? sent : ts.now();
    }

    // ---------------------------------------------------------------- sending

    int peerId() {
        return selfId;
    }

    String participantName() {
        return name;
    }

    TransportSession session() {
        return session;
    }

    void sendTo(int peer, CosimMessage m) {
        session.send(peer, m);
    }

    void broadcast(CosimMessage m) {
        session.broadcast(m);
    }

    void deliverToSelf(CosimMessage m) {
        post(new Inbound(selfId, m));
    }

    // ---------------------------------------------------------------- status, system state (worker)

    /** Records a participant status (own, a peer's, or synthetic) and notifies monitors. */
    void applyStatus(ParticipantStatus status) {
        ParticipantState previous = tracker.stateOf(status.participantName());
        if (previous == ParticipantState.SHUTDOWN || previous == status.state()) {
            return; // updates after Shutdown, and history replays of a known state, are ignored
        }
        // the first status seen of a participant may be any state: a late observer gets its latest from history
        if (previous != null && !SystemStateTracker.isValidTransition(previous, status.state())) {
            LOG.warn("participant '{}' observed invalid transition of '{}' from {} to {}", name,
                    status.participantName(), previous, status.state());
        }
        boolean changed = tracker.update(status.participantName(), status.state());
        for (Consumer<ParticipantStatus> h : List.copyOf(statusHandlers)) {
            safeRun(() -> h.accept(status), "participant status handler");
        }
        if (changed) {
            publishSystemState();
        }
        ParticipantLifecycle lc = lifecycle;
        if (lc != null) {
            lc.requestEvaluation();
        }
    }

    private void publishSystemState() {
        SystemState s = tracker.systemState();
        systemState = s;
        LOG.debug("participant '{}': system state {}", name, s);
        for (Consumer<SystemState> h : List.copyOf(systemStateHandlers)) {
            safeRun(() -> h.accept(s), "system state handler");
        }
        ParticipantLifecycle lc = lifecycle;
        if (lc != null) {
            lc.requestEvaluation();
        }
    }

    SystemState systemState() {
        return systemState;
    }

    WorkflowConfiguration workflowConfiguration() {
        return workflowConfiguration;
    }

    void applyWorkflowConfiguration(WorkflowConfiguration wc) {
        workflowConfiguration = wc;
        if (tracker.setRequired(wc.requiredParticipantNames())) {
            publishSystemState();
        }
        ParticipantLifecycle lc = lifecycle;
        if (lc != null) {
            lc.onWorkflowConfiguration(wc);
        }
    }

    void safeRun(Runnable r, String what) {
        try {
            r.run();
        } catch (RuntimeException ex) {
            LOG.warn("participant '{}': {} threw", name, what, ex);
        }
    }

    // ---------------------------------------------------------------- barriers (worker)

    /**
     * Runs {@code then} once every currently connected peer has answered a barrier request, i.e.
     * has processed everything this participant sent before (SIL Kit's
     * CallAfterAllParticipantsReplied). Peers that leave count as answered.
     */
    void afterAllPeersReplied(Runnable then) {
        Barrier b = new Barrier(nextBarrierId++, then);
        for (Peer p : peers.values()) {
            b.pending.add(p.id);
        }
        barriers.put(b.id, b);
        for (Integer id : b.pending) {
            session.send(id, new BarrierRequest(b.id));
        }
        completeBarrierIfDone(b);
    }

    private void completeBarrierIfDone(Barrier b) {
        if (b.pending.isEmpty() && barriers.remove(b.id) != null) {
            b.then.run();
        }
    }

    // ---------------------------------------------------------------- rpc

    long nextCallId() {
        return callIds.incrementAndGet();
    }

    void registerPendingCall(LocalRpcClient client, long callId, int expected, long timeoutNs) {
        PendingCall pc = new PendingCall(client, callId, expected, timeoutNs);
        ParticipantLifecycle lc = lifecycle;
        pc.virtual = lc != null && lc.timeSync() != null;
        if (timeoutNs > 0 && !pc.virtual) {
            pc.deadlineNs = wallClockNs.getAsLong() + timeoutNs;
            synchronized (pendingCalls) {
                wallTimedCalls++;
            }
        }
        pendingCalls.put(callId, pc);
        if (pc.deadlineNs != 0) {
            // a worker parked without a deadline (no wall-timed call was pending) must wake to watch
            // this one's: the call itself goes out on the caller's thread and may never wake it
            signal();
        }
    }

    void rpcServerNotReachable(LocalRpcClient client, long callId) {
        long ts = senderTimestampNs();
        defer(() -> safeRun(() -> client.handler.onResult(
                new RpcCallResultEvent(ts, callId, RpcCallStatus.SERVER_NOT_REACHABLE, new byte[0])), "rpc result handler"));
    }

    private void onRpcCall(int from, Peer p, RpcCall call) {
        LocalRpcServer[] targets;
        if (p == null) {
            LocalRpcClient client = findClient(call.clientId());
            List<LocalRpcServer> out = new ArrayList<>();
            for (LocalRpcServer s : rpcServers) {
                if (client != null && s.matches(client.spec)) {
                    out.add(s);
                }
            }
            targets = out.toArray(new LocalRpcServer[0]);
        } else {
            targets = call.clientId() < p.matchedServers.length ? p.matchedServers[call.clientId()] : null;
        }
        if (targets == null) {
            return;
        }
        long ts = receiverTimestampNs(call.timestampNs());
        for (LocalRpcServer s : targets) {
            long handle = serverCallHandles.incrementAndGet();
            serverCalls.put(handle, new ServerCall(from, call.clientId(), call.callId()));
            try {
                s.handler.onCall(new RpcCallEvent(ts, call.data(), handle));
            } catch (RuntimeException ex) {
                LOG.warn("participant '{}': rpc server '{}' handler threw", name, s.name, ex);
                submitRpcResult(handle, true, new byte[0]);
            }
        }
    }

    private LocalRpcClient findClient(int id) {
        for (LocalRpcClient c : rpcClients) {
            if (c.id == id) {
                return c;
            }
        }
        return null;
    }

    void submitRpcResult(long handle, boolean failed, byte[] data) {
        ServerCall c = serverCalls.remove(handle);
        if (c == null) {
            return; // already answered
        }
        RpcResult r = new RpcResult(c.clientId, c.callId, senderTimestampNs(), failed, data);
        if (c.peer == selfId) {
            deliverToSelf(r);
        } else {
            session.send(c.peer, r);
        }
    }

    private void onRpcResult(RpcResult r) {
        PendingCall pc = pendingCalls.get(r.callId());
        if (pc == null || pc.client.id != r.clientId()) {
            LOG.warn("participant '{}': dropping RPC result of call {} that timed out or is unknown", name, r.callId());
            return;
        }
        if (--pc.remaining <= 0) {
            removePending(pc);
        }
        RpcCallStatus status = r.serverFailed() ? RpcCallStatus.INTERNAL_SERVER_ERROR : RpcCallStatus.SUCCESS;
        RpcCallResultEvent ev = new RpcCallResultEvent(receiverTimestampNs(r.timestampNs()), r.callId(), status,
                r.serverFailed() ? new byte[0] : r.data());
        safeRun(() -> pc.client.handler.onResult(ev), "rpc result handler");
    }

    private void removePending(PendingCall pc) {
        if (pendingCalls.remove(pc.callId) != null && pc.deadlineNs != 0) {
            synchronized (pendingCalls) {
                wallTimedCalls--;
            }
        }
    }

    /** Counts virtual-time RPC timeouts down by one step (worker; called by the time sync). */
    void tickVirtualTimeouts(long nowNs, long durationNs) {
        if (pendingCalls.isEmpty()) {
            return;
        }
        for (Iterator<PendingCall> it = pendingCalls.values().iterator(); it.hasNext(); ) {
            PendingCall pc = it.next();
            if (pc.virtual && pc.timeoutNs > 0) {
                pc.remainingTimeoutNs -= durationNs;
                if (pc.remainingTimeoutNs <= 0) {
                    it.remove();
                    safeRun(() -> pc.client.handler.onResult(
                            new RpcCallResultEvent(nowNs, pc.callId, RpcCallStatus.TIMEOUT, new byte[0])), "rpc result handler");
                }
            }
        }
    }

    private int expireWallTimeouts(long nowWallNs) {
        int n = 0;
        for (PendingCall pc : pendingCalls.values()) {
            if (pc.deadlineNs != 0 && nowWallNs - pc.deadlineNs >= 0) {
                removePending(pc);
                n++;
                long ts = senderTimestampNs();
                safeRun(() -> pc.client.handler.onResult(
                        new RpcCallResultEvent(ts, pc.callId, RpcCallStatus.TIMEOUT, new byte[0])), "rpc result handler");
            }
        }
        return n;
    }

    // ---------------------------------------------------------------- Participant API

    @Override
    public String name() {
        return name;
    }

    @Override
    public String simulationName() {
        return simulationName;
    }

    private ServiceAnnouncement announcement(ServiceKind kind, int id, String topic, String media,
                                             List<io.tandem.cosim.MatchingLabel> labels, int history) {
        return new ServiceAnnouncement(kind, id, topic, media, labels, history);
    }

    @Override
    public DataPublisher createDataPublisher(String controllerName, PubSubSpec spec, int history) {
        requireName(controllerName, "publisher name");
        java.util.Objects.requireNonNull(spec, "spec must not be null");
        if (history != 0 && history != 1) {
            throw new ConfigurationException("publisher '" + controllerName + "' on topic '" + spec.topic()
                    + "': history must be 0 or 1, got " + history);
        }
        return callOnWorker(() -> {
            LocalPublisher pub = new LocalPublisher(this, nextServiceId++, controllerName, spec, history);
            publishers.add(pub);
            session.broadcast(announcement(ServiceKind.DATA_PUBLISHER, pub.id, spec.topic(), spec.mediaType(),
                    spec.labels(), history));
            for (LocalSubscriber s : subscribers) {
                if (s.matches(spec)) {
                    pub.addMatch(selfId, s.id);
                }
            }
            for (Peer p : peers.values()) {
                for (ServiceAnnouncement a : p.services) {
                    if (a != null && a.kind() == ServiceKind.DATA_SUBSCRIBER
                            && subscriberMatches(new PubSubSpec(a.topic(), a.mediaType(), a.labels()), spec)) {
                        pub.addMatch(p.id, a.serviceId());
                    }
                }
            }
            return pub;
        });
    }

    @Override
    public DataSubscriber createDataSubscriber(String controllerName, PubSubSpec spec, DataMessageHandler handler) {
        requireName(controllerName, "subscriber name");
        java.util.Objects.requireNonNull(spec, "spec must not be null");
        java.util.Objects.requireNonNull(handler, "data handler must not be null");
        return callOnWorker(() -> {
            LocalSubscriber sub = new LocalSubscriber(nextServiceId++, controllerName, spec, handler);
            subscribers.add(sub);
            for (Peer p : peers.values()) {
                for (int i = 0; i < p.services.length; i++) {
                    ServiceAnnouncement a = p.services[i];
                    if (a != null && a.kind() == ServiceKind.DATA_PUBLISHER
                            && sub.matches(new PubSubSpec(a.topic(), a.mediaType(), a.labels()))) {
                        LocalSubscriber[] old = p.matchedSubscribers[i];
                        LocalSubscriber[] grown = old == null ? new LocalSubscriber[1] : Arrays.copyOf(old, old.length + 1);
                        grown[grown.length - 1] = sub;
                        p.matchedSubscribers[i] = grown;
                    }
                }
            }
            session.broadcast(announcement(ServiceKind.DATA_SUBSCRIBER, sub.id, spec.topic(), spec.mediaType(),
                    spec.labels(), 0));
            for (LocalPublisher pub : publishers) {
                if (sub.matches(pub.spec)) {
                    pub.addMatch(selfId, sub.id);
                }
            }
            return sub;
        });
    }

    @Override
    public RpcClient createRpcClient(String controllerName, RpcSpec spec, RpcCallResultHandler handler) {
        requireName(controllerName, "RPC client name");
        java.util.Objects.requireNonNull(spec, "spec must not be null");
        java.util.Objects.requireNonNull(handler, "result handler must not be null");
        return callOnWorker(() -> {
            LocalRpcClient c = new LocalRpcClient(this, nextServiceId++, controllerName, spec, handler);
            rpcClients.add(c);
            for (LocalRpcServer s : rpcServers) {
                if (c.matches(s.spec)) {
                    c.addServer(selfId);
                }
            }
            for (Peer p : peers.values()) {
                for (ServiceAnnouncement a : p.services) {
                    if (a != null && a.kind() == ServiceKind.RPC_SERVER
                            && c.matches(new RpcSpec(a.topic(), a.mediaType(), a.labels()))) {
                        c.addServer(p.id);
                    }
                }
            }
            session.broadcast(announcement(ServiceKind.RPC_CLIENT, c.id, spec.functionName(), spec.mediaType(),
                    spec.labels(), 0));
            return c;
        });
    }

    @Override
    public RpcServer createRpcServer(String controllerName, RpcSpec spec, RpcCallHandler handler) {
        requireName(controllerName, "RPC server name");
        java.util.Objects.requireNonNull(spec, "spec must not be null");
        java.util.Objects.requireNonNull(handler, "call handler must not be null");
        return callOnWorker(() -> {
            LocalRpcServer s = new LocalRpcServer(this, nextServiceId++, controllerName, spec, handler);
            rpcServers.add(s);
            for (LocalRpcClient c : rpcClients) {
                if (c.matches(spec)) {
                    c.addServer(selfId);
                }
            }
            for (Peer p : peers.values()) {
                for (int i = 0; i < p.services.length; i++) {
                    ServiceAnnouncement a = p.services[i];
                    if (a != null && a.kind() == ServiceKind.RPC_CLIENT
                            && s.matches(new RpcSpec(a.topic(), a.mediaType(), a.labels()))) {
                        LocalRpcServer[] old = p.matchedServers[i];
                        LocalRpcServer[] grown = old == null ? new LocalRpcServer[1] : Arrays.copyOf(old, old.length + 1);
                        grown[grown.length - 1] = s;
                        p.matchedServers[i] = grown;
                    }
                }
            }
            session.broadcast(announcement(ServiceKind.RPC_SERVER, s.id, spec.functionName(), spec.mediaType(),
                    spec.labels(), 0));
            return s;
        });
    }

    @Override
    public LifecycleService createLifecycleService(OperationMode mode) {
        if (mode == null) {
            throw new ConfigurationException("participant '" + name
                    + "': the operation mode was not set; use OperationMode.COORDINATED or AUTONOMOUS");
        }
        return callOnWorker(() -> {
            if (lifecycle != null) {
                throw new ConfigurationException("participant '" + name + "' already has a lifecycle service");
            }
            lifecycle = new ParticipantLifecycle(this, mode);
            return lifecycle;
        });
    }

    @Override
    public SystemMonitor createSystemMonitor() {
        return callOnWorker(() -> {
            if (monitor == null) {
                monitor = new ParticipantSystemMonitor(this);
            }
            return monitor;
        });
    }

    @Override
    public SystemController createSystemController() {
        return callOnWorker(() -> {
            if (controller == null) {
                controller = new ParticipantSystemController(this);
            }
            return controller;
        });
    }

    void setWorkflowConfigurationFromController(List<String> required) {
        runOnWorker(() -> {
            WorkflowConfiguration wc = new WorkflowConfiguration(required);
            workflowConfigurationOwner = true;
            session.broadcast(wc);
            applyWorkflowConfiguration(wc);
        });
    }

    void abortFromController() {
        runOnWorker(() -> {
            ParticipantLifecycle lc = lifecycle;
            if (lc != null) {
                lc.abort();
            }
            session.broadcast(new SystemCommand(SystemCommand.Kind.ABORT_SIMULATION));
        });
    }

    void addStatusHandler(Consumer<ParticipantStatus> handler) {
        runOnWorker(() -> {
            statusHandlers.add(handler);
            ParticipantLifecycle lc = lifecycle;
            for (Peer p : peers.values()) {
                if (p.status != null && p.status.state() != ParticipantState.INVALID) {
                    safeRun(() -> handler.accept(p.status), "participant status handler");
                }
            }
            if (lc != null && lc.state() != ParticipantState.INVALID) {
                safeRun(() -> handler.accept(new ParticipantStatus(name, lc.state(), lc.reason())), "participant status handler");
            }
        });
    }

    void addSystemStateHandler(Consumer<SystemState> handler) {
        runOnWorker(() -> {
            systemStateHandlers.add(handler);
            safeRun(() -> handler.accept(tracker.systemState()), "system state handler");
        });
    }

    ParticipantStatus statusOf(String participantName) {
        return callOnWorker(() -> {
            if (participantName.equals(name)) {
                ParticipantLifecycle lc = lifecycle;
                return lc == null ? null : new ParticipantStatus(name, lc.state(), lc.reason());
            }
            for (Peer p : peers.values()) {
                if (p.name.equals(participantName)) {
                    return p.status;
                }
            }
            return null;
        });
    }

    @Override
    public void addParticipantConnectedHandler(Consumer<String> handler) {
        java.util.Objects.requireNonNull(handler, "handler");
        runOnWorker(() -> connectedHandlers.add(handler));
    }

    @Override
    public void addParticipantDisconnectedHandler(Consumer<String> handler) {
        java.util.Objects.requireNonNull(handler, "handler");
        runOnWorker(() -> disconnectedHandlers.add(handler));
    }

    @Override
    public void addConnectionLostHandler(Consumer<String> handler) {
        java.util.Objects.requireNonNull(handler, "handler");
        runOnWorker(() -> {
            connectionLostHandlers.add(handler);
            String why = connectionLost;
            if (why != null) {
                safeRun(() -> handler.accept(why), "connection lost handler");
            }
        });
    }

    @Override
    public boolean isConnected() {
        return running && connectionLost == null;
    }

    @Override
    public boolean isParticipantConnected(String participantName) {
        return connectedNames.containsKey(participantName);
    }

    @Override
    public void expectQuietFor(long durationNs) {
        if (durationNs < 0) {
            throw new IllegalArgumentException("expectQuietFor needs a duration >= 0 ns, got " + durationNs);
        }
        quietUntilNs = durationNs == 0 ? 0 : wallClockNs.getAsLong() + durationNs;
        TransportSession s = session;
        if (s != null) {
            s.expectQuietFor(durationNs);
        }
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        session.close();
        LockSupport.unpark(worker);
        if (!onWorkerThread()) {
            try {
                worker.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ParticipantLifecycle lc = lifecycle;
        if (lc != null) {
            lc.onClosed();
        }
    }

    @Override
    public String toString() {
        // a diagnostic snapshot; fields owned by the worker are read racily
        ParticipantLifecycle lc = lifecycle;
        StringBuilder b = new StringBuilder("Participant[").append(simulationName).append('/').append(name)
                .append(" id=").append(selfId)
                .append(" state=").append(lc == null ? "-" : lc.state())
                .append(" system=").append(systemState)
                .append(" required=").append(workflowConfiguration == null ? "-" : workflowConfiguration.requiredParticipantNames())
                .append(" inbox=").append(inbox.size());
        ConservativeTimeSync ts = lc == null ? null : lc.timeSync();
        if (ts != null) {
            b.append(" now=").append(ts.now()).append(' ').append(ts.describe());
            for (PeerClock c : syncedClocks) {
                b.append(" peer").append(c.peerId).append("@").append(c.nextNs);
            }
        }
        for (Barrier br : List.copyOf(barriers.values())) {
            b.append(" barrier#").append(br.id).append(" waits on ").append(br.pending);
        }
        return b.append(']').toString();
    }

    // ---------------------------------------------------------------- inbox events

    private record Inbound(int from, CosimMessage message) {
    }

    private record Joined(int id, String name) {
    }

    private record Left(int id, String name, boolean lost) {
    }

    private record RegistryLost(String reason) {
    }

    private static final class Barrier {
        final long id;
        final Runnable then;
        final List<Integer> pending = new ArrayList<>();

        Barrier(long id, Runnable then) {
            this.id = id;
            this.then = then;
        }
    }

    private static final class PendingCall {
        final LocalRpcClient client;
        final long callId;
        final long timeoutNs;
        int remaining;
        long remainingTimeoutNs;
        long deadlineNs;
        boolean virtual;

        PendingCall(LocalRpcClient client, long callId, int remaining, long timeoutNs) {
            this.client = client;
            this.callId = callId;
            this.remaining = remaining;
            this.timeoutNs = timeoutNs;
            this.remainingTimeoutNs = timeoutNs;
        }
    }

    private record ServerCall(int peer, int clientId, long callId) {
    }
}
