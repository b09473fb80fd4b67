package io.tandem.net.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/*
 * HMAC-SHA256 after RFC 2104 (section 2): tag = H(K xor opad, H(K xor ipad, text)), with H = SHA-256
 * (FIPS 180-4) and a 32-byte key, truncated to its leftmost 128 bits (RFC 2104 section 5: at least
 * half the output and 80 bits). Built from MessageDigest rather than javax.crypto.Mac because
 * Mac.doFinal allocates a fresh array per call; the result is the same (FrameTagTest checks it
 * against Mac). The text is the sender's Aeron session and stream ids (two little-endian int32)
 * followed by the frame, so a frame signed for one sender or stream does not pass for another.
 */

/**
 * Signs and checks frames with the shared secret's frame key: a 16-byte tag after the frame.
 * Not thread-safe (one per thread); allocates nothing after construction.
 */
final class FrameTag {
    /** bytes of tag after a signed frame */
    static final int LENGTH = 16;
    private static final int BLOCK = 64;
    private static final byte IPAD = 0x36;
    private static final byte OPAD = 0x5c;

    private final MessageDigest inner;
    private final MessageDigest outer;
    private final byte[] ipad = new byte[BLOCK];
    private final byte[] opad = new byte[BLOCK];
    private final byte[] ids = new byte[8];
    private final byte[] digest = new byte[32];
    /** frame bytes copied off-heap buffers in pieces of this size */
    private final byte[] scratch = new byte[4096];

    /** @param key the frame key, at most 64 bytes (not kept) */
    FrameTag(byte[] key) {
        if (key.length > BLOCK) {
            throw new IllegalArgumentException("frame key longer than " + BLOCK + " bytes");
        }
        try {
            inner = MessageDigest.getInstance("SHA-256");
            outer = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
        for (int i = 0; i < BLOCK; i++) {
            byte k = i < key.length ? key[i] : 0;
            ipad[i] = (byte) (k ^ IPAD);
            opad[i] = (byte) (k ^ OPAD);
        }
    }

    /** Starts a tag for a frame of the given sender and stream. */
    void begin(int sessionId, int streamId) {
        inner.reset();
        inner.update(ipad, 0, BLOCK);
        putIntLe(ids, 0, sessionId);
        putIntLe(ids, 4, streamId);
        inner.update(ids, 0, 8);
    }

    /** Adds frame bytes. */
    void update(DirectBuffer buffer, int offset, int length) {
        byte[] array = buffer.byteArray();
        if (array != null) {
            inner.update(array, (int) (buffer.addressOffset() - BufferUtil.ARRAY_BASE_OFFSET) + offset, length);
            return;
        }
        for (int at = 0; at < length; at += scratch.length) {
            int n = Math.min(scratch.length, length - at);
            buffer.getBytes(offset + at, scratch, 0, n);
            inner.update(scratch, 0, n);
        }
    }

    /** Adds frame bytes. */
    void update(byte[] bytes, int offset, int length) {
        inner.update(bytes, offset, length);
    }

    /** Ends the tag and writes its {@link #LENGTH} bytes at {@code out[outOffset]}. */
    void finish(MutableDirectBuffer out, int outOffset) {
        finish();
        out.putBytes(outOffset, digest, 0, LENGTH);
    }

    /** Ends the tag and writes its {@link #LENGTH} bytes at {@code out[outOffset]}. */
    void finish(byte[] out, int outOffset) {
        finish();
        System.arraycopy(digest, 0, out, outOffset, LENGTH);
    }

    private void finish() {
        try {
            inner.digest(digest, 0, digest.length);
            outer.reset();
            outer.update(opad, 0, BLOCK);
            outer.update(digest, 0, digest.length);
            outer.digest(digest, 0, digest.length);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param length the frame's length with its tag
     * @return whether the last {@link #LENGTH} bytes are the tag of the bytes before them for this
     *         sender and stream (compared in constant time)
     */
    boolean verify(DirectBuffer buffer, int offset, int length, int sessionId, int streamId) {
        if (length < LENGTH) {
            return false;
        }
        begin(sessionId, streamId);
        update(buffer, offset, length - LENGTH);
        finish();
        int diff = 0;
        int tagAt = offset + length - LENGTH;
        for (int i = 0; i < LENGTH; i++) {
            diff |= digest[i] ^ buffer.getByte(tagAt + i);
        }
        return diff == 0;
    }

    /** @return {@link #verify(DirectBuffer, int, int, int, int)} over an array */
    boolean verify(byte[] frame, int offset, int length, int sessionId, int streamId) {
        if (length < LENGTH) {
            return false;
        }
        begin(sessionId, streamId);
        update(frame, offset, length - LENGTH);
        finish();
        int diff = 0;
        int tagAt = offset + length - LENGTH;
        for (int i = 0; i < LENGTH; i++) {
            diff |= digest[i] ^ frame[tagAt + i];
        }
        return diff == 0;
    }

    private static void putIntLe(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }
}
