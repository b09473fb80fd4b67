package io.tandem.net.internal;

import io.aeron.Image;
import io.aeron.ImageFragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.TransportListener;
import io.tandem.net.internal.ControlMessage.JoinRejected;
import io.tandem.net.internal.ControlMessage.JoinReserved;
import io.tandem.net.internal.ControlMessage.MemberInfo;
import io.tandem.net.internal.ControlMessage.MemberJoined;
import io.tandem.net.internal.ControlMessage.MemberLeft;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * One agent (one thread) per participant session does everything that touches the listener:
 * membership events from the registry (queued by the JGroups receiver, applied here in the
 * registry's order) and the frames polled from the peers' images. So every listener call about one
 * peer is made by one thread in one order: onPeerJoined, the peer's frames in its offer order,
 * onPeerLeft.
 *
 * Stream layout: one Aeron stream per simulation (stream id from the registry), one publication per
 * participant on it with session id = peer id. A participant's single subscription to the stream
 * gets one image per member; the agent polls image by image, so it can hold back a peer it has not
 * been told of (its image keeps the frames) and drop frames meant for others (destination field).
 *
 * The newcomer guarantee. A joiner (N) subscribes before any member learns of it, and commits only
 * once its subscription shows every member's publication (so every member's later offers reach it).
 * A member (M) that learns of N offers Hello(N) before it tells its listener, so everything M sends
 * N after learning of N follows the Hello; N drops M's earlier frames (broadcasts sent before M knew
 * N, as the in-process transport never delivers them either) and delivers from the Hello on. In the
 * other direction M's image of N starts at N's first frame (N's publication is created after M
 * subscribed), and M polls it only after telling its listener of N: nothing of N is early or lost.
 *
 * Two threads share the agent's work (the "duty", an atomic flag held while working, so the
 * listener still sees one caller at a time in one order): the agent's own thread, and the
 * participant's thread, which the participant layer lends through TransportSession.poll on every
 * turn of its loop while awake. While the participant thread polls, the agent thread stays idle
 * (its back-off parks grow to the longest park), so in a lockstep a frame is received and handled
 * on the participant thread without a hand-off; when the participant thread parks, the agent
 * thread notices within a park or two and takes over (and the listener's enqueue wakes the
 * participant). Measured on 2 busy cores: two participant processes went from about 30k to 80k
 * lockstep steps/s, the pub/sub round trip from about 40 to 13 us.
 *
 * Leaves. MemberLeft of a graceful leaver carries its final position: its image is drained up to
 * there before onPeerLeft. A lost peer's image is drained of what is there. Later membership events
 * wait until the drain is over, so the listener sees joins and leaves in the registry's order.
 *
 * Members of other registries (other hosts, MemberInfo.home differs) are reached over Aeron UDP:
 * each participant of a multi-registry group subscribes to the stream at its own UDP endpoint
 * (advertised at its commit), and every sender has one UDP multi-destination-cast publication with
 * one destination per remote member (same session id as its IPC publication; FrameSender), so a
 * broadcast is one offer per medium. The newcomer guarantee carries over, with "image of us
 * exists" read from the publication's flow-control receiver count (MDC's isConnected() means "some
 * destination answered"; FrameSender.remoteReceivers): a joiner adds every remote member as a
 * destination before it commits and waits until its (fresh) publication counts as many receivers
 * (so their images of it exist before they learn of it, starting at its first frame); a remote
 * member that learns of a newcomer adds it as a destination and holds the membership queue (as a
 * drain does) until the count rises above its lowest value since the add, and only then offers
 * the Hello and tells its listener (an image starts at the sender's position when it is set up:
 * a Hello offered earlier could be lost). If the count cannot tell (a stale receiver of a lost
 * member timing out at the same moment), the wait ends after the drain timeout. A remote leaver's
 * UDP positions differ from its IPC position: its image is drained up to its end of stream (it
 * closes its publications after leaving).
 */

/** The polling agent of one participant session. Thread-safe entry points: {@link #enqueue}, the futures. */
final class SessionAgent implements Agent {
    private static final Logger LOG = LoggerFactory.getLogger(SessionAgent.class);
    private static final int FRAGMENT_LIMIT = 256;

