package io.tandem.cosim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cosim.MatchingLabel;
import io.tandem.cosim.MatchingLabel.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SIL Kit's matching rules (LabelMatching.cpp, MatchMediaType), checked directly. */
class MatchingTest {
    private static MatchingLabel l(String k, String v, Kind kind) {
        return new MatchingLabel(k, v, kind);
    }

    private static boolean subMatches(List<MatchingLabel> pub, List<MatchingLabel> sub) {
        return Matching.matches("t", "m", pub, "t", "", sub);
    }

    @Test
    void mandatorySubscriberLabel_silKitExample() {
        List<MatchingLabel> sub = List.of(l("Instance", "FL", Kind.MANDATORY));
        assertThat(subMatches(List.of(), sub)).isFalse();
        assertThat(subMatches(List.of(l("Instance", "FL", Kind.OPTIONAL)), sub)).isTrue();
        assertThat(subMatches(List.of(l("Instance", "RR", Kind.OPTIONAL)), sub)).isFalse();
        assertThat(subMatches(List.of(l("Namespace", "Car", Kind.OPTIONAL)), sub)).isFalse();
    }

    @Test
    void optionalLabel_missingOk_differentValueFails() {
        List<MatchingLabel> sub = List.of(l("k", "v", Kind.OPTIONAL));
        assertThat(subMatches(List.of(), sub)).isTrue();
        assertThat(subMatches(List.of(l("k", "v", Kind.OPTIONAL)), sub)).isTrue();
        assertThat(subMatches(List.of(l("k", "w", Kind.OPTIONAL)), sub)).isFalse();
    }

    @Test
    void symmetric_publisherMandatoryNeedsSubscriberLabel() {
        List<MatchingLabel> pub = List.of(l("k", "v", Kind.MANDATORY));
        assertThat(subMatches(pub, List.of())).isFalse();
        assertThat(subMatches(pub, List.of(l("k", "v", Kind.OPTIONAL)))).isTrue();
    }

    @Test
    void topicExact_mediaTypeWildcardOnlyOnWantSide() {
        assertThat(Matching.matches("t", "m", List.of(), "T", "", List.of())).isFalse();
        assertThat(Matching.matches("t", "m", List.of(), "t", "m", List.of())).isTrue();
        assertThat(Matching.matches("t", "m", List.of(), "t", "x", List.of())).isFalse();
        assertThat(Matching.matches("t", "", List.of(), "t", "m", List.of())).isFalse();
        assertThat(Matching.matches("t", "anything", List.of(), "t", "", List.of())).isTrue();
    }
}
