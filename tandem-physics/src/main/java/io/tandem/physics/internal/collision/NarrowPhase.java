package io.tandem.physics.internal.collision;

import io.tandem.physics.internal.geometry.Shape;
import io.tandem.physics.internal.geometry.ShapeType;

/*
 * Implementation notes
 *
 * Dispatch. A pair is evaluated in the canonical order of ShapeType (SPHERE < BOX < CAPSULE <
 * CYLINDER < CONVEX < PLANE); when the caller's A has the higher ordinal the pair is evaluated
 * swapped and the normal negated afterwards, so the normal always points from the caller's A to B.
 * Points and depths do not depend on the order; feature ids are those of the canonical order
 * (stable, since the order depends only on the types).
 *
 * Exact, closed-form pairs (closest points, [1] chapter 5):
 *   sphere-sphere, sphere-plane, capsule-plane (both segment ends), box-plane (the 8 vertices,
 *   reduced to 4), sphere-box (clamp the centre into the box; inside: the face of least
 *   penetration), sphere-capsule (closest point on the segment), capsule-capsule (closest points of
 *   the segments [1] 5.1.9; segments within ~5.7 degrees of parallel that overlap along their axis
 *   give two points: the ends of B's overlap interval against their projections on A, sharing the
 *   normal, so capsules lying side by side are stable), sphere-cylinder (closest point on the solid
 *   cylinder; inside: the nearer of side and cap) and cylinder-plane (rim points: on each cap the
 *   lowest rim point plus four rim points at the local +-x, +-y directions, all exact surface points
 *   with exact plane distances, reduced to 4; a flat-standing cylinder gets 4 points, one lying on
 *   its side gets the two lowest rim points, a tilted one its lowest rim point first).
 * Polytope pairs, see HullCollider: box-box (SAT with face clipping, up to 4 points), box-capsule
 * and capsule-cylinder (GJK on the cores when separated, SAT when the cores overlap, up to 2
 * points), box-cylinder and cylinder-cylinder (SAT with clipping).
 *
 * Convex hulls (CONVEX, any polytope of up to ConvexHull.MAX_FEATURES - 1 vertices, faces and
 * edges, not necessarily around its shape origin): against box, cylinder (its prism) and convex
 * the SAT with clipping, against a capsule the hull-capsule code, all of HullCollider; against a
 * sphere the exact closest point of the hull to the centre (ConvexHull.closestPoint: the face whose
 * polygon holds the centre's projection, else the nearest edge or vertex), and a centre inside the
 * hull is pushed out through the face of least penetration, as for sphere-box; against a plane
 * the hull's vertices within the margin, reduced to 4 (deepest first, then spread) by
 * ContactCandidates, as for box-plane. Feature ids: sphere-convex the code of closestPoint,
 * convex-plane the vertex index.
 *
 * Cylinder approximation: against boxes, capsules and cylinders the cylinder is replaced by the
 * inscribed regular 16-gon prism (Shape.CYLINDER_PRISM_SIDES). The prism's vertices lie on the
 * rim, so cap contacts (a cylinder standing on a box) are exact at the prism's vertices, and the
 * largest inward error, at the middle of a side face, is r (1 - cos(pi/16)) = 1.9 % of r; a cylinder
 * rolling on a box would therefore bump by up to 1.9 % of r, losing energy at every edge (a cylinder
 * rolling down a box incline at mu 0.1 ran 44 % slow). So box-cylinder keeps the prism only to find
 * the contact: when its normal is within 10 degrees of a face normal of the box (a cylinder standing,
 * lying or rolling on a face), the points are replaced by the exact rim points of cylinder-plane
 * against that face's plane, kept where they lie over the face (the prism's points stay when none
 * does: a cylinder over an edge). Sphere-cylinder and cylinder-plane (the wheel on the ground) are
 * exact. GJK/EPA on the exact support function would remove the remaining error (edges, capsules,
 * two cylinders) at the cost of a persistent manifold for multi-point contacts; not done.
 *
 * Degenerate normals (coincident centres or core segments) fall back to a fixed direction: world
 * +z for two spheres, the capsule's local x axis (perpendicular to its segment) otherwise.
 *
 * Poses must be finite; a result with a NaN or infinite value (from a NaN pose) is dropped and
 * counted in invalidCount() instead of reaching the solver.
 *
 * All scratch lives in this instance: one NarrowPhase per thread, no allocation per call.
 *
 * [1] C. Ericson, "Real-Time Collision Detection", Morgan Kaufmann 2005.
 */

