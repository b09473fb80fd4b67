package io.tandem.cli.spi;

/**
 * Contributes one subcommand to the {@code tandem} command. Implementations are found with
 * {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/io.tandem.cli.spi.CommandProvider} (and {@code provides} it in a
 * module descriptor, if the module has one). They need a public no-argument constructor.
 *
 * <p>Called once per command-line build, on the thread that builds it (the main thread for
 * {@code tandem}); each call may allocate.
 */
public interface CommandProvider {

    /**
     * Creates the command.
     *
     * @return a new picocli command object: an instance of a class annotated with
     *     {@code @picocli.CommandLine.Command}, or a {@code picocli.CommandLine}; its name is the
     *     subcommand name
     */
    Object command();

    /**
     * Where the command goes. The default, the empty string, adds it to the top-level
     * {@code tandem} command; {@code "demo"} adds it under {@code tandem demo}; nested parents are
     * separated by spaces ({@code "bench jmh"}).
     *
     * @return the space-separated names of the parent command below {@code tandem}, or empty
     */
    default String parent() {
        return "";
    }
}
