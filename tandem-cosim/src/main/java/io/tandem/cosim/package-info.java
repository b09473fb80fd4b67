/**
 * Tandem's participant API, a Java rendering of SIL Kit: participants, pub/sub, RPC, lifecycle,
 * distributed virtual-time synchronization, system monitor and controller.
 *
 * <p>Virtual time is {@code long} nanoseconds ({@code ...Ns}). Every participant has one thread on
 * which all of its handlers run, one at a time.
 */
package io.tandem.cosim;
