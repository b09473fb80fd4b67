package io.tandem.net.internal;

import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.msg.StatusUpdate;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link RecordingListener} that also lists, in arrival order, each StatusUpdate's reason and
 * each NextSimTask as "t" + its time point (until {@link #recording} is cleared, so a test can then
 * measure allocation without the list's).
 */
class OrderListener extends RecordingListener {
    final List<String> order = new CopyOnWriteArrayList<>();
    volatile boolean recording = true;

    @Override
    public void onMessage(int fromPeerId, CosimMessage message) {
        if (recording && message instanceof StatusUpdate s) {
            order.add(s.reason());
        }
    }

    @Override
    public void onNextSimTask(int fromPeerId, long timePointNs, long durationNs) {
        if (recording) {
            order.add("t" + timePointNs);
        }
        super.onNextSimTask(fromPeerId, timePointNs, durationNs);
    }
}
