package io.tandem.neuro;

import java.util.ArrayList;
import java.util.List;

/** Test helper: drains a recorder into lists of senders and times. */
final class Spikes implements SpikeHandler {
    final List<Integer> senders = new ArrayList<>();
    final List<Long> timesNs = new ArrayList<>();

    @Override
    public void onSpike(int sender, long timeNs) {
        senders.add(sender);
        timesNs.add(timeNs);
    }

    static Spikes drain(SpikingNetwork net, int recorder) {
        Spikes s = new Spikes();
        net.drainSpikes(recorder, s);
        return s;
    }

    /** @return the spike times (ms) of one sender */
    List<Double> timesMsOf(int sender) {
        List<Double> t = new ArrayList<>();
        for (int i = 0; i < senders.size(); i++) {
            if (senders.get(i) == sender) {
                t.add(timesNs.get(i) / 1e6);
            }
        }
        return t;
    }
}
