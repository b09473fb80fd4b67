package io.tandem.cosim.pubsub;

import io.tandem.cosim.MatchingLabel;
import java.util.List;
import java.util.Objects;

/**
 * What a data publisher offers or a data subscriber wants: an exact topic, a media type and
 * labels. An empty subscriber media type matches every publisher media type.
 *
 * @param topic     topic, matched exactly, non-empty
 * @param mediaType media type; empty on a subscriber is a wildcard
 * @param labels    matching labels; copied
 */
public record PubSubSpec(String topic, String mediaType, List<MatchingLabel> labels) {

    /** Validates eagerly and copies the label list. */
    public PubSubSpec {
        Objects.requireNonNull(topic, "topic must not be null");
        if (topic.isEmpty()) {
            throw new IllegalArgumentException("topic must not be empty");
        }
        Objects.requireNonNull(mediaType, "media type must not be null (use \"\" for any)");
        labels = List.copyOf(Objects.requireNonNull(labels, "labels must not be null (use List.of())"));
    }

    /**
     * @param topic     topic
     * @param mediaType media type
     * @return a spec without labels
     */
    public static PubSubSpec of(String topic, String mediaType) {
        return new PubSubSpec(topic, mediaType, List.of());
    }
}
