package io.tandem.cosim.pubsub;

/** Receives data from every matching publisher through its {@link DataMessageHandler}. */
public interface DataSubscriber {
    /** @return the controller name given at creation */
    String name();

    /** @return the spec given at creation */
    PubSubSpec spec();
}
