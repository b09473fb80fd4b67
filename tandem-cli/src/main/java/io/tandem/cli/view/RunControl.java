package io.tandem.cli.view;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The viewer's controls of a run stepped in this process (a standalone world, a closed loop): play,
 * pause, step N (pauses, then runs exactly N steps), reset (back to the start, where the run allows
 * it). The page's server thread sets them; the stepping loop reads them before each step.
 *
 * <p>Thread-safe; allocates nothing.
 */
public final class RunControl implements ViewerControl {
    private volatile boolean paused;
    private final AtomicLong steps = new AtomicLong();
    private volatile boolean reset;
    private final String resetRefusal;

    /**
     * @param paused       whether the run starts paused
     * @param resetRefusal why reset is refused (one line), or null when it is allowed
     */
    public RunControl(boolean paused, String resetRefusal) {
        this.paused = paused;
        this.resetRefusal = resetRefusal;
    }

    @Override
    public String apply(String op, double value) {
        switch (op) {
            case "play" -> paused = false;
            case "pause" -> paused = true;
            case "step" -> {
                String refused = ViewerControl.stepRefusal(value);
                if (refused != null) {
                    return refused;
                }
                paused = true;
                steps.addAndGet((long) value);
            }
            case "reset" -> {
                if (resetRefusal != null) {
                    return resetRefusal;
                }
                reset = true;
            }
            case "seek", "speed" -> {
                return ViewerControl.recordingOnly(op);
            }
            default -> {
                return "unknown control '" + op + "' (play, pause, step, reset)";
            }
        }
        return null;
    }

    /** @return whether the next step may run now (running, or a step is due); takes one due step */
    public boolean mayStep() {
        if (!paused) {
            return true;
        }
        while (true) {
            long n = steps.get();
            if (n == 0) {
                return false;
            }
            if (steps.compareAndSet(n, n - 1)) {
                return true;
            }
        }
    }

    /** @return whether the run is paused with no step due */
    public boolean paused() {
        return paused && steps.get() == 0;
    }

    /** @return whether a reset was asked for since the last call */
    public boolean takeReset() {
        if (reset) {
            reset = false;
            return true;
        }
        return false;
    }
}
