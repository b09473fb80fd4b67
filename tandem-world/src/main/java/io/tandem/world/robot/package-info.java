/**
 * The robot side of a world (gz-sim's sensor and drive systems): {@code RayCastCamera} renders
 * SDF camera sensors by ray casting the runner's visual scene, {@code SkidSteerDrive} turns a
 * twist into wheel joint speeds. Both build on a {@link io.tandem.world.WorldRunner}.
 */
package io.tandem.world.robot;
