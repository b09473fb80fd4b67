package io.tandem.cosim.rpc;

/** Serves calls of matching RPC clients through its {@link RpcCallHandler}. */
public interface RpcServer {
    /** @return the controller name given at creation */
    String name();

    /**
     * Answers a call. Safe from any thread; answering the same call twice is ignored.
     *
     * @param event      the call being answered
     * @param resultData the result; copied
     */
    void submitResult(RpcCallEvent event, byte[] resultData);
}
