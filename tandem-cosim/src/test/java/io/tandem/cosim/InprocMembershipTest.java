package io.tandem.cosim;

/** The membership contract on the in-process transport. */
class InprocMembershipTest extends MembershipContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem+inproc://" + uniqueName);
    }
}
