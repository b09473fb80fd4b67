package io.tandem.cosim;

import java.util.Objects;

/**
 * A key/value label that narrows which publishers and subscribers (or RPC clients and servers)
 * match. Matching is symmetric: each side's labels must be satisfied by the other side.
 * An {@link Kind#OPTIONAL} label is satisfied by a missing key or an equal value; a
 * {@link Kind#MANDATORY} one only by an equal value.
 *
 * @param key   label key, non-empty
 * @param value label value, non-null (may be empty)
 * @param kind  optional or mandatory
 */
public record MatchingLabel(String key, String value, Kind kind) {

    /** Whether a label must be present on the other side. */
    public enum Kind {
        /** The other side may lack the key; if it has it, the values must be equal. */
        OPTIONAL,
        /** The other side must have the key with an equal value. */
        MANDATORY
    }

    /** Validates the label eagerly. */
    public MatchingLabel {
        Objects.requireNonNull(key, "label key must not be null");
        if (key.isEmpty()) {
            throw new IllegalArgumentException("label key must not be empty");
        }
        Objects.requireNonNull(value, () -> "label value of key '" + key + "' must not be null");
        Objects.requireNonNull(kind, () -> "label kind of key '" + key + "' must not be null");
    }
}
