package io.tandem.net;

import io.tandem.cosim.LifecycleContract;
import io.tandem.cosim.Registry;

/** The lifecycle contract on the tandem:// transport (Aeron data plane, JGroups membership). */
class AeronLifecycleTest extends LifecycleContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem://127.0.0.1:0");
    }
}
