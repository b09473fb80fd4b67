package io.tandem.cle;

import java.util.Locale;

/**
 * How the closed loop schedules its engines and transfer functions in one loop step (the NRP
 * CLE's two engines, shared/specs/nrp.md 1.2-1.3). The data flow is the same in both: the transfer
 * functions of loop step k read what the engines produced by the start of step k and their
 * commands reach the engines at step k + 1, so both modes give bitwise the same results; only the
 * wall time differs.
 */
public enum SyncMode {
    /** engines step concurrently, and the transfer functions run while they step (the CLE's ClosedLoopEngine) */
    PARALLEL,
    /** brain, physics and transfer functions one after another (the CLE's serialized fallback) */
    SERIAL;

    /**
     * @param text parallel or serial, case-insensitive
     * @return the mode
     * @throws IllegalArgumentException for anything else, naming the choices
     */
    public static SyncMode parse(String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        for (SyncMode m : values()) {
            if (m.name().equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("sync mode must be parallel or serial, got '" + text + "'");
    }
}
