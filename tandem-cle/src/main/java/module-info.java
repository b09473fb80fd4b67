/** Tandem's closed loop engine: engines, devices, transfer functions, synchronization. Only the API package is exported. */
module io.tandem.cle {
    requires transitive io.tandem.world;
    requires transitive io.tandem.neuro;
    requires org.slf4j;
    requires org.snakeyaml.engine.v2;
    exports io.tandem.cle;
    exports io.tandem.cle.device;
    exports io.tandem.cle.engine;
    exports io.tandem.cle.experiment;
    exports io.tandem.cle.record;
    exports io.tandem.cle.remote;
    exports io.tandem.cle.tf;
}
