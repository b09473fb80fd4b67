/**
 * Collision geometry: shapes, their polytope hulls, mass properties and world bounding boxes. The
 * contact pipeline that reads them (broad phase, narrow phase, contact manifolds) is in
 * {@code io.tandem.physics.internal.collision}, which depends on this package, never the reverse.
 *
 * <p>Conventions (SI units, z-up world):
 *
 * <ul>
 *   <li>Poses are flat arrays: position {@code pos[3i..3i+2]} (m), orientation {@code quat[4i..4i+3]}
 *       as a unit quaternion (w, x, y, z) rotating the shape's local frame to the world.
 *   <li>{@link io.tandem.physics.internal.geometry.Shape}s are centred on their local origin:
 *       sphere (r), box (half extents), capsule (r, half segment length along z), cylinder (r, half
 *       height along z) and plane (the local xy-plane, normal +z, solid below; static only); but a
 *       convex hull of a point cloud (a mesh, by
 *       {@link io.tandem.physics.internal.geometry.ConvexHull#of}), which lies wherever its points do.
 *   <li>{@link io.tandem.physics.internal.geometry.AabbOps#compute} gives a collider's world AABB
 *       (with a margin), the broad phase's input.
 *   <li>Shapes, their ConvexHulls and MassProperties are immutable; AabbOps is allocation-free and
 *       thread-safe.
 * </ul>
 */
package io.tandem.physics.internal.geometry;
