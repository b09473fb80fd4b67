package io.tandem.cle;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates transfer functions named by class, as an experiment file does
 * ({@code {"class": "io.tandem.cle.tf.LinearTwist", "priority": 0, "params": {...}}}). Stateless.
 */
public final class TransferFunctions {
    private static final Logger LOG = LoggerFactory.getLogger(TransferFunctions.class);

    /**
     * The NRP tf_lib classes that moved to {@code io.tandem.cle.tf} (0.2): their old names still
     * load, with a deprecation warning, until the next release.
     */
    private static final Map<String, String> MOVED = Map.of(
            "io.tandem.cle.EyeSensorTransmit", "io.tandem.cle.tf.EyeSensorTransmit",
            "io.tandem.cle.LinearTwist", "io.tandem.cle.tf.LinearTwist");

    private TransferFunctions() {
    }

    /**
     * Instantiates a transfer function class: through its public constructor taking
     * {@code Map<String, Object>} (given {@code params}) if it has one, else its public no-argument
     * constructor (then {@code params} must be empty). Every parameter given must be read by the
     * constructor (looked up by name, or the map iterated): a parameter it never reads is a typo
     * in the experiment file, refused with the names the class does read.
     *
     * @param className fully qualified class name
     * @param params    the constructor's parameters (may be empty, not null). Not modified.
     * @param loader    where to find the class (null: this class's loader)
     * @return the new transfer function
     * @throws IllegalArgumentException naming the class and what is wrong (not found, not a
     *                                  transfer function, no usable constructor, the constructor failed)
     */
    public static TransferFunction instantiate(String className, Map<String, Object> params, ClassLoader loader) {
        if (className == null || className.isEmpty()) {
            throw new IllegalArgumentException("a transfer function needs a class name");
        }
        if (params == null) {
            throw new IllegalArgumentException("transfer function " + className + ": params must not be null (give an empty map)");
        }
        String moved = MOVED.get(className);
        if (moved != null) {
            LOG.warn("transfer function class {} is deprecated: it moved to {}; write that name in the experiment file"
                    + " (the old one stops working in the next release)", className, moved);
            className = moved;
        }
        Class<?> c;
        try {
            c = Class.forName(className, true, loader == null ? TransferFunctions.class.getClassLoader() : loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("transfer function class " + className + " not found on the class path"
                    + (className.indexOf('.') < 0 ? " (give the fully qualified name, e.g. io.tandem.cle.tf." + className + ")" : ""), e);
        }
        if (!TransferFunction.class.isAssignableFrom(c)) {
            throw new IllegalArgumentException("class " + className + " does not implement " + TransferFunction.class.getName());
        }
        Constructor<?> withParams = null;
        Constructor<?> noArgs = null;
        for (Constructor<?> k : c.getConstructors()) {
            Class<?>[] p = k.getParameterTypes();
            if (p.length == 1 && p[0] == Map.class) {
                withParams = k;
            } else if (p.length == 0) {
                noArgs = k;
            }
        }
        try {
            if (withParams != null) {
                ReadTracking tracked = new ReadTracking(params);
                TransferFunction tf = (TransferFunction) withParams.newInstance(tracked);
                java.util.List<String> unread = tracked.unread();
                if (!unread.isEmpty()) {
                    throw new IllegalArgumentException("unknown parameter" + (unread.size() > 1 ? "s " : " ")
                            + String.join(", ", unread) + " (" + c.getSimpleName() + " reads "
                            + (tracked.read.isEmpty() ? "none" : String.join(", ", tracked.read))
                            + "); check the spelling");
                }
                return tf;
            }
            if (noArgs != null) {
                if (!params.isEmpty()) {
                    throw new IllegalArgumentException("transfer function " + className + " takes no params (it has only a"
                            + " no-argument constructor), got " + params.keySet());
                }
                return (TransferFunction) noArgs.newInstance();
            }
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new IllegalArgumentException("transfer function " + className + ": its constructor failed: " + cause.getMessage(), cause);
        } catch (InstantiationException | IllegalAccessException e) {
            throw new IllegalArgumentException("transfer function " + className + " cannot be instantiated: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("transfer function " + className + " needs a public constructor taking"
                + " java.util.Map<String, Object> (the params) or a public no-argument constructor");
    }

    /**
     * The params as the constructor sees them: an unmodifiable view that notes which names are
     * looked up (get, getOrDefault, containsKey) and whether the whole map was iterated.
     */
    private static final class ReadTracking extends java.util.AbstractMap<String, Object> {
        private final Map<String, Object> params;
        final java.util.Set<String> read = new java.util.TreeSet<>();
        private boolean iterated;

        ReadTracking(Map<String, Object> params) {
            this.params = params;
        }

        @Override
        public Object get(Object key) {
            note(key);
            return params.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            note(key);
            return params.containsKey(key);
        }

        @Override
        public Object getOrDefault(Object key, Object defaultValue) {
            note(key);
            return params.getOrDefault(key, defaultValue);
        }

        @Override
        public int size() {
            return params.size();
        }

        @Override
        public boolean isEmpty() {
            return params.isEmpty();
        }

        @Override
        public java.util.Set<Entry<String, Object>> entrySet() {
            iterated = true;
            return java.util.Collections.unmodifiableMap(params).entrySet();
        }

        private void note(Object key) {
            if (key instanceof String k) {
                read.add(k);
            }
        }

        /** @return the given names the constructor never looked up, sorted; none if it iterated the map */
        java.util.List<String> unread() {
            if (iterated) {
                return java.util.List.of();
            }
            java.util.List<String> out = new java.util.ArrayList<>();
            for (String k : new java.util.TreeSet<>(params.keySet())) {
                if (!read.contains(k)) {
                    out.add("'" + k + "'");
                }
            }
            return out;
        }
    }

    /**
     * Reads a numeric parameter.
     *
     * @param params       parameters
     * @param key          the name
     * @param defaultValue returned when absent
     * @return the value
     * @throws IllegalArgumentException when present but not a number
     */
    public static double number(Map<String, Object> params, String key, double defaultValue) {
        Object v = params == null ? null : params.get(key);
        if (v == null) {
            return defaultValue;
        }
        if (!(v instanceof Number)) {
            throw new IllegalArgumentException("parameter '" + key + "' must be a number, got " + v);
        }
        return ((Number) v).doubleValue();
    }

    /**
     * Reads a string parameter.
     *
     * @param params       parameters
     * @param key          the name
     * @param defaultValue returned when absent
     * @return the value
     * @throws IllegalArgumentException when present but not a string
     */
    public static String string(Map<String, Object> params, String key, String defaultValue) {
        Object v = params == null ? null : params.get(key);
        if (v == null) {
            return defaultValue;
        }
        if (!(v instanceof String)) {
            throw new IllegalArgumentException("parameter '" + key + "' must be a string, got " + v);
        }
        return (String) v;
    }
}
