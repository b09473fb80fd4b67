package io.tandem.neuro;

import java.util.Locale;

/*
 * Implementation notes.
 *
 * NEST's Device::Parameters_::set [1]: origin, start and stop are times in ms that must lie on
 * the resolution grid (stop may be infinite, its default), and stop >= start. NEST documents
 * origin and start as positive; we reject negative values rather than clamp them. The builder
 * checks a created node's values, SpikingNetwork.set a value changed at run time against the
 * other two, with the same messages.
 *
 * [1] NEST nestkernel/device.cpp and the "Stimulation and recording devices" documentation.
 */

/**
 * Validation of NEST's device times {@code start}, {@code stop}, {@code origin}, {@code interval}
 * and {@code offset}. Stateless.
 */
final class ActivityWindow {
    private ActivityWindow() {
    }

    /**
     * Checks a window; allocates only to throw.
     *
     * @param model the nodes' model
     * @param first the first node id (for messages)
     * @param n     the number of nodes (for messages)
     * @param h     the resolution (ms)
     * @throws IllegalArgumentException naming the node, the value and the fix
     */
    static void check(NodeModel model, int first, int n, double start, double stop, double origin, double h) {
        if (valid(start, stop, origin, h)) {
            return;
        }
        String who = nodes(model, first, n);
        finite(who, "origin", origin);
        finite(who, "start", start);
        if (Double.isNaN(stop) || stop == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException(who + ": stop must be a number of ms or +infinity (the default: never"
                    + " stops), got " + stop);
        }
        onGrid(who, "origin", origin, h);
        onGrid(who, "start", start, h);
        if (stop != Double.POSITIVE_INFINITY) {
            onGrid(who, "stop", stop, h);
        }
        if (stop < start) {
            throw new IllegalArgumentException(who + ": stop " + fmt(stop) + " ms is before start " + fmt(start)
                    + " ms; NEST requires stop >= start: use a stop of at least " + fmt(start) + " ms (at run time, move"
                    + " stop before moving start past it)");
        }
    }

    private static boolean valid(double start, double stop, double origin, double h) {
        return Double.isFinite(origin) && origin >= 0 && onGrid(origin, h) && Double.isFinite(start) && start >= 0
                && onGrid(start, h) && (stop == Double.POSITIVE_INFINITY || Double.isFinite(stop) && onGrid(stop, h))
                && stop >= start;
    }

    private static boolean onGrid(double v, double h) {
        double k = Math.rint(v / h);
        return Math.abs(k * h - v) <= 1e-9 * Math.max(1.0, Math.abs(v));
    }

    /**
     * Checks a multimeter's sampling interval.
     *
     * @throws IllegalArgumentException unless it is a positive multiple of the resolution
     */
    static void checkInterval(String who, double interval, double h) {
        if (!Double.isFinite(interval) || interval < h - 1e-12) {
            throw new IllegalArgumentException(who + ": interval " + interval + " ms must be at least the resolution "
                    + fmt(h) + " ms (NEST's rule): use " + fmt(h) + " ms or a multiple of it");
        }
        onGrid(who, "interval", interval, h);
    }

    /**
     * Checks a multimeter's {@code offset} (NEST 3: the time of the first sample).
     *
     * @throws IllegalArgumentException unless it is a finite multiple of the resolution >= 0
     */
    static void checkOffset(String who, double offset, double h) {
        if (!Double.isFinite(offset)) {
            throw new IllegalArgumentException(who + ": offset must be a finite number of ms (the time of the first"
                    + " sample), got " + offset + ": use 0 (the default) or a multiple of the resolution " + fmt(h) + " ms");
        }
        if (offset < 0) {
            throw new IllegalArgumentException(who + ": offset " + fmt(offset) + " ms must be >= 0 ms (NEST's rule: it is"
                    + " the time of the first sample): use 0 (the default) or a positive multiple of the resolution "
                    + fmt(h) + " ms");
        }
        onGrid(who, "offset", offset, h);
    }

    private static void finite(String who, String name, double v) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException(who + ": " + name + " must be a finite number of ms, got " + v);
        }
        if (v < 0) {
            throw new IllegalArgumentException(who + ": " + name + " must be >= 0 ms, got " + fmt(v) + " ms"
                    + ("start".equals(name) ? " (it is relative to origin)" : ""));
        }
    }

    private static void onGrid(String who, String name, double v, double h) {
        if (!onGrid(v, h)) {
            throw new IllegalArgumentException(who + ": " + name + " " + fmt(v) + " ms is not a multiple of the resolution "
                    + fmt(h) + " ms (NEST requires device times on the grid): use " + fmt(Math.floor(v / h) * h) + " or "
                    + fmt(Math.ceil(v / h) * h) + " ms");
        }
    }

    /** @return {@code ms} in whole steps of {@code h} (on the grid, checked before) */
    static long steps(double ms, double h) {
        return Math.round(ms / h);
    }

    /** @return a number of ms without trailing zeros ("0.1", "5", "12.35") */
    static String fmt(double v) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "infinity" : "-infinity";
        }
        String s = String.format(Locale.ROOT, "%.6f", v);
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /** @return "model node i" or "model nodes i..j" */
    static String nodes(NodeModel model, int first, int n) {
        return model.nestName() + (n == 1 ? " node " + first : " nodes " + first + ".." + (first + n - 1));
    }
}
