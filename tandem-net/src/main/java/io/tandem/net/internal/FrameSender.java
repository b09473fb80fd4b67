package io.tandem.net.internal;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.msg.CosimMessage;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Encodes and offers one participant's frames on its exclusive publication (one Aeron session
 * per participant on the simulation's stream: broadcasts, unicasts and NextSimTask share it, so
 * every receiver sees one sender's frames in offer order; offers take turns through a spin lock). Frames above the publication's maximum message length go as Chunk frames.
 * Back-pressure is retried (spin, yield, park) without allocating; on the polling thread the retry
 * also polls, so two participants back-pressured by each other cannot deadlock.
 *
 * <p>Members of other registries (other hosts) are reached over Aeron UDP: one exclusive
 * publication per such member ({@link #addRemote}) to its UDP endpoint, with the same session id.
 * A broadcast goes to the IPC publication and every remote one; a frame for one remote member only
 * to its publication. Each receiver reads one sender on one medium, so per-sender order holds.
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
    /** the members of other registries, copy on write */
    private volatile Remote[] remotes = new Remote[0];

    /** One member of another registry and our UDP publication to it. */
    static final class Remote {
        final int peerId;
        final String endpoint;
        final ExclusivePublication publication;
        /** left or lost: offers to it give up */
        volatile boolean gone;

        Remote(int peerId, String endpoint, ExclusivePublication publication) {
            this.peerId = peerId;
            this.endpoint = endpoint;
            this.publication = publication;
        }
    }

    /** per-thread encoding scratch */
    private static final class Scratch {
        final ExpandableArrayBuffer frame = new ExpandableArrayBuffer(256);
        final UnsafeBuffer chunkHeader = new UnsafeBuffer(new byte[MessageCodec.CHUNK_HEADER_LENGTH]);
        final FrameWriter writer = new FrameWriter();
    }

    FrameSender(Publication publication, int version, SessionAgent agent, String owner) {
        this(publication, version, agent, owner, null, 0, 0, 0);
    }

    /**
     * @param aeron      the client that creates UDP publications to members of other registries
     * @param termLength their term length
     * @param sessionId  their session id (the IPC publication's)
     * @param streamId   their stream id (the simulation's)
     */
    FrameSender(Publication publication, int version, SessionAgent agent, String owner, Aeron aeron, int termLength,
            int sessionId, int streamId) {
        this.publication = publication;
        this.version = version;
        this.agent = agent;
        this.owner = owner;
        this.aeron = aeron;
        this.termLength = termLength;
        this.sessionId = sessionId;
        this.streamId = streamId;
    }

    /**
     * Creates the UDP publication to a member of another registry. Every later broadcast and every
     * frame for that member goes there.
     *
     * @param peerId   the member
     * @param endpoint its UDP endpoint, {@code host:port}
     * @return the new remote
     */
    Remote addRemote(int peerId, String endpoint) {
        ExclusivePublication p = aeron.addExclusivePublication("aeron:udp?endpoint=" + endpoint + "|term-length="
                + termLength + "|session-id=" + sessionId, streamId);
        Remote r = new Remote(peerId, endpoint, p);
        synchronized (this) {
            Remote[] old = remotes;
            Remote[] grown = Arrays.copyOf(old, old.length + 1);
            grown[old.length] = r;
            remotes = grown;
        }
        return r;
    }

    /** @return whether the UDP publication to a member reaches its subscription (false if there is none) */
    boolean remoteConnected(int peerId) {
        Remote r = remote(peerId);
        return r != null && r.publication.isConnected();
    }

    /** @return whether frames for {@code peerId} go over UDP */
    boolean isRemote(int peerId) {
        return remote(peerId) != null;
    }

    /** Drops the UDP publication to a member that left or was lost. */
    void removeRemote(int peerId) {
        Remote r;
        synchronized (this) {
            r = remote(peerId);
            if (r == null) {
                return;
            }
            r.gone = true;
            Remote[] old = remotes;
            Remote[] shrunk = new Remote[old.length - 1];
            for (int i = 0, j = 0; i < old.length; i++) {
                if (old[i] != r) {
                    shrunk[j++] = old[i];
                }
            }
            remotes = shrunk;
        }
        r.publication.close();
    }

    /** Closes every UDP publication. */
    void closeRemotes() {
        Remote[] rs;
        synchronized (this) {
            rs = remotes;
            remotes = new Remote[0];
        }
        for (Remote r : rs) {
            r.gone = true;
            r.publication.close();
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
        int length = MessageCodec.encode(s.writer.wrap(s.frame, 0), version, destination, m);
        int max = publication.maxMessageLength();
        if (length <= max) {
            offer(destination, s.frame, 0, length, null, 0, 0);
            return;
        }
        // longer than one Aeron message: slices behind a chunk header, without copying the frame
        long id = chunkIds.incrementAndGet();
        int slice = max - MessageCodec.CHUNK_HEADER_LENGTH;
        for (int at = 0; at < length && !closed; at += slice) {
            int n = Math.min(slice, length - at);
            MessageCodec.putChunkHeader(s.chunkHeader, 0, version, destination, id, length, at);
            offer(destination, s.chunkHeader, 0, MessageCodec.CHUNK_HEADER_LENGTH, s.frame, at, n);
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

    private void offer(int destination, DirectBuffer one, int offsetOne, int lengthOne, DirectBuffer two, int offsetTwo,
            int lengthTwo) {
        int idle = 0;
        while (!offering.compareAndSet(false, true)) {
            if (closed) {
                return;
            }
            idle = idle(idle);
        }
        try {
            Remote[] rs = remotes;
            if (destination == MessageCodec.ALL_PEERS) {
                offerLocked(publication, null, one, offsetOne, lengthOne, two, offsetTwo, lengthTwo);
                for (int i = 0; i < rs.length; i++) {
                    offerLocked(rs[i].publication, rs[i], one, offsetOne, lengthOne, two, offsetTwo, lengthTwo);
                }
                return;
            }
            for (int i = 0; i < rs.length; i++) {
                if (rs[i].peerId == destination) {
                    offerLocked(rs[i].publication, rs[i], one, offsetOne, lengthOne, two, offsetTwo, lengthTwo);
                    return;
                }
            }
            offerLocked(publication, null, one, offsetOne, lengthOne, two, offsetTwo, lengthTwo);
        } finally {
            offering.set(false);
        }
    }

    private void offerLocked(Publication publication, Remote remote, DirectBuffer one, int offsetOne, int lengthOne,
            DirectBuffer two, int offsetTwo, int lengthTwo) {
        int idle = 0;
        int notConnected = 0;
        while (true) {
            if (remote != null && remote.gone) {
                return;
            }
            long result = two == null
                    ? publication.offer(one, offsetOne, lengthOne)
                    : publication.offer(one, offsetOne, lengthOne, two, offsetTwo, lengthTwo);
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
                LOG.warn("{}: dropping a frame, the publication{} has had no subscriber for seconds", owner,
                        remote == null ? "" : " to " + remote.endpoint);
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
