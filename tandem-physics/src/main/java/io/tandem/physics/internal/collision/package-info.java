/**
 * Collision detection, one stage after the other: the broad phase
 * ({@link io.tandem.physics.internal.collision.BroadPhase}, by sweep and prune or a uniform grid)
 * turns the colliders' world AABBs into candidate pairs, the narrow phase
 * ({@link io.tandem.physics.internal.collision.NarrowPhase}, closed-form pairs plus SAT and GJK on
 * polytope hulls) turns each pair into a
 * {@link io.tandem.physics.internal.collision.ContactManifold} of contact points. Shapes, hulls and
 * AABBs come from {@code io.tandem.physics.internal.geometry}; this package depends on it, never
 * the reverse.
 *
 * <ul>
 *   <li>A step runs {@link io.tandem.physics.internal.geometry.AabbOps#compute} for every collider
 *       (with a margin), {@link io.tandem.physics.internal.collision.BroadPhase#findPairs} (pairs
 *       i &lt; j sorted by i then j, static-static pairs skipped, planes paired with every non-static
 *       collider their half-space box overlaps), then
 *       {@link io.tandem.physics.internal.collision.NarrowPhase#collide} per pair into a reused
 *       {@link io.tandem.physics.internal.collision.ContactManifold}: normal from A to B, up to 4
 *       points midway between the surfaces, depth positive when penetrating and -gap for a gap
 *       within the margin, feature ids stable across frames for warm starting. Use the same margin
 *       for the AABBs and the narrow phase: the broad phase then finds every pair the narrow phase
 *       can report.
 *   <li>After warm-up none of these allocate; the per-step objects (NarrowPhase, BroadPhase,
 *       PairBuffer, ContactManifold) are not thread-safe, so use one set per thread.
 * </ul>
 */
package io.tandem.physics.internal.collision;
