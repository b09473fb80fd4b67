package io.tandem.cosim.rpc;

/**
 * A call received by an RPC server. Reply with {@link RpcServer#submitResult(RpcCallEvent, byte[])}.
 *
 * @param timestampNs  the client's virtual time at the call, or {@link io.tandem.cosim.VirtualTime#INVALID_NS}
 * @param argumentData the call's argument; do not modify
 * @param callHandle   opaque handle identifying this call at the server
 */
public record RpcCallEvent(long timestampNs, byte[] argumentData, long callHandle) {
}
