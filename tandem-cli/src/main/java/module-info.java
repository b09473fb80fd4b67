/**
 * The {@code tandem} command line: the commands of the modules listed before it (cosim's tools,
 * world's {@code sim}, the closed loop's {@code cle} and {@code engine-server}). Modules listed
 * after it (tandem-bench) contribute subcommands through {@link io.tandem.cli.spi.CommandProvider}.
 */
module io.tandem.cli {
    requires io.tandem.cosim;
    requires io.tandem.net;
    requires transitive io.tandem.world;
    requires io.tandem.cle;
    requires transitive info.picocli;
    // sun.misc.Signal: local secondaries ignore Ctrl-C and follow their primary (internal.Signals)
    requires jdk.unsupported;

    exports io.tandem.cli;
    exports io.tandem.cli.spi;

    // picocli instantiates and injects the command classes reflectively
    opens io.tandem.cli to info.picocli;
    opens io.tandem.cli.demo to info.picocli;
    opens io.tandem.cli.tools to info.picocli;
    opens io.tandem.cli.sim to info.picocli;
    opens io.tandem.cli.cle to info.picocli;
    opens io.tandem.cli.internal to info.picocli;
    opens io.tandem.cli.spi to info.picocli;

    uses io.tandem.cli.spi.CommandProvider;
}
