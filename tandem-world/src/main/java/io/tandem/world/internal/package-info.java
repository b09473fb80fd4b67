/**
 * Compiling a world to physics (MuJoCo's {@code src/user}), not exported: {@code PhysicsCompiler}
 * turns the loaded models into a tandem-physics model, {@code JointTable} resolves joints by
 * scoped name, {@code VisualScene} holds what cameras see, {@code PoseMath} is pose arithmetic on
 * flat arrays.
 */
package io.tandem.world.internal;
