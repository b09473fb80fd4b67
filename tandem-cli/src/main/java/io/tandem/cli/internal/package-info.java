/**
 * Helpers shared by the {@code tandem} commands (not exported): Ctrl-C handling, registry URI
 * parsing, printing participant and system states, and the picocli mixins of the option blocks
 * several commands share ({@code tandem bench} included).
 */
package io.tandem.cli.internal;
