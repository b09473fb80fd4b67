/**
 * The extension point of the {@code tandem} command: modules list a
 * {@link io.tandem.cli.spi.CommandProvider} in {@code META-INF/services} to add subcommands.
 */
package io.tandem.cli.spi;
