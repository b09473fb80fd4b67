package io.tandem.cosim.internal;

import io.tandem.cosim.pubsub.DataMessageHandler;
import io.tandem.cosim.pubsub.DataSubscriber;
import io.tandem.cosim.pubsub.PubSubSpec;

/** A subscriber of this participant. */
final class LocalSubscriber implements DataSubscriber {
    final int id;
    final String name;
    final PubSubSpec spec;
    final DataMessageHandler handler;

    LocalSubscriber(int id, String name, PubSubSpec spec, DataMessageHandler handler) {
        this.id = id;
        this.name = name;
        this.spec = spec;
        this.handler = handler;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PubSubSpec spec() {
        return spec;
    }

    boolean matches(PubSubSpec pub) {
        return Matching.matches(pub.topic(), pub.mediaType(), pub.labels(), spec.topic(), spec.mediaType(), spec.labels());
    }
}
