package io.tandem.net.internal;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.driver.status.FlowControlReceivers;
import io.aeron.driver.status.StreamCounter;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.spi.FrameWriter;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import io.aeron.DirectBufferVector;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * Media. A participant has at most two publications, both with session id = its peer id on the
 * simulation's stream: the IPC one (members of its own registry) and, once a member of another
 * registry (another host) is known, one UDP multi-destination-cast (MDC) publication in manual
 * control mode [1] with one destination per such member (addRemote / removeRemote). So a broadcast
 * (NextSimTask every step) is one offer per medium, at most two, whatever the number of peers,
 * and a frame for one peer one offer on its medium. Every receiver reads a sender on exactly one
 * medium (its image of that session), so the sender's offer order is what it sees. A frame for one
 * remote member reaches every remote member, which drop it by its destination field, exactly as
 * every member of the registry drops IPC frames meant for others.
 *
 * Flow control. MDC defaults to max flow control (the fastest receiver sets the pace; a slow one
 * can be lapped and lose frames); the channel asks for min flow control, so the slowest live
 * receiver sets it, like the old per-member unicast publications did. A member killed with -9
 * leaves its subscription on its registry's driver until that driver's client liveness timeout, and
 * its image there keeps sending status messages with the position it stopped at; once the member is
 * reported lost (JGroups, about 1 s) its destination is removed, and the registry's driver
 * (RemovedDestinationEndpoint) then marks those status messages end-of-stream, so the min flow
 * control drops the receiver at once instead of holding every remote member back for the client
 * timeout. A receiver that falls silent altogether (its host frozen or cut off) is dropped after
 * the flow control's receiver timeout, the driver's client liveness timeout
 * (NetConfig.clientTimeoutMs): the same time a killed member's IPC subscription holds the IPC
 * publication back.
 *
 * Readiness per destination. With MDC, isConnected() is true as soon as any destination answers,
 * and the client API does not say which did. What the join protocol needs is "this destination's
 * image of us exists" (SessionAgent: a newcomer must not commit before every remote member can read
 * its first frame; a member must not offer Hello to a remote newcomer before the newcomer can read
 * it). The min flow control counts the receivers that sent status messages, and a receiver sends
 * them only from an image, in a driver counter (fc-receivers, one per publication); remoteReceivers
 * reads it. A newcomer's MDC publication is fresh, so "receivers >= remote members" is exact; a
 * member adding one destination waits for the count to rise above its lowest value since the add
 * (stale receivers of lost members may time out meanwhile; SessionAgent).
 *
 * [1] Aeron wiki, "Multiple Destinations" (Multi-Destination-Cast, manual control mode).
 */

/**
 * Encodes, signs (with a shared secret: {@link WireFormat#SIGNED_MAGIC}, {@link FrameTag}) and offers one participant's frames on its exclusive publications (one Aeron session
 * per participant on the simulation's stream: broadcasts, unicasts and NextSimTask share it, so
 * every receiver sees one sender's frames in offer order; offers take turns through a spin lock).
 * Frames above the publication's maximum message length go as Chunk frames. Back-pressure is
 * retried (spin, yield, park) without allocating; on the polling thread the retry also polls, so
 * two participants back-pressured by each other cannot deadlock.
 *
 * <p>Members of other registries (other hosts) are reached over Aeron UDP through one
 * multi-destination-cast publication with a destination per such member (see the implementation
 * notes).
 *
 * <p>Thread-safe: each thread encodes into its own scratch buffer. {@link #sendNextSimTask} does not
 * allocate once the calling thread's scratch exists.
 */
