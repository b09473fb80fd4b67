/**
 * Gazebo-style distributed worlds (seeds 000/001; gz-sim's {@code src/network}): a
 * {@code DistributedPrimary} gives performers to {@code DistributedSecondary} processes and steps
 * them in lockstep ({@code step}/{@code step_ack}) over tandem-cosim, re-evaluating affinities
 * every step and handing models over with their full {@link io.tandem.world.ModelState};
 * {@code ScenePoses} reads the scenes the primary publishes. The wire format, the affinities, the
 * scene assembly and the world digest stay package-private.
 */
package io.tandem.world.distributed;