    enum Phase { RESERVING, RESERVED, LINKING, COMMITTING, JOINED, DETACHED }

    /** Hands the agent its subscriptions (UDP: null in a one-registry group) and publication (after the reservation). */
    record Link(Subscription subscription, Subscription udpSubscription, Publication publication, FrameSender sender) {
    }

    /** The registry is gone from the group view: every peer is lost. */
    record RegistryLost(String why) {
    }

    private final String roleName;
    private final String simulationName;
    private final int version;
    private final TransportListener listener;
    private final NanoClock clock;
    private final long drainTimeoutNs;
    private final ConcurrentLinkedQueue<Object> control = new ConcurrentLinkedQueue<>();
    final CompletableFuture<JoinReserved> reserved = new CompletableFuture<>();
    final CompletableFuture<Void> linked = new CompletableFuture<>();
    final CompletableFuture<Void> joined = new CompletableFuture<>();
    final CompletableFuture<Void> left = new CompletableFuture<>();
    volatile long nonce;
    private volatile Thread thread;
    /** the participant thread lent through {@link #pollFromParticipant}, once it polled */
    private volatile Thread participantThread;
    /** held by the thread doing the agent's work */
    private final AtomicBoolean duty = new AtomicBoolean();
    private volatile Thread dutyThread;
    /** turns of the participant thread; the agent thread idles while it changes */
    private final AtomicLong participantPolls = new AtomicLong();
    /** agent thread: participantPolls at its last turn */
    private long seenParticipantPolls;

    // the thread holding the duty
    private Phase phase = Phase.RESERVING;
    private int selfId;
    private Subscription subscription;
    private Subscription udpSubscription;
    private String home = "";
    private Publication publication;
    private FrameSender sender;
    private final PeerLink self = new PeerLink(0, "self", 0);
    private final List<PeerLink> links = new ArrayList<>();
    private PeerLink[] linkArray = new PeerLink[0];
    private PeerLink polling;
    private boolean inBackPressurePoll;
    private final FrameReader reader = new FrameReader(WireFormat.ERRORS);
    private final FragmentHandler peerHandler = this::onPeerFragment;
    private final FragmentHandler selfHandler = this::onSelfFragment;
    /** written by the thread holding the duty only */
    private volatile long droppedFrames;
    /** fault tests: how long frames from other registries' members are held, 0 for not at all */
    private long testDelayNs;
    /** fault tests: the frames held, in arrival order (duty thread) */
    private final java.util.ArrayDeque<DelayedFrame> delayed = new java.util.ArrayDeque<>();
    /** the shared secret's signer checking every received frame, or null (set before the agent starts) */
    private FrameTag tag;
    /** a remote newcomer whose image of our UDP publication we wait for before the Hello, or null */
    private PeerLink greeting;
    private long greetingDeadlineNs;
    /** the lowest receiver count of our UDP publication seen since the newcomer was added */
    private long greetingLowestReceivers;

    /** What the agent knows of one peer. */
    private static final class PeerLink {
        final int peerId;
        final String name;
        final int sessionId;
        /** a member of another registry: reached over UDP */
        final boolean remote;
        /** its UDP endpoint, or empty */
        final String endpoint;
        /** "peer 'NAME'", for error messages without allocating per frame */
        final String describe;
        /** false until a frame addressed to us after the peer learned of us (Hello) */
        boolean helloSeen;
        /** whether the listener was told of the peer */
        boolean told;
        Image image;
        ImageFragmentAssembler assembler;
        ChunkAssembler chunks;
        MemberLeft leaving;
        long drainDeadlineNs;

        PeerLink(int peerId, String name, int sessionId) {
            this(peerId, name, sessionId, false, "");
        }

        PeerLink(int peerId, String name, int sessionId, boolean remote, String endpoint) {
            this.peerId = peerId;
            this.name = name;
            this.sessionId = sessionId;
            this.remote = remote;
            this.endpoint = endpoint;
            this.describe = "peer '" + name + "'";
        }

