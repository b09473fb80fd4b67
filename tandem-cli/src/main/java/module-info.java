/**
 * The {@code tandem} command line: the commands of the modules listed before it (cosim's tools,
 * world's {@code sim}, the closed loop's {@code cle} and {@code engine-server}). Modules listed
 * after it (tandem-bench) contribute subcommands through {@link io.tandem.cli.spi.CommandProvider}.
 */
// XChart's jar names no module: it is the automatic module "xchart", required knowingly
@SuppressWarnings("requires-automatic")
module io.tandem.cli {
    requires io.tandem.cosim;
    requires io.tandem.net;
    requires transitive io.tandem.world;
    requires io.tandem.cle;
    requires transitive info.picocli;
    // the figures of --plot (plot.Figures): XChart (an automatic module named after its jar) draws on AWT
    requires xchart;
    requires java.desktop;
    // the viewer's server (view.ViewerServer): Jetty 12 core and its WebSockets
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.websocket.server;
    requires org.eclipse.jetty.websocket.api;
    // sun.misc.Signal: local secondaries ignore Ctrl-C and follow their primary (internal.Signals)
    requires jdk.unsupported;

    exports io.tandem.cli;
    exports io.tandem.cli.spi;
    exports io.tandem.cli.plot;

    // picocli instantiates and injects the command classes reflectively
    opens io.tandem.cli to info.picocli;
    opens io.tandem.cli.demo to info.picocli;
    opens io.tandem.cli.tools to info.picocli;
    opens io.tandem.cli.sim to info.picocli;
    opens io.tandem.cli.cle to info.picocli;
    opens io.tandem.cli.view to info.picocli;
    // Jetty calls the page's WebSocket listener through method handles
    exports io.tandem.cli.view to org.eclipse.jetty.websocket.common, org.eclipse.jetty.websocket.server;
    opens io.tandem.cli.internal to info.picocli;
    opens io.tandem.cli.spi to info.picocli;

    uses io.tandem.cli.spi.CommandProvider;
}
