package io.tandem.cosim.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
    private static final Suggestions.Distance EDIT = Suggestions::editDistance;

    @Test
    void editDistance_knownPairs_levenshtein() {
        assertThat(Suggestions.editDistance("", "")).isZero();
        assertThat(Suggestions.editDistance("", "abc")).isEqualTo(3);
        assertThat(Suggestions.editDistance("abc", "")).isEqualTo(3);
        assertThat(Suggestions.editDistance("kitten", "sitting")).isEqualTo(3);
        assertThat(Suggestions.editDistance("flaw", "lawn")).isEqualTo(2);
        assertThat(Suggestions.editDistance("V_th", "V_th")).isZero();
        assertThat(Suggestions.editDistance("V_th", "v_th")).as("case-sensitive").isEqualTo(1);
        assertThat(Suggestions.editDistance("C_m", "C_mm")).isEqualTo(1);
        assertThat(Suggestions.editDistance("tau_m", "tua_m")).as("a swap is two edits").isEqualTo(2);
    }

    @Test
    void editDistance_randomStrings_symmetricBoundedAndEqualToAFullMatrix() {
        Random random = new Random(818);
        for (int n = 0; n < 500; n++) {
            String a = random(random);
            String b = random(random);
            int d = Suggestions.editDistance(a, b);
            assertThat(d).isEqualTo(Suggestions.editDistance(b, a)).isEqualTo(fullMatrix(a, b))
                    .isBetween(Math.abs(a.length() - b.length()), Math.max(a.length(), b.length()));
        }
    }

    private static String random(Random random) {
        char[] c = new char[random.nextInt(9)];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) ('a' + random.nextInt(3));
        }
        return new String(c);
    }

    /** the textbook recurrence over the whole (|a|+1) x (|b|+1) matrix */
    private static int fullMatrix(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            for (int j = 0; j <= b.length(); j++) {
                d[i][j] = i == 0 ? j
                        : j == 0 ? i
                        : Math.min(d[i - 1][j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1),
                                Math.min(d[i - 1][j], d[i][j - 1]) + 1);
            }
        }
        return d[a.length()][b.length()];
    }

    @Test
    void closest_nearestBelowTheBound_caseInsensitive_firstOfEquals() {
        List<String> names = List.of("V_th", "V_reset", "tau_m", "C_m");
        assertThat(Suggestions.closest("v_TH", names, 4, EDIT)).isEqualTo("V_th");
        assertThat(Suggestions.closest("tau_n", names, 4, EDIT)).isEqualTo("tau_m");
        assertThat(Suggestions.closest("xyz_abc", names, 4, EDIT)).isNull();
        assertThat(Suggestions.closest("C_x", List.of("C_a", "C_b"), 4, EDIT)).as("ties: the first").isEqualTo("C_a");
        assertThat(Suggestions.closest("tau_n", names, 1, EDIT)).as("distance 1 is not below 1").isNull();
        assertThat(Suggestions.closest("anything", List.of(), 4, EDIT)).isNull();
    }

    @Test
    void closest_callersRule_seesLowerCasedNames() {
        Suggestions.Distance prefix = (w, c) -> c.startsWith(w) ? 0 : 99;
        assertThat(Suggestions.closest("V_", List.of("C_m", "V_Th"), 1, prefix)).isEqualTo("V_Th");
    }

    @Test
    void ranked_nearestFirst_thenCandidateOrder_capped() {
        // distances to "wheel_lft": 4, 1, 2, 1
        String[] known = {"wheel_right", "wheel_left", "wheel_lint", "wheel_ft"};
        assertThat(Suggestions.ranked("wheel_lft", known, 4, 5, EDIT))
                .containsExactly("wheel_left", "wheel_ft", "wheel_lint", "wheel_right");
        assertThat(Suggestions.ranked("wheel_lft", known, 4, 2, EDIT)).containsExactly("wheel_left", "wheel_ft");
        assertThat(Suggestions.ranked("wheel_lft", known, 2, 5, EDIT))
                .containsExactly("wheel_left", "wheel_ft", "wheel_lint");
        assertThat(Suggestions.ranked("WHEEL_LEFT", known, 0, 5, EDIT)).containsExactly("wheel_left");
        assertThat(Suggestions.ranked("nothing", known, 2, 5, EDIT)).isEmpty();
        assertThat(Suggestions.ranked("x", new String[0], 2, Integer.MAX_VALUE, EDIT)).isEmpty();
    }

    @Test
    void ranked_invalidBounds_rejected() {
        assertThatThrownBy(() -> Suggestions.ranked("x", new String[] {"x"}, -1, 5, EDIT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("atMost -1");
        assertThatThrownBy(() -> Suggestions.ranked("x", new String[] {"x"}, 2, 0, EDIT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit 0");
    }
}
