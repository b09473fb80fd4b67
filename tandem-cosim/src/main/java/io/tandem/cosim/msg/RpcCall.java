package io.tandem.cosim.msg;

/**
 * An RPC call to the receiver's servers that match the client.
 *
 * @param clientId    the sender's client id
 * @param callId      the call id
 * @param timestampNs client's virtual time at the call
 * @param data        argument
 */
public record RpcCall(int clientId, long callId, long timestampNs, byte[] data) implements CosimMessage {
}
