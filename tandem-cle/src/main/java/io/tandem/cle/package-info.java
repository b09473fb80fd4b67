/**
 * The closed loop engine (seed 003; shared/specs/nrp.md): a brain engine and a physics engine
 * stepped for a fixed loop step, transfer functions turning robot data into brain input and brain
 * output into robot commands with a one-step delay, in parallel or serialized synchronization.
 */
package io.tandem.cle;
