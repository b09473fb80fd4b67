package io.tandem.cle.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExperimentOverridesTest {

    @Test
    void parse_assignments_splitAtTheFirstEqualsInOrder() {
        ExperimentOverrides o = ExperimentOverrides.parse(List.of("screen_color=blue", " seed =3", "label=a=b", "empty="));
        assertThat(o.values()).containsExactly(Map.entry("screen_color", "blue"), Map.entry("seed", "3"),
                Map.entry("label", "a=b"), Map.entry("empty", ""));
        assertThat(ExperimentOverrides.parse(List.of()).isEmpty()).isTrue();
        assertThat(ExperimentOverrides.none().values()).isEmpty();
    }

    @Test
    void parse_withoutEquals_showsTheForm() {
        assertThatThrownBy(() -> ExperimentOverrides.parse(List.of("screen_color")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--set screen_color: expected name=value, e.g. --set screen_color=blue");
        assertThatThrownBy(() -> ExperimentOverrides.parse(List.of("=blue"))).hasMessageContaining("expected name=value");
    }

    @Test
    void parse_sameNameTwice_rejected() {
        assertThatThrownBy(() -> ExperimentOverrides.parse(List.of("a=1", "a=2")))
                .hasMessage("--set a=2: parameter 'a' is set twice (a=1 before): keep one");
    }

    @Test
    void values_isImmutable() {
        ExperimentOverrides o = ExperimentOverrides.parse(List.of("a=1"));
        assertThatThrownBy(() -> o.values().put("b", "2")).isInstanceOf(UnsupportedOperationException.class);
    }
}
