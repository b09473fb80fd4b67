/**
 * What a closed-loop run keeps: the robot's {@code Trajectory}, the {@code SpikeTrains} of every
 * spike recorder and the {@code MultimeterTraces} of every multimeter, written by the loop and
 * read by users and the experiment runner's CSV outputs.
 */
package io.tandem.cle.record;
