/**
 * Child processes of a simulation (NRP-core's process launchers): {@link io.tandem.cosim.process.ChildJvm}
 * starts a participant's JVM (a local secondary, an engine server, a benchmark's participant)
 * with this JVM's class path and settings, reads its output, and ends it. The one launcher of
 * the project.
 */
package io.tandem.cosim.process;
