package io.tandem.bench.internal;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A one-line progress bar on the error stream for long benchmarks (never with --json, whose
 * stdout must stay machine-readable; stderr is used so piped stdout stays clean). Redraws only
 * when the percentage changes. Not thread-safe.
 */
public final class ProgressBar {
    private static final int WIDTH = 30;
    private final PrintWriter err;
    private final String label;
    private final long total;
    private final boolean enabled;
    private int shown = -1;

    public ProgressBar(PrintWriter err, String label, long total, boolean enabled) {
        this.err = err;
        this.label = label;
        this.total = Math.max(1, total);
        this.enabled = enabled;
    }

    /** Shows {@code done} of the total. */
    public void update(long done) {
        if (!enabled) {
            return;
        }
        int pct = (int) Math.min(100, done * 100 / total);
        if (pct == shown) {
            return;
        }
        shown = pct;
        int filled = pct * WIDTH / 100;
        err.printf(Locale.ROOT, "\r%s [%s%s] %3d%%", label, "#".repeat(filled), " ".repeat(WIDTH - filled), pct);
        err.flush();
    }

    /** Clears the line. */
    public void done() {
        if (enabled && shown >= 0) {
            err.print("\r" + " ".repeat(label.length() + WIDTH + 8) + "\r");
            err.flush();
        }
    }
}