/**
 * Contact generation for one pair of shapes at their poses ({@link #collide}). Every pair among
 * sphere, box, capsule, cylinder, convex hull and plane is supported (plane-plane never touches).
 * Contacts with a separation up to the margin are reported with negative depth.
 *
 * <p>Not thread-safe: it owns the scratch space, so use one instance per thread. Allocation-free
 * after construction.
 */
public final class NarrowPhase {
    private static final double PARALLEL_COS = 0.995;
    private static final double TINY = 1e-12;
    /** box-cylinder: a contact normal within 10 degrees of a box face normal uses that face's plane */
    private static final double FACE_COS = 0.985;
    private final double[] facePoint = new double[3];
    /** sphere-convex: closest point, normal, signed distance (ConvexHull.closestPoint) */
    private final double[] closest = new double[7];
    /** centreInB's result: p1 in the frame of shape b (r2, p2) */
    private final double[] local = new double[3];

    /** (3 x 3) row-major rotation of the first shape of the canonical pair */
    private final double[] r1 = new double[9];
    private final double[] r2 = new double[9];
    private final double[] p1 = new double[3];
    private final double[] p2 = new double[3];
    private final double[] st = new double[2];
    private final ContactCandidates cand = new ContactCandidates();
    private final HullCollider hulls = new HullCollider(cand);

    private long invalidCount;

    /** Creates a narrow phase with its scratch space. */
    public NarrowPhase() {
        cand.clear();
    }

    /**
     * Contacts between shape a at pose ia and shape b at pose ib, both read from the same pose
     * arrays.
     *
     * @param a shape A. Not modified.
     * @param pos positions, (n x 3) m. Not modified.
     * @param quat orientations, (n x 4) unit quaternions (w, x, y, z), local to world. Not modified.
     * @param ia pose index of A
     * @param b shape B. Not modified.
     * @param ib pose index of B
     * @param margin contacts with a surface gap up to this distance are reported (depth = -gap), m
     * @param out receives the manifold, normal from A to B. Modified (reset first).
     * @return the number of contact points, 0..4
     */
    public int collide(
            Shape a, double[] pos, double[] quat, int ia, Shape b, int ib, double margin, ContactManifold out) {
        return collide(a, pos, quat, ia, b, pos, quat, ib, margin, out);
    }

    /**
     * Contacts between shape a at pose ia of (posA, quatA) and shape b at pose ib of (posB, quatB).
     *
     * @param a shape A. Not modified.
     * @param posA positions of A's array, (n x 3) m. Not modified.
     * @param quatA orientations of A's array, (n x 4) unit quaternions (w, x, y, z). Not modified.
     * @param ia pose index of A
     * @param b shape B. Not modified.
     * @param posB positions of B's array, m. Not modified.
     * @param quatB orientations of B's array. Not modified.
     * @param ib pose index of B
     * @param margin contacts with a surface gap up to this distance are reported (depth = -gap), m
     * @param out receives the manifold, normal from A to B. Modified (reset first).
     * @return the number of contact points, 0..4
     */
    public int collide(Shape a, double[] posA, double[] quatA, int ia, Shape b, double[] posB, double[] quatB, int ib,
            double margin, ContactManifold out) {
        out.reset();
        out.colliderA = ia;
        out.colliderB = ib;
        cand.clear();
        boolean swap = a.type().ordinal() > b.type().ordinal();
        if (swap) {
            load(posB, quatB, ib, b, posA, quatA, ia, a);
            dispatch(b, a, margin);
        } else {
            load(posA, quatA, ia, a, posB, quatB, ib, b);
            dispatch(a, b, margin);
        }
        if (cand.count == 0) {
            return 0;
        }
        if (!finite(cand)) {
            // non-finite pose: report nothing and count it (the broad phase already skips NaN boxes)
            invalidCount++;
            return 0;
        }
        int n = cand.emit(out);
        if (swap) {
            out.flipNormal();
        }
        return n;
    }

    /**
     * Number of calls that produced a non-finite normal, point or depth (a NaN or infinite pose)
     * and therefore reported no contact.
     *
     * @return the count since construction
     */
    public long invalidCount() {
        return invalidCount;
    }

    private static boolean finite(ContactCandidates c) {
        double sum = c.nx + c.ny + c.nz;
        for (int k = 0; k < c.count; k++) {
            sum += c.depth[k] + c.point[3 * k] + c.point[3 * k + 1] + c.point[3 * k + 2];
        }
        // NaN and +-infinity (also inf - inf) all fail this test
        return sum - sum == 0;
    }

