package io.tandem.neuro;

/**
 * How {@link NetworkBuilder#connect} pairs sources and targets (NEST's {@code conn_spec}).
 *
 * <ul>
 *   <li>{@link #allToAll()}: every source to every target (NEST {@code all_to_all}, autapses
 *       allowed);
 *   <li>{@link #oneToOne()}: source {@code i} to target {@code i}; sizes must match;
 *   <li>{@link #fixedIndegree(int)}: each target draws {@code k} sources uniformly at random,
 *       with replacement and autapses allowed by default as in NEST. The draws for a target use a
 *       random stream seeded from the network seed, the connect call and the target's id, so
 *       they do not depend on threads.
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class Connector {
    /** The rule. */
    public enum Rule {
        /** NEST {@code all_to_all}. */
        ALL_TO_ALL,
        /** NEST {@code one_to_one}. */
        ONE_TO_ONE,
        /** NEST {@code fixed_indegree}. */
        FIXED_INDEGREE
    }

    private static final Connector ALL_TO_ALL = new Connector(Rule.ALL_TO_ALL, 0, true, true);
    private static final Connector ONE_TO_ONE = new Connector(Rule.ONE_TO_ONE, 0, true, true);

    private final Rule rule;
    private final int indegree;
    private final boolean allowAutapses;
    private final boolean allowMultapses;

    private Connector(Rule rule, int indegree, boolean allowAutapses, boolean allowMultapses) {
        this.rule = rule;
        this.indegree = indegree;
        this.allowAutapses = allowAutapses;
        this.allowMultapses = allowMultapses;
    }

    /** @return NEST's {@code all_to_all} */
    public static Connector allToAll() {
        return ALL_TO_ALL;
    }

    /** @return NEST's {@code one_to_one} */
    public static Connector oneToOne() {
        return ONE_TO_ONE;
    }

    /** @return NEST's {@code fixed_indegree} with {@code k} sources per target, autapses and multapses allowed */
    public static Connector fixedIndegree(int k) {
        return fixedIndegree(k, true, true);
    }

    /** @return NEST's {@code fixed_indegree} with {@code k} sources per target */
    public static Connector fixedIndegree(int k, boolean allowAutapses, boolean allowMultapses) {
        if (k < 0) {
            throw new IllegalArgumentException("fixed_indegree needs indegree >= 0, got " + k);
        }
        return new Connector(Rule.FIXED_INDEGREE, k, allowAutapses, allowMultapses);
    }

    /**
     * The connector named as in NEST ({@code "all_to_all"}, {@code "one_to_one"}); use
     * {@link #fixedIndegree(int)} for the random rule.
     */
    public static Connector of(String nestRule) {
        switch (nestRule) {
            case "all_to_all":
                return ALL_TO_ALL;
            case "one_to_one":
                return ONE_TO_ONE;
            default:
                throw new IllegalArgumentException("unknown connection rule '" + nestRule
                        + "'; known: all_to_all, one_to_one (fixed_indegree: use Connector.fixedIndegree(k))");
        }
    }

    /** @return the rule */
    public Rule rule() {
        return rule;
    }

    /** @return sources per target for {@link Rule#FIXED_INDEGREE}, else 0 */
    public int indegree() {
        return indegree;
    }

    /** @return whether a neuron may be connected to itself */
    public boolean allowAutapses() {
        return allowAutapses;
    }

    /** @return whether a pair may be connected more than once (fixed_indegree only) */
    public boolean allowMultapses() {
        return allowMultapses;
    }

    @Override
    public String toString() {
        return rule == Rule.FIXED_INDEGREE ? "fixed_indegree(" + indegree + ")" : rule.name().toLowerCase(java.util.Locale.ROOT);
    }
}
