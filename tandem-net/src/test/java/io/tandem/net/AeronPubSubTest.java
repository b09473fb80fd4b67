package io.tandem.net;

import io.tandem.cosim.PubSubContract;
import io.tandem.cosim.Registry;

/** The pub/sub contract on the tandem:// transport (Aeron data plane, JGroups membership). */
class AeronPubSubTest extends PubSubContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem://127.0.0.1:0");
    }
}
