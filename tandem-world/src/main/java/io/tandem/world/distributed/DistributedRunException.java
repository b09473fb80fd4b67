package io.tandem.world.distributed;

import io.tandem.cosim.TandemException;

/**
 * A distributed run ended in failure: a peer was lost, an ack did not come in time, a secondary
 * was refused, the worlds differ. The message names the peer and the iteration and says what to
 * do. Thrown on the stepping thread.
 */
public final class DistributedRunException extends TandemException {
    private static final long serialVersionUID = 1L;
    private final String peer;
    private final long iteration;

    /**
     * @param peer      the peer at fault (may be empty when none is)
     * @param iteration the iteration the run reached
     * @param message   what happened and what to do
     */
    public DistributedRunException(String peer, long iteration, String message) {
        super(message);
        this.peer = peer;
        this.iteration = iteration;
    }

    /** @return the peer at fault, or empty */
    public String peer() {
        return peer;
    }

    /** @return the iteration the run reached */
    public long iteration() {
        return iteration;
    }
}