    /** Poses in canonical order; a sphere's rotation is never read, so it is not computed. */
    private void load(double[] posA, double[] quatA, int ia, Shape a, double[] posB, double[] quatB, int ib, Shape b) {
        if (a.type() != ShapeType.SPHERE) {
            GeomOps.quatToMatrix(quatA, ia, r1, 0);
        }
        if (b.type() != ShapeType.SPHERE) {
            GeomOps.quatToMatrix(quatB, ib, r2, 0);
        }
        p1[0] = posA[3 * ia];
        p1[1] = posA[3 * ia + 1];
        p1[2] = posA[3 * ia + 2];
        p2[0] = posB[3 * ib];
        p2[1] = posB[3 * ib + 1];
        p2[2] = posB[3 * ib + 2];
    }

    /** Canonical order: a.type().ordinal() &lt;= b.type().ordinal(); pose of a in (r1, p1), of b in (r2, p2). */
    private void dispatch(Shape a, Shape b, double margin) {
        switch (a.type()) {
            case SPHERE -> {
                switch (b.type()) {
                    case SPHERE -> sphereSphere(
                            p1[0], p1[1], p1[2], a.radius(), p2[0], p2[1], p2[2], b.radius(), margin, 0, 0, 1, 0);
                    case BOX -> sphereBox(a, b, margin);
                    case CAPSULE -> sphereCapsule(a, b, margin);
                    case CYLINDER -> sphereCylinder(a, b, margin);
                    case CONVEX -> sphereConvex(a, b, margin);
                    case PLANE -> spherePlane(a, margin);
                }
            }
            case BOX -> {
                switch (b.type()) {
                    case BOX -> hulls.hullHull(a, r1, p1, b, r2, p2, margin);
                    case CYLINDER -> boxCylinder(a, b, margin);
                    case CAPSULE -> hulls.hullCapsule(a, r1, p1, b, r2, p2, true, margin);
                    case CONVEX -> hulls.hullHull(a, r1, p1, b, r2, p2, margin);
                    case PLANE -> boxPlane(a, margin);
                    case SPHERE -> throw new AssertionError("non-canonical pair");
                }
            }
            case CAPSULE -> {
                switch (b.type()) {
                    case CAPSULE -> capsuleCapsule(a, b, margin);
                    case CYLINDER, CONVEX -> hulls.hullCapsule(b, r2, p2, a, r1, p1, false, margin);
                    case PLANE -> capsulePlane(a, margin);
                    case SPHERE, BOX -> throw new AssertionError("non-canonical pair");
                }
            }
            case CYLINDER -> {
                switch (b.type()) {
                    case CYLINDER, CONVEX -> hulls.hullHull(a, r1, p1, b, r2, p2, margin);
                    case PLANE -> cylinderPlane(a, margin);
                    case SPHERE, BOX, CAPSULE -> throw new AssertionError("non-canonical pair");
                }
            }
            case CONVEX -> {
                switch (b.type()) {
                    case CONVEX -> hulls.hullHull(a, r1, p1, b, r2, p2, margin);
                    case PLANE -> convexPlane(a, margin);
                    case SPHERE, BOX, CAPSULE, CYLINDER -> throw new AssertionError("non-canonical pair");
                }
            }
            case PLANE -> {
                // planes are static and infinite: never in contact with each other
            }
        }
    }

    // ---------------------------------------------------------------- spheres

    /** Two balls; (fx, fy, fz) is the normal used when the centres coincide. */
    private void sphereSphere(double ax, double ay, double az, double ra, double bx, double by, double bz, double rb,
            double margin, double fx, double fy, double fz, int feature) {
        double dx = bx - ax;
        double dy = by - ay;
        double dz = bz - az;
        double dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double sep = dist - ra - rb;
        if (sep > margin) {
            return;
        }
        double nx;
        double ny;
        double nz;
        if (dist > TINY * (ra + rb)) {
            nx = dx / dist;
            ny = dy / dist;
            nz = dz / dist;
        } else {
            nx = fx;
            ny = fy;
            nz = fz;
        }
        // midway between A's surface point a + n ra and B's b - n rb
        cand.setNormal(nx, ny, nz);
        cand.add(0.5 * (ax + bx + nx * (ra - rb)), 0.5 * (ay + by + ny * (ra - rb)), 0.5 * (az + bz + nz * (ra - rb)),
                -sep, feature);
    }

    private void spherePlane(Shape a, double margin) {
        double r = a.radius();
        double nx = r2[2];
        double ny = r2[5];
        double nz = r2[8];
        double h = (p1[0] - p2[0]) * nx + (p1[1] - p2[1]) * ny + (p1[2] - p2[2]) * nz;
        double sep = h - r;
        if (sep > margin) {
            return;
        }
        double m = 0.5 * (r + h);
        cand.setNormal(-nx, -ny, -nz);
        cand.add(p1[0] - nx * m, p1[1] - ny * m, p1[2] - nz * m, -sep, 0);
    }

