package io.tandem.cosim;

/** The pub/sub contract on the in-process transport. */
class InprocPubSubTest extends PubSubContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem+inproc://" + uniqueName);
    }
}
