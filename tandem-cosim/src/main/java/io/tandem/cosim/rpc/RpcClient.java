package io.tandem.cosim.rpc;

/**
 * Calls every matching RPC server; the result handler runs once per server reply, or once with
 * {@link RpcCallStatus#SERVER_NOT_REACHABLE} when no server matches.
 */
public interface RpcClient {
    /** @return the controller name given at creation */
    String name();

    /**
     * Calls without a timeout. Safe from any thread; copies {@code argument}.
     *
     * @param argument call argument
     * @return the call id echoed in every {@link RpcCallResultEvent} of this call
     */
    long call(byte[] argument);

    /**
     * Calls with a timeout: if some matching server has not replied after {@code timeoutNs} (of
     * virtual time when this participant is time-synced, else of wall time), the handler gets one
     * {@link RpcCallStatus#TIMEOUT} result and later replies are dropped.
     *
     * @param argument  call argument
     * @param timeoutNs timeout in ns, greater than 0
     * @return the call id
     */
    long callWithTimeout(byte[] argument, long timeoutNs);
}