    /** Shape a's centre (p1) in shape b's frame (r2^T (p1 - p2)), into {@link #local}. */
    private void centreInB() {
        double dx = p1[0] - p2[0];
        double dy = p1[1] - p2[1];
        double dz = p1[2] - p2[2];
        double[] m = r2;
        local[0] = m[0] * dx + m[3] * dy + m[6] * dz;
        local[1] = m[1] * dx + m[4] * dy + m[7] * dz;
        local[2] = m[2] * dx + m[5] * dy + m[8] * dz;
    }

    private void sphereBox(Shape a, Shape b, double margin) {
        double r = a.radius();
        double hx = b.halfExtentX();
        double hy = b.halfExtentY();
        double hz = b.halfExtentZ();
        double[] m = r2;
        centreInB();
        double lx = local[0];
        double ly = local[1];
        double lz = local[2];
        double qx = GeomOps.clamp(lx, -hx, hx);
        double qy = GeomOps.clamp(ly, -hy, hy);
        double qz = GeomOps.clamp(lz, -hz, hz);
        double ex = lx - qx;
        double ey = ly - qy;
        double ez = lz - qz;
        double e2 = ex * ex + ey * ey + ez * ez;
        double nx;
        double ny;
        double nz;
        double sep;
        int feature;
        if (e2 > 0) {
            double dist = Math.sqrt(e2);
            sep = dist - r;
            if (sep > margin) {
                return;
            }
            nx = ex / dist;
            ny = ey / dist;
            nz = ez / dist;
            feature = region(lx, hx) + 3 * region(ly, hy) + 9 * region(lz, hz);
        } else {
            // centre inside: push out through the face of least penetration
            double px = hx - Math.abs(lx);
            double py = hy - Math.abs(ly);
            double pz = hz - Math.abs(lz);
            nx = 0;
            ny = 0;
            nz = 0;
            if (px <= py && px <= pz) {
                nx = lx >= 0 ? 1 : -1;
                qx = nx * hx;
                sep = -px - r;
                feature = 27 + (nx > 0 ? 1 : 0);
            } else if (py <= pz) {
                ny = ly >= 0 ? 1 : -1;
                qy = ny * hy;
                sep = -py - r;
                feature = 29 + (ny > 0 ? 1 : 0);
            } else {
                nz = lz >= 0 ? 1 : -1;
                qz = nz * hz;
                sep = -pz - r;
                feature = 31 + (nz > 0 ? 1 : 0);
            }
        }
        // (nx, ny, nz) points from the box to the sphere, in the box frame
        double cx = 0.5 * (qx + lx - nx * r);
        double cy = 0.5 * (qy + ly - ny * r);
        double cz = 0.5 * (qz + lz - nz * r);
        cand.setNormal(-(m[0] * nx + m[1] * ny + m[2] * nz), -(m[3] * nx + m[4] * ny + m[5] * nz),
                -(m[6] * nx + m[7] * ny + m[8] * nz));
        cand.add(p2[0] + m[0] * cx + m[1] * cy + m[2] * cz, p2[1] + m[3] * cx + m[4] * cy + m[5] * cz,
                p2[2] + m[6] * cx + m[7] * cy + m[8] * cz, -sep, feature);
    }

    private static int region(double v, double h) {
        return v < -h ? 0 : (v > h ? 2 : 1);
    }

    private void sphereCapsule(Shape a, Shape b, double margin) {
        double h = b.halfLength();
        double ux = r2[2];
        double uy = r2[5];
        double uz = r2[8];
        double t = GeomOps.clamp((p1[0] - p2[0]) * ux + (p1[1] - p2[1]) * uy + (p1[2] - p2[2]) * uz, -h, h);
        int feature = t <= -h ? 0 : (t >= h ? 1 : 2);
        // coincident centre and segment point: fall back to the capsule's local x axis (normal to the segment)
        sphereSphere(p1[0], p1[1], p1[2], a.radius(), p2[0] + ux * t, p2[1] + uy * t, p2[2] + uz * t, b.radius(),
                margin, r2[0], r2[3], r2[6], feature);
    }

