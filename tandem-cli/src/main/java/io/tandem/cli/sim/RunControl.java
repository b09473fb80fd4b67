package io.tandem.cli.sim;

import io.tandem.cli.view.ViewerControl;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The viewer's controls of a standalone run: play, pause, step N (pauses, then runs exactly N
 * iterations), reset (back to iteration 0). The page's server thread sets them; the stepping loop
 * reads them before each iteration.
 *
 * <p>Thread-safe; allocates nothing.
 */
final class RunControl implements ViewerControl {
    private volatile boolean paused;
    private final AtomicLong steps = new AtomicLong();
    private volatile boolean reset;
    private final String resetRefusal;

    /**
     * @param paused       whether the run starts paused
     * @param resetRefusal why reset is refused (one line), or null when it is allowed
     */
    RunControl(boolean paused, String resetRefusal) {
        this.paused = paused;
        this.resetRefusal = resetRefusal;
    }

    @Override
    public String apply(String op, double value) {
        switch (op) {
            case "play" -> paused = false;
            case "pause" -> paused = true;
            case "step" -> {
                if (!(value >= 1) || value > 1e9 || value != Math.rint(value)) {
                    return "step takes a whole number of iterations >= 1, got " + value;
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
                return op + " is for recordings: tandem view RECORDING.mcap";
            }
            default -> {
                return "unknown control '" + op + "' (play, pause, step, reset)";
            }
        }
        return null;
    }

    /** @return whether the next iteration may run now (running, or a step is due); takes one due step */
    boolean mayStep() {
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

    boolean paused() {
        return paused && steps.get() == 0;
    }

    /** @return whether a reset was asked for since the last call */
    boolean takeReset() {
        if (reset) {
            reset = false;
            return true;
        }
        return false;
    }
}
