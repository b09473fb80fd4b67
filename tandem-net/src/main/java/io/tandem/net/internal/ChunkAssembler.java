package io.tandem.net.internal;

import io.tandem.net.MalformedFrameException;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Reassembles one sender's frames that were longer than its publication's maximum message length
 * and so sent as Chunk frames. Chunks of different frames may interleave (senders on several
 * threads); each frame's chunks arrive in order. One per sending peer; used on the polling thread
 * only. Allocates the reassembled frame (large messages only).
 */
final class ChunkAssembler {
    /** the largest frame accepted in chunks, bytes */
    static final int MAX_FRAME_LENGTH = 1 << 30;

    private final Long2ObjectHashMap<Partial> partials = new Long2ObjectHashMap<>();

    private static final class Partial {
        final byte[] frame;
        int received;

        Partial(int length) {
            frame = new byte[length];
        }
    }

    /**
     * @param buffer a checked Chunk frame (not modified)
     * @return the whole frame once its last chunk arrived, else null
     * @throws MalformedFrameException if the chunk does not fit its frame
     */
    byte[] onChunk(DirectBuffer buffer, int offset, int length) {
        long id = buffer.getLong(offset + MessageCodec.BODY_OFFSET, WireFormat.ORDER);
        int total = buffer.getInt(offset + MessageCodec.BODY_OFFSET + 8, WireFormat.ORDER);
        int at = buffer.getInt(offset + MessageCodec.BODY_OFFSET + 12, WireFormat.ORDER);
        int n = length - MessageCodec.CHUNK_HEADER_LENGTH;
        if (total <= 0 || total > MAX_FRAME_LENGTH || at < 0 || n <= 0 || (long) at + n > total) {
            throw new MalformedFrameException("chunk " + id + " [" + at + ", +" + n + ") does not fit a frame of " + total
                    + " bytes");
        }
        Partial p = partials.get(id);
        if (p == null) {
            if (at != 0) {
                throw new MalformedFrameException("chunk " + id + " starts at " + at + " but its first chunk was not seen");
            }
            p = new Partial(total);
            partials.put(id, p);
        } else if (p.frame.length != total || at != p.received) {
            partials.remove(id);
            throw new MalformedFrameException("chunk " + id + " at " + at + " of " + total + " bytes does not follow "
                    + p.received + " of " + p.frame.length);
        }
        buffer.getBytes(offset + MessageCodec.CHUNK_HEADER_LENGTH, p.frame, at, n);
        p.received += n;
        if (p.received == total) {
            partials.remove(id);
            return p.frame;
        }
        return null;
    }
}
