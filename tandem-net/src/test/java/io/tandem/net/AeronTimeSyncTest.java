package io.tandem.net;

import io.tandem.cosim.TimeSyncContract;
import io.tandem.cosim.Registry;

/** The time-sync contract on the tandem:// transport (Aeron data plane, JGroups membership). */
class AeronTimeSyncTest extends TimeSyncContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem://127.0.0.1:0");
    }
}
