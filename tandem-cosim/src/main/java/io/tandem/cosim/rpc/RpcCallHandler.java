package io.tandem.cosim.rpc;

/** Handles calls at an RPC server; called on the server participant's thread. */
@FunctionalInterface
public interface RpcCallHandler {
    /**
     * @param event the call; answer it with {@link RpcServer#submitResult(RpcCallEvent, byte[])},
     *              now or later, from any thread. A handler that throws answers
     *              {@link RpcCallStatus#INTERNAL_SERVER_ERROR}.
     */
    void onCall(RpcCallEvent event);
}
