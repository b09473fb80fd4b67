package io.tandem.cosim;

/** The time-sync contract on the in-process transport. */
class InprocTimeSyncTest extends TimeSyncContract {
    @Override
    protected Registry startRegistry(String uniqueName) {
        return Registry.start("tandem+inproc://" + uniqueName);
    }
}
