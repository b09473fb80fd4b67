/**
 * The transport service-provider interface: what a transport (in-process, networked) must offer
 * the participant layer. Every transport runs the same behaviour contract suite.
 */
package io.tandem.cosim.spi;
