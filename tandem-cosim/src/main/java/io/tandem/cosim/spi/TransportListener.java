package io.tandem.cosim.spi;

import io.tandem.cosim.msg.CosimMessage;

/**
 * Receives what a {@link TransportSession} delivers. Called from transport threads; calls about
 * one peer come in order: {@link #onPeerJoined} first, then that peer's messages in send order,
 * then {@link #onPeerLeft}. Implementations must return quickly (hand the work to their own
 * thread).
 */
public interface TransportListener {
    /**
     * @param peerId          the peer's id
     * @param participantName its name
     */
    void onPeerJoined(int peerId, String participantName);

    /**
     * @param peerId          the peer's id
     * @param participantName its name
     * @param connectionLost  true if the peer vanished without leaving
     */
    void onPeerLeft(int peerId, String participantName, boolean connectionLost);

    /**
     * @param fromPeerId sender
     * @param message    the message; must not be modified
     */
    void onMessage(int fromPeerId, CosimMessage message);

    /**
     * @param fromPeerId  sender
     * @param timePointNs start of the sender's next step
     * @param durationNs  its duration
     */
    void onNextSimTask(int fromPeerId, long timePointNs, long durationNs);

    /**
     * The session lost its connection to the registry (the registry crashed, was killed or
     * closed, or cannot be reached): it will deliver nothing more, and what it is asked to send
     * is dropped. Called at most once, before {@link #onPeerLeft} (with {@code connectionLost}
     * true) for every peer the loss takes away. A transport whose sessions outlive their registry
     * (the in-process one) never calls it. The default does nothing.
     *
     * @param reason what the transport saw, for messages (not null)
     */
    default void onConnectionLost(String reason) {
    }
}
