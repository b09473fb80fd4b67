package io.tandem.net.internal;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.spi.RegistryEndpoint;
import io.tandem.net.MalformedFrameException;
import io.tandem.net.NetConfig;
import io.tandem.net.ProtocolVersionException;
import io.tandem.net.internal.ControlMessage.JoinCommit;
import io.tandem.net.internal.ControlMessage.JoinRejected;
import io.tandem.net.internal.ControlMessage.JoinRequest;
import io.tandem.net.internal.ControlMessage.JoinReserved;
import io.tandem.net.internal.ControlMessage.LeaveRequest;
import io.tandem.net.internal.ControlMessage.MemberInfo;
import io.tandem.net.internal.ControlMessage.MemberJoined;
import io.tandem.net.internal.ControlMessage.MemberLeft;
import io.tandem.net.internal.ControlMessage.RegistryInfo;
import io.tandem.net.internal.ControlMessage.RejectReason;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BackoffIdleStrategy;
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

/*
 * Implementation notes.
 *
 * The registry is the first member (so the coordinator) of its JGroups group and the sequencer of
 * every simulation's membership. All its state lives on one thread (the "registry thread"): JGroups
 * callbacks only enqueue. Per simulation, joins are serialized: a join is RESERVED (the name is
 * held, a peer id assigned, the current member list sent), the joiner subscribes to the
 * simulation's Aeron stream and waits until it sees every member's publication, then COMMITs; only
 * then is MemberJoined multicast and the next queued join served. So a member that learns of a
 * newcomer can reach it at once (its subscription exists), and every member sees joins and
 * leaves in one order (one sender's multicasts are FIFO in JGroups).
 *
 * Leaves: a LeaveRequest carries the leaver's final publication position, so receivers drain its
 * stream before reporting it gone; a member missing from a view without a LeaveRequest was lost
 * (crash, kill -9, network): MemberLeft(connectionLost).
 *
 * The registry also hosts the host's Aeron media driver in a per-registry directory, deleted on
 * start (a crashed earlier run) and on close.
 *
 * Several registries (NetConfig.peers, typically one per host) form one JGroups group. The oldest
 * (the coordinator) is the sequencer of every simulation; the others host their media driver and
 * are their participants' way into the group. Each registry multicasts its driver directory
 * (RegistryInfo) when it starts; a participant's JoinRequest names its home registry, so the
 * sequencer hands it its home driver's directory and advertises the home with the member: members
 * of one home talk over IPC, members of different homes over UDP (SessionAgent).
 */

/** A running {@code tandem://} registry: a JGroups member plus an embedded Aeron media driver. Thread-safe. */
public final class NetRegistry implements RegistryEndpoint {
    private static final Logger LOG = LoggerFactory.getLogger(NetRegistry.class);
    /** JGroups logical-name prefix of registries */
    static final String NAME_PREFIX = "tandem-registry";
    /** the Aeron channel participants of this registry subscribe to (IPC through its driver) */
    static final String IPC_CHANNEL = "aeron:ipc";
    private static final int FIRST_STREAM_ID = 1001;

    private final NetConfig config;
    private final int version;
    private final String uri;
    private final JChannel channel;
    private final MediaDriver driver;
    private final String aeronDirectory;
    private final ScheduledExecutorService thread;
    private final String name;
    private volatile boolean closed;

    // registry thread
    private final Map<String, Sim> sims = new HashMap<>();
    /** the group's registries' media-driver directories by {@link #homeKey}, this one's included */
    private final Map<String, String> registryDirectories = new HashMap<>();
    /** the shared secret's control-frame signer, or null */
    private final FrameTag tag;
    private Set<Address> view = new HashSet<>();
    private int nextPeerId = 1;
    private int nextStreamId = FIRST_STREAM_ID;

