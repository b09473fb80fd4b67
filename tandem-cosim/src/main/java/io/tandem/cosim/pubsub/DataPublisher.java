package io.tandem.cosim.pubsub;

/**
 * Publishes data on a topic to every matching subscriber (remote and in the same participant).
 * Messages of one publisher arrive in publish order.
 */
public interface DataPublisher {
    /** @return the controller name given at creation */
    String name();

    /** @return the spec given at creation */
    PubSubSpec spec();

    /**
     * Publishes a message stamped with this participant's current virtual time. Safe from any
     * thread. Copies {@code data} once (not modified).
     *
     * @param data payload
     */
    void publish(byte[] data);
}
