package io.tandem.cli.view;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The viewer's options shared by {@code tandem sim} and {@code tandem cle} (a picocli mixin):
 * {@code --view [PORT]}, {@code --view-bind}, {@code --follow}, {@code --paused},
 * {@code --view-linger-s}. Set by picocli on the command's thread.
 */
public final class ViewOptions {
    @Option(names = "--view", arity = "0..1", fallbackValue = "8080", paramLabel = "PORT", description = "Serve the"
            + " viewer at http://127.0.0.1:PORT/ (default port 8080; 0: any free port; the URL is printed): the scene in"
            + " 3D, a HUD, play / pause / step N, a follow camera, levels, performers and owners; for a closed loop a"
            + " spike raster and rolling plots too.")
    Integer port;

    @Option(names = "--view-bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1", description = "With --view: the"
            + " address to listen on (default: ${DEFAULT-VALUE}, this machine only; 0.0.0.0: every interface).")
    String bind;

    @Option(names = "--follow", paramLabel = "MODEL", description = "With --view: the camera follows this model (a"
            + " closed loop's default: the experiment file's view.follow, else its robot).")
    String follow;

    @Option(names = "--paused", description = "With --view: start paused (run it from the page).")
    boolean paused;

    @Option(names = "--view-linger-s", paramLabel = "S", defaultValue = "-1", description = "With --view: how long the"
            + " page is served after the run ends (default: until Ctrl-C).")
    double lingerS;

    /**
     * Checks the options.
     *
     * @param spec  the command
     * @param more  the command's own options that need --view too
     * @throws ParameterException for a viewer option without --view, or a port out of range
     */
    public void check(CommandSpec spec, String... more) {
        if (port == null) {
            String[] shared = {"--view-bind", "--follow", "--paused", "--view-linger-s"};
            for (String[] names : new String[][] {shared, more}) {
                for (String o : names) {
                    if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                        throw new ParameterException(spec.commandLine(), o + " needs --view");
                    }
                }
            }
        } else if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--view takes a port in 0..65535 (0: any free one), got " + port);
        }
    }

    /** @return whether --view was given */
    public boolean on() {
        return port != null;
    }

    /** @return the port (0: any free one) */
    public int port() {
        return port;
    }

    /** @return the address to listen on */
    public String bind() {
        return bind;
    }

    /** @return the model to follow, or null */
    public String follow() {
        return follow;
    }

    /** @return whether the run starts paused */
    public boolean paused() {
        return paused;
    }

    /** @return how long the page is served after the run, s (negative: until Ctrl-C) */
    public double lingerS() {
        return lingerS;
    }
}
