package io.tandem.cosim;

/** The lifecycle contract on the in-process transport. */
class InprocLifecycleTest extends LifecycleContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem+inproc://" + uniqueName);
    }
}
