package io.tandem.world.internal;

import io.tandem.cosim.text.Suggestions;
import io.tandem.world.World;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The world's joints by scoped name ({@code model::joint}, {@code model::nested::joint}): each
 * joint's handle is its global id, its index among all the world's joints (PhysicsCompiler's
 * numbering), so a handle stays valid across level rebuilds. Built once per runner; lookups by
 * handle allocate nothing. Not thread-safe.
 */
public final class JointTable {
    private final String worldName;
    private final Map<String, Integer> handleOf = new HashMap<>();
    /** scoped name of each handle (joints) */
    public final String[] names;
    /** the model of each handle (joints) */
    public final String[] model;
    /** velocity limit of each handle, rad/s or m/s, +infinity if none (joints) */
    public final double[] velocityLimit;
    /** whether the file gives the joint a velocity motor (joints) */
    public final boolean[] motor;

    public JointTable(World world) {
        worldName = world.name();
        List<String> n = new ArrayList<>();
        List<String> m = new ArrayList<>();
        List<Double> limits = new ArrayList<>();
        List<Boolean> motors = new ArrayList<>();
        for (World.Model wm : world.models()) {
            for (World.Joint j : wm.joints()) {
                handleOf.put(wm.name() + "::" + j.name(), n.size());
                n.add(wm.name() + "::" + j.name());
                m.add(wm.name());
                limits.add(j.velocityLimit());
                motors.add(j.motor());
            }
        }
        names = n.toArray(new String[0]);
        model = m.toArray(new String[0]);
        velocityLimit = new double[names.length];
        motor = new boolean[names.length];
        for (int i = 0; i < names.length; i++) {
            velocityLimit[i] = limits.get(i);
            motor[i] = motors.get(i);
        }
    }

    /**
     * @param scopedName model::joint
     * @return the joint's handle
     * @throws IllegalArgumentException naming the joint and the closest names when there is none
     */
    public int handle(String scopedName) {
        Integer h = handleOf.get(scopedName);
        if (h == null) {
            throw new IllegalArgumentException("no joint '" + scopedName + "' in world '" + worldName + "' (joints are named"
                    + " model::joint)" + suggestions(scopedName, names));
        }
        return h;
    }

    /** @throws IllegalArgumentException when the handle is out of range */
    public void check(int handle) {
        if (handle < 0 || handle >= names.length) {
            throw new IllegalArgumentException("joint handle " + handle + " out of range: world '" + worldName + "' has "
                    + names.length + " joints");
        }
    }

    /** ": close matches: a, b" (by edit distance), or the known names when few, or "". */
    public static String suggestions(String wanted, String[] known) {
        // a name inside the other, or the same joint of another model, is as close as the same name
        List<String> close = Suggestions.ranked(wanted, known, Math.max(2, wanted.length() / 4), 5,
                (w, k) -> k.contains(w) || w.contains(k) || tail(k).equals(tail(w)) ? 0
                        : Suggestions.editDistance(w, k));
        if (!close.isEmpty()) {
            return "; close matches: " + String.join(", ", close);
        }
        if (known.length == 0) {
            return "; it has none";
        }
        if (known.length <= 12) {
            return "; known: " + String.join(", ", known);
        }
        return "; none of its " + known.length + " names is close";
    }

    /** The part after the last "::". */
    private static String tail(String scoped) {
        int i = scoped.lastIndexOf("::");
        return i < 0 ? scoped : scoped.substring(i + 2);
    }
}
