package io.tandem.net.internal;

import io.tandem.cosim.spi.FrameErrors;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;
import io.tandem.net.MalformedFrameException;
import io.tandem.net.ProtocolVersionException;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/*
 * Wire protocol, version 2 (2 added the members' home registry and UDP endpoint, and
 * RegistryInfo). Every value is little-endian.
 *
 *   header (8 bytes, every frame, data and control plane)
 *     0  int32   magic 0x4D444E54 ("TNDM" as bytes)
 *     4  uint16  protocol version
 *     6  uint16  frame type (below)
 *
 *   data-plane frames (Aeron) add
 *     8  int32   destination peer id, 0 = every peer of the simulation
 *    12  ...     body (MessageCodec)
 *
 *   control-plane frames (JGroups) have their body at 8 (ControlCodec).
 *
 *   signed frames (a group with a shared secret) have the magic 0x53444E54 ("TNDS") and a 16-byte
 *   tag after the body: HMAC-SHA256 over the sender's session and stream ids and the frame, first
 *   16 bytes (FrameTag). Each Aeron fragment is signed on its own (a Chunk too); control frames
 *   use session 0, stream -1.
 *
 * Strings are int32 byte length + UTF-8; byte arrays int32 length (-1 = null) + bytes; booleans
 * one byte 0/1; enums explicit codes (never ordinals). A new field or type means a new version.
 */

/** Header layout, frame types and the version check shared by both planes. Stateless. */
final class WireFormat {
    /** "TNDM" read as a little-endian int32 */
    static final int MAGIC = 0x4D444E54;
    /** "TNDS" read as a little-endian int32: a frame signed with the shared secret (FrameTag) */
    static final int SIGNED_MAGIC = 0x53444E54;
    /** the protocol version this build speaks */
    static final int VERSION = 2;
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int TYPE_OFFSET = 6;
    static final int HEADER_LENGTH = 8;

    // data plane: the CosimMessage records ...
    static final int SERVICE_ANNOUNCEMENT = 1;
    static final int LIFECYCLE_ANNOUNCEMENT = 2;
    static final int STATUS_UPDATE = 3;
    static final int WORKFLOW_CONFIGURATION = 4;
    static final int SYSTEM_COMMAND = 5;
    static final int DATA_MESSAGE = 6;
    static final int RPC_CALL = 7;
    static final int RPC_RESULT = 8;
    static final int BARRIER_REQUEST = 9;
    static final int BARRIER_REPLY = 10;
    // ... and the transport's own
    static final int NEXT_SIM_TASK = 11;
    static final int HELLO = 12;
    static final int CHUNK = 13;

    // control plane (JGroups)
    static final int JOIN_REQUEST = 32;
    static final int JOIN_RESERVED = 33;
    static final int JOIN_REJECTED = 34;
    static final int JOIN_COMMIT = 35;
    static final int MEMBER_JOINED = 36;
    static final int LEAVE_REQUEST = 37;
    static final int MEMBER_LEFT = 38;
    static final int REGISTRY_INFO = 39;

    /**
     * How {@link FrameReader}s of both planes report a malformed frame: a
     * {@link MalformedFrameException} naming the frame type, the field and the offset.
     */
    static final FrameErrors ERRORS = new FrameErrors() {
        @Override
        public RuntimeException truncated(FrameReader frame, String field, int needed) {
            return new MalformedFrameException("truncated " + typeName(frame.type()) + " frame: " + field + " needs "
                    + needed + " bytes at offset " + frame.position() + " but the frame has " + frame.remaining()
                    + " left");
        }

        @Override
        public RuntimeException trailingBytes(FrameReader frame) {
            return new MalformedFrameException(typeName(frame.type()) + " frame has " + frame.remaining()
                    + " bytes after its last field (frame length " + frame.length() + ")");
        }

        @Override
        public RuntimeException invalid(FrameReader frame, String field, long value) {
            return new MalformedFrameException("invalid " + field + " " + value + " in " + typeName(frame.type())
                    + " frame at offset " + frame.position());
        }
    };

    private WireFormat() {
    }

    /**
     * Writes the header at the writer's position. Does not allocate.
     *
     * @return the writer
     */
    static FrameWriter putHeader(FrameWriter w, int version, int type) {
        return w.putInt(MAGIC).putShort(version).putShort(type);
    }

    /** Writes the header at {@code offset}. Does not allocate. */
    static void putHeader(MutableDirectBuffer buffer, int offset, int version, int type) {
        buffer.putInt(offset + MAGIC_OFFSET, MAGIC, ORDER);
        buffer.putShort(offset + VERSION_OFFSET, (short) version, ORDER);
        buffer.putShort(offset + TYPE_OFFSET, (short) type, ORDER);
    }

