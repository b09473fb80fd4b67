package io.tandem.physics.internal.geometry;

/*
 * Implementation notes
 *
 * Closed forms for uniform density rho (kg/m^3), inertia about the centre of mass in the shape
 * frame; every primitive is symmetric about its local axes, so the tensor is diagonal there [1]:
 *
 *   sphere   m = 4/3 pi r^3 rho,          I = 2/5 m r^2 (all axes)
 *   box      m = 8 hx hy hz rho,          Ixx = m (hy^2 + hz^2) / 3, and cyclic
 *   cylinder m = 2 pi r^2 h rho,          Izz = m r^2 / 2, Ixx = Iyy = m (3 r^2 + 4 h^2) / 12
 *   capsule  cylinder part mc = 2 pi r^2 h rho and two hemispheres of total mass ms = 4/3 pi r^3 rho.
 *            Izz = mc r^2 / 2 + 2/5 ms r^2.
 *            A hemisphere's inertia about a diameter of its flat face is 2/5 mh r^2 (half a ball);
 *            its centre of mass is 3r/8 from the face, so by the parallel-axis theorem about the
 *            capsule centre (face at distance h): 2/5 mh r^2 - mh (3r/8)^2 + mh (h + 3r/8)^2
 *            = mh (2/5 r^2 + h^2 + 3/4 h r). Hence
 *            Ixx = Iyy = mc (r^2/4 + h^2/3) + ms (2/5 r^2 + h^2 + 3/4 h r)     [2]
 *   plane    no mass: planes are static only.
 *   convex   exact for the polytope (the hull, simplified where it had to be) by decomposition into
 *            tetrahedra [3]: each face loop is fanned into triangles (v0, vk, vk+1), each triangle
 *            with the reference point o (the hull's vertex average, for accuracy) spans a tetrahedron
 *            of signed volume V = det[a b c] / 6 (a, b, c relative to o) and second moment
 *            C = integral x x^T dV = V/20 (a a^T + b b^T + c c^T + s s^T), s = a + b + c. Summed,
 *            the centroid is sum(V s/4) / sum(V), C is shifted to the centroid (C - V c c^T) and
 *            the inertia tensor is I = rho (trace(C) E - C). Its products of inertia are in general
 *            not zero: the tensor is full in the shape frame.
 *
 * [1] Wikipedia, "List of moments of inertia".
 * [2] ODE (Open Dynamics Engine), dMassSetCapsule in ode/src/mass.cpp: the same decomposition.
 * [3] B. Mirtich, "Fast and Accurate Computation of Polyhedral Mass Properties", Journal of
 *     Graphics Tools 1(2), 1996 (the divergence-theorem form of the same integrals); the tetrahedron
 *     moments are those of F. Tonon, "Explicit Exact Formulas for the 3-D Tetrahedron Inertia
 *     Tensor in Terms of its Vertex Coordinates", Journal of Mathematics and Statistics 1(1), 2005.
 */

/**
 * Mass, centre of mass and inertia tensor of a uniform-density shape, in the shape's local frame
 * (SI: kg, m, kg m^2). The inertia tensor about the centre of mass, in the shape's axes, is
 * [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]; the products are the tensor's entries
 * (ixy = -integral rho x y dV). They are 0, and the centre of mass is the origin, for every shape
 * but a convex hull.
 *
 * <p>Immutable record; {@link #of} allocates one instance (model-build time, not per step).
 *
 * @param mass mass, kg
 * @param comX centre of mass x in the shape frame, m (0 but for a convex hull)
 * @param comY centre of mass y in the shape frame, m
 * @param comZ centre of mass z in the shape frame, m
 * @param ixx moment of inertia about the local x axis through the centre of mass, kg m^2
 * @param iyy moment of inertia about the local y axis through the centre of mass, kg m^2
 * @param izz moment of inertia about the local z axis through the centre of mass, kg m^2
 * @param ixy product of inertia (tensor entry xy) about the centre of mass, kg m^2
 * @param ixz product of inertia (tensor entry xz), kg m^2
 * @param iyz product of inertia (tensor entry yz), kg m^2
 */