        ChunkAssembler chunks() {
            if (chunks == null) {
                chunks = new ChunkAssembler();
            }
            return chunks;
        }
    }

    SessionAgent(String roleName, String simulationName, int version, TransportListener listener, NanoClock clock,
            long drainTimeoutNs) {
        this.roleName = roleName;
        this.simulationName = simulationName;
        this.version = version;
        this.listener = listener;
        this.clock = clock;
        this.drainTimeoutNs = drainTimeoutNs;
    }

    /** Sets the shared secret whose signature every received frame must carry (null: none may); before the agent starts. */
    void secret(SharedSecret secret) {
        tag = secret == null ? null : secret.frameTag();
    }

    @Override
    public String roleName() {
        return roleName;
    }

    @Override
    public void onStart() {
        thread = Thread.currentThread();
    }

    /** @return whether the caller is one of the threads that may do the agent's work */
    boolean isAgentThread() {
        Thread t = Thread.currentThread();
        return t == thread || t == participantThread;
    }

    /** Queues a control message or command; any thread. */
    void enqueue(Object event) {
        control.add(event);
    }

    /** The agent thread's turn: idle while the participant thread polls, else do the work. */
    @Override
    public int doWork() {
        long polls = participantPolls.get();
        if (polls != seenParticipantPolls) {
            seenParticipantPolls = polls;
            return 0;
        }
        return dutyWork();
    }

    /**
     * The participant thread's turn (TransportSession.poll). Does not allocate on the steady-state path.
     *
     * @return the work done
     */
    int pollFromParticipant() {
        if (participantThread == null) {
            participantThread = Thread.currentThread();
        }
        participantPolls.lazySet(participantPolls.get() + 1);
        return dutyWork();
    }

    private int dutyWork() {
        if (!duty.compareAndSet(false, true)) {
            return 0;
        }
        try {
            dutyThread = Thread.currentThread();
            return work();
        } finally {
            dutyThread = null;
            duty.set(false);
        }
    }

    private int work() {
        int work = 0;
        if (subscription != null) {
            work += pollImages();
        }
        if (!delayed.isEmpty()) {
            work += releaseDelayed();
        }
        work += processControl();
        if (phase == Phase.LINKING) {
            work += tryFinishLinking();
        }
        return work;
    }

    // ---------------------------------------------------------------- control (agent thread)

    private int processControl() {
        int n = 0;
        Object head;
        while ((head = control.peek()) != null) {
            if (!apply(head)) {
                break; // a drain in progress: later events wait, so the listener sees the registry's order
            }
            control.poll();
            n++;
        }
        return n;
    }

    private boolean apply(Object e) {
        if (e instanceof MemberJoined j) {
            return onMemberJoined(j.member());
        } else if (e instanceof MemberLeft l) {
            return onMemberLeft(l);
        } else if (e instanceof JoinReserved r) {
            if (phase == Phase.RESERVING && r.nonce() == nonce) {
                selfId = r.self().peerId();
                home = r.self().home();
                for (MemberInfo m : r.members()) {
                    addLink(newLink(m));
                }
                phase = Phase.RESERVED;
                reserved.complete(r);
            }
            return true;
        } else if (e instanceof JoinRejected r) {
            if (phase == Phase.RESERVING) {
                reserved.completeExceptionally(new RejectedJoin(r));
            }
            return true;
        } else if (e instanceof Link l) {
            subscription = l.subscription();
            udpSubscription = l.udpSubscription();
            publication = l.publication();
            sender = l.sender();
            phase = Phase.LINKING;
            for (PeerLink link : linkArray) {
                if (link.remote) {
                    if (udpSubscription == null || link.endpoint.isEmpty()) {
                        linked.completeExceptionally(new TandemException(unreachable(link)));
                        return true;
                    }
                    sender.addRemote(link.peerId, link.endpoint);
                }
            }
            return true;
        } else if (e instanceof RegistryLost lost) {
            onRegistryLost(lost.why());
            return true;
        }
        return true;
    }

