package io.tandem.cosim.msg;

/**
 * One server's reply to an RPC call.
 *
 * @param clientId     the client's id at the receiver
 * @param callId       the call id
 * @param timestampNs  server's virtual time at the reply
 * @param serverFailed true if the server's handler failed
 * @param data         result
 */
public record RpcResult(int clientId, long callId, long timestampNs, boolean serverFailed, byte[] data)
        implements CosimMessage {
}