    /** @return the frame type (no checks); does not allocate */
    static int type(DirectBuffer buffer, int offset) {
        return buffer.getShort(offset + TYPE_OFFSET, ORDER) & 0xffff;
    }

    /** @return the protocol version in the header (no checks); does not allocate */
    static int version(DirectBuffer buffer, int offset) {
        return buffer.getShort(offset + VERSION_OFFSET, ORDER) & 0xffff;
    }

    /**
     * Checks magic, length and version. Does not allocate unless it throws.
     *
     * @param from who sent the frame, for the error message
     * @return the frame type
     * @throws MalformedFrameException  if the frame is shorter than a header or has the wrong magic
     * @throws ProtocolVersionException if the version differs from {@code expectedVersion}
     */
    static int checkHeader(DirectBuffer buffer, int offset, int length, int expectedVersion, String from) {
        if (length < HEADER_LENGTH) {
            throw new MalformedFrameException("truncated frame from " + from + ": " + length
                    + " bytes, shorter than the " + HEADER_LENGTH + "-byte header");
        }
        int magic = buffer.getInt(offset + MAGIC_OFFSET, ORDER);
        if (magic != MAGIC && magic != SIGNED_MAGIC) {
            throw new MalformedFrameException("not a Tandem frame from " + from + ": magic 0x"
                    + Integer.toHexString(magic) + ", expected 0x" + Integer.toHexString(MAGIC));
        }
        int version = version(buffer, offset);
        if (version != expectedVersion) {
            throw new ProtocolVersionException(expectedVersion, version, from);
        }
        return type(buffer, offset);
    }

    /** @return whether a frame at least a header long carries the signed magic; does not allocate */
    static boolean isSigned(DirectBuffer buffer, int offset, int length) {
        return length >= HEADER_LENGTH && buffer.getInt(offset + MAGIC_OFFSET, ORDER) == SIGNED_MAGIC;
    }

    /**
     * Checks a received frame's signature where the group has a shared secret, and that an
     * unsigned group receives no signed frame. Does not allocate unless it throws.
     *
     * @param tag       the frame key's signer, or null without a shared secret
     * @param sessionId the sender's Aeron session id (0 on the control plane)
     * @param streamId  the stream it came on (-1 on the control plane)
     * @param from      who sent it, for the error
     * @return the frame's length without its tag
     * @throws UnauthenticatedFrameException if the signature is missing, wrong, or unexpected
     */
    static int authenticate(FrameTag tag, DirectBuffer buffer, int offset, int length, int sessionId, int streamId,
            String from) {
        boolean signed = isSigned(buffer, offset, length);
        if (tag == null) {
            if (signed) {
                throw new UnauthenticatedFrameException("a signed frame from " + from + ": it has a shared secret and"
                        + " this member has none; give every member the same --secret-file ("
                        + io.tandem.net.NetConfig.SECRET_FILE_PROP_NAME + ")");
            }
            return length;
        }
        if (!signed) {
            throw new UnauthenticatedFrameException("an unsigned frame from " + from + ": it has no shared secret, and"
                    + " this member requires one");
        }
        if (length < HEADER_LENGTH + FrameTag.LENGTH || !tag.verify(buffer, offset, length, sessionId, streamId)) {
            throw new UnauthenticatedFrameException("a frame from " + from + " whose signature does not match: signed"
                    + " with another shared secret, or altered");
        }
        return length - FrameTag.LENGTH;
    }

    /** @return a frame type's name for messages */
    static String typeName(int type) {
        return switch (type) {
            case SERVICE_ANNOUNCEMENT -> "ServiceAnnouncement";
            case LIFECYCLE_ANNOUNCEMENT -> "LifecycleAnnouncement";
            case STATUS_UPDATE -> "StatusUpdate";
            case WORKFLOW_CONFIGURATION -> "WorkflowConfiguration";
            case SYSTEM_COMMAND -> "SystemCommand";
            case DATA_MESSAGE -> "DataMessage";
            case RPC_CALL -> "RpcCall";
            case RPC_RESULT -> "RpcResult";
            case BARRIER_REQUEST -> "BarrierRequest";
            case BARRIER_REPLY -> "BarrierReply";
            case NEXT_SIM_TASK -> "NextSimTask";
            case HELLO -> "Hello";
            case CHUNK -> "Chunk";
            case JOIN_REQUEST -> "JoinRequest";
            case JOIN_RESERVED -> "JoinReserved";
            case JOIN_REJECTED -> "JoinRejected";
            case JOIN_COMMIT -> "JoinCommit";
            case MEMBER_JOINED -> "MemberJoined";
            case LEAVE_REQUEST -> "LeaveRequest";
            case MEMBER_LEFT -> "MemberLeft";
            case REGISTRY_INFO -> "RegistryInfo";
            default -> "unknown type " + type;
        };
    }
}
