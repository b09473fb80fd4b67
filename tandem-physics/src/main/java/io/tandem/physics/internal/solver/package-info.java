/** Constraint solvers: Subsystem-ADMM, projected Gauss-Seidel, projected Jacobi. */
package io.tandem.physics.internal.solver;
