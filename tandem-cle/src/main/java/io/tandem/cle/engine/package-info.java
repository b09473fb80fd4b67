/**
 * The in-process engines (one per simulator, as NRP-core has one folder per engine):
 * {@code BrainEngine} runs a tandem-neuro network behind brain devices, {@code WorldEngine} a
 * tandem-world world behind robot devices (camera, joints, poses, drive commands).
 */
package io.tandem.cle.engine;
