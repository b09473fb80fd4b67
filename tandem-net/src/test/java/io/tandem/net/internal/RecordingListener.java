package io.tandem.net.internal;

import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.spi.TransportListener;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A transport listener that records every call as text ("+3 alice", "3: BarrierRequest[barrierId=1]", "-3 alice lost"). */
class RecordingListener implements TransportListener {
    final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    volatile long lastNextSimTaskNs = -1;

    @Override
    public void onPeerJoined(int peerId, String participantName) {
        events.add("+" + peerId + " " + participantName);
    }

    @Override
    public void onPeerLeft(int peerId, String participantName, boolean connectionLost) {
        events.add("-" + peerId + " " + participantName + (connectionLost ? " lost" : ""));
    }

    @Override
    public void onMessage(int fromPeerId, CosimMessage message) {
        events.add(fromPeerId + ": " + message);
    }

    @Override
    public void onNextSimTask(int fromPeerId, long timePointNs, long durationNs) {
        lastNextSimTaskNs = timePointNs;
    }

    /** @return the next event within 10 s, or fails */
    String next() throws InterruptedException {
        String e = events.poll(10, TimeUnit.SECONDS);
        if (e == null) {
            throw new AssertionError("no transport event within 10 s");
        }
        return e;
    }
}
