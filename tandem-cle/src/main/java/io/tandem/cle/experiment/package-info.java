/**
 * Experiment files (NRP-core's simulation configuration and its schemas): {@code ExperimentFile}
 * reads and checks a JSON or YAML experiment (errors name file:line:column and the fix),
 * {@code BrainSpec} describes its brain, and {@code ExperimentRunner} builds the engines, devices
 * and transfer functions it names into a {@code ClosedLoop} and runs it. The reader, the schema
 * and the brain reader stay package-private.
 */
package io.tandem.cle.experiment;
