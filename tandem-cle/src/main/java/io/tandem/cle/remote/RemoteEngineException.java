package io.tandem.cle.remote;

/**
 * A remote engine failed: its server's process was lost, did not answer in time, refused a
 * request or reported the engine's failure. The message names the engine, the peer (the server's
 * participant, or the client's on the server side) and the sync iteration; a {@link io.tandem.cle.ClosedLoop}
 * reports it wrapped in a {@link io.tandem.cle.ClosedLoopException}. Immutable.
 */
public final class RemoteEngineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @serial the engine's name */
    private final String engine;
    /** @serial the peer's participant name ("" when unknown) */
    private final String peer;
    /** @serial the sync iteration (advances since time 0) at the failure */
    private final long iteration;

    /**
     * @param engine    the engine's name
     * @param peer      the peer's participant name ("" when unknown)
     * @param iteration the sync iteration at the failure
     * @param message   what failed, naming engine, peer and iteration
     */
    public RemoteEngineException(String engine, String peer, long iteration, String message) {
        super(message);
        this.engine = engine;
        this.peer = peer;
        this.iteration = iteration;
    }

    /** @return the engine's name */
    public String engine() {
        return engine;
    }

    /** @return the peer's participant name ("" when unknown) */
    public String peer() {
        return peer;
    }

    /** @return the sync iteration (advances since time 0 or the last reset) at the failure */
    public long iteration() {
        return iteration;
    }
}