    /** @return false while a remote newcomer cannot read our frames yet (later events wait, as for a drain) */
    private boolean onMemberJoined(MemberInfo m) {
        if (greeting != null) {
            return awaitGreeting();
        }
        if (phase == Phase.RESERVING || phase == Phase.DETACHED) {
            return true; // before our place in the registry's sequence
        }
        if (m.peerId() == selfId) {
            phase = Phase.JOINED;
            joined.complete(null);
            return true;
        }
        if (find(m.peerId()) != null) {
            return true;
        }
        PeerLink link = newLink(m);
        if (phase == Phase.RESERVED || phase == Phase.LINKING) {
            // cannot happen while the registry serializes joins; treated like a member of the snapshot
            addLink(link);
            return true;
        }
        // the newcomer subscribed before it was announced: our Hello reaches it, and so does all after it
        link.helloSeen = true;
        if (link.remote) {
            if (udpSubscription == null || link.endpoint.isEmpty()) {
                LOG.error("{}: {}", roleName, unreachable(link));
            } else {
                // its image of our UDP publication must exist before the Hello (see the notes)
                greetingLowestReceivers = sender.remoteReceivers();
                sender.addRemote(link.peerId, link.endpoint);
                sender.probeRemotes(selfId);
                greeting = link;
                greetingDeadlineNs = clock.nanoTime() + drainTimeoutNs;
                return awaitGreeting();
            }
        }
        greet(link);
        return true;
    }

    /** @return whether the remote newcomer being greeted has been told of (its image of us exists) */
    private boolean awaitGreeting() {
        long receivers = sender.remoteReceivers();
        if (receivers <= greetingLowestReceivers) {
            greetingLowestReceivers = receivers;
            if (clock.nanoTime() - greetingDeadlineNs <= 0) {
                return false;
            }
            LOG.debug("{}: no sign that '{}' reads our UDP publication (receivers {}); greeting it anyway", roleName,
                    greeting.name, receivers);
        }
        PeerLink link = greeting;
        greeting = null;
        greet(link);
        return true;
    }

    private void greet(PeerLink link) {
        sender.sendHello(link.peerId);
        link.told = true;
        addLink(link);
        safe(() -> listener.onPeerJoined(link.peerId, link.name), "onPeerJoined");
    }

    private boolean onMemberLeft(MemberLeft l) {
        if (phase == Phase.RESERVING) {
            return true;
        }
        if (l.peerId() == selfId) {
            left.complete(null);
            return true;
        }
        PeerLink link = find(l.peerId());
        if (link == null) {
            return true;
        }
        if (delayedFrom(link)) {
            return false; // its frames still in (injected) flight arrive before its leaving, as on a wire
        }
        if (!link.told) {
            removeLink(link);
            if (link.remote) {
                sender.removeRemote(link.peerId);
            }
            return true;
        }
        if (link.leaving == null) {
            link.leaving = l;
            link.drainDeadlineNs = clock.nanoTime() + drainTimeoutNs;
        }
        if (!drained(link)) {
            return false;
        }
        removeLink(link);
        if (link.remote) {
            sender.removeRemote(link.peerId);
        }
        safe(() -> listener.onPeerLeft(link.peerId, link.name, l.connectionLost()), "onPeerLeft");
        return true;
    }

    private PeerLink newLink(MemberInfo m) {
        return new PeerLink(m.peerId(), m.participantName(), m.sessionId(), !m.home().equals(home), m.udpEndpoint());
    }

    private String unreachable(PeerLink link) {
        return "cannot reach '" + link.name + "', a participant of another registry: "
                + (link.endpoint.isEmpty() ? "it has no UDP endpoint (it joined while its registry was the only one)"
                        : "this participant has no UDP endpoint (it joined while its registry was the only one)")
                + "; start every registry of the group before the participants";
    }

    /** @return the subscription a peer's frames arrive on: IPC for our registry's members, UDP for others */
    private Subscription sourceOf(PeerLink link) {
        return link.remote ? udpSubscription : subscription;
    }

