package io.tandem.net.internal;

import io.tandem.cosim.MatchingLabel;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.ParticipantState;
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
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;
import io.tandem.net.MalformedFrameException;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/*
 * Data-plane bodies (after header + destination, at BODY_OFFSET), version 1:
 *
 *   ServiceAnnouncement    int32 kind (1 pub, 2 sub, 3 rpc client, 4 rpc server), int32 serviceId,
 *                          string topic, string mediaType, int32 n, n x (string key, string value,
 *                          int32 kind 1 optional / 2 mandatory), int32 history
 *   LifecycleAnnouncement  int32 mode code (10 coordinated, 20 autonomous), bool timeSyncActive
 *   StatusUpdate           int32 state code (ParticipantState.code), string reason
 *   WorkflowConfiguration  int32 n, n x string
 *   SystemCommand          int32 kind (1 abort)
 *   DataMessage            int32 publisherId, int64 timestampNs, int32 targetSubscriberId, bytes data
 *   RpcCall                int32 clientId, int64 callId, int64 timestampNs, bytes data
 *   RpcResult              int32 clientId, int64 callId, int64 timestampNs, bool serverFailed, bytes data
 *   BarrierRequest         int64 barrierId
 *   BarrierReply           int64 barrierId
 *   NextSimTask            int64 timePointNs, int64 durationNs            (fixed 28-byte frame)
 *   Hello                  (empty) "frames after this one were sent knowing you"
 *   Chunk                  int64 chunkedId, int32 totalLength, int32 chunkOffset, bytes to frame end:
 *                          one slice of a frame longer than the publication's max message length
 */

/** Encodes and decodes data-plane frames (every {@link CosimMessage} plus the transport's own). Stateless. */
final class MessageCodec {
    static final int DESTINATION_OFFSET = WireFormat.HEADER_LENGTH;
    static final int BODY_OFFSET = DESTINATION_OFFSET + 4;
    /** destination meaning "every peer of the simulation" */
    static final int ALL_PEERS = 0;
    static final int NEXT_SIM_TASK_LENGTH = BODY_OFFSET + 16;
    static final int HELLO_LENGTH = BODY_OFFSET;
    static final int CHUNK_HEADER_LENGTH = BODY_OFFSET + 16;

    private MessageCodec() {
    }

    /** @return the destination peer id of a data-plane frame (no checks); does not allocate */
    static int destination(DirectBuffer buffer, int offset) {
        return buffer.getInt(offset + DESTINATION_OFFSET, WireFormat.ORDER);
    }

