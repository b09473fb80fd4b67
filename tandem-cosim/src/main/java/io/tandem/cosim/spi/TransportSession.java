package io.tandem.cosim.spi;

import io.tandem.cosim.msg.CosimMessage;

/**
 * One participant's membership in a simulation. Messages from one sender to one receiver arrive in
 * send order, whatever mix of {@link #send}, {@link #broadcast} and {@link #broadcastNextSimTask}
 * produced them.
 *
 * <p>Thread-safe.
 */
public interface TransportSession extends AutoCloseable {
    /** @return this participant's peer id, unique in the simulation and never reused */
    int peerId();

    /**
     * Sends to one peer; a peer that has left is ignored.
     *
     * @param toPeerId receiver
     * @param message  the message (not modified)
     */
    void send(int toPeerId, CosimMessage message);

    /**
     * Sends to every other peer of the simulation.
     *
     * @param message the message (not modified)
     */
    void broadcast(CosimMessage message);

    /**
     * Broadcasts the start of this participant's next step. On the steady-state path this must
     * not allocate.
     *
     * @param timePointNs start of the next step
     * @param durationNs  its duration
     */
    void broadcastNextSimTask(long timePointNs, long durationNs);

    /**
     * Lends the transport the participant's thread: called by that thread on every turn of its work
     * loop while it is not parked, so a polling transport can deliver (call its listener) on it
     * without a hand-off between threads. A transport that delivers on its own threads ignores it.
     * Must not block and, on the steady-state path, must not allocate.
     *
     * @return the work done, 0 if none
     */
    default int poll() {
        return 0;
    }

    /**
     * Whether peers may run in other processes of this host. A participant thread decides how long
     * to busy-spin by counting the running participant threads of its own JVM; that count says
     * nothing about other processes sharing the CPUs, so with peers in other processes it spins
     * briefly (see {@code tandem.idle.spins.multiprocess}). The in-process transport says false.
     *
     * @return true if peers may be in other processes
     */
    default boolean peersInOtherProcesses() {
        return false;
    }

    /**
     * The participant expects no message for about {@code durationNs} from now (see
     * {@code Participant.expectQuietFor}): a polling transport may poll less until then, delaying
     * what arrives meanwhile by at most that long. 0 clears it. A transport that delivers on its own
     * threads as messages arrive ignores it. Must not block or allocate.
     *
     * @param durationNs how long, ns, {@code >= 0}
     */
    default void expectQuietFor(long durationNs) {
    }

    /**
     * The participant's thread is about to park: it stops lending itself through {@link #poll}
     * until it wakes (its next poll says so). A polling transport should poll on its own thread
     * promptly from now on; while the participant thread polls, it may poll rarely. Must not block
     * or allocate.
     */
    default void participantParking() {
    }

    /** Leaves the simulation; peers get {@link TransportListener#onPeerLeft}. Idempotent. */
    @Override
    void close();
}