    /** @return whether everything the leaver sent before leaving has been delivered */
    private boolean drained(PeerLink link) {
        MemberLeft l = link.leaving;
        Subscription source = sourceOf(link);
        if (link.image == null && source != null) {
            link.image = source.imageBySessionId(link.sessionId);
            if (link.image != null) {
                link.assembler = new ImageFragmentAssembler(peerHandler);
            }
        }
        if (link.remote) {
            // its UDP positions are not its IPC position: drain to its end of stream
            if (link.image == null) {
                return true;
            }
            int fragments = poll(link);
            if (link.image.isClosed() || link.image.isEndOfStream() || (l.endPosition() < 0 && fragments == 0)) {
                return true;
            }
        } else if (link.image != null) {
            int fragments = poll(link);
            if (link.image.isClosed()) {
                return true;
            }
            if (l.endPosition() < 0) {
                return fragments == 0; // lost: what is there now is all there will be
            }
            if (link.image.position() >= l.endPosition()) {
                return true;
            }
        } else if (l.endPosition() <= 0) {
            return true;
        }
        if (clock.nanoTime() - link.drainDeadlineNs > 0) {
            LOG.warn("{}: gave up waiting for the last frames of '{}' (at {} of {})", roleName, link.name,
                    link.image == null ? "no image" : link.image.position(), l.endPosition());
            return true;
        }
        return false;
    }

    private void onRegistryLost(String why) {
        if (phase == Phase.DETACHED) {
            return;
        }
        TandemException ex = new TandemException(why);
        reserved.completeExceptionally(ex);
        linked.completeExceptionally(ex);
        joined.completeExceptionally(ex);
        if (phase != Phase.RESERVING) {
            LOG.error("{}: {}; reporting every peer lost", roleName, why);
        }
        if (phase == Phase.JOINED) {
            // before the peers: the participant then knows why it lost them all
            safe(() -> listener.onConnectionLost("it left the membership view: closed, crashed, killed or unreachable"),
                    "onConnectionLost");
        }
        for (PeerLink link : linkArray) {
            if (link.told) {
                if (link.image != null && !link.image.isClosed()) {
                    poll(link);
                }
                safe(() -> listener.onPeerLeft(link.peerId, link.name, true), "onPeerLeft");
            }
        }
        links.clear();
        linkArray = new PeerLink[0];
        phase = Phase.DETACHED;
        // the media driver lives in the registry: stop using the stream before it goes away under us
        if (sender != null) {
            sender.close();
        }
        subscription = null;
        udpSubscription = null;
        left.complete(null);
    }

    private int tryFinishLinking() {
        if (self.image == null) {
            self.image = subscription.imageBySessionId(selfId);
            if (self.image == null) {
                return 0;
            }
            self.assembler = new ImageFragmentAssembler(selfHandler);
        }
        int remotes = 0;
        for (PeerLink link : linkArray) {
            if (link.remote) {
                remotes++;
            } else if (link.image == null) {
                return 0;
            }
        }
        // every remote member's image of us must exist before it learns of us (a fresh publication: exact)
        long receivers = sender.remoteReceivers();
        if (receivers < remotes) {
            return 0;
        }
        if (!publication.isConnected()) {
            return 0;
        }
        // every member's publication reaches our subscription: now the listener may learn of them
        for (PeerLink link : linkArray) {
            link.told = true;
            safe(() -> listener.onPeerJoined(link.peerId, link.name), "onPeerJoined");
        }
        phase = Phase.COMMITTING;
        linked.complete(null);
        return 1;
    }

    // ---------------------------------------------------------------- data (agent thread)

    private int pollImages() {
        int work = 0;
        if (self.image == null) {
            self.image = subscription.imageBySessionId(selfId);
            if (self.image != null) {
                self.assembler = new ImageFragmentAssembler(selfHandler);
            }
        }
        if (self.image != null) {
            work += self.image.poll(self.assembler, FRAGMENT_LIMIT);
        }
        PeerLink[] array = linkArray;
        for (int i = 0; i < array.length; i++) {
            PeerLink link = array[i];
            if (link.image == null) {
                Subscription source = link.remote ? udpSubscription : subscription;
                if (source == null) {
                    continue;
                }
                link.image = source.imageBySessionId(link.sessionId);
                if (link.image == null) {
                    continue;
                }
                link.assembler = new ImageFragmentAssembler(peerHandler);
            }
            work += poll(link);
        }
        return work;
    }

