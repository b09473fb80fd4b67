/** Tandem's spiking network simulator (NEST models and units). Only the API package is exported. */
module io.tandem.neuro {
    requires io.tandem.cosim;

    exports io.tandem.neuro;
}