    private void sphereCylinder(Shape a, Shape b, double margin) {
        double rs = a.radius();
        double r = b.radius();
        double h = b.halfLength();
        double[] m = r2;
        centreInB();
        double lx = local[0];
        double ly = local[1];
        double lz = local[2];
        double rho = Math.sqrt(lx * lx + ly * ly);
        double qx;
        double qy;
        double qz;
        double nx;
        double ny;
        double nz;
        double sep;
        int feature;
        if (rho > r || Math.abs(lz) > h) {
            if (rho > r) {
                qx = lx * r / rho;
                qy = ly * r / rho;
            } else {
                qx = lx;
                qy = ly;
            }
            qz = GeomOps.clamp(lz, -h, h);
            double ex = lx - qx;
            double ey = ly - qy;
            double ez = lz - qz;
            double dist = Math.sqrt(ex * ex + ey * ey + ez * ez);
            sep = dist - rs;
            if (sep > margin) {
                return;
            }
            nx = ex / dist;
            ny = ey / dist;
            nz = ez / dist;
            if (Math.abs(lz) <= h) {
                feature = 0;
            } else if (rho <= r) {
                feature = lz > 0 ? 2 : 1;
            } else {
                feature = lz > 0 ? 4 : 3;
            }
        } else {
            double side = r - rho;
            double cap = h - Math.abs(lz);
            if (side < cap) {
                if (rho > TINY * r) {
                    nx = lx / rho;
                    ny = ly / rho;
                } else {
                    nx = 1;
                    ny = 0;
                }
                nz = 0;
                qx = nx * r;
                qy = ny * r;
                qz = lz;
                sep = -side - rs;
                feature = 5;
            } else {
                nx = 0;
                ny = 0;
                nz = lz >= 0 ? 1 : -1;
                qx = lx;
                qy = ly;
                qz = nz * h;
                sep = -cap - rs;
                feature = nz > 0 ? 7 : 6;
            }
        }
        double cx = 0.5 * (qx + lx - nx * rs);
        double cy = 0.5 * (qy + ly - ny * rs);
        double cz = 0.5 * (qz + lz - nz * rs);
        cand.setNormal(-(m[0] * nx + m[1] * ny + m[2] * nz), -(m[3] * nx + m[4] * ny + m[5] * nz),
                -(m[6] * nx + m[7] * ny + m[8] * nz));
        cand.add(p2[0] + m[0] * cx + m[1] * cy + m[2] * cz, p2[1] + m[3] * cx + m[4] * cy + m[5] * cz,
                p2[2] + m[6] * cx + m[7] * cy + m[8] * cz, -sep, feature);
    }

    /** Sphere a (p1) and convex hull b (r2, p2): the hull's closest point to the centre (see the notes). */
    private void sphereConvex(Shape a, Shape b, double margin) {
        double r = a.radius();
        double[] m = r2;
        centreInB();
        double lx = local[0];
        double ly = local[1];
        double lz = local[2];
        int feature = b.hull.closestPoint(lx, ly, lz, closest);
        double sep = closest[6] - r;
        if (sep > margin) {
            return;
        }
        // (nx, ny, nz) points from the hull to the sphere, in the hull frame
        double nx = closest[3];
        double ny = closest[4];
        double nz = closest[5];
        double cx = 0.5 * (closest[0] + lx - nx * r);
        double cy = 0.5 * (closest[1] + ly - ny * r);
        double cz = 0.5 * (closest[2] + lz - nz * r);
        cand.setNormal(-(m[0] * nx + m[1] * ny + m[2] * nz), -(m[3] * nx + m[4] * ny + m[5] * nz),
                -(m[6] * nx + m[7] * ny + m[8] * nz));
        cand.add(p2[0] + m[0] * cx + m[1] * cy + m[2] * cz, p2[1] + m[3] * cx + m[4] * cy + m[5] * cz,
                p2[2] + m[6] * cx + m[7] * cy + m[8] * cz, -sep, feature);
    }

    // ---------------------------------------------------------------- capsules

