package io.tandem.cle.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Values for an experiment's declared {@code parameters}, from the command line's
 * {@code --set name=value} (NRP-core's {@code -o Param=Value}). Each name must be declared in the
 * experiment's {@code parameters} object; the value is read as the declared default's type
 * (string, number or boolean). Checked against the file by {@link ExperimentFile#load(java.nio.file.Path,
 * ExperimentOverrides)}.
 *
 * @param values parameter name to value text, in the order given (immutable)
 */
public record ExperimentOverrides(Map<String, String> values) {
    private static final ExperimentOverrides NONE = new ExperimentOverrides(Map.of());

    /** Copies {@code values}, keeping their order. */
    public ExperimentOverrides {
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (e.getKey() == null || e.getKey().isBlank() || e.getValue() == null) {
                throw new IllegalArgumentException("override names are non-blank and values non-null, got "
                        + e.getKey() + "=" + e.getValue());
            }
        }
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** @return no overrides */
    public static ExperimentOverrides none() {
        return NONE;
    }

    /**
     * Parses {@code --set} arguments.
     *
     * @param assignments each {@code name=value} (split at the first '='; the value may be empty
     *                    or contain '='; the name is trimmed). Not modified.
     * @return the overrides, in the order given
     * @throws IllegalArgumentException for an argument without '=' or a name given twice
     */
    public static ExperimentOverrides parse(List<String> assignments) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String a : assignments) {
            int eq = a == null ? -1 : a.indexOf('=');
            if (eq <= 0 || a.substring(0, eq).isBlank()) {
                throw new IllegalArgumentException("--set " + a + ": expected name=value, e.g. --set screen_color=blue");
            }
            String name = a.substring(0, eq).trim();
            if (m.containsKey(name)) {
                throw new IllegalArgumentException("--set " + a + ": parameter '" + name + "' is set twice ("
                        + name + "=" + m.get(name) + " before): keep one");
            }
            m.put(name, a.substring(eq + 1));
        }
        return new ExperimentOverrides(m);
    }

    /** @return whether there are no overrides */
    public boolean isEmpty() {
        return values.isEmpty();
    }
}
