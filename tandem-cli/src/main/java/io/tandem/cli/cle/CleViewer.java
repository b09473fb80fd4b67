package io.tandem.cli.cle;

import io.tandem.cli.view.LiveViewer;
import io.tandem.cli.view.RunControl;
import io.tandem.cli.view.SignalWindow;
import io.tandem.cli.view.ViewerControl;
import io.tandem.world.WorldRunner;
import io.tandem.cle.Engine;
import io.tandem.cle.remote.RemoteEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The viewer of a closed-loop run ({@code tandem cle --view}): the world's 3D scene (its runner's
 * {@link io.tandem.world.view.ViewFeed}), a spike raster of the last
 * {@link SignalWindow#RASTER_WINDOW_S} of simulated time, as the NRP cockpit's spike-train panel, and
 * rolling plots of the last {@link SignalWindow#PLOT_WINDOW_S} (the NRP joint plot's 10 s) of the
 * signals chosen with {@code --view-plot} or the experiment file ({@link CleSignals}). Play, pause and step N loop steps from the page hold the loop between
 * two loop steps.
 *
 * <p>{@link #afterStep} runs on the loop thread, after each loop step (every engine idle); the
 * signals message is sent at most 30 times a second of wall time, latest-wins.
 */
final class CleViewer implements ViewerControl {
    private static final long SIGNALS_PERIOD_NS = 1_000_000_000L / 30;

    private final LiveViewer viewer;
    private final WorldRunner world;
    private final CleSignals signals;
    private final long targetIterations;
    /** play, pause, step N loop steps; no reset (a closed loop cannot rewind its engines here) */
    private final RunControl control;
    private long lastSignalsNs;
    private long shownPausedAt = -1;
    /** the engines in other processes (--separate brain): the page's peers */
    private final List<RemoteEngine> remotes;
    /** per remote engine: its name, running or lost (as a distributed run's page shows its secondaries) */
    private final List<String[]> peers = new ArrayList<>();

    /**
     * @param signals          the loop's spikes and plotted signals, sampled after each step
     * @param targetIterations the world's iterations at the end of the run (the HUD's target)
     */
    CleViewer(LiveViewer viewer, WorldRunner world, CleSignals signals, long targetIterations, boolean paused,
              List<Engine> engines) {
        this.viewer = viewer;
        List<RemoteEngine> r = new ArrayList<>();
        for (Engine e : engines) {
            if (e instanceof RemoteEngine re) {
                r.add(re);
                peers.add(new String[] {re.name(), "running", null});
            }
        }
        this.remotes = List.copyOf(r);
        this.world = world;
        this.signals = signals;
        this.targetIterations = targetIterations;
        this.control = new RunControl(paused, "reset is not available in a closed-loop run: restart it");
    }

    @Override
    public String apply(String op, double value) {
        return control.apply(op, value);
    }

    /** @return the viewer */
    LiveViewer viewer() {
        return viewer;
    }

    /** The page's status before the first step; holds there when started paused. */
    void started(java.util.function.BooleanSupplier stop) {
        viewer.status(control.paused(), targetIterations, null, peers);
        hold(0, world.simTimeNs(), stop);
    }

    /** The page's status after the run. */
    void ended(String why) {
        viewer.feed().flush(world);
        peersChanged();
        viewer.status(true, targetIterations, why, peers);
    }

    /**
     * Sends the signals when due (the caller has sampled them), and holds the loop while paused.
     *
     * @param step   the loop step just run (0-based)
     * @param timeNs the loop's time after it
     * @param stop   whether the run is being stopped (Ctrl-C)
     */
    void afterStep(long step, long timeNs, java.util.function.BooleanSupplier stop) {
        long now = System.nanoTime();
        if (now - lastSignalsNs >= SIGNALS_PERIOD_NS) {
            lastSignalsNs = now;
            viewer.hub().signals(signals.window().json(timeNs / 1e9));
            if (peersChanged()) {
                viewer.status(control.paused(), targetIterations, null, peers);
            }
        }
        hold(step + 1, timeNs, stop);
    }

    /** @return whether a separate engine's state changed (running to lost) since the last look */
    private boolean peersChanged() {
        boolean changed = false;
        for (int i = 0; i < remotes.size(); i++) {
            String state = remotes.get(i).lostReason() == null ? "running" : "lost";
            if (!state.equals(peers.get(i)[1])) {
                peers.get(i)[1] = state;
                changed = true;
            }
        }
        return changed;
    }

    /** While paused and no step is due: the page shows this very step, the loop waits. */
    private void hold(long done, long timeNs, java.util.function.BooleanSupplier stop) {
        boolean wasPaused = false;
        while (!stop.getAsBoolean()) {
            if (control.mayStep()) {
                if (wasPaused && !control.paused()) {
                    shownPausedAt = -1;
                    viewer.status(false, targetIterations, null, peers);
                }
                return;
            }
            if (shownPausedAt != done) {
                shownPausedAt = done;
                viewer.feed().flush(world);
                viewer.hub().signals(signals.window().json(timeNs / 1e9));
                viewer.status(true, targetIterations, null, peers);
            }
            if (peersChanged()) {
                // a separate engine lost while paused: named at once, before a step would fail on it
                viewer.status(true, targetIterations, null, peers);
            }
            wasPaused = true;
            LockSupport.parkNanos(2_000_000L);
        }
    }

}