    private void capsuleCapsule(Shape a, Shape b, double margin) {
        double ra = a.radius();
        double rb = b.radius();
        double ha = a.halfLength();
        double hb = b.halfLength();
        double uax = r1[2];
        double uay = r1[5];
        double uaz = r1[8];
        double ubx = r2[2];
        double uby = r2[5];
        double ubz = r2[8];
        // segments P1 + s D1 and P2 + t D2
        double p1x = p1[0] - uax * ha;
        double p1y = p1[1] - uay * ha;
        double p1z = p1[2] - uaz * ha;
        double d1x = 2 * ha * uax;
        double d1y = 2 * ha * uay;
        double d1z = 2 * ha * uaz;
        double p2x = p2[0] - ubx * hb;
        double p2y = p2[1] - uby * hb;
        double p2z = p2[2] - ubz * hb;
        double d2x = 2 * hb * ubx;
        double d2y = 2 * hb * uby;
        double d2z = 2 * hb * ubz;
        GeomOps.closestSegmentSegment(p1x, p1y, p1z, d1x, d1y, d1z, p2x, p2y, p2z, d2x, d2y, d2z, st);
        double s = st[0];
        double t = st[1];
        double c1x = p1x + s * d1x;
        double c1y = p1y + s * d1y;
        double c1z = p1z + s * d1z;
        double c2x = p2x + t * d2x;
        double c2y = p2y + t * d2y;
        double c2z = p2z + t * d2z;
        double ex = c2x - c1x;
        double ey = c2y - c1y;
        double ez = c2z - c1z;
        double dist = Math.sqrt(ex * ex + ey * ey + ez * ez);
        double sep = dist - ra - rb;
        if (sep > margin) {
            return;
        }
        double cos = uax * ubx + uay * uby + uaz * ubz;
        double nx;
        double ny;
        double nz;
        if (dist > TINY * (ra + rb + ha + hb)) {
            nx = ex / dist;
            ny = ey / dist;
            nz = ez / dist;
        } else {
            // crossing or collinear cores: perpendicular to both segments, else to A's
            double cx = uay * ubz - uaz * uby;
            double cy = uaz * ubx - uax * ubz;
            double cz = uax * uby - uay * ubx;
            double c = Math.sqrt(cx * cx + cy * cy + cz * cz);
            if (c > 1e-6) {
                nx = cx / c;
                ny = cy / c;
                nz = cz / c;
            } else {
                double wx = p2[0] - p1[0];
                double wy = p2[1] - p1[1];
                double wz = p2[2] - p1[2];
                double wu = wx * uax + wy * uay + wz * uaz;
                wx -= wu * uax;
                wy -= wu * uay;
                wz -= wu * uaz;
                double wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
                if (wl > TINY * (ra + rb + ha + hb)) {
                    nx = wx / wl;
                    ny = wy / wl;
                    nz = wz / wl;
                } else {
                    nx = r1[0];
                    ny = r1[3];
                    nz = r1[6];
                }
            }
            if (nx * (p2[0] - p1[0]) + ny * (p2[1] - p1[1]) + nz * (p2[2] - p1[2]) < 0) {
                nx = -nx;
                ny = -ny;
                nz = -nz;
            }
        }
        cand.setNormal(nx, ny, nz);
        if (Math.abs(cos) >= PARALLEL_COS && twoPointCapsules(p1x, p1y, p1z, uax, uay, uaz, 2 * ha,
                p2x, p2y, p2z, d2x, d2y, d2z, ra, rb, nx, ny, nz, margin)) {
            return;
        }
        int feature = 3 * (s <= 0 ? 0 : (s >= 1 ? 2 : 1)) + (t <= 0 ? 0 : (t >= 1 ? 2 : 1));
        double mx = 0.5 * (c1x + c2x + nx * (ra - rb));
        double my = 0.5 * (c1y + c2y + ny * (ra - rb));
        double mz = 0.5 * (c1z + c2z + nz * (ra - rb));
        cand.add(mx, my, mz, -sep, feature);
    }

    /**
     * Nearly parallel capsules: the ends of the part of segment B that projects onto segment A,
     * each against its projection; returns false when the overlap is too short.
     */
    private boolean twoPointCapsules(double p1x, double p1y, double p1z, double ux, double uy, double uz, double lenA,
            double p2x, double p2y, double p2z, double d2x, double d2y, double d2z, double ra, double rb,
            double nx, double ny, double nz, double margin) {
        double tau0 = (p2x - p1x) * ux + (p2y - p1y) * uy + (p2z - p1z) * uz;
        double dtau = d2x * ux + d2y * uy + d2z * uz;
        double ta = -tau0 / dtau;
        double tb = (lenA - tau0) / dtau;
        double lo = Math.max(0.0, Math.min(ta, tb));
        double hi = Math.min(1.0, Math.max(ta, tb));
        if ((hi - lo) * Math.abs(dtau) <= 1e-3 * lenA) {
            return false;
        }
        int added = 0;
        for (int k = 0; k < 2; k++) {
            double t = k == 0 ? lo : hi;
            double bx = p2x + t * d2x;
            double by = p2y + t * d2y;
            double bz = p2z + t * d2z;
            double tau = GeomOps.clamp((bx - p1x) * ux + (by - p1y) * uy + (bz - p1z) * uz, 0.0, lenA);
            double ax = p1x + tau * ux;
            double ay = p1y + tau * uy;
            double az = p1z + tau * uz;
            double sep = (bx - ax) * nx + (by - ay) * ny + (bz - az) * nz - ra - rb;
            if (sep <= margin) {
                int code;
                if (k == 0) {
                    code = lo == 0.0 ? 0 : (lo == ta ? 2 : 3);
                } else {
                    code = hi == 1.0 ? 1 : (hi == ta ? 2 : 3);
                }
                cand.add(0.5 * (ax + bx + nx * (ra - rb)), 0.5 * (ay + by + ny * (ra - rb)),
                        0.5 * (az + bz + nz * (ra - rb)), -sep, 0x100 | code);
                added++;
            }
        }
        return added > 0;
    }

