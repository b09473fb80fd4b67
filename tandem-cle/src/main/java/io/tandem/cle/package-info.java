/**
 * The closed loop engine (seed 003; shared/specs/nrp.md), NRP-core's FTI loop: what an engine or
 * transfer-function author writes against. {@code ClosedLoop} steps the {@code Engine}s for a
 * fixed loop step, in parallel or serialized ({@code SyncMode}), and runs the
 * {@code TransferFunction}s between them with a one-step delay.
 *
 * <p>Sub-packages by role: {@code device} (datapacks), {@code engine} (the in-process brain and
 * world engines), {@code remote} (engines in other processes), {@code experiment} (experiment
 * files and their runner), {@code tf} (the transfer-function library), {@code record} (what a
 * run keeps).
 */
package io.tandem.cle;
