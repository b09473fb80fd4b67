package io.tandem.cli.demo;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.pubsub.DataMessageEvent;
import io.tandem.cosim.pubsub.DataPublisher;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/*
 * Implementation notes.
 *
 * Determinism. Conservative time sync guarantees that every message stamped before T has arrived
 * when a step at T starts, but a message stamped exactly T (a peer running its step T at the same
 * time) may arrive before or after. So received messages wait in `pending`, and a step at T takes
 * exactly those stamped before T, sorted by (timestamp, sender): the same set every run.
 *
 * End of the run. The stopper's step at end time E starts only once every other participant
 * has announced a next step at or after E, that is, finished all its steps before E. Steps at or
 * after E race with the stop, so they are neither logged nor published.
 */

/**
 * The step logic of one demo participant: publishes {@code NAME#STEP} every step and logs what it
 * received. Every method runs on the participant's thread (step and data handlers); the results
 * may be read by another thread only after the participant's lifecycle future has completed.
 */
final class DemoParticipant {
    private final int index;
    private final String name;
    private final long endNs;
    private final boolean stopper;
    private final List<CosimDemoReport.Received> pending = new ArrayList<>();
    private final List<CosimDemoReport.StepRecord> log = new ArrayList<>();
    private DataPublisher publisher;
    private LifecycleService lifecycle;
    private long step;
    private boolean stopCalled;

    DemoParticipant(int index, long endNs, boolean stopper) {
        this.index = index;
        this.name = CosimDemoConfig.participantName(index);
        this.endNs = endNs;
        this.stopper = stopper;
    }

    void attach(DataPublisher pub, LifecycleService lc) {
        this.publisher = pub;
        this.lifecycle = lc;
    }

    String name() {
        return name;
    }

    /** The data handler for the subscription to participant {@code sender}'s topic. */
    void onData(int sender, DataMessageEvent event) {
        pending.add(new CosimDemoReport.Received(event.timestampNs(), sender,
                new String(event.data(), StandardCharsets.UTF_8)));
    }

    /** The blocking step handler. */
    void onStep(long nowNs, long durationNs) {
        if (nowNs >= endNs) {
            if (stopper && !stopCalled) {
                stopCalled = true;
                lifecycle.stop("end time reached");
            }
            return;
        }
        // take the inputs stamped before now; later ones wait for a later step
        List<CosimDemoReport.Received> inputs = new ArrayList<>();
        for (int i = pending.size() - 1; i >= 0; i--) {
            if (pending.get(i).timestampNs() < nowNs) {
                inputs.add(pending.remove(i));
            }
        }
        inputs.sort(Comparator.comparingLong(CosimDemoReport.Received::timestampNs)
                .thenComparingInt(CosimDemoReport.Received::sender));
        log.add(new CosimDemoReport.StepRecord(nowNs, index, name, step, durationNs, List.copyOf(inputs)));
        publisher.publish((name + "#" + step).getBytes(StandardCharsets.UTF_8));
        step++;
    }

    /** @return the logged steps; read only after this participant has shut down */
    List<CosimDemoReport.StepRecord> log() {
        return log;
    }
}
