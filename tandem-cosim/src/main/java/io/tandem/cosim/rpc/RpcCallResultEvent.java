package io.tandem.cosim.rpc;

/**
 * One server's answer to a call, or the call's failure.
 *
 * @param timestampNs the server's virtual time at the reply (the client's for failures), or
 *                    {@link io.tandem.cosim.VirtualTime#INVALID_NS}
 * @param callId      the id returned by {@link RpcClient#call(byte[])}
 * @param status      the outcome
 * @param data        the result, valid only for {@link RpcCallStatus#SUCCESS} (else empty)
 */
public record RpcCallResultEvent(long timestampNs, long callId, RpcCallStatus status, byte[] data) {
}
