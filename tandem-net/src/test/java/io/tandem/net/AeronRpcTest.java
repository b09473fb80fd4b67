package io.tandem.net;

import io.tandem.cosim.RpcContract;
import io.tandem.cosim.Registry;

/** The rpc contract on the tandem:// transport (Aeron data plane, JGroups membership). */
class AeronRpcTest extends RpcContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem://127.0.0.1:0");
    }
}
