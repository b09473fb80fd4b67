package io.tandem.cosim;

/** The rpc contract on the in-process transport. */
class InprocRpcTest extends RpcContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem+inproc://" + uniqueName);
    }
}
