package io.tandem.net.internal;

import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;
import io.tandem.net.MalformedFrameException;
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
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/*
 * Control-plane bodies (after the 8-byte header), version 2:
 *
 *   MemberInfo    int32 peerId, string participantName, string channel, int32 streamId, int32 sessionId,
 *                 string home, string udpEndpoint
 *   JoinRequest   int64 nonce, string simulation, string participant, string home
 *   JoinReserved  int64 nonce, string simulation, string aeronDirectory, MemberInfo self,
 *                 int32 n, n x MemberInfo
 *   JoinRejected  int64 nonce, string simulation, int32 reason (1 name taken, 2 version, 3 other),
 *                 string message
 *   JoinCommit    string simulation, int32 peerId, string udpEndpoint
 *   MemberJoined  string simulation, MemberInfo
 *   LeaveRequest  string simulation, int32 peerId, int64 endPosition
 *   MemberLeft    string simulation, int32 peerId, string participant, bool connectionLost,
 *                 int64 endPosition
 *   RegistryInfo  string registryName, string aeronDirectory
 */

/** Encodes and decodes control-plane frames (JGroups payloads). Stateless; allocates (never per step). */
final class ControlCodec {
    private ControlCodec() {
    }

    /** the session id control frames are signed with */
    static final int SIGNING_SESSION = 0;
    /** the stream id control frames are signed with (no data stream has it) */
    static final int SIGNING_STREAM = -1;

    /**
     * @param tag the shared secret's signer (used under its lock), or null to send unsigned
     * @return the frame as a new array, signed when {@code tag} is given
     * @see #encode(int, ControlMessage)
     */
    static byte[] encode(int version, ControlMessage m, FrameTag tag) {
        byte[] plain = encode(version, m);
        if (tag == null) {
            return plain;
        }
        byte[] signed = java.util.Arrays.copyOf(plain, plain.length + FrameTag.LENGTH);
        UnsafeBuffer b = new UnsafeBuffer(signed);
        b.putInt(WireFormat.MAGIC_OFFSET, WireFormat.SIGNED_MAGIC, WireFormat.ORDER);
        synchronized (tag) {
            tag.begin(SIGNING_SESSION, SIGNING_STREAM);
            tag.update(signed, 0, plain.length);
            tag.finish(signed, plain.length);
        }
        return signed;
    }

    /**
     * Checks the frame's signature (see {@link WireFormat#authenticate}), then decodes it.
     *
     * @param tag the shared secret's signer (used under its lock), or null without a secret
     * @throws UnauthenticatedFrameException if the signature is missing, wrong or unexpected
     * @see #decode(byte[], int, int, int, String)
     */
    static ControlMessage decode(byte[] frame, int offset, int length, int version, String from, FrameTag tag) {
        int plain;
        if (tag == null) {
            plain = WireFormat.authenticate(null, new UnsafeBuffer(frame, offset, length), 0, length, SIGNING_SESSION,
                    SIGNING_STREAM, from);
        } else {
            synchronized (tag) {
                plain = WireFormat.authenticate(tag, new UnsafeBuffer(frame, offset, length), 0, length, SIGNING_SESSION,
                        SIGNING_STREAM, from);
            }
        }
        return decode(frame, offset, plain, version, from);
    }

    /**
     * @param version protocol version to write
     * @param m       the message (not modified)
     * @return the frame as a new array
     */
    static byte[] encode(int version, ControlMessage m) {
        FrameWriter w = new FrameWriter("Tandem", 128);
        if (m instanceof JoinRequest r) {
            WireFormat.putHeader(w, version, WireFormat.JOIN_REQUEST).putLong(r.nonce()).putString(r.simulationName())
                    .putString(r.participantName()).putString(r.home());
        } else if (m instanceof JoinReserved r) {
            WireFormat.putHeader(w, version, WireFormat.JOIN_RESERVED).putLong(r.nonce()).putString(r.simulationName())
                    .putString(r.aeronDirectory());
            putMember(w, r.self());
            w.putInt(r.members().size());
            for (MemberInfo mi : r.members()) {
                putMember(w, mi);
            }
        } else if (m instanceof JoinRejected r) {
            WireFormat.putHeader(w, version, WireFormat.JOIN_REJECTED).putLong(r.nonce()).putString(r.simulationName())
                    .putInt(r.reason().code).putString(r.message());
        } else if (m instanceof JoinCommit c) {
            WireFormat.putHeader(w, version, WireFormat.JOIN_COMMIT).putString(c.simulationName()).putInt(c.peerId())
                    .putString(c.udpEndpoint());
        } else if (m instanceof MemberJoined j) {
            WireFormat.putHeader(w, version, WireFormat.MEMBER_JOINED).putString(j.simulationName());
            putMember(w, j.member());
        } else if (m instanceof LeaveRequest l) {
            WireFormat.putHeader(w, version, WireFormat.LEAVE_REQUEST).putString(l.simulationName()).putInt(l.peerId())
                    .putLong(l.endPosition());
        } else if (m instanceof MemberLeft l) {
            WireFormat.putHeader(w, version, WireFormat.MEMBER_LEFT).putString(l.simulationName()).putInt(l.peerId())
                    .putString(l.participantName()).putBoolean(l.connectionLost()).putLong(l.endPosition());
        } else if (m instanceof RegistryInfo i) {
            WireFormat.putHeader(w, version, WireFormat.REGISTRY_INFO).putString(i.registryName())
                    .putString(i.aeronDirectory());
        } else {
            throw new IllegalArgumentException("no codec for " + m.getClass().getName());
        }
        return w.toByteArray();
    }