    // ---------------------------------------------------------------- planes

    private void capsulePlane(Shape a, double margin) {
        double r = a.radius();
        double h = a.halfLength();
        double nx = r2[2];
        double ny = r2[5];
        double nz = r2[8];
        double ux = r1[2];
        double uy = r1[5];
        double uz = r1[8];
        cand.setNormal(-nx, -ny, -nz);
        for (int k = 0; k < 2; k++) {
            double sgn = k == 0 ? -h : h;
            double ex = p1[0] + ux * sgn;
            double ey = p1[1] + uy * sgn;
            double ez = p1[2] + uz * sgn;
            double d = (ex - p2[0]) * nx + (ey - p2[1]) * ny + (ez - p2[2]) * nz;
            double sep = d - r;
            if (sep <= margin) {
                double m = 0.5 * (r + d);
                cand.add(ex - nx * m, ey - ny * m, ez - nz * m, -sep, k);
            }
        }
    }

    private void boxPlane(Shape a, double margin) {
        double nx = r2[2];
        double ny = r2[5];
        double nz = r2[8];
        double hx = a.halfExtentX();
        double hy = a.halfExtentY();
        double hz = a.halfExtentZ();
        double[] m = r1;
        cand.setNormal(-nx, -ny, -nz);
        for (int v = 0; v < 8; v++) {
            double x = (v & 1) != 0 ? hx : -hx;
            double y = (v & 2) != 0 ? hy : -hy;
            double z = (v & 4) != 0 ? hz : -hz;
            double wx = p1[0] + m[0] * x + m[1] * y + m[2] * z;
            double wy = p1[1] + m[3] * x + m[4] * y + m[5] * z;
            double wz = p1[2] + m[6] * x + m[7] * y + m[8] * z;
            double sep = (wx - p2[0]) * nx + (wy - p2[1]) * ny + (wz - p2[2]) * nz;
            if (sep <= margin) {
                double hh = 0.5 * sep;
                cand.add(wx - nx * hh, wy - ny * hh, wz - nz * hh, -sep, v);
            }
        }
    }

    /** Convex hull a (r1, p1) against the plane (r2, p2): its vertices within the margin (reduced to 4 on emit). */
    private void convexPlane(Shape a, double margin) {
        double nx = r2[2];
        double ny = r2[5];
        double nz = r2[8];
        double[] m = r1;
        double[] v = a.hull.vertices;
        cand.setNormal(-nx, -ny, -nz);
        for (int k = 0; k < a.hull.vertexCount; k++) {
            double x = v[3 * k];
            double y = v[3 * k + 1];
            double z = v[3 * k + 2];
            double wx = p1[0] + m[0] * x + m[1] * y + m[2] * z;
            double wy = p1[1] + m[3] * x + m[4] * y + m[5] * z;
            double wz = p1[2] + m[6] * x + m[7] * y + m[8] * z;
            double sep = (wx - p2[0]) * nx + (wy - p2[1]) * ny + (wz - p2[2]) * nz;
            if (sep <= margin) {
                double hh = 0.5 * sep;
                cand.add(wx - nx * hh, wy - ny * hh, wz - nz * hh, -sep, k);
            }
        }
    }