    private int poll(PeerLink link) {
        polling = link;
        return link.image.poll(link.assembler, FRAGMENT_LIMIT);
    }

    /**
     * Called by {@link FrameSender} on the agent or participant thread while an offer is
     * back-pressured: keep receiving (we may be what holds the others up).
     */
    void pollWhileBackPressured() {
        if (dutyThread == Thread.currentThread()) {
            if (!inBackPressurePoll && subscription != null) {
                inBackPressurePoll = true;
                try {
                    pollImages();
                } finally {
                    inBackPressurePoll = false;
                }
            }
        } else if (duty.compareAndSet(false, true)) {
            try {
                dutyThread = Thread.currentThread();
                if (subscription != null) {
                    inBackPressurePoll = true;
                    pollImages();
                }
            } finally {
                inBackPressurePoll = false;
                dutyThread = null;
                duty.set(false);
            }
        }
    }

    private void onSelfFragment(DirectBuffer buffer, int offset, int frameLength, Header header) {
        int length;
        try {
            length = WireFormat.authenticate(tag, buffer, offset, frameLength, header.sessionId(), header.streamId(),
                    self.describe);
        } catch (UnauthenticatedFrameException e) {
            dropped(self, "a frame", e);
            return;
        }
        // our own stream: only what we sent to ourselves
        if (length >= MessageCodec.BODY_OFFSET && MessageCodec.destination(buffer, offset) == selfId) {
            deliver(self, selfId, buffer, offset, length);
        }
    }

    private void onPeerFragment(DirectBuffer buffer, int offset, int frameLength, Header header) {
        PeerLink link = polling;
        int length;
        try {
            // before anything is read from it: with a shared secret, an unsigned or forged frame is never looked at
            length = WireFormat.authenticate(tag, buffer, offset, frameLength, header.sessionId(), header.streamId(),
                    link.describe);
        } catch (UnauthenticatedFrameException e) {
            dropped(link, "a frame", e);
            return;
        }
        if (length < MessageCodec.BODY_OFFSET) {
            dropped(link, "a " + length + "-byte frame", null);
            return;
        }
        int destination = MessageCodec.destination(buffer, offset);
        if (destination != MessageCodec.ALL_PEERS && destination != selfId) {
            return;
        }
        if (!link.helloSeen) {
            if (destination == selfId && WireFormat.type(buffer, offset) == WireFormat.HELLO) {
                link.helloSeen = true;
            }
            return; // sent before the peer knew us
        }
        if (link.leaving != null && link.leaving.endPosition() >= 0 && !link.remote
                && header.position() > link.leaving.endPosition()) {
            return; // offered by a thread of the leaver after it left
        }
        if (testDelayNs > 0 && link.remote) {
            // fault tests: held as a slower network would (test-only; copies the frame)
            byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            delayed.addLast(new DelayedFrame(clock.nanoTime() + testDelayNs, link, copy));
            return;
        }
        deliver(link, link.peerId, buffer, offset, length);
    }

    /** A frame held by the test-only delay ({@link #TEST_DELAY_PROP_NAME}). */
    private record DelayedFrame(long dueNs, PeerLink link, byte[] frame) {
    }

    /** Delivers the held frames that are due, in arrival order. */
    private int releaseDelayed() {
        int n = 0;
        long now = clock.nanoTime();
        DelayedFrame d;
        while ((d = delayed.peekFirst()) != null && now - d.dueNs() >= 0) {
            delayed.pollFirst();
            deliver(d.link(), d.link().peerId, new UnsafeBuffer(d.frame()), 0, d.frame().length);
            n++;
        }
        return n;
    }

    private boolean delayedFrom(PeerLink link) {
        for (DelayedFrame d : delayed) {
            if (d.link() == link) {
                return true;
            }
        }
        return false;
    }

    /**
     * system property, for fault tests only: milliseconds every data frame from a member of another
     * registry (another host) is held after it arrives before it is delivered, in order, as a link
     * with that much more latency would (this machine's kernel has no netem qdisc to delay packets);
     * the frames' senders' leaving waits for them. JGroups traffic is not delayed.
     */
    static final String TEST_DELAY_PROP_NAME = "tandem.net.test.delay.ms";

