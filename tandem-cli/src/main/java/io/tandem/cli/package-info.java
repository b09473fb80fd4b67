/**
 * The {@code tandem} command: {@link io.tandem.cli.TandemCli} builds the picocli command tree
 * from the built-in commands and every {@link io.tandem.cli.spi.CommandProvider} on the class
 * path, and runs it.
 */
package io.tandem.cli;
