/** Tandem's networked transport ({@code tandem://host:port}): Aeron data plane, JGroups control plane. */
module io.tandem.net {
    requires io.tandem.cosim;
    requires org.slf4j;
    requires io.aeron.all;
    requires org.jgroups;

    exports io.tandem.net;
    // JGroups creates received AUTH tokens (SecretToken) by reflection
    exports io.tandem.net.internal to org.jgroups;

    provides io.tandem.cosim.spi.Transport with io.tandem.net.AeronTransport;
}