    /** Box a (r1, p1) and cylinder b (r2, p2): the prism's SAT, then exact rim points on a face (see the notes). */
    private void boxCylinder(Shape box, Shape cyl, double margin) {
        hulls.hullHull(box, r1, p1, cyl, r2, p2, margin);
        if (cand.count == 0) {
            return;
        }
        // the face of the box the normal (box to cylinder) leaves through
        int face = -1;
        double sign = 0;
        for (int k = 0; k < 3; k++) {
            double d = cand.nx * r1[k] + cand.ny * r1[3 + k] + cand.nz * r1[6 + k];
            if (Math.abs(d) > FACE_COS) {
                face = k;
                sign = Math.signum(d);
            }
        }
        if (face < 0) {
            return;
        }
        double nx = sign * r1[face];
        double ny = sign * r1[3 + face];
        double nz = sign * r1[6 + face];
        double e = face == 0 ? box.halfExtentX() : face == 1 ? box.halfExtentY() : box.halfExtentZ();
        facePoint[0] = p1[0] + nx * e;
        facePoint[1] = p1[1] + ny * e;
        facePoint[2] = p1[2] + nz * e;
        cand.clear();
        cand.setNormal(nx, ny, nz);
        rimPoints(cyl, r2, p2, nx, ny, nz, facePoint, margin);
        // keep the points over the face
        int kept = 0;
        for (int i = 0; i < cand.count; i++) {
            double dx = cand.point[3 * i] - p1[0];
            double dy = cand.point[3 * i + 1] - p1[1];
            double dz = cand.point[3 * i + 2] - p1[2];
            boolean inside = true;
            for (int k = 0; k < 3 && inside; k++) {
                if (k != face) {
                    double ext = k == 0 ? box.halfExtentX() : k == 1 ? box.halfExtentY() : box.halfExtentZ();
                    inside = Math.abs(dx * r1[k] + dy * r1[3 + k] + dz * r1[6 + k]) <= ext;
                }
            }
            if (inside) {
                cand.point[3 * kept] = cand.point[3 * i];
                cand.point[3 * kept + 1] = cand.point[3 * i + 1];
                cand.point[3 * kept + 2] = cand.point[3 * i + 2];
                cand.depth[kept] = cand.depth[i];
                cand.feature[kept] = cand.feature[i];
                kept++;
            }
        }
        cand.count = kept;
        if (kept == 0) {
            cand.clear();
            hulls.hullHull(box, r1, p1, cyl, r2, p2, margin);
        }
    }

    private void cylinderPlane(Shape a, double margin) {
        // normal from the cylinder (A) to the plane (B)
        cand.setNormal(-r2[2], -r2[5], -r2[8]);
        rimPoints(a, r1, p1, r2[2], r2[5], r2[8], p2, margin);
    }

    /**
     * The rim points of cylinder a at (m, p) against the plane through {@code planePoint} with unit
     * normal n (pointing towards the cylinder): on each cap the lowest rim point plus four at the
     * local +-x, +-y directions, reported where within the margin. The caller sets the normal.
     */
    private void rimPoints(Shape a, double[] m, double[] p, double nx, double ny, double nz, double[] planePoint,
            double margin) {
        double r = a.radius();
        double h = a.halfLength();
        double ax = m[2];
        double ay = m[5];
        double az = m[8];
        // steepest descent direction in the cap plane
        double na = nx * ax + ny * ay + nz * az;
        double dx = -(nx - na * ax);
        double dy = -(ny - na * ay);
        double dz = -(nz - na * az);
        double dl = Math.sqrt(dx * dx + dy * dy + dz * dz);
        boolean tilted = dl > 1e-6;
        if (tilted) {
            dx /= dl;
            dy /= dl;
            dz /= dl;
        }
        for (int cap = 0; cap < 2; cap++) {
            double sh = cap == 0 ? -h : h;
            double cx = p[0] + ax * sh;
            double cy = p[1] + ay * sh;
            double cz = p[2] + az * sh;
            if (tilted) {
                rimPoint(cx + dx * r, cy + dy * r, cz + dz * r, nx, ny, nz, planePoint, margin, 8 * cap + 4);
            }
            for (int slot = 0; slot < 4; slot++) {
                // local +x, +y, -x, -y
                int axis = slot & 1;
                double sgn = slot < 2 ? 1.0 : -1.0;
                double ex = sgn * m[axis];
                double ey = sgn * m[3 + axis];
                double ez = sgn * m[6 + axis];
                if (tilted && ex * dx + ey * dy + ez * dz > 0.985) {
                    // within 10 degrees of the lowest point: redundant
                    continue;
                }
                rimPoint(cx + ex * r, cy + ey * r, cz + ez * r, nx, ny, nz, planePoint, margin, 8 * cap + slot);
            }
        }
    }

    private void rimPoint(double x, double y, double z, double nx, double ny, double nz, double[] planePoint,
            double margin, int feature) {
        double sep = (x - planePoint[0]) * nx + (y - planePoint[1]) * ny + (z - planePoint[2]) * nz;
        if (sep <= margin) {
            double hh = 0.5 * sep;
            cand.add(x - nx * hh, y - ny * hh, z - nz * hh, -sep, feature);
        }
    }
}
