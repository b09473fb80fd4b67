/** Tandem's co-simulation participant layer. */
module io.tandem.cosim {
    requires org.slf4j;

    exports io.tandem.cosim;
    exports io.tandem.cosim.msg;
    exports io.tandem.cosim.pubsub;
    exports io.tandem.cosim.rpc;
    exports io.tandem.cosim.spi;
    exports io.tandem.cosim.process;
    exports io.tandem.cosim.text;

    uses io.tandem.cosim.spi.Transport;
}
