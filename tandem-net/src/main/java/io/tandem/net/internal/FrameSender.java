package io.tandem.net.internal;

import io.aeron.Publication;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.msg.CosimMessage;
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

    /** per-thread encoding scratch */
    private static final class Scratch {
        final ExpandableArrayBuffer frame = new ExpandableArrayBuffer(256);
        final UnsafeBuffer chunkHeader = new UnsafeBuffer(new byte[MessageCodec.CHUNK_HEADER_LENGTH]);
        final FrameWriter writer = new FrameWriter();
    }

    FrameSender(Publication publication, int version, SessionAgent agent, String owner) {
        this.publication = publication;
        this.version = version;
        this.agent = agent;
        this.owner = owner;
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
            offer(s.frame, 0, length, null, 0, 0);
            return;
        }
        // longer than one Aeron message: slices behind a chunk header, without copying the frame
        long id = chunkIds.incrementAndGet();
        int slice = max - MessageCodec.CHUNK_HEADER_LENGTH;
        for (int at = 0; at < length && !closed; at += slice) {
            int n = Math.min(slice, length - at);
            MessageCodec.putChunkHeader(s.chunkHeader, 0, version, destination, id, length, at);
            offer(s.chunkHeader, 0, MessageCodec.CHUNK_HEADER_LENGTH, s.frame, at, n);
        }
    }

    /** Offers a NextSimTask to every peer. Does not allocate (after the thread's first call). */
    void sendNextSimTask(long timePointNs, long durationNs) {
        if (closed) {
            return;
        }
        Scratch s = SCRATCH.get();
        int length = MessageCodec.encodeNextSimTask(s.frame, 0, version, MessageCodec.ALL_PEERS, timePointNs, durationNs);
        offer(s.frame, 0, length, null, 0, 0);
    }

    /** Offers a Hello to a peer that just joined: "what follows was sent knowing you". Does not allocate. */
    void sendHello(int destination) {
        if (closed) {
            return;
        }
        Scratch s = SCRATCH.get();
        int length = MessageCodec.encodeHello(s.frame, 0, version, destination);
        offer(s.frame, 0, length, null, 0, 0);
    }

    private void offer(DirectBuffer one, int offsetOne, int lengthOne, DirectBuffer two, int offsetTwo, int lengthTwo) {
        int idle = 0;
        while (!offering.compareAndSet(false, true)) {
            if (closed) {
                return;
            }
            idle = idle(idle);
        }
        try {
            offerLocked(one, offsetOne, lengthOne, two, offsetTwo, lengthTwo);
        } finally {
            offering.set(false);
        }
    }

    private void offerLocked(DirectBuffer one, int offsetOne, int lengthOne, DirectBuffer two, int offsetTwo,
            int lengthTwo) {
        int idle = 0;
        int notConnected = 0;
        while (true) {
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
                LOG.warn("{}: dropping a frame, the publication has had no subscriber for seconds", owner);
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
