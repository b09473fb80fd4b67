package io.tandem.net;

import io.tandem.cosim.MembershipContract;
import io.tandem.cosim.Registry;

/** The membership contract on the tandem:// transport (Aeron data plane, JGroups membership). */
class AeronMembershipTest extends MembershipContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem://127.0.0.1:0");
    }
}
