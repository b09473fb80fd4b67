/**
 * Devices (NRP-core's datapacks): the double-buffered values that engines publish and transfer
 * functions read ({@code CameraImage}, {@code JointState}, {@code ModelPose}, {@code SpikeRecorder},
 * {@code Multimeter}, {@code LeakyIntegrator}, {@code PopulationRate}) and the commands transfer
 * functions write and engines apply ({@code PoissonSource}, {@code DcSource},
 * {@code JointVelocityCommand}, {@code TwistCommand}). {@code DeviceBinder} finds them by name.
 */
package io.tandem.cle.device;
