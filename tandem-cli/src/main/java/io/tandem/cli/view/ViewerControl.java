package io.tandem.cli.view;

/**
 * What the page's controls act on. Called on a server thread; implementations hand the command to
 * the thread that runs the simulation or replay and must not block.
 */
@FunctionalInterface
public interface ViewerControl {
    /**
     * @param op    play, pause, step (value: iterations), reset, seek (value: s), speed (value: factor)
     * @param value the operation's number (0 when it takes none)
     * @return null when taken, else a one-line reason shown on the page
     */
    String apply(String op, double value);

    /** @return why a step count is refused (a whole number from 1 to 10^9), or null */
    static String stepRefusal(double value) {
        return value >= 1 && value <= 1e9 && value == Math.rint(value) ? null
                : "step takes a whole number of steps >= 1, got " + value;
    }

    /** @return the refusal of seek and speed on a live run */
    static String recordingOnly(String op) {
        return op + " is for recordings: tandem view RECORDING.mcap";
    }
}
