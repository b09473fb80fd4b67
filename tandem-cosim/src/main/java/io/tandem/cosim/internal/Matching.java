package io.tandem.cosim.internal;

import io.tandem.cosim.MatchingLabel;
import java.util.List;

/*
 * Implementation notes: SIL Kit LabelMatching.cpp::MatchLabels (symmetric: both directions must
 * pass) and DataMessageDatatypeUtils.cpp::MatchMediaType (empty subscriber/client media type is a
 * wildcard; the publisher's/server's has none).
 */

/** Static matching rules for pub/sub and RPC. Stateless; allocates nothing. */
final class Matching {
    private Matching() {
    }

    /**
     * @param offerTopic     publisher topic / server function name
     * @param offerMedia     publisher / server media type
     * @param offerLabels    publisher / server labels
     * @param wantTopic      subscriber topic / client function name
     * @param wantMedia      subscriber / client media type ("" = any)
     * @param wantLabels     subscriber / client labels
     * @return whether they match
     */
    static boolean matches(String offerTopic, String offerMedia, List<MatchingLabel> offerLabels,
                           String wantTopic, String wantMedia, List<MatchingLabel> wantLabels) {
        return offerTopic.equals(wantTopic)
                && (wantMedia.isEmpty() || wantMedia.equals(offerMedia))
                && labelsSatisfied(offerLabels, wantLabels)
                && labelsSatisfied(wantLabels, offerLabels);
    }

    /** Whether every label of {@code own} is satisfied by {@code other}. */
    static boolean labelsSatisfied(List<MatchingLabel> own, List<MatchingLabel> other) {
        for (int i = 0; i < own.size(); i++) {
            MatchingLabel l = own.get(i);
            MatchingLabel o = find(other, l.key());
            if (o == null) {
                if (l.kind() == MatchingLabel.Kind.MANDATORY) {
                    return false;
                }
            } else if (!o.value().equals(l.value())) {
                return false;
            }
        }
        return true;
    }

    private static MatchingLabel find(List<MatchingLabel> labels, String key) {
        for (int i = 0; i < labels.size(); i++) {
            if (labels.get(i).key().equals(key)) {
                return labels.get(i);
            }
        }
        return null;
    }
}