    /**
     * Encodes a message frame. Allocates only the UTF-8 bytes of strings.
     *
     * @param w           writer; reset, the frame starts at index 0 of its array
     * @param version     protocol version to write
     * @param destination receiver peer id or {@link #ALL_PEERS}
     * @param m           the message (not modified)
     * @return the frame length
     */
    static int encode(FrameWriter w, int version, int destination, CosimMessage m) {
        w.reset();
        if (m instanceof DataMessage d) {
            WireFormat.putHeader(w, version, WireFormat.DATA_MESSAGE).putInt(destination)
                    .putInt(d.publisherId()).putLong(d.timestampNs()).putInt(d.targetSubscriberId()).putBytes(d.data());
        } else if (m instanceof ServiceAnnouncement a) {
            WireFormat.putHeader(w, version, WireFormat.SERVICE_ANNOUNCEMENT).putInt(destination)
                    .putInt(serviceKindCode(a.kind())).putInt(a.serviceId()).putString(a.topic()).putString(a.mediaType())
                    .putInt(a.labels().size());
            for (MatchingLabel l : a.labels()) {
                w.putString(l.key()).putString(l.value()).putInt(labelKindCode(l.kind()));
            }
            w.putInt(a.history());
        } else if (m instanceof LifecycleAnnouncement la) {
            WireFormat.putHeader(w, version, WireFormat.LIFECYCLE_ANNOUNCEMENT).putInt(destination)
                    .putInt(la.mode().code()).putBoolean(la.timeSyncActive());
        } else if (m instanceof StatusUpdate u) {
            WireFormat.putHeader(w, version, WireFormat.STATUS_UPDATE).putInt(destination).putInt(u.state().code())
                    .putString(u.reason());
        } else if (m instanceof WorkflowConfiguration wc) {
            WireFormat.putHeader(w, version, WireFormat.WORKFLOW_CONFIGURATION).putInt(destination)
                    .putInt(wc.requiredParticipantNames().size());
            for (String n : wc.requiredParticipantNames()) {
                w.putString(n);
            }
        } else if (m instanceof SystemCommand c) {
            WireFormat.putHeader(w, version, WireFormat.SYSTEM_COMMAND).putInt(destination)
                    .putInt(systemCommandCode(c.kind()));
        } else if (m instanceof RpcCall c) {
            WireFormat.putHeader(w, version, WireFormat.RPC_CALL).putInt(destination)
                    .putInt(c.clientId()).putLong(c.callId()).putLong(c.timestampNs()).putBytes(c.data());
        } else if (m instanceof RpcResult r) {
            WireFormat.putHeader(w, version, WireFormat.RPC_RESULT).putInt(destination)
                    .putInt(r.clientId()).putLong(r.callId()).putLong(r.timestampNs()).putBoolean(r.serverFailed())
                    .putBytes(r.data());
        } else if (m instanceof BarrierRequest b) {
            WireFormat.putHeader(w, version, WireFormat.BARRIER_REQUEST).putInt(destination).putLong(b.barrierId());
        } else if (m instanceof BarrierReply b) {
            WireFormat.putHeader(w, version, WireFormat.BARRIER_REPLY).putInt(destination).putLong(b.barrierId());
        } else {
            throw new IllegalArgumentException("no codec for " + m.getClass().getName());
        }
        return w.position();
    }

    /**
     * Encodes a NextSimTask frame. Does not allocate.
     *
     * @return {@link #NEXT_SIM_TASK_LENGTH}
     */
    static int encodeNextSimTask(MutableDirectBuffer buffer, int offset, int version, int destination,
            long timePointNs, long durationNs) {
        WireFormat.putHeader(buffer, offset, version, WireFormat.NEXT_SIM_TASK);
        buffer.putInt(offset + DESTINATION_OFFSET, destination, WireFormat.ORDER);
        buffer.putLong(offset + BODY_OFFSET, timePointNs, WireFormat.ORDER);
        buffer.putLong(offset + BODY_OFFSET + 8, durationNs, WireFormat.ORDER);
        return NEXT_SIM_TASK_LENGTH;
    }

