/** Rigid-body kinematics, the midpoint integrator and constraint assembly. */
package io.tandem.physics.internal.dynamics;
