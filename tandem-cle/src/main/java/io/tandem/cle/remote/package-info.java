/**
 * Engines in processes of their own (NRP-core's engine protocols, client and server):
 * {@code RemoteEngine} is the loop's side of an engine that an {@code EngineServer} serves over
 * a tandem-cosim participant; {@code EngineLauncher} starts the server's process (the seam: the
 * {@code tandem} command supplies one running {@code tandem engine-server}). The wire format
 * ({@code EngineProtocol}, {@code DeviceCodec}) stays package-private.
 */
package io.tandem.cle.remote;
