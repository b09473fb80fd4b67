package io.tandem.cosim.pubsub;

/** Receives data messages; called on the subscribing participant's thread, one call at a time. */
@FunctionalInterface
public interface DataMessageHandler {
    /**
     * @param event the message; its payload must not be modified
     */
    void onData(DataMessageEvent event);
}
