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
}
