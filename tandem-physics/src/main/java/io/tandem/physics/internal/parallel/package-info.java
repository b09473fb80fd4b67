/**
 * Work sharing for the step's stages ({@link io.tandem.physics.internal.parallel.ParallelLoop}):
 * loops over fixed chunks, each chunk writing only its own outputs, so every stage that uses it
 * (collision, contact rows, the solvers) gives bitwise the same result for any thread count. Used by
 * the collision and solver packages; depends on nothing else in the engine.
 */
package io.tandem.physics.internal.parallel;