public record MassProperties(double mass, double comX, double comY, double comZ, double ixx, double iyy, double izz,
        double ixy, double ixz, double iyz) {

    /**
     * Mass properties of a solid shape of uniform density.
     *
     * @param shape the shape; not a plane. Not modified.
     * @param density density, kg/m^3; positive and finite
     * @return the mass properties in the shape frame
     * @throws IllegalArgumentException for a plane (no mass: static only) or a density that is not
     *     positive and finite
     */
    public static MassProperties of(Shape shape, double density) {
        if (!(density > 0) || Double.isInfinite(density)) {
            throw new IllegalArgumentException("density must be positive and finite, got " + density + " kg/m^3");
        }
        double r = shape.radius();
        double h = shape.halfLength();
        return switch (shape.type()) {
            case SPHERE -> {
                double m = 4.0 / 3.0 * Math.PI * r * r * r * density;
                double i = 0.4 * m * r * r;
                yield new MassProperties(m, 0, 0, 0, i, i, i, 0, 0, 0);
            }
            case BOX -> {
                double hx = shape.halfExtentX();
                double hy = shape.halfExtentY();
                double hz = shape.halfExtentZ();
                double m = 8.0 * hx * hy * hz * density;
                yield new MassProperties(m, 0, 0, 0,
                        m * (hy * hy + hz * hz) / 3.0, m * (hx * hx + hz * hz) / 3.0, m * (hx * hx + hy * hy) / 3.0,
                        0, 0, 0);
            }
            case CYLINDER -> {
                double m = 2.0 * Math.PI * r * r * h * density;
                double ixx = m * (3.0 * r * r + 4.0 * h * h) / 12.0;
                yield new MassProperties(m, 0, 0, 0, ixx, ixx, 0.5 * m * r * r, 0, 0, 0);
            }
            case CAPSULE -> {
                double mc = 2.0 * Math.PI * r * r * h * density;
                double ms = 4.0 / 3.0 * Math.PI * r * r * r * density;
                double ixx = mc * (r * r / 4.0 + h * h / 3.0) + ms * (0.4 * r * r + h * h + 0.75 * h * r);
                double izz = 0.5 * mc * r * r + 0.4 * ms * r * r;
                yield new MassProperties(mc + ms, 0, 0, 0, ixx, ixx, izz, 0, 0, 0);
            }
            case CONVEX -> polytope(shape.hull, density);
            case PLANE -> throw new IllegalArgumentException("a plane has no mass properties: planes are static only");
        };
    }

    /** A closed polytope of uniform density, by tetrahedra (see the notes). */
    private static MassProperties polytope(ConvexHull h, double density) {
        double ox = h.centreX;
        double oy = h.centreY;
        double oz = h.centreZ;
        double[] v = h.vertices;
        double vol = 0;
        double sx = 0;
        double sy = 0;
        double sz = 0;
        // second moments about o: xx, yy, zz, xy, xz, yz
        double cxx = 0;
        double cyy = 0;
        double czz = 0;
        double cxy = 0;
        double cxz = 0;
        double cyz = 0;
        for (int f = 0; f < h.faceCount; f++) {
            int start = h.faceStart[f];
            int end = h.faceStart[f + 1];
            int i0 = h.faceVertices[start];
            double ax = v[3 * i0] - ox;
            double ay = v[3 * i0 + 1] - oy;
            double az = v[3 * i0 + 2] - oz;
            for (int k = start + 1; k + 1 < end; k++) {
                int i1 = h.faceVertices[k];
                int i2 = h.faceVertices[k + 1];
                double bx = v[3 * i1] - ox;
                double by = v[3 * i1 + 1] - oy;
                double bz = v[3 * i1 + 2] - oz;
                double cx = v[3 * i2] - ox;
                double cy = v[3 * i2 + 1] - oy;
                double cz = v[3 * i2 + 2] - oz;
                double det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
                double tv = det / 6.0;
                double tx = ax + bx + cx;
                double ty = ay + by + cy;
                double tz = az + bz + cz;
                vol += tv;
                sx += tv * tx;
                sy += tv * ty;
                sz += tv * tz;
                double w = tv / 20.0;
                cxx += w * (ax * ax + bx * bx + cx * cx + tx * tx);
                cyy += w * (ay * ay + by * by + cy * cy + ty * ty);
                czz += w * (az * az + bz * bz + cz * cz + tz * tz);
                cxy += w * (ax * ay + bx * by + cx * cy + tx * ty);
                cxz += w * (ax * az + bx * bz + cx * cz + tx * tz);
                cyz += w * (ay * az + by * bz + cy * cz + ty * tz);
            }
        }
        if (!(vol > 0)) {
            throw new IllegalArgumentException("convex hull has no volume (" + vol + " m^3): no mass properties");
        }
        // centroid relative to o, then the second moments about it
        double gx = sx / (4.0 * vol);
        double gy = sy / (4.0 * vol);
        double gz = sz / (4.0 * vol);
        cxx -= vol * gx * gx;
        cyy -= vol * gy * gy;
        czz -= vol * gz * gz;
        cxy -= vol * gx * gy;
        cxz -= vol * gx * gz;
        cyz -= vol * gy * gz;
        return new MassProperties(density * vol, ox + gx, oy + gy, oz + gz,
                density * (cyy + czz), density * (cxx + czz), density * (cxx + cyy),
                -density * cxy, -density * cxz, -density * cyz);
    }
}
