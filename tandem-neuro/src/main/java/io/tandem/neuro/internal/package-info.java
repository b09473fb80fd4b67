/**
 * The simulator's internals: the compiled network, the per-model update kernels (exact
 * propagators, the adaptive Runge-Kutta-Fehlberg integrator), synapse tables, ring buffers and
 * the stepping engine. Not exported.
 */
package io.tandem.neuro.internal;