    /** @return the time point of a NextSimTask frame whose length was checked; does not allocate */
    static long nextSimTaskTimePointNs(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + BODY_OFFSET, WireFormat.ORDER);
    }

    /** @return the duration of a NextSimTask frame whose length was checked; does not allocate */
    static long nextSimTaskDurationNs(DirectBuffer buffer, int offset) {
        return buffer.getLong(offset + BODY_OFFSET + 8, WireFormat.ORDER);
    }

    /** Encodes a Hello frame. Does not allocate. @return {@link #HELLO_LENGTH} */
    static int encodeHello(MutableDirectBuffer buffer, int offset, int version, int destination) {
        WireFormat.putHeader(buffer, offset, version, WireFormat.HELLO);
        buffer.putInt(offset + DESTINATION_OFFSET, destination, WireFormat.ORDER);
        return HELLO_LENGTH;
    }

    /**
     * Writes a Chunk header; the slice follows at {@code offset + CHUNK_HEADER_LENGTH}. Does not allocate.
     */
    static void putChunkHeader(MutableDirectBuffer buffer, int offset, int version, int destination, long chunkedId,
            int totalLength, int chunkOffset) {
        WireFormat.putHeader(buffer, offset, version, WireFormat.CHUNK);
        buffer.putInt(offset + DESTINATION_OFFSET, destination, WireFormat.ORDER);
        buffer.putLong(offset + BODY_OFFSET, chunkedId, WireFormat.ORDER);
        buffer.putInt(offset + BODY_OFFSET + 8, totalLength, WireFormat.ORDER);
        buffer.putInt(offset + BODY_OFFSET + 12, chunkOffset, WireFormat.ORDER);
    }

    /**
     * Checks a frame's header and fixed-size types' lengths.
     *
     * @return the frame type
     * @throws MalformedFrameException if truncated or not a data-plane frame
     * @throws io.tandem.net.ProtocolVersionException on another version
     */
    static int check(DirectBuffer buffer, int offset, int length, int version, String from) {
        int type = WireFormat.checkHeader(buffer, offset, length, version, from);
        int min = switch (type) {
            case WireFormat.NEXT_SIM_TASK -> NEXT_SIM_TASK_LENGTH;
            case WireFormat.CHUNK -> CHUNK_HEADER_LENGTH;
            case WireFormat.SERVICE_ANNOUNCEMENT, WireFormat.LIFECYCLE_ANNOUNCEMENT, WireFormat.STATUS_UPDATE,
                    WireFormat.WORKFLOW_CONFIGURATION, WireFormat.SYSTEM_COMMAND, WireFormat.DATA_MESSAGE,
                    WireFormat.RPC_CALL, WireFormat.RPC_RESULT, WireFormat.BARRIER_REQUEST, WireFormat.BARRIER_REPLY,
                    WireFormat.HELLO -> BODY_OFFSET;
            default -> throw new MalformedFrameException("frame from " + from + " has type " + type
                    + ", not a data-plane message type (1-13)");
        };
        if (length < min) {
            throw new MalformedFrameException("truncated " + WireFormat.typeName(type) + " frame from " + from + ": "
                    + length + " bytes, needs at least " + min);
        }
        return type;
    }

    /**
     * Decodes a checked message frame ({@link #check} returned a {@link CosimMessage} type). Allocates
     * the record. A frame in a byte array is read in place; one in other memory (a term buffer) is
     * first copied into the reader's {@link FrameReader#copyBuffer}.
     *
     * @param r reusable reader, with {@link WireFormat#ERRORS}
     * @return the message
     * @throws MalformedFrameException if truncated, too long or holding an invalid value
     */
    static CosimMessage decode(FrameReader r, DirectBuffer buffer, int offset, int length) {
        int type = WireFormat.type(buffer, offset);
        byte[] array = buffer.byteArray();
        if (array != null) {
            r.wrap(array, buffer.wrapAdjustment() + offset, length, BODY_OFFSET, type);
        } else {
            byte[] copy = r.copyBuffer(length);
            buffer.getBytes(offset, copy, 0, length);
            r.wrap(copy, 0, length, BODY_OFFSET, type);
        }
        CosimMessage m;
        if (type == WireFormat.DATA_MESSAGE) {
            int publisherId = r.getInt("publisherId");
            long timestampNs = r.getLong("timestampNs");
            int target = r.getInt("targetSubscriberId");
            m = new DataMessage(publisherId, timestampNs, r.getBytes("data"), target);
        } else {
            try {
                m = decodeOther(r, type);
            } catch (IllegalArgumentException e) {
                // a field the message's own checks refuse (an empty label key, say): the frame is bad
                throw new MalformedFrameException(WireFormat.typeName(type) + " frame holds an invalid value: "
                        + e.getMessage());
            }
        }
        r.expectEnd();
        return m;
    }

    private static CosimMessage decodeOther(FrameReader r, int type) {
        return switch (type) {
            case WireFormat.SERVICE_ANNOUNCEMENT -> {
                ServiceKind kind = serviceKind(r, r.getInt("service kind"));
                int serviceId = r.getInt("serviceId");
                String topic = r.getString("topic");
                String mediaType = r.getString("mediaType");
                int n = r.getCount("label count", 12);
                List<MatchingLabel> labels = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    String key = r.getString("label key");
                    String value = r.getString("label value");
                    labels.add(new MatchingLabel(key, value, labelKind(r, r.getInt("label kind"))));
                }
                yield new ServiceAnnouncement(kind, serviceId, topic, mediaType, labels, r.getInt("history"));
            }
            case WireFormat.LIFECYCLE_ANNOUNCEMENT -> new LifecycleAnnouncement(operationMode(r, r.getInt("mode")),
                    r.getBoolean("timeSyncActive"));
            case WireFormat.STATUS_UPDATE -> new StatusUpdate(participantState(r, r.getInt("state")), r.getString("reason"));
            case WireFormat.WORKFLOW_CONFIGURATION -> {
                int n = r.getCount("participant count", 4);
                List<String> names = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    names.add(r.getString("participant name"));
                }
                yield new WorkflowConfiguration(names);
            }
            case WireFormat.SYSTEM_COMMAND -> new SystemCommand(systemCommand(r, r.getInt("command")));
            case WireFormat.RPC_CALL -> new RpcCall(r.getInt("clientId"), r.getLong("callId"), r.getLong("timestampNs"),
                    r.getBytes("data"));
            case WireFormat.RPC_RESULT -> new RpcResult(r.getInt("clientId"), r.getLong("callId"), r.getLong("timestampNs"),
                    r.getBoolean("serverFailed"), r.getBytes("data"));
            case WireFormat.BARRIER_REQUEST -> new BarrierRequest(r.getLong("barrierId"));
            case WireFormat.BARRIER_REPLY -> new BarrierReply(r.getLong("barrierId"));
            default -> throw new MalformedFrameException(WireFormat.typeName(type) + " frame is not a CosimMessage");
        };
    }

    static int serviceKindCode(ServiceKind k) {
        return switch (k) {
            case DATA_PUBLISHER -> 1;
            case DATA_SUBSCRIBER -> 2;
            case RPC_CLIENT -> 3;
            case RPC_SERVER -> 4;
        };
    }

    private static ServiceKind serviceKind(FrameReader r, int code) {
        return switch (code) {
            case 1 -> ServiceKind.DATA_PUBLISHER;
            case 2 -> ServiceKind.DATA_SUBSCRIBER;
            case 3 -> ServiceKind.RPC_CLIENT;
            case 4 -> ServiceKind.RPC_SERVER;
            default -> throw r.invalid("service kind", code);
        };
    }

    static int labelKindCode(MatchingLabel.Kind k) {
        return switch (k) {
            case OPTIONAL -> 1;
            case MANDATORY -> 2;
        };
    }

    private static MatchingLabel.Kind labelKind(FrameReader r, int code) {
        return switch (code) {
            case 1 -> MatchingLabel.Kind.OPTIONAL;
            case 2 -> MatchingLabel.Kind.MANDATORY;
            default -> throw r.invalid("label kind", code);
        };
    }

    static int systemCommandCode(SystemCommand.Kind k) {
        return switch (k) {
            case ABORT_SIMULATION -> 1;
        };
    }

    private static SystemCommand.Kind systemCommand(FrameReader r, int code) {
        if (code == 1) {
            return SystemCommand.Kind.ABORT_SIMULATION;
        }
        throw r.invalid("system command", code);
    }

    private static OperationMode operationMode(FrameReader r, int code) {
        for (OperationMode m : OperationMode.values()) {
            if (m.code() == code) {
                return m;
            }
        }
        throw r.invalid("operation mode", code);
    }

    private static ParticipantState participantState(FrameReader r, int code) {
        for (ParticipantState s : ParticipantState.values()) {
            if (s.code() == code) {
                return s;
            }
        }
        throw r.invalid("participant state", code);
    }
}
