/**
 * The viewer: {@code tandem sim|cle --view} and {@code tandem view RECORDING}. {@link
 * io.tandem.cli.view.ViewerServer} serves the page (three.js, uPlot) and one WebSocket over Jetty 12;
 * {@link io.tandem.cli.view.ViewerHub} keeps the latest scene, state, status and pose frame and sends
 * each page the newest it has not seen, one message in flight per page (latest-wins, so a slow tab
 * never slows stepping); {@link io.tandem.cli.view.ViewerControl} is what the page's buttons act on: a
 * standalone run, a distributed primary (as {@code tandem world-control}), or a replay ({@link
 * io.tandem.cli.view.Replay}).
 */
package io.tandem.cli.view;
