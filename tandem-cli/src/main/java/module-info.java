/**
 * The {@code tandem} command line. Other modules contribute subcommands through
 * {@link io.tandem.cli.spi.CommandProvider}; this module depends on none of them.
 */
module io.tandem.cli {
    requires io.tandem.cosim;
    requires io.tandem.net;
    requires io.tandem.world;
    requires io.tandem.cle;
    requires info.picocli;

    exports io.tandem.cli;
    exports io.tandem.cli.spi;

    // picocli instantiates and injects the command classes reflectively
    opens io.tandem.cli to info.picocli;
    opens io.tandem.cli.demo to info.picocli;
    opens io.tandem.cli.tools to info.picocli;
    opens io.tandem.cli.sim to info.picocli;
    opens io.tandem.cli.cle to info.picocli;
    opens io.tandem.cli.internal to info.picocli;

    uses io.tandem.cli.spi.CommandProvider;
}