final class FrameSender {
    private static final Logger LOG = LoggerFactory.getLogger(FrameSender.class);
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);
    private static final int SPINS = 100;
    private static final int YIELDS = 200;
    private static final long PARK_NS = 50_000;
    /** not-connected retries before a frame is dropped (~5 s of parks) */
    private static final int NOT_CONNECTED_LIMIT = 100_000;

    private final Publication publication;
    private final int version;
    private final SessionAgent agent;
    private final String owner;
    private final AtomicLong chunkIds = new AtomicLong();
    /** an exclusive publication is single-writer: offers take turns (a spin lock, never allocates) */
    private final AtomicBoolean offering = new AtomicBoolean();
    private volatile boolean closed;
    private final Aeron aeron;
    private final int termLength;
    private final int sessionId;
    private final int streamId;
    private final long receiverTimeoutMs;
    /** each thread's signer with the shared secret's frame key, or null to send unsigned frames */
    private final ThreadLocal<FrameTag> tags;
    /** the UDP multi-destination-cast publication, once a member of another registry is known */
    private volatile ExclusivePublication udp;
    /** the driver counter of its flow control's receivers, or -1 */
    private int receiversCounterId = -1;
    /** the members of other registries (its destinations), copy on write */
    private volatile Remote[] remotes = new Remote[0];

    /** One member of another registry: a destination of the UDP publication. */
    static final class Remote {
        final int peerId;
        final String endpoint;
        /** the destination's channel, {@code aeron:udp?endpoint=HOST:PORT} */
        final String destination;

        Remote(int peerId, String endpoint) {
            this.peerId = peerId;
            this.endpoint = endpoint;
            this.destination = "aeron:udp?endpoint=" + endpoint;
        }
    }

    /** per-thread encoding scratch */
    private static final class Scratch {
        /** the fixed-size frames (NextSimTask, Hello) */
        final ExpandableArrayBuffer frame = new ExpandableArrayBuffer(256);
        final UnsafeBuffer chunkHeader = new UnsafeBuffer(new byte[MessageCodec.CHUNK_HEADER_LENGTH]);
        /** the message frames, and a view of its array to offer */
        final FrameWriter writer = new FrameWriter("Tandem", 256);
        final UnsafeBuffer message = new UnsafeBuffer(writer.array());
        /** a signed frame's tag, offered after it */
        final UnsafeBuffer tag = new UnsafeBuffer(new byte[FrameTag.LENGTH]);
        /** a signed chunk: its header, its slice and its tag */
        final DirectBufferVector[] vectors = {new DirectBufferVector(), new DirectBufferVector(), new DirectBufferVector()};
    }

    FrameSender(Publication publication, int version, SessionAgent agent, String owner) {
        this(publication, version, agent, owner, null, 0, 0, 0, 0, null);
    }

    /**
     * @param aeron             the client that creates the UDP publication to members of other registries
     * @param termLength        its term length
     * @param sessionId         its session id (the IPC publication's)
     * @param streamId          its stream id (the simulation's)
     * @param receiverTimeoutMs how long a receiver that stopped answering holds it back (min flow control)
     * @param secret            the group's shared secret, to sign every frame with; or null
     */
    FrameSender(Publication publication, int version, SessionAgent agent, String owner, Aeron aeron, int termLength,
            int sessionId, int streamId, long receiverTimeoutMs, SharedSecret secret) {
        this.tags = secret == null ? null : ThreadLocal.withInitial(secret::frameTag);
        this.publication = publication;
        this.version = version;
        this.agent = agent;
        this.owner = owner;
        this.aeron = aeron;
        this.termLength = termLength;
        this.sessionId = sessionId;
        this.streamId = streamId;
        this.receiverTimeoutMs = receiverTimeoutMs;
    }

    /**
     * Adds a member of another registry as a destination of the UDP publication (created on the
     * first call). Every later broadcast and every frame for that member goes there. Blocks until
     * the media driver has added it; not for the polling thread's steady state.
     *
     * @param peerId   the member
     * @param endpoint its UDP endpoint, {@code host:port}
     */
    void addRemote(int peerId, String endpoint) {
        Remote r = new Remote(peerId, endpoint);
        synchronized (this) {
            if (closed) {
                return;
            }
            ExclusivePublication p = udp;
            if (p == null) {
                p = aeron.addExclusivePublication("aeron:udp?control-mode=manual|term-length=" + termLength
                        + "|session-id=" + sessionId + "|fc=min,t:" + receiverTimeoutMs + "ms", streamId);
                receiversCounterId = findReceiversCounter(aeron.countersReader(), p.registrationId());
                if (receiversCounterId < 0) {
                    LOG.warn("{}: the media driver has no fc-receivers counter for the UDP publication; joins of"
                            + " members of other registries cannot check that they read it", owner);
                }
                udp = p;
            }
            p.addDestination(r.destination);
            Remote[] old = remotes;
            Remote[] grown = Arrays.copyOf(old, old.length + 1);
            grown[old.length] = r;
            remotes = grown;
        }
    }

    /** @return the id of the fc-receivers counter of a publication, or -1 */
    private static int findReceiversCounter(CountersReader counters, long registrationId) {
        int[] found = {-1};
        counters.forEach((counterId, typeId, key, label) -> {
            if (typeId == FlowControlReceivers.FLOW_CONTROL_RECEIVERS_COUNTER_TYPE_ID
                    && key.getLong(StreamCounter.REGISTRATION_ID_OFFSET) == registrationId) {
                found[0] = counterId;
            }
        });
        return found[0];
    }

    /**
     * @return how many receivers read the UDP publication (those whose images of it sent a status
     *         message within the receiver timeout); 0 without it
     */
    synchronized long remoteReceivers() {
        ExclusivePublication p = udp;
        if (p == null) {
            return 0;
        }
        if (receiversCounterId < 0) {
            // another flow control or driver version: "some destination answered" is all we know
            return p.isConnected() ? remotes.length : 0;
        }
        return aeron.countersReader().getCounterValue(receiversCounterId);
    }

    /** @return the members of other registries the UDP publication sends to */
    int remoteCount() {
        return remotes.length;
    }

    /** @return how many UDP publications this participant has: 0, or 1 once it knows a member of another registry */
    int udpPublications() {
        return udp == null ? 0 : 1;
    }

    /** @return whether frames for {@code peerId} go over UDP */
    boolean isRemote(int peerId) {
        return remote(peerId) != null;
    }

    /** Removes a member that left or was lost from the UDP publication's destinations. */
    void removeRemote(int peerId) {
        Remote r;
        ExclusivePublication p;
        synchronized (this) {
            r = remote(peerId);
            if (r == null) {
                return;
            }
            Remote[] old = remotes;
            Remote[] shrunk = new Remote[old.length - 1];
            for (int i = 0, j = 0; i < old.length; i++) {
                if (old[i] != r) {
                    shrunk[j++] = old[i];
                }
            }
            remotes = shrunk;
            p = udp;
        }
        if (p != null && !p.isClosed()) {
            try {
                p.removeDestination(r.destination);
            } catch (RuntimeException e) {
                LOG.debug("{}: cannot remove the UDP destination {}: {}", owner, r.endpoint, e.toString());
            }
        }
    }

    /** Closes the UDP publication (its receivers see its end of stream). */
    void closeRemotes() {
        ExclusivePublication p;
        synchronized (this) {
            p = udp;
            remotes = new Remote[0];
        }
        if (p != null) {
            p.close();
        }
    }

    private Remote remote(int peerId) {
        Remote[] rs = remotes;
        for (int i = 0; i < rs.length; i++) {
            if (rs[i].peerId == peerId) {
                return rs[i];
            }
        }
        return null;
    }

    /** Stops sending: later calls return at once, retries in progress give up. */
    void close() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
    }

    /** @return the publication's position: the end of every frame offered so far */
    long position() {
        return publication.position();
    }

    /** Encodes and offers a message to one peer or {@link MessageCodec#ALL_PEERS}. Allocates for strings and large frames. */
    void send(int destination, CosimMessage m) {
        if (closed) {
            return;
        }
        Scratch s = SCRATCH.get();
        int length = MessageCodec.encode(s.writer, version, destination, m);
        // the writer's array, replaced when it grew
        s.message.wrap(s.writer.array(), 0, length);
        int max = publication.maxMessageLength() - (tags == null ? 0 : FrameTag.LENGTH);
        if (length <= max) {
            offer(destination, s.message, 0, length, null, 0, 0);
            return;
        }
        // longer than one Aeron message: slices behind a chunk header, without copying the frame
        long id = chunkIds.incrementAndGet();
        int slice = max - MessageCodec.CHUNK_HEADER_LENGTH;
        for (int at = 0; at < length && !closed; at += slice) {
            int n = Math.min(slice, length - at);
            MessageCodec.putChunkHeader(s.chunkHeader, 0, version, destination, id, length, at);
            offer(destination, s.chunkHeader, 0, MessageCodec.CHUNK_HEADER_LENGTH, s.message, at, n);
        }
    }

    /** Offers a NextSimTask to every peer. Does not allocate (after the thread's first call). */
    void sendNextSimTask(long timePointNs, long durationNs) {
        if (closed) {
            return;
        }
        Scratch s = SCRATCH.get();
        int length = MessageCodec.encodeNextSimTask(s.frame, 0, version, MessageCodec.ALL_PEERS, timePointNs, durationNs);
        offer(MessageCodec.ALL_PEERS, s.frame, 0, length, null, 0, 0);
    }

    /** Offers a Hello to a peer that just joined: "what follows was sent knowing you". Does not allocate. */
    void sendHello(int destination) {
        if (closed) {
            return;
        }
        Scratch s = SCRATCH.get();
        int length = MessageCodec.encodeHello(s.frame, 0, version, destination);
        offer(destination, s.frame, 0, length, null, 0, 0);
    }

    /**
     * Offers, once and only if no other offer is in progress, a frame that no member reads (a Hello
     * to ourselves) on the UDP publication: a destination just added then sees data at once and
     * asks for the publication's setup, instead of at its next heartbeat (up to 100 ms when idle).
     * Does not allocate.
     *
     * @param selfPeerId our peer id
     */
    void probeRemotes(int selfPeerId) {
        ExclusivePublication p = udp;
        if (closed || p == null || !offering.compareAndSet(false, true)) {
            return;
        }
        try {
            Scratch s = SCRATCH.get();
            int length = MessageCodec.encodeHello(s.frame, 0, version, selfPeerId);
            if (tags == null) {
                p.offer(s.frame, 0, length);
            } else {
                sign(s, s.frame, 0, length, null, 0, 0);
                p.offer(s.frame, 0, length, s.tag, 0, FrameTag.LENGTH);
            }
        } finally {
            offering.set(false);
        }
    }

    /**
     * Signs a frame made of {@code one} and, if not null, {@code two}: marks it signed in
     * {@code one}'s header and puts its tag in the thread's scratch. Does not allocate.
     */
    private void sign(Scratch s, MutableDirectBuffer one, int offsetOne, int lengthOne, DirectBuffer two, int offsetTwo,
            int lengthTwo) {
        one.putInt(offsetOne + WireFormat.MAGIC_OFFSET, WireFormat.SIGNED_MAGIC, WireFormat.ORDER);
        FrameTag t = tags.get();
        t.begin(publication.sessionId(), publication.streamId());
        t.update(one, offsetOne, lengthOne);
        if (two != null) {
            t.update(two, offsetTwo, lengthTwo);
        }
        t.finish(s.tag, 0);
    }

    private void offer(int destination, MutableDirectBuffer one, int offsetOne, int lengthOne, DirectBuffer two,
            int offsetTwo, int lengthTwo) {
        Scratch signed = null;
        if (tags != null) {
            signed = SCRATCH.get();
            sign(signed, one, offsetOne, lengthOne, two, offsetTwo, lengthTwo);
        }
        int idle = 0;
        while (!offering.compareAndSet(false, true)) {
            if (closed) {
                return;
            }
            idle = idle(idle);
        }
        try {
            // one offer per medium: IPC for our registry's members, the UDP publication for all others
            if (destination == MessageCodec.ALL_PEERS) {
                offerLocked(publication, false, one, offsetOne, lengthOne, two, offsetTwo, lengthTwo, signed);
                if (remotes.length > 0) {
                    offerLocked(udp, true, one, offsetOne, lengthOne, two, offsetTwo, lengthTwo, signed);
                }
            } else if (isRemote(destination)) {
                offerLocked(udp, true, one, offsetOne, lengthOne, two, offsetTwo, lengthTwo, signed);
            } else {
                offerLocked(publication, false, one, offsetOne, lengthOne, two, offsetTwo, lengthTwo, signed);
            }
        } finally {
            offering.set(false);
        }
    }

    /** @param signed the scratch holding the frame's tag, or null for an unsigned frame */
    private void offerLocked(Publication publication, boolean remote, DirectBuffer one, int offsetOne, int lengthOne,
            DirectBuffer two, int offsetTwo, int lengthTwo, Scratch signed) {
        if (signed != null && two != null) {
            signed.vectors[0].reset(one, offsetOne, lengthOne);
            signed.vectors[1].reset(two, offsetTwo, lengthTwo);
            signed.vectors[2].reset(signed.tag, 0, FrameTag.LENGTH);
        }
        int idle = 0;
        int notConnected = 0;
        while (true) {
            if (remote && remotes.length == 0) {
                return; // every member of another registry left
            }
            long result;
            if (signed == null) {
                result = two == null
                        ? publication.offer(one, offsetOne, lengthOne)
                        : publication.offer(one, offsetOne, lengthOne, two, offsetTwo, lengthTwo);
            } else {
                result = two == null
                        ? publication.offer(one, offsetOne, lengthOne, signed.tag, 0, FrameTag.LENGTH)
                        : publication.offer(signed.vectors);
            }
            if (result > 0) {
                return;
            }
            if (result == Publication.CLOSED || closed) {
                return;
            }
            if (result == Publication.MAX_POSITION_EXCEEDED) {
                throw new TandemException(owner + ": its Aeron publication reached its maximum position; reconnect the participant");
            }
            if (result == Publication.NOT_CONNECTED && ++notConnected > NOT_CONNECTED_LIMIT) {
                LOG.warn("{}: dropping a frame, the {} publication has had no subscriber for seconds", owner,
                        remote ? "UDP" : "IPC");
                return;
            }
            // back-pressured (or an admin action): a slow receiver
            idle = idle(idle);
        }
    }

    /** Waits a little; on the polling thread, keeps receiving meanwhile (we may be what holds the others up). */
    private int idle(int idle) {
        if (agent.isAgentThread()) {
            agent.pollWhileBackPressured();
        }
        if (idle < SPINS) {
            Thread.onSpinWait();
        } else if (idle < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(PARK_NS);
        }
        return idle + 1;
    }
}
