/**
 * The extension point of the {@code tandem} command: modules list a
 * {@link io.tandem.cli.spi.CommandProvider} in {@code META-INF/services} to add subcommands, and
 * their commands share the option blocks of the built-in ones as picocli mixins
 * ({@link io.tandem.cli.spi.JsonLinesOption}, {@link io.tandem.cli.spi.PhysicsSolverOptions}).
 */
package io.tandem.cli.spi;
