package io.tandem.cosim.rpc;

/** Outcome of one RPC call at one server. */
public enum RpcCallStatus {
    /** The server replied; the result data is valid. */
    SUCCESS,
    /** No matching server was known when the call was made. */
    SERVER_NOT_REACHABLE,
    /** The server's handler failed. */
    INTERNAL_SERVER_ERROR,
    /** No reply before the timeout (virtual time when time-synced, else wall time). */
    TIMEOUT
}
