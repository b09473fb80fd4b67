/**
 * Helpers shared by the {@code tandem} commands (not exported): Ctrl-C handling, registry URI
 * parsing, printing participant and system states.
 */
package io.tandem.cli.internal;