    private static void putMember(FrameWriter w, MemberInfo m) {
        w.putInt(m.peerId()).putString(m.participantName()).putString(m.channel()).putInt(m.streamId())
                .putInt(m.sessionId()).putString(m.home()).putString(m.udpEndpoint());
    }

    private static MemberInfo getMember(FrameReader r) {
        int peerId = r.getInt("peerId");
        String name = r.getString("participantName");
        String channel = r.getString("channel");
        int streamId = r.getInt("streamId");
        int sessionId = r.getInt("sessionId");
        String home = r.getString("home");
        return new MemberInfo(peerId, name, channel, streamId, sessionId, home, r.getString("udpEndpoint"));
    }

    /**
     * @param frame   the frame (not modified)
     * @param offset  its first byte
     * @param length  its length
     * @param version the version this process speaks
     * @param from    the sender, for error messages
     * @return the message
     * @throws io.tandem.net.ProtocolVersionException if the sender speaks another version
     * @throws MalformedFrameException                 if truncated, of a data-plane type, or invalid
     */
    static ControlMessage decode(byte[] frame, int offset, int length, int version, String from) {
        int type = WireFormat.checkHeader(new UnsafeBuffer(frame, offset, length), 0, length, version, from);
        FrameReader r = new FrameReader(WireFormat.ERRORS).wrap(frame, offset, length, WireFormat.HEADER_LENGTH, type);
        ControlMessage m = switch (type) {
            case WireFormat.JOIN_REQUEST -> {
                long nonce = r.getLong("nonce");
                String sim = r.getString("simulation");
                String participant = r.getString("participant");
                yield new JoinRequest(nonce, sim, participant, r.getString("home"));
            }
            case WireFormat.JOIN_RESERVED -> {
                long nonce = r.getLong("nonce");
                String sim = r.getString("simulation");
                String dir = r.getString("aeronDirectory");
                MemberInfo self = getMember(r);
                int n = r.getCount("member count", 20);
                List<MemberInfo> members = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    members.add(getMember(r));
                }
                yield new JoinReserved(nonce, sim, dir, self, members);
            }
            case WireFormat.JOIN_REJECTED -> {
                long nonce = r.getLong("nonce");
                String sim = r.getString("simulation");
                RejectReason reason = rejectReason(r, r.getInt("reason"));
                yield new JoinRejected(nonce, sim, reason, r.getString("message"));
            }
            case WireFormat.JOIN_COMMIT -> {
                String sim = r.getString("simulation");
                int peerId = r.getInt("peerId");
                yield new JoinCommit(sim, peerId, r.getString("udpEndpoint"));
            }
            case WireFormat.MEMBER_JOINED -> {
                String sim = r.getString("simulation");
                yield new MemberJoined(sim, getMember(r));
            }
            case WireFormat.LEAVE_REQUEST -> {
                String sim = r.getString("simulation");
                int peerId = r.getInt("peerId");
                yield new LeaveRequest(sim, peerId, r.getLong("endPosition"));
            }
            case WireFormat.MEMBER_LEFT -> {
                String sim = r.getString("simulation");
                int peerId = r.getInt("peerId");
                String name = r.getString("participant");
                boolean lost = r.getBoolean("connectionLost");
                yield new MemberLeft(sim, peerId, name, lost, r.getLong("endPosition"));
            }
            case WireFormat.REGISTRY_INFO -> {
                String name = r.getString("registryName");
                yield new RegistryInfo(name, r.getString("aeronDirectory"));
            }
            default -> throw new MalformedFrameException("frame from " + from + " has type "
                    + WireFormat.typeName(type) + ", not a control-plane type (32-39)");
        };
        r.expectEnd();
        return m;
    }

    private static RejectReason rejectReason(FrameReader r, int code) {
        for (RejectReason reason : RejectReason.values()) {
            if (reason.code == code) {
                return reason;
            }
        }
        throw r.invalid("reject reason", code);
    }
}
