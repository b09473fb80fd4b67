/**
 * A NEST-like spiking network simulator: build a {@link io.tandem.neuro.SpikingNetwork} with a
 * {@link io.tandem.neuro.NetworkBuilder} (neuron and device models by NEST name, parameters in
 * NEST units: mV, pA, pF, nS, ms, Hz), then advance it in whole resolution steps with virtual
 * time in {@code long} nanoseconds. Models: {@code iaf_psc_alpha}, {@code iaf_psc_exp},
 * {@code iaf_cond_alpha}, {@code poisson_generator}, {@code dc_generator},
 * {@code spike_generator} (each with NEST's {@code start}, {@code stop}, {@code origin}),
 * {@code spike_recorder}, {@code multimeter}; synapses {@code static_synapse} and
 * {@code tsodyks_synapse}. {@link io.tandem.neuro.BraitenbergBrain} builds the Husky Braitenberg
 * brain of the NRP reference experiment.
 */
package io.tandem.neuro;
