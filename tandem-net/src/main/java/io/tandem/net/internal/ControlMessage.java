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
     * @param peerId          peer id, unique in the registry group and never reused
     * @param participantName name, unique in the simulation
     * @param channel         Aeron channel to subscribe to (IPC, on the member's home registry's driver)
     * @param streamId        Aeron stream id
     * @param sessionId       Aeron session id of the member's publications
     * @param home            host:port of the member's registry (its media driver): members with
     *                        the same home talk over IPC, others over UDP
     * @param udpEndpoint     {@code host:port} where the member receives UDP from members of other
     *                        registries; empty if it joined a group of one registry
     */
    record MemberInfo(int peerId, String participantName, String channel, int streamId, int sessionId, String home,
            String udpEndpoint) {
        /** Validates non-null fields. */
        public MemberInfo {
            Objects.requireNonNull(participantName, "participantName");
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(home, "home");
            Objects.requireNonNull(udpEndpoint, "udpEndpoint");
        }

        /** A member of a one-registry group (no home, no UDP endpoint). */
        MemberInfo(int peerId, String participantName, String channel, int streamId, int sessionId) {
            this(peerId, participantName, channel, streamId, sessionId, "", "");
        }

        /** @return this advertisement with a UDP endpoint */
        MemberInfo withUdpEndpoint(String endpoint) {
            return new MemberInfo(peerId, participantName, channel, streamId, sessionId, home, endpoint);
        }
    }

    /**
     * participant -> sequencer registry (unicast): please admit me.
     *
     * @param home host:port of the registry whose media driver the participant uses; empty: the
     *             sequencer's
     */
    record JoinRequest(long nonce, String simulationName, String participantName, String home) implements ControlMessage {
        /** Validates non-null fields. */
        public JoinRequest {
            Objects.requireNonNull(simulationName, "simulationName");
            Objects.requireNonNull(participantName, "participantName");
            Objects.requireNonNull(home, "home");
        }

        /** A request to the participant's own registry. */
        JoinRequest(long nonce, String simulationName, String participantName) {
            this(nonce, simulationName, participantName, "");
        }
    }

    /**
     * registry -> all (multicast, once at start): a registry of the group and its media driver's
     * directory. The sequencer (the oldest registry) needs it to admit the participants of the
     * others.
     *
     * @param registryName   the registry's host address and port (NetRegistry.homeKey)
     * @param aeronDirectory its media driver's directory
     */
    record RegistryInfo(String registryName, String aeronDirectory) implements ControlMessage {
        /** Validates non-null fields. */
        public RegistryInfo {
            Objects.requireNonNull(registryName, "registryName");
            Objects.requireNonNull(aeronDirectory, "aeronDirectory");
        }

        /** @return "" (about no simulation) */
        @Override
        public String simulationName() {
            return "";
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

    /**
     * participant -> registry (unicast): my subscription sees every member; announce me.
     *
     * @param udpEndpoint where I receive UDP from other registries' members, or empty
     */
    record JoinCommit(String simulationName, int peerId, String udpEndpoint) implements ControlMessage {
        /** Validates non-null fields. */
        public JoinCommit {
            Objects.requireNonNull(simulationName, "simulationName");
            Objects.requireNonNull(udpEndpoint, "udpEndpoint");
        }

        /** A commit without a UDP endpoint. */
        JoinCommit(String simulationName, int peerId) {
            this(simulationName, peerId, "");
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
