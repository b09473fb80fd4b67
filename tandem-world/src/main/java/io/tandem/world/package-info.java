/**
 * Worlds, in their data order (MuJoCo's read, compile, run): {@code sdf} reads an SDF file into
 * an immutable {@link io.tandem.world.World} (the model); {@code internal} compiles it to
 * tandem-physics; this package runs it: {@link io.tandem.world.LevelManager} decides which levels
 * and models are loaded from the performers' positions (Gazebo's semantics),
 * {@link io.tandem.world.WorldRunner} steps levels, physics and state publication once per
 * iteration and hands a model's full state over as a {@link io.tandem.world.ModelState},
 * {@link io.tandem.world.PoseRecorder} writes the poses and level events. {@code distributed}
 * (Gazebo's primary and secondaries) and {@code robot} (cameras and drives) build on the runner.
 * The runner also commands joint velocity motors and reads joint positions, velocities and model
 * poses for a closed loop. Units are SI, z is up, time steps are nanoseconds where they are
 * virtual time.
 */
package io.tandem.world;
