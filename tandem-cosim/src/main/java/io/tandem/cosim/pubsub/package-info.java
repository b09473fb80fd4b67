/**
 * Publish/subscribe (SIL Kit's {@code Services/PubSub}): a {@code DataPublisher} publishes
 * timestamped byte messages on a topic described by a {@code PubSubSpec}; a
 * {@code DataSubscriber} whose spec matches receives them in its {@code DataMessageHandler}.
 * Created by {@link io.tandem.cosim.Participant}.
 */
package io.tandem.cosim.pubsub;
