package io.tandem.cosim.rpc;

/** Receives RPC results; called on the client participant's thread, once per server reply. */
@FunctionalInterface
public interface RpcCallResultHandler {
    /** @param event the result */
    void onResult(RpcCallResultEvent event);
}
