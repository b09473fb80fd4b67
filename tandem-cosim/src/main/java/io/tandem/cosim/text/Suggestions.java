package io.tandem.cosim.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/*
 * Implementation notes.
 *
 * editDistance is the Levenshtein distance [1] by dynamic programming over two rows: O(|a| |b|)
 * time, two int arrays of min(|a|, |b|) + 1 elements (the distance is symmetric, so the shorter
 * string indexes the rows).
 *
 * Callers rank with their own rule on top of it (a prefix counts as close, a scoped name's tail
 * counts as equal, ...): the rule is a Distance, the ranking is closest (the one nearest name) or
 * ranked (the nearest few). Both compare lower-cased names (Locale.ROOT) and keep the candidates'
 * order among equally near ones, so the suggestions are deterministic.
 *
 * [1] V. I. Levenshtein, "Binary codes capable of correcting deletions, insertions, and
 *     reversals", Soviet Physics Doklady 10(8), 1966.
 */

/**
 * "Did you mean ...?": the edit distance between two names and the candidates close to a
 * misspelled one, for error messages. Stateless and thread-safe; every method allocates (a few
 * small arrays and lower-cased strings), none is meant for a stepping path.
 */
public final class Suggestions {
    private Suggestions() {
    }

    /**
     * A caller's notion of how far a candidate is from the wanted name.
     */
    @FunctionalInterface
    public interface Distance {
        /**
         * @param wanted    the wanted name, lower-cased (Locale.ROOT)
         * @param candidate a candidate, lower-cased (Locale.ROOT)
         * @return how far apart they are, 0 or more (smaller is closer)
         */
        int between(String wanted, String candidate);
    }

    /**
     * The Levenshtein distance: the fewest single-character insertions, deletions and
     * substitutions that turn {@code a} into {@code b}. Case-sensitive; compares UTF-16 chars.
     * Allocates two int arrays of {@code min(a.length(), b.length()) + 1} elements.
     *
     * @param a a string (not modified)
     * @param b another string (not modified)
     * @return the distance, from 0 (equal) to {@code max(a.length(), b.length())}
     */
    public static int editDistance(String a, String b) {
        if (a.length() < b.length()) {
            String t = a;
            a = b;
            b = t;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            char ca = a.charAt(i - 1);
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (ca == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /**
     * The one candidate nearest to {@code wanted} by {@code distance}, compared lower-cased; the
     * first of equally near ones.
     *
     * @param wanted     the name that was not found (not modified)
     * @param candidates the known names, in the order that breaks ties (not modified)
     * @param below      a candidate counts only when its distance is below this
     * @param distance   the caller's rule
     * @return the nearest candidate as given (not lower-cased), or null when none is near enough
     */
    public static String closest(String wanted, List<String> candidates, int below, Distance distance) {
        String w = wanted.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = below;
        for (String c : candidates) {
            int d = distance.between(w, c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        return best;
    }

    /**
     * The candidates within {@code atMost} of {@code wanted} by {@code distance}, compared
     * lower-cased: the nearest first, equally near ones in the candidates' order.
     *
     * @param wanted     the name that was not found (not modified)
     * @param candidates the known names (not modified)
     * @param atMost     the largest distance that counts, 0 or more
     * @param limit      how many to return at most, 1 or more
     * @param distance   the caller's rule
     * @return up to {@code limit} candidates as given (not lower-cased); empty when none is near enough.
     *         Allocates the list and two arrays of {@code candidates.length}
     * @throws IllegalArgumentException if {@code atMost} is negative or {@code limit} below 1
     */
    public static List<String> ranked(String wanted, String[] candidates, int atMost, int limit, Distance distance) {
        if (atMost < 0 || limit < 1) {
            throw new IllegalArgumentException("ranked suggestions need atMost >= 0 and limit >= 1, got atMost "
                    + atMost + ", limit " + limit);
        }
        String w = wanted.toLowerCase(Locale.ROOT);
        int[] distances = new int[candidates.length];
        for (int i = 0; i < candidates.length; i++) {
            distances[i] = distance.between(w, candidates[i].toLowerCase(Locale.ROOT));
        }
        // selection, nearest first: the first of equally near ones wins
        boolean[] taken = new boolean[candidates.length];
        List<String> close = new ArrayList<>();
        while (close.size() < limit) {
            int next = -1;
            for (int i = 0; i < candidates.length; i++) {
                if (!taken[i] && distances[i] <= atMost && (next < 0 || distances[i] < distances[next])) {
                    next = i;
                }
            }
            if (next < 0) {
                break;
            }
            close.add(candidates[next]);
            taken[next] = true;
        }
        return close;
    }
}
