/**
 * The networked transport of Tandem ({@code tandem://host:port}): participants in separate
 * processes and on separate hosts. Per-step traffic goes over Aeron (IPC through the registry's
 * media driver on one host); membership and failure detection go over a JGroups group whose
 * well-known initial member is the registry. Selected through
 * {@link io.tandem.cosim.Participant#connect} and {@link io.tandem.cosim.Registry#start} by the URI
 * scheme; {@link io.tandem.net.AeronTransport} is the entry point for explicit configuration.
 */
package io.tandem.net;
