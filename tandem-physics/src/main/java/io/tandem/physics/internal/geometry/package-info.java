/**
 * Collision geometry: shapes, mass properties, bounding boxes, broad phase and narrow phase.
 *
 * <p>Conventions (SI units, z-up world):
 *
 * <ul>
 *   <li>Poses are flat arrays: position {@code pos[3i..3i+2]} (m), orientation {@code quat[4i..4i+3]}
 *       as a unit quaternion (w, x, y, z) rotating the shape's local frame to the world.
 *   <li>{@link io.tandem.physics.internal.geometry.Shape}s are centred on their local origin:
 *       sphere (r), box (half extents), capsule (r, half segment length along z), cylinder (r, half
 *       height along z) and plane (the local xy-plane, normal +z, solid below; static only).
 *   <li>A step runs {@link io.tandem.physics.internal.geometry.AabbOps#compute} for every collider
 *       (with a margin), {@link io.tandem.physics.internal.geometry.BroadPhase#findPairs} (pairs
 *       i &lt; j sorted by i then j, static-static pairs skipped, planes paired with every non-static
 *       collider their half-space box overlaps), then
 *       {@link io.tandem.physics.internal.geometry.NarrowPhase#collide} per pair into a reused
 *       {@link io.tandem.physics.internal.geometry.ContactManifold}: normal from A to B, up to 4
 *       points midway between the surfaces, depth positive when penetrating and -gap for a gap
 *       within the margin, feature ids stable across frames for warm starting. Use the same margin
 *       for the AABBs and the narrow phase: the broad phase then finds every pair the narrow phase
 *       can report.
 *   <li>After warm-up none of these allocate; the per-step objects (NarrowPhase, BroadPhase,
 *       PairBuffer, ContactManifold) are not thread-safe, so use one set per thread. Shapes and
 *       MassProperties are immutable.
 * </ul>
 */
package io.tandem.physics.internal.geometry;
