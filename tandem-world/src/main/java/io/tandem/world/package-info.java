/**
 * Worlds: {@link io.tandem.world.SdfLoader} reads an SDF file into an immutable
 * {@link io.tandem.world.World}; {@link io.tandem.world.LevelManager} decides which levels and
 * models are loaded from the performers' positions (Gazebo's semantics); {@link
 * io.tandem.world.WorldRunner} steps levels, physics and state publication once per iteration;
 * {@link io.tandem.world.PoseRecorder} writes the poses and level events. The robot side of a
 * closed loop: {@link io.tandem.world.WorldRunner} commands joint velocity motors and reads joint
 * positions, velocities and model poses; {@link io.tandem.world.RayCastCamera} renders a camera
 * sensor's RGB image; {@link io.tandem.world.SkidSteerDrive} turns a twist into wheel speeds;
 * {@link io.tandem.world.RedDetector} is the NRP's red detection. Units are SI, z is up,
 * time steps are nanoseconds where they are virtual time.
 */
package io.tandem.world;
