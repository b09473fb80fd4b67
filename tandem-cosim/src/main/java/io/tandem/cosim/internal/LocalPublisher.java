package io.tandem.cosim.internal;

import io.tandem.cosim.msg.DataMessage;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.util.Arrays;

/**
 * A publisher of this participant. {@link #publish} sends at once on the calling thread, to the
 * peers known to have a matching subscriber and to this participant's own matching subscribers.
 */
final class LocalPublisher implements DataPublisher {
    final int id;
    final String name;
    final PubSubSpec spec;
    final int history;
    private final ParticipantCore core;
    /** peers with at least one matching subscriber; replaced, never modified (guarded by this) */
    private int[] peers = new int[0];
    /** whether a local subscriber matches (guarded by this) */
    private boolean selfMatch;
    private DataMessage last;

    LocalPublisher(ParticipantCore core, int id, String name, PubSubSpec spec, int history) {
        this.core = core;
        this.id = id;
        this.name = name;
        this.spec = spec;
        this.history = history;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PubSubSpec spec() {
        return spec;
    }

    @Override
    public void publish(byte[] data) {
        DataMessage msg = new DataMessage(id, core.senderTimestampNs(), data.clone(), -1);
        // one lock per publisher keeps history replay and live messages in order
        synchronized (this) {
            if (history > 0) {
                last = msg;
            }
            for (int peer : peers) {
                core.sendTo(peer, msg);
            }
            if (selfMatch) {
                core.deliverToSelf(msg);
            }
        }
    }

    /** A matching subscriber appeared at {@code peer} (or here, if it is our own id). */
    synchronized void addMatch(int peer, int subscriberId) {
        if (peer == core.peerId()) {
            selfMatch = true;
        } else if (Arrays.stream(peers).noneMatch(p -> p == peer)) {
            int[] grown = Arrays.copyOf(peers, peers.length + 1);
            grown[peers.length] = peer;
            peers = grown;
        }
        if (last != null) {
            DataMessage replay = new DataMessage(id, last.timestampNs(), last.data(), subscriberId);
            if (peer == core.peerId()) {
                core.deliverToSelf(replay);
            } else {
                core.sendTo(peer, replay);
            }
        }
    }

    synchronized void removePeer(int peer) {
        peers = Arrays.stream(peers).filter(p -> p != peer).toArray();
    }
}
