package io.tandem.physics.internal.geometry;

/*
 * Implementation notes
 *
 * Closed forms for uniform density rho (kg/m^3), inertia about the centre of mass in the shape
 * frame; every shape is symmetric about its local axes, so the tensor is diagonal there [1]:
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
 *
 * [1] Wikipedia, "List of moments of inertia".
 * [2] ODE (Open Dynamics Engine), dMassSetCapsule in ode/src/mass.cpp: the same decomposition.
 */

/**
 * Mass, centre of mass and the principal moments of inertia of a uniform-density shape, in the
 * shape's local frame (SI: kg, m, kg m^2). The inertia tensor about the centre of mass is
 * diagonal in the shape frame: diag(ixx, iyy, izz).
 *
 * <p>Immutable record; {@link #of} allocates one instance (model-build time, not per step).
 *
 * @param mass mass, kg
 * @param comX centre of mass x in the shape frame, m (0: shapes are centred)
 * @param comY centre of mass y in the shape frame, m
 * @param comZ centre of mass z in the shape frame, m
 * @param ixx moment of inertia about the local x axis through the centre of mass, kg m^2
 * @param iyy moment of inertia about the local y axis through the centre of mass, kg m^2
 * @param izz moment of inertia about the local z axis through the centre of mass, kg m^2
 */
public record MassProperties(double mass, double comX, double comY, double comZ, double ixx, double iyy, double izz) {

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
                yield new MassProperties(m, 0, 0, 0, i, i, i);
            }
            case BOX -> {
                double hx = shape.halfExtentX();
                double hy = shape.halfExtentY();
                double hz = shape.halfExtentZ();
                double m = 8.0 * hx * hy * hz * density;
                yield new MassProperties(m, 0, 0, 0,
                        m * (hy * hy + hz * hz) / 3.0, m * (hx * hx + hz * hz) / 3.0, m * (hx * hx + hy * hy) / 3.0);
            }
            case CYLINDER -> {
                double m = 2.0 * Math.PI * r * r * h * density;
                double ixx = m * (3.0 * r * r + 4.0 * h * h) / 12.0;
                yield new MassProperties(m, 0, 0, 0, ixx, ixx, 0.5 * m * r * r);
            }
            case CAPSULE -> {
                double mc = 2.0 * Math.PI * r * r * h * density;
                double ms = 4.0 / 3.0 * Math.PI * r * r * r * density;
                double ixx = mc * (r * r / 4.0 + h * h / 3.0) + ms * (0.4 * r * r + h * h + 0.75 * h * r);
                double izz = 0.5 * mc * r * r + 0.4 * ms * r * r;
                yield new MassProperties(mc + ms, 0, 0, 0, ixx, ixx, izz);
            }
            case PLANE -> throw new IllegalArgumentException("a plane has no mass properties: planes are static only");
        };
    }
}
