package io.tandem.net.internal;

import io.aeron.Image;
import io.aeron.ImageFragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.msg.CosimMessage;
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
 * Leaves. MemberLeft of a graceful leaver carries its final position: its image is drained up to
 * there before onPeerLeft. A lost peer's image is drained of what is there. Later membership events
 * wait until the drain is over, so the listener sees joins and leaves in the registry's order.
 */

/** The polling agent of one participant session. Thread-safe entry points: {@link #enqueue}, the futures. */
final class SessionAgent implements Agent {
    private static final Logger LOG = LoggerFactory.getLogger(SessionAgent.class);
    private static final int FRAGMENT_LIMIT = 256;

    enum Phase { RESERVING, RESERVED, LINKING, COMMITTING, JOINED, DETACHED }

    /** Hands the agent its subscription and publication (after the reservation). */
    record Link(Subscription subscription, Publication publication, FrameSender sender) {
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

    // agent thread
    private Phase phase = Phase.RESERVING;
    private int selfId;
    private Subscription subscription;
    private Publication publication;
    private FrameSender sender;
    private final PeerLink self = new PeerLink(0, "self", 0);
    private final List<PeerLink> links = new ArrayList<>();
    private PeerLink[] linkArray = new PeerLink[0];
    private PeerLink polling;
    private boolean inBackPressurePoll;
    private final FrameReader reader = new FrameReader();
    private final FragmentHandler peerHandler = this::onPeerFragment;
    private final FragmentHandler selfHandler = this::onSelfFragment;
    private long droppedFrames;

    /** What the agent knows of one peer. */
    private static final class PeerLink {
        final int peerId;
        final String name;
        final int sessionId;
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
            this.peerId = peerId;
            this.name = name;
            this.sessionId = sessionId;
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

    @Override
    public String roleName() {
        return roleName;
    }

    @Override
    public void onStart() {
        thread = Thread.currentThread();
    }

    boolean isAgentThread() {
        return Thread.currentThread() == thread;
    }

    /** Queues a control message or command; any thread. */
    void enqueue(Object event) {
        control.add(event);
    }

    @Override
    public int doWork() {
        int work = 0;
        if (subscription != null) {
            work += pollImages();
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
            onMemberJoined(j.member());
            return true;
        } else if (e instanceof MemberLeft l) {
            return onMemberLeft(l);
        } else if (e instanceof JoinReserved r) {
            if (phase == Phase.RESERVING && r.nonce() == nonce) {
                selfId = r.self().peerId();
                for (MemberInfo m : r.members()) {
                    addLink(new PeerLink(m.peerId(), m.participantName(), m.sessionId()));
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
            publication = l.publication();
            sender = l.sender();
            phase = Phase.LINKING;
            return true;
        } else if (e instanceof RegistryLost lost) {
            onRegistryLost(lost.why());
            return true;
        }
        return true;
    }

    private void onMemberJoined(MemberInfo m) {
        if (phase == Phase.RESERVING || phase == Phase.DETACHED) {
            return; // before our place in the registry's sequence
        }
        if (m.peerId() == selfId) {
            phase = Phase.JOINED;
            joined.complete(null);
            return;
        }
        if (find(m.peerId()) != null) {
            return;
        }
        PeerLink link = new PeerLink(m.peerId(), m.participantName(), m.sessionId());
        if (phase == Phase.RESERVED || phase == Phase.LINKING) {
            // cannot happen while the registry serializes joins; treated like a member of the snapshot
            addLink(link);
            return;
        }
        // the newcomer subscribed before it was announced: our Hello reaches it, and so does all after it
        link.helloSeen = true;
        sender.sendHello(m.peerId());
        link.told = true;
        addLink(link);
        safe(() -> listener.onPeerJoined(m.peerId(), m.participantName()), "onPeerJoined");
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
        if (!link.told) {
            removeLink(link);
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
        safe(() -> listener.onPeerLeft(link.peerId, link.name, l.connectionLost()), "onPeerLeft");
        return true;
    }

    /** @return whether everything the leaver sent before leaving has been delivered */
    private boolean drained(PeerLink link) {
        MemberLeft l = link.leaving;
        if (link.image == null && subscription != null) {
            link.image = subscription.imageBySessionId(link.sessionId);
            if (link.image != null) {
                link.assembler = new ImageFragmentAssembler(peerHandler);
            }
        }
        if (link.image != null) {
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
        for (PeerLink link : linkArray) {
            if (link.image == null) {
                return 0;
            }
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
                link.image = subscription.imageBySessionId(link.sessionId);
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

    /** Called by {@link FrameSender} on this thread while an offer is back-pressured: keep receiving. */
    void pollWhileBackPressured() {
        if (!inBackPressurePoll && subscription != null) {
            inBackPressurePoll = true;
            try {
                pollImages();
            } finally {
                inBackPressurePoll = false;
            }
        }
    }

    private void onSelfFragment(DirectBuffer buffer, int offset, int length, Header header) {
        // our own stream: only what we sent to ourselves
        if (length >= MessageCodec.BODY_OFFSET && MessageCodec.destination(buffer, offset) == selfId) {
            deliver(self, selfId, buffer, offset, length);
        }
    }

    private void onPeerFragment(DirectBuffer buffer, int offset, int length, Header header) {
        PeerLink link = polling;
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
        if (link.leaving != null && link.leaving.endPosition() >= 0
                && header.position() > link.leaving.endPosition()) {
            return; // offered by a thread of the leaver after it left
        }
        deliver(link, link.peerId, buffer, offset, length);
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
        LOG.warn("{}: dropped {} from '{}' ({} so far): {}", roleName, what, link.name, droppedFrames,
                e == null ? "malformed" : e.getMessage());
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
            b.append(' ').append(l.name).append('#').append(l.peerId).append(l.told ? "" : "(untold)")
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
