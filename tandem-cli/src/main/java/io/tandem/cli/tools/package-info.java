/**
 * The simulation tools of {@code tandem}, after SIL Kit's utilities: {@code tandem registry},
 * {@code tandem monitor} and {@code tandem controller}.
 */
package io.tandem.cli.tools;
