package io.tandem.cosim.msg;

/**
 * A published message.
 *
 * @param publisherId        the sender's publisher id
 * @param timestampNs        virtual send time or {@code VirtualTime.INVALID_NS}
 * @param data               payload, never modified after sending
 * @param targetSubscriberId a single subscriber of the receiver (history replay), or -1 for all
 *                           matching subscribers
 */
public record DataMessage(int publisherId, long timestampNs, byte[] data, int targetSubscriberId)
        implements CosimMessage {
}
