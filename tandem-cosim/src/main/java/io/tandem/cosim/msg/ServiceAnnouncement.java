package io.tandem.cosim.msg;

import io.tandem.cosim.MatchingLabel;
import java.util.List;
import java.util.Objects;

/**
 * Announces a pub/sub or RPC service to peers (discovery).
 *
 * @param kind      which service
 * @param serviceId id unique within the announcing participant
 * @param topic     topic or function name
 * @param mediaType media type
 * @param labels    matching labels
 * @param history   publisher history (0 or 1); 0 for other kinds
 */
public record ServiceAnnouncement(
        ServiceKind kind, int serviceId, String topic, String mediaType, List<MatchingLabel> labels, int history)
        implements CosimMessage {
    /** Validates non-null fields and copies labels. */
    public ServiceAnnouncement {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(mediaType, "mediaType");
        labels = List.copyOf(labels);
    }
}
