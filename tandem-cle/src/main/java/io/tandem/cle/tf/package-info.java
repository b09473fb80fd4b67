/**
 * The transfer-function library (the NRP's {@code tf_lib}): {@code EyeSensorTransmit} (camera to
 * Poisson rates through {@code RedDetector}'s red-pixel fractions) and {@code LinearTwist} (wheel
 * neurons to a twist command). Experiment files name them by class.
 */
package io.tandem.cle.tf;
