/**
 * Internals of the participant layer: the per-participant worker, lifecycle state machine,
 * virtual-time sync, system-state derivation, and the in-process transport. Not exported.
 */
package io.tandem.cosim.internal;
