package io.tandem.cosim.pubsub;

/**
 * A received data message.
 *
 * @param timestampNs virtual send time in ns, or {@link io.tandem.cosim.VirtualTime#INVALID_NS}
 * @param data        payload; shared between the subscribers of one participant, do not modify
 */
public record DataMessageEvent(long timestampNs, byte[] data) {
}