    /** Sets the test-only delay ({@link #TEST_DELAY_PROP_NAME}); before the agent starts. */
    void testDelayNs(long ns) {
        testDelayNs = ns;
    }

    private void deliver(PeerLink link, int from, DirectBuffer buffer, int offset, int length) {
        int type;
        try {
            type = MessageCodec.check(buffer, offset, length, version, link.describe);
        } catch (RuntimeException e) {
            dropped(link, "a frame", e);
            return;
        }
        switch (type) {
            case WireFormat.NEXT_SIM_TASK -> {
                long timePointNs = MessageCodec.nextSimTaskTimePointNs(buffer, offset);
                long durationNs = MessageCodec.nextSimTaskDurationNs(buffer, offset);
                try {
                    listener.onNextSimTask(from, timePointNs, durationNs);
                } catch (RuntimeException e) {
                    LOG.error("{}: listener failed on NextSimTask", roleName, e);
                }
            }
            case WireFormat.HELLO -> {
                // nothing to deliver
            }
            case WireFormat.CHUNK -> {
                byte[] whole;
                try {
                    whole = link.chunks().onChunk(buffer, offset, length);
                } catch (RuntimeException e) {
                    dropped(link, "a chunk", e);
                    return;
                }
                if (whole != null) {
                    UnsafeBuffer frame = new UnsafeBuffer(whole);
                    if (WireFormat.type(frame, 0) == WireFormat.CHUNK) {
                        dropped(link, "a chunk holding a chunk", null);
                    } else {
                        deliver(link, from, frame, 0, whole.length);
                    }
                }
            }
            default -> {
                CosimMessage m;
                try {
                    m = MessageCodec.decode(reader, buffer, offset, length);
                } catch (RuntimeException e) {
                    dropped(link, "a frame", e);
                    return;
                }
                try {
                    listener.onMessage(from, m);
                } catch (RuntimeException e) {
                    LOG.error("{}: listener failed on {}", roleName, m.getClass().getSimpleName(), e);
                }
            }
        }
    }

    private void dropped(PeerLink link, String what, RuntimeException e) {
        droppedFrames++;
        // a flood of bad frames must not flood the log: the first ten, then every thousandth
        if (droppedFrames <= 10 || droppedFrames % 1000 == 0) {
            LOG.warn("{}: dropped {} from '{}' ({} so far): {}", roleName, what, link.name, droppedFrames,
                    e == null ? "malformed" : e.getMessage());
        }
    }

    /** @return the frames dropped so far as malformed or unauthenticated (agent thread, or tests after it stopped) */
    long droppedFrames() {
        return droppedFrames;
    }

    // ---------------------------------------------------------------- helpers

    private PeerLink find(int peerId) {
        for (PeerLink link : links) {
            if (link.peerId == peerId) {
                return link;
            }
        }
        return null;
    }

    private void addLink(PeerLink link) {
        links.add(link);
        linkArray = links.toArray(new PeerLink[0]);
    }

    private void removeLink(PeerLink link) {
        links.remove(link);
        linkArray = links.toArray(new PeerLink[0]);
    }

    private void safe(Runnable r, String what) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.error("{}: listener failed in {}", roleName, what, e);
        }
    }

    /** @return a diagnostic snapshot (read racily) */
    String describe() {
        StringBuilder b = new StringBuilder(roleName).append(" phase=").append(phase).append(" self=").append(selfId);
        for (PeerLink l : linkArray) {
            b.append(' ').append(l.name).append('#').append(l.peerId).append(l.remote ? "(udp)" : "")
                    .append(l.told ? "" : "(untold)")
                    .append(l.helloSeen ? "" : "(no hello)").append(l.image == null ? "(no image)" : "@" + l.image.position());
        }
        return b.append(" queued=").append(control.size()).toString();
    }

    /** A join refused by the registry. */
    static final class RejectedJoin extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient JoinRejected rejection;

        RejectedJoin(JoinRejected rejection) {
            super(rejection.message());
            this.rejection = rejection;
        }
    }
}
