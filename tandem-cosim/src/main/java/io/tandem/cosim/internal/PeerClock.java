package io.tandem.cosim.internal;

/**
 * A peer's last announced next step, written by transport threads and read by the owning
 * participant's thread. -1 until the peer announces. Allocation-free.
 */
final class PeerClock {
    final int peerId;
    /** start of the peer's next step (ns), -1 before its first announcement */
    volatile long nextNs = -1;
    /** the peer's step size (ns) */
    volatile long durationNs;

    PeerClock(int peerId) {
        this.peerId = peerId;
    }
}
