/**
 * The transport service-provider interface: what a transport (in-process, networked) must offer
 * the participant layer. Every transport runs the same behaviour contract suite.
 *
 * <p>Also the primitive under every binary codec of the project (the networked transport's
 * frames, the closed loop's remote-engine frames, the distributed world's messages):
 * {@link io.tandem.cosim.spi.FrameWriter} and {@link io.tandem.cosim.spi.FrameReader}, little-endian,
 * with the codec's own {@link io.tandem.cosim.spi.FrameErrors}. Codecs stay explicit, one per message.
 */
package io.tandem.cosim.spi;
