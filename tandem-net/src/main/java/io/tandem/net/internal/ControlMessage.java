package io.tandem.net.internal;

import java.util.List;
import java.util.Objects;

/**
 * Control-plane messages, carried by JGroups between participants and the registry (never per
 * step). The registry is the single sequencer of a simulation's membership: every
 * {@link JoinReserved}, {@link MemberJoined} and {@link MemberLeft} is a multicast from the
 * registry, so every member sees them in one order (JGroups keeps one sender's multicasts FIFO).
 */
sealed interface ControlMessage {

    /** @return the simulation this message is about */
    String simulationName();

    /**
     * One participant's advertisement: where its Aeron publication can be subscribed.
     *
     * @param peerId          peer id, unique on the registry and never reused
     * @param participantName name, unique in the simulation
     * @param channel         Aeron channel to subscribe to
     * @param streamId        Aeron stream id
     * @param sessionId       Aeron session id of the member's publication
     */
    record MemberInfo(int peerId, String participantName, String channel, int streamId, int sessionId) {
        /** Validates non-null fields. */
        public MemberInfo {
            Objects.requireNonNull(participantName, "participantName");
            Objects.requireNonNull(channel, "channel");
        }
    }

    /** participant -> registry (unicast): please admit me. */
    record JoinRequest(long nonce, String simulationName, String participantName) implements ControlMessage {
        /** Validates non-null fields. */
        public JoinRequest {
            Objects.requireNonNull(simulationName, "simulationName");
            Objects.requireNonNull(participantName, "participantName");
        }
    }

    /**
     * registry -> all (multicast): the name is reserved for the requester of {@code nonce};
     * {@code members} are the simulation's members at this point of the registry's sequence.
     *
     * @param aeronDirectory the registry's media driver directory
     * @param self           the requester's advertisement (publish with {@code self.sessionId()})
     */
    record JoinReserved(long nonce, String simulationName, String aeronDirectory, MemberInfo self,
            List<MemberInfo> members) implements ControlMessage {
        /** Validates non-null fields and copies the list. */
        public JoinReserved {
            Objects.requireNonNull(simulationName, "simulationName");
            Objects.requireNonNull(aeronDirectory, "aeronDirectory");
            Objects.requireNonNull(self, "self");
            members = List.copyOf(members);
        }
    }

    /** Why a join was refused. */
    enum RejectReason {
        /** the participant name is taken in the simulation */
        NAME_TAKEN(1),
        /** the requester speaks another protocol version */
        PROTOCOL_VERSION(2),
        /** anything else; the message says what */
        OTHER(3);

        final int code;

        RejectReason(int code) {
            this.code = code;
        }
    }

    /** registry -> requester (unicast): refused, with a message for the user. */
    record JoinRejected(long nonce, String simulationName, RejectReason reason, String message) implements ControlMessage {
        /** Validates non-null fields. */
        public JoinRejected {
            Objects.requireNonNull(simulationName, "simulationName");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(message, "message");
        }
    }

    /** participant -> registry (unicast): my subscription sees every member; announce me. */
    record JoinCommit(String simulationName, int peerId) implements ControlMessage {
        /** Validates non-null fields. */
        public JoinCommit {
            Objects.requireNonNull(simulationName, "simulationName");
        }
    }

    /** registry -> all (multicast): a member joined. */
    record MemberJoined(String simulationName, MemberInfo member) implements ControlMessage {
        /** Validates non-null fields. */
        public MemberJoined {
            Objects.requireNonNull(simulationName, "simulationName");
            Objects.requireNonNull(member, "member");
        }
    }

    /**
     * participant -> registry (unicast): I leave; my last frame ends at {@code endPosition} of my
     * publication.
     */
    record LeaveRequest(String simulationName, int peerId, long endPosition) implements ControlMessage {
        /** Validates non-null fields. */
        public LeaveRequest {
            Objects.requireNonNull(simulationName, "simulationName");
        }
    }

    /**
     * registry -> all (multicast): a member left, gracefully (receivers drain its stream up to
     * {@code endPosition}) or lost ({@code connectionLost}, {@code endPosition} -1).
     */
    record MemberLeft(String simulationName, int peerId, String participantName, boolean connectionLost,
            long endPosition) implements ControlMessage {
        /** Validates non-null fields. */
        public MemberLeft {
            Objects.requireNonNull(simulationName, "simulationName");
            Objects.requireNonNull(participantName, "participantName");
        }
    }
}
