/**
 * The commands' figures as PNG files ({@code --plot FILE.png}): {@link io.tandem.cli.plot.Figures}
 * draws them with XChart, headless, from the data a run measured; {@code tandem cle} and the
 * benches of tandem-bench use it.
 */
package io.tandem.cli.plot;