    private NetRegistry(NetConfig config, int version, String uri, JChannel channel, MediaDriver driver,
            String aeronDirectory, ScheduledExecutorService thread, SharedSecret secret) {
        this.config = config;
        this.tag = secret == null ? null : secret.frameTag();
        this.version = version;
        this.uri = uri;
        this.channel = channel;
        this.driver = driver;
        this.aeronDirectory = aeronDirectory;
        this.thread = thread;
        this.name = homeKey(RegistryAddress.parse(URI.create(uri)).address());
        registryDirectories.put(name, aeronDirectory);
    }

    /**
     * @param address a registry's host and (actual) port
     * @return how the group's registries and participants name that registry: its host address and port
     */
    static String homeKey(InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    /** @return whether a group member is a registry */
    static boolean isRegistry(Address member) {
        String n = member == null ? null : NameCache.get(member);
        return n != null && n.startsWith(NAME_PREFIX);
    }

    /**
     * Starts a registry.
     *
     * @param uri     {@code tandem://host:port}; port 0 picks a free port ({@link #uri()} tells which)
     * @param config  configuration
     * @param version the wire protocol version to speak
     * @return the running registry
     * @throws IllegalArgumentException for a malformed URI
     * @throws TandemException          if the port is taken or the media driver cannot start
     */
    public static NetRegistry start(URI uri, NetConfig config, int version) {
        RegistryAddress address = RegistryAddress.parse(uri);
        SharedSecret secret = SharedSecret.load(config);
        JChannel ch = null;
        MediaDriver driver = null;
        ScheduledThreadPoolExecutor thread = null;
        try {
            List<InetSocketAddress> initialHosts = new ArrayList<>();
            initialHosts.add(address.address());
            for (String peer : config.peers()) {
                initialHosts.add(RegistryAddress.parse(URI.create(peer)).address());
            }
            try {
                ch = JGroupsStack.create(config, address.address().getAddress(), address.address().getPort(),
                        initialHosts, config.peers().isEmpty() ? Math.min(10, config.registryTimeoutMs())
                                : config.registryTimeoutMs(), true, secret);
                ch.name(NAME_PREFIX + "@" + address.address().getAddress().getHostAddress() + ":"
                        + address.address().getPort());
                ch.connect(JGroupsStack.CLUSTER_NAME);
            } catch (Exception e) {
                throw new TandemException("cannot start a registry at " + uri + ": " + rootMessage(e)
                        + " (is another registry or program using that port?)", e);
            }
            int port = localPort(ch);
            String actualUri = address.uriWithPort(port);
            if (ch.getView().size() != 1 && (config.peers().isEmpty() || !isRegistry(ch.getView().getCoord()))) {
                throw new TandemException("cannot start a registry at " + actualUri + ": another group answers there ("
                        + ch.getView() + ")");
            }
            if (!config.peers().isEmpty() && ch.getView().size() == 1) {
                LOG.info("registry {}: no peer registry of {} answered; this registry is the group's sequencer", actualUri,
                        config.peers());
            }
            Path dir = driverDirectory(config, address.address().getAddress().getHostAddress(), port);
            driver = launchDriver(config, dir, actualUri);
            thread = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "tandem-registry-" + port);
                t.setDaemon(true);
                return t;
            });
            thread.setRemoveOnCancelPolicy(true);
            NetRegistry registry = new NetRegistry(config, version, actualUri, ch, driver, dir.toString(), thread,
                    secret);
            ch.setReceiver(registry.receiver());
            NetRegistry r = registry;
            thread.execute(() -> r.onView(r.channel.getView()));
            // the sequencer (the oldest registry) admits our participants with our driver's directory
            registry.multicast(new RegistryInfo(registry.name, registry.aeronDirectory));
            LOG.info("registry {} started (media driver in {}, protocol version {})", actualUri, dir, version);
            return registry;
        } catch (RuntimeException e) {
            if (thread != null) {
                thread.shutdownNow();
            }
            if (driver != null) {
                driver.close();
            }
            if (ch != null) {
                ch.close();
            }
            throw e;
        }
    }

    private static int localPort(JChannel ch) {
        Object physical = ch.down(new Event(Event.GET_PHYSICAL_ADDRESS, ch.getAddress()));
        if (physical instanceof IpAddress ip) {
            return ip.getPort();
        }
        throw new TandemException("JGroups did not report the registry's local address (" + physical + ")");
    }

    static Path driverDirectory(NetConfig config, String host, int port) {
        Path parent = config.registryDirectory();
        if (parent == null) {
            String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_");
            Path shm = Path.of("/dev/shm");
            parent = (Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")))
                    .resolve("tandem-" + user);
        }
        return parent.resolve("registry-" + host.replace(':', '_').toLowerCase(Locale.ROOT) + "-" + port);
    }

    private static MediaDriver launchDriver(NetConfig config, Path dir, String uri) {
        try {
            Files.createDirectories(dir.getParent());
        } catch (IOException e) {
            throw new TandemException("cannot create the registry directory " + dir.getParent() + " for " + uri + ": " + e, e);
        }
        deleteOrphans(dir.getParent());
        MediaDriver.Context ctx = new MediaDriver.Context()
                .aeronDirectoryName(dir.toString())
                // a directory left by a crashed registry on this port is ours to clean: the port was free
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .warnIfDirectoryExists(false)
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy(100, 100, 1_000, config.driverIdleMaxParkNs()))
                .termBufferSparseFile(true)
                .ipcTermBufferLength(config.termLength())
                .clientLivenessTimeoutNs(TimeUnit.MILLISECONDS.toNanos(config.clientTimeoutMs()))
                // a removed MDC destination (a lost member) stops holding back the flow control at once
                .sendChannelEndpointSupplier(RemovedDestinationEndpoint::new)
                .receiveChannelEndpointSupplier(receiveEndpoints(uri))
                .errorHandler(e -> LOG.warn("media driver of registry {}: {}", uri, e.toString()));
        try {
            return MediaDriver.launch(ctx);
        } catch (RuntimeException e) {
            throw new TandemException("cannot start the media driver of registry " + uri + " in " + dir + ": " + e, e);
        }
    }

    /** system property, for fault tests only: the share of UDP frames this registry's driver drops on receipt */
    static final String TEST_LOSS_PROP_NAME = "tandem.net.test.loss";

    /**
     * The driver's UDP receivers: Aeron's own, or (for fault tests, with {@link #TEST_LOSS_PROP_NAME}
     * set) ones that drop that share of the data and control frames they receive at random, as a
     * lossy network would (Aeron's DebugReceiveChannelEndpoint: its NAKs and retransmissions
     * recover them). Inter-process (IPC) traffic has no loss to inject.
     */
    private static io.aeron.driver.ReceiveChannelEndpointSupplier receiveEndpoints(String uri) {
        String loss = System.getProperty(TEST_LOSS_PROP_NAME);
        if (loss == null || loss.isBlank()) {
            return io.aeron.driver.media.ReceiveChannelEndpoint::new;
        }
        double p;
        try {
            p = Double.parseDouble(loss.trim());
        } catch (NumberFormatException e) {
            p = Double.NaN;
        }
        if (!(p >= 0 && p < 0.5)) {
            throw new TandemException("-D" + TEST_LOSS_PROP_NAME + " must be a share in [0, 0.5), got '" + loss + "'");
        }
        double share = p;
        LOG.warn("registry {}: dropping {} % of the UDP frames it receives (-D{}, for fault tests)", uri, 100 * share,
                TEST_LOSS_PROP_NAME);
        return (udpChannel, dispatcher, status, context) -> new io.aeron.driver.ext.DebugReceiveChannelEndpoint(udpChannel,
                dispatcher, status, context, new io.aeron.driver.ext.RandomLossGenerator(share),
                new io.aeron.driver.ext.RandomLossGenerator(share));
    }

    /**
     * Deletes the media-driver directories of registries whose process no longer runs (killed with
     * kill -9: a registry on a random port leaves one, tens of MB of RAM-backed /dev/shm, under a
     * name no later registry reuses). The process is the one the driver wrote into its cnc.dat;
     * a directory without a readable cnc.dat, or whose process still runs, is left alone.
     */
    static int deleteOrphans(Path parent) {
        int deleted = 0;
        try (java.nio.file.DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, "registry-*")) {
            for (Path d : dirs) {
                long pid = driverPid(d.resolve(io.aeron.CncFileDescriptor.CNC_FILE));
                if (pid > 0 && ProcessHandle.of(pid).isEmpty()) {
                    org.agrona.IoUtil.delete(d.toFile(), true);
                    LOG.info("deleted the media-driver directory {} of a registry whose process {} no longer runs", d, pid);
                    deleted++;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not look for media-driver directories of stopped registries in {}: {}", parent, e.toString());
        }
        return deleted;
    }

    /** @return the driver's process id recorded in a cnc.dat, or -1 when there is none to read */
    private static long driverPid(Path cnc) {
        if (!Files.isRegularFile(cnc)) {
            return -1;
        }
        java.nio.MappedByteBuffer map = null;
        try {
            map = org.agrona.IoUtil.mapExistingFile(cnc.toFile(), "cnc");
            if (map.capacity() < io.aeron.CncFileDescriptor.END_OF_METADATA_OFFSET) {
                return -1;
            }
            org.agrona.concurrent.UnsafeBuffer b = new org.agrona.concurrent.UnsafeBuffer(map);
            int version = b.getIntVolatile(io.aeron.CncFileDescriptor.cncVersionOffset(0));
            if (version != io.aeron.CncFileDescriptor.CNC_VERSION) {
                return -1;
            }
            return b.getLong(io.aeron.CncFileDescriptor.pidOffset(0));
        } catch (RuntimeException e) {
            return -1;
        } finally {
            if (map != null) {
                org.agrona.IoUtil.unmap(map);
            }
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.toString();
    }

    @Override
    public String uri() {
        return uri;
    }

    /** @return the media driver's directory */
    public String aeronDirectory() {
        return aeronDirectory;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channel.close();
        driver.close();
        LOG.info("registry {} closed", uri);
    }

    private Receiver receiver() {
        return new Receiver() {
            @Override
            public void receive(Message msg) {
                Address src = msg.getSrc();
                byte[] frame = msg.getArray();
                int offset = msg.getOffset();
                int length = msg.getLength();
                execute(() -> onFrame(src, frame, offset, length));
            }

            @Override
            public void viewAccepted(View v) {
                execute(() -> onView(v));
            }
        };
    }

    private void execute(Runnable task) {
        if (!closed) {
            try {
                thread.execute(() -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        LOG.error("registry {}: failure on the registry thread", uri, e);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // closing
            }
        }
    }

    // ---------------------------------------------------------------- registry thread

    private void onFrame(Address src, byte[] frame, int offset, int length) {
        if (src == null || src.equals(channel.getAddress())) {
            return; // our own multicasts
        }
        ControlMessage m;
        try {
            m = ControlCodec.decode(frame, offset, length, version, "participant " + src, tag);
        } catch (ProtocolVersionException e) {
            LOG.warn("registry {}: refusing participant {}: {}", uri, src, e.getMessage());
            unicast(src, new JoinRejected(0, "", RejectReason.PROTOCOL_VERSION, "registry " + uri
                    + " speaks Tandem wire protocol version " + version + " but the participant speaks version "
                    + e.remoteVersion()));
            return;
        } catch (MalformedFrameException e) {
            LOG.warn("registry {}: dropping a malformed frame from {}: {}", uri, src, e.getMessage());
            return;
        } catch (UnauthenticatedFrameException e) {
            LOG.warn("registry {}: dropping {}", uri, e.getMessage());
            return;
        }
        if (m instanceof RegistryInfo i) {
            registryDirectories.put(i.registryName(), i.aeronDirectory());
        } else if (m instanceof JoinRequest r) {
            onJoinRequest(src, r);
        } else if (m instanceof JoinCommit c) {
            onJoinCommit(src, c);
        } else if (m instanceof LeaveRequest l) {
            onLeaveRequest(src, l);
        } else {
            LOG.debug("registry {}: ignoring {} from {}", uri, m.getClass().getSimpleName(), src);
        }
    }

    private void onJoinRequest(Address src, JoinRequest r) {
        if (!view.contains(src)) {
            LOG.debug("registry {}: ignoring a join request of {} which is not in the view", uri, src);
            return;
        }
        Sim sim = sims.computeIfAbsent(r.simulationName(), k -> new Sim(k, nextStreamId++));
        sim.queue.add(new Queued(src, r));
        serveQueue(sim);
    }

    private void serveQueue(Sim sim) {
        while (sim.pending == null && !sim.queue.isEmpty()) {
            Queued q = sim.queue.poll();
            if (!view.contains(q.src)) {
                continue;
            }
            String name = q.request.participantName();
            String home = q.request.home().isEmpty() ? this.name : q.request.home();
            String homeDirectory = registryDirectories.get(home);
            if (!channel.getAddress().equals(channel.getView().getCoord()) || homeDirectory == null) {
                unicast(q.src, new JoinRejected(q.request.nonce(), sim.name, RejectReason.OTHER,
                        homeDirectory == null ? "registry " + uri + " does not know the participant's registry " + home
                                + " (yet); start every registry before its participants"
                                : "registry " + uri + " is not the sequencer of its group; ask "
                                        + NameCache.get(channel.getView().getCoord())));
                continue;
            }
            if (sim.nameTaken(name)) {
                unicast(q.src, new JoinRejected(q.request.nonce(), sim.name, RejectReason.NAME_TAKEN,
                        "participant name '" + name + "' is already taken in simulation '" + sim.name + "' on " + uri
                                + "; choose a unique name per simulation"));
                continue;
            }
            int id = nextPeerId++;
            MemberInfo info = new MemberInfo(id, name, IPC_CHANNEL, sim.streamId, id, home, "");
            Pending p = new Pending(q.src, info);
            sim.pending = p;
            // a joiner that dies or hangs between reservation and commit must not block the simulation
            p.expiry = thread.schedule(() -> expire(sim, p), 2 * config.registryTimeoutMs() + 1_000, TimeUnit.MILLISECONDS);
            multicast(new JoinReserved(q.request.nonce(), sim.name, homeDirectory, info, sim.memberInfos()));
            LOG.debug("registry {}: reserved '{}' as peer {} in simulation '{}'", uri, name, id, sim.name);
        }
        removeIfEmpty(sim);
    }

    private void expire(Sim sim, Pending p) {
        if (sim.pending == p) {
            LOG.warn("registry {}: '{}' reserved a place in simulation '{}' but never committed; dropping it", uri,
                    p.info.participantName(), sim.name);
            sim.pending = null;
            serveQueue(sim);
        }
    }

    private void onJoinCommit(Address src, JoinCommit c) {
        Sim sim = sims.get(c.simulationName());
        if (sim == null || sim.pending == null || sim.pending.info.peerId() != c.peerId() || !sim.pending.src.equals(src)) {
            LOG.debug("registry {}: ignoring a stale commit of peer {} from {}", uri, c.peerId(), src);
            return;
        }
        Pending p = sim.pending;
        p.expiry.cancel(false);
        sim.pending = null;
        MemberInfo info = p.info.withUdpEndpoint(c.udpEndpoint());
        sim.members.put(info.peerId(), new Member(src, info));
        multicast(new MemberJoined(sim.name, info));
        LOG.info("registry {}: '{}' joined simulation '{}' as peer {}{}", uri, info.participantName(), sim.name,
                info.peerId(), info.udpEndpoint().isEmpty() ? "" : " (UDP " + info.udpEndpoint() + ")");
        serveQueue(sim);
    }

    private void onLeaveRequest(Address src, LeaveRequest l) {
        Sim sim = sims.get(l.simulationName());
        Member m = sim == null ? null : sim.members.get(l.peerId());
        boolean pending = sim != null && sim.pending != null && sim.pending.info.peerId() == l.peerId()
                && sim.pending.src.equals(src);
        if ((m == null || !m.src.equals(src)) && !pending && l.endPosition() >= 0) {
            // a member already dropped (e.g. frozen past the failure detector, then resumed): it has
            // left; say so at once rather than let it wait its whole timeout for an answer
            unicast(src, new MemberLeft(l.simulationName(), l.peerId(), "", true, -1));
            return;
        }
        if (sim == null) {
            return;
        }
        if (m != null && m.src.equals(src)) {
            sim.members.remove(l.peerId());
            multicast(new MemberLeft(sim.name, l.peerId(), m.info.participantName(), false, l.endPosition()));
            LOG.info("registry {}: '{}' left simulation '{}'", uri, m.info.participantName(), sim.name);
        } else if (sim.pending != null && sim.pending.info.peerId() == l.peerId() && sim.pending.src.equals(src)) {
            sim.pending.expiry.cancel(false);
            sim.pending = null;
        }
        serveQueue(sim);
    }

    private void onView(View v) {
        view = new HashSet<>(v.getMembers());
        for (Sim sim : List.copyOf(sims.values())) {
            for (Iterator<Member> it = sim.members.values().iterator(); it.hasNext(); ) {
                Member m = it.next();
                if (!view.contains(m.src)) {
                    it.remove();
                    multicast(new MemberLeft(sim.name, m.info.peerId(), m.info.participantName(), true, -1));
                    LOG.warn("registry {}: lost '{}' of simulation '{}' (left the group without leaving)", uri,
                            m.info.participantName(), sim.name);
                }
            }
            if (sim.pending != null && !view.contains(sim.pending.src)) {
                sim.pending.expiry.cancel(false);
                sim.pending = null;
            }
            serveQueue(sim);
        }
    }

    private void removeIfEmpty(Sim sim) {
        if (sim.members.isEmpty() && sim.pending == null && sim.queue.isEmpty()) {
            // its stream id is not reused: a late image of the old stream can never mix in
            sims.remove(sim.name, sim);
        }
    }

    private void multicast(ControlMessage m) {
        send(null, m);
    }

    private void unicast(Address dest, ControlMessage m) {
        send(dest, m);
    }

    private void send(Address dest, ControlMessage m) {
        try {
            channel.send(new BytesMessage(dest, ControlCodec.encode(version, m, tag)));
        } catch (Exception e) {
            if (!closed) {
                LOG.warn("registry {}: cannot send {}: {}", uri, m.getClass().getSimpleName(), e.toString());
            }
        }
    }

    /** One simulation's membership (registry thread). */
    private static final class Sim {
        final String name;
        final int streamId;
        final LinkedHashMap<Integer, Member> members = new LinkedHashMap<>();
        final ArrayDeque<Queued> queue = new ArrayDeque<>();
        Pending pending;

        Sim(String name, int streamId) {
            this.name = name;
            this.streamId = streamId;
        }

        boolean nameTaken(String name) {
            if (pending != null && pending.info.participantName().equals(name)) {
                return true;
            }
            for (Member m : members.values()) {
                if (m.info.participantName().equals(name)) {
                    return true;
                }
            }
            return false;
        }

        List<MemberInfo> memberInfos() {
            List<MemberInfo> out = new ArrayList<>(members.size());
            for (Member m : members.values()) {
                out.add(m.info);
            }
            return out;
        }
    }

    private record Member(Address src, MemberInfo info) {
    }

    private record Queued(Address src, JoinRequest request) {
    }

    private static final class Pending {
        final Address src;
        final MemberInfo info;
        ScheduledFuture<?> expiry;

        Pending(Address src, MemberInfo info) {
            this.src = src;
            this.info = info;
        }
    }

    @Override
    public String toString() {
        return "NetRegistry[" + uri + "]";
    }

}
