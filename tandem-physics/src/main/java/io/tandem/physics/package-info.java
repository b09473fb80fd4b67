/**
 * Tandem's multibody engine: an immutable compiled model, a mutable state of flat arrays, and a
 * stepping pipeline (collision, constraint assembly, solver, midpoint integration). SI units;
 * the world is z-up.
 */
package io.tandem.physics;
