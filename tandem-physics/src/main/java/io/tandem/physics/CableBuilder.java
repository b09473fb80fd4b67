package io.tandem.physics;

import java.util.Locale;

/*
 * Implementation notes.
 *
 * A cable as rigid capsule segments with Cosserat soft constraints (shared/specs/physics-wave2.md
 * 5; the discrete rod of Kugelstadt and Schoemer 2016 and Deul et al. 2018, with stiffnesses from
 * the material as in Deul's PositionBasedElasticRods): per connection of two segments of length l,
 *   stretch k_s = E A / l, shear k_sh = kappa G A / l (each normal), bend k_b = E I / l (each
 *   normal), twist k_t = G J / l,
 * A = pi d^2 / 4, I = pi d^4 / 64, J = pi d^4 / 32, G = E / (2 (1 + nu)), kappa the Timoshenko shear
 * coefficient of a solid circle 6 (1 + nu) / (7 + 6 nu). Each connection is a ROD joint at the
 * segments' shared end point (JointAssembly.rodRows: six compliant rows with the engine's midpoint
 * spring law). A clamp to the world sits at the cable's end point, half a segment from the end
 * segment's centre, so its springs stand for half a segment: twice the stiffness (the end node's
 * Voronoi region of a discrete rod; with a full-length spring at the clamp a cantilever's tip sags
 * about 2 / n too much).
 *
 * Damping (ours, 9.3): near critical for the relative motion of two segments, d = 2 sqrt(k m / 2)
 * on the linear rows and 2 sqrt(k_b I_t / 2) on the angular rows (I_t the transverse inertia), as
 * the trapezoidal spring law keeps undamped stiff modes ringing.
 *
 * Grouping (5.3): contiguous runs of segments form one subsystem each, so SubADMM solves a run's
 * connections exactly (a banded solve) and splits only the connections between runs, welds and
 * contacts. Segments of one cable never collide with each other (one collision family).
 */

/**
 * Describes a cable: a straight run of rigid capsule segments joined by Cosserat rod connections
 * (stretch, shear, bend and twist springs from the material). Finish with {@link #add()}; the
 * segments are bodies {@code NAME/0 .. NAME/(n-1)} with consecutive indices, each with its capsule
 * along body z. Build-time only; not thread-safe.
 */
public final class CableBuilder {
    private final PhysicsModel.Builder owner;
    private final String name;
    private final double[] from = new double[3];
    private final double[] to = {1, 0, 0};
    private int segments = -1;
    private double diameter = Double.NaN;
    private double youngs = Double.NaN;
    private double poisson = Double.NaN;
    private double density = Double.NaN;
    private double linearDamping = Double.NaN;
    private double angularDamping = Double.NaN;
    private double shearCoefficient = Double.NaN;
    private int perSubsystem = 10;
    private double friction = 0.5;
    private boolean clampStart;
    private boolean clampEnd;
    private long firstBodyId = -1;
    private long firstJointId = -1;

    CableBuilder(PhysicsModel.Builder owner, String name) {
        this.owner = owner;
        this.name = name;
    }

    /** @return this, with the cable's start point (m, world) */
    public CableBuilder from(double x, double y, double z) {
        finite("start point", x, y, z);
        from[0] = x;
        from[1] = y;
        from[2] = z;
        return this;
    }

    /** @return this, with the cable's end point (m, world); the cable starts straight from {@code from} to here */
    public CableBuilder to(double x, double y, double z) {
        finite("end point", x, y, z);
        to[0] = x;
        to[1] = y;
        to[2] = z;
        return this;
    }

    /** @param n segments, at least 1 @return this */
    public CableBuilder segments(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("cable '" + name + "' needs at least 1 segment, got " + n
                    + ": set segments(n) with n >= 1 (e.g. 40 for a 2 m cable of 5 cm segments)");
        }
        segments = n;
        return this;
    }

    /** @param metres the cross-section's diameter, &gt; 0 @return this */
    public CableBuilder diameter(double metres) {
        if (!(metres > 0) || Double.isInfinite(metres)) {
            throw new IllegalArgumentException("cable '" + name + "': diameter must be a finite number > 0 m, got " + metres);
        }
        diameter = metres;
        return this;
    }

    /**
     * @param youngsModulusPa E, &gt; 0
     * @param poissonRatio    nu, in (-1, 0.5)
     * @param kgPerM3         density, &gt; 0
     * @return this
     */
    public CableBuilder material(double youngsModulusPa, double poissonRatio, double kgPerM3) {
        youngs = Material.youngs("cable '" + name + "'", youngsModulusPa);
        poisson = Material.poisson("cable '" + name + "'", poissonRatio);
        density = Material.density("cable '" + name + "'", kgPerM3);
        return this;
    }

    /**
     * Overrides the near-critical default damping of each connection.
     *
     * @param linearNsPerM      stretch and shear damping, N s/m, at least 0
     * @param angularNmsPerRad  bend and twist damping, N m s/rad, at least 0
     * @return this
     */
    public CableBuilder damping(double linearNsPerM, double angularNmsPerRad) {
        if (!(linearNsPerM >= 0) || !(angularNmsPerRad >= 0) || Double.isInfinite(linearNsPerM + angularNmsPerRad)) {
            throw new IllegalArgumentException("cable '" + name + "': damping must be finite and >= 0, got "
                    + linearNsPerM + " N s/m and " + angularNmsPerRad + " N m s/rad");
        }
        linearDamping = linearNsPerM;
        angularDamping = angularNmsPerRad;
        return this;
    }

    /** @param kappa the shear coefficient (default 6 (1 + nu) / (7 + 6 nu), a solid circle), in (0, 1] @return this */
    public CableBuilder shearCoefficient(double kappa) {
        if (!(kappa > 0 && kappa <= 1)) {
            throw new IllegalArgumentException("cable '" + name + "': shear coefficient must be in (0, 1], got " + kappa);
        }
        shearCoefficient = kappa;
        return this;
    }

    /** @param n segments per subsystem (a run solved exactly by SubADMM), at least 1; default 10 @return this */
    public CableBuilder segmentsPerSubsystem(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("cable '" + name + "': segments per subsystem must be >= 1, got " + n);
        }
        perSubsystem = n;
        return this;
    }

    /** @param mu friction coefficient of the segments' capsules, at least 0 @return this */
    public CableBuilder friction(double mu) {
        if (!(mu >= 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("cable '" + name + "': friction must be finite and >= 0, got " + mu);
        }
        friction = mu;
        return this;
    }

    /** @return this, with the start clamped to the world (position and orientation held by the rod's springs) */
    public CableBuilder clampStart() {
        clampStart = true;
        return this;
    }

    /** @return this, with the end clamped to the world */
    public CableBuilder clampEnd() {
        clampEnd = true;
        return this;
    }

    /**
     * Gives the segments stable global ids {@code bodyId, bodyId + 1, ...} and the connections
     * (then the clamps) {@code jointId, jointId + 1, ...} (default: their indices).
     *
     * @return this
     */
    public CableBuilder ids(long bodyId, long jointId) {
        firstBodyId = bodyId;
        firstJointId = jointId;
        return this;
    }

    /**
     * Adds the segments, their connections and clamps to the model.
     *
     * @return the body index of segment 0; segment i is that plus i
     * @throws IllegalArgumentException if the segment count, diameter or material is missing, or
     *                                  the end points coincide
     */
    public int add() {
        String what = "cable '" + name + "'";
        if (segments < 0) {
            throw new IllegalArgumentException(what + " needs its number of segments: call segments(n), n >= 1");
        }
        if (Double.isNaN(diameter)) {
            throw new IllegalArgumentException(what + " needs its diameter: call diameter(m)");
        }
        if (Double.isNaN(youngs)) {
            throw new IllegalArgumentException(what + " needs its material: call material(E, nu, density)");
        }
        double[] t = {to[0] - from[0], to[1] - from[1], to[2] - from[2]};
        double length = Math.sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        if (!(length > 1e-9)) {
            throw new IllegalArgumentException(what + ": its start and end points coincide; give from(...) and to(...) apart");
        }
        for (int d = 0; d < 3; d++) {
            t[d] /= length;
        }
        double l = length / segments;
        double r = diameter / 2;
        double area = Math.PI * diameter * diameter / 4;
        double second = Math.PI * Math.pow(diameter, 4) / 64;
        double polar = 2 * second;
        double shear = youngs / (2 * (1 + poisson));
        double kappa = Double.isNaN(shearCoefficient) ? 6 * (1 + poisson) / (7 + 6 * poisson) : shearCoefficient;
        double mass = density * area * l;
        double transverse = mass * (3 * r * r + l * l) / 12;
        double axial = mass * r * r / 2;
        double ks = youngs * area / l;
        double ksh = kappa * shear * area / l;
        double kb = youngs * second / l;
        double kt = shear * polar / l;
        double dl = Double.isNaN(linearDamping) ? 2 * Math.sqrt(ks * mass / 2) : linearDamping;
        double da = Double.isNaN(angularDamping) ? 2 * Math.sqrt(kb * transverse / 2) : angularDamping;
        double[] k = {ks, ksh, ksh, kt, kb, kb};
        double[] damp = {dl, dl, dl, da, da, da};
        double[] q = zTo(t);
        int firstRun = owner.autoSubsystems;
        int family = owner.families++;
        int first = -1;
        for (int i = 0; i < segments; i++) {
            double c = (i + 0.5) * l;
            PhysicsModel.BodyBuilder b = owner.body(name + "/" + i)
                    .position(from[0] + c * t[0], from[1] + c * t[1], from[2] + c * t[2])
                    .orientation(q[0], q[1], q[2], q[3])
                    .mass(mass, transverse, transverse, axial)
                    .capsule(r, l / 2)
                    .friction(friction);
            b.autoSubsystem = firstRun + i / perSubsystem;
            b.family = family;
            if (firstBodyId >= 0) {
                b.id(firstBodyId + i);
            }
            int body = b.add();
            if (i == 0) {
                first = body;
            }
        }
        owner.autoSubsystems += (segments + perSubsystem - 1) / perSubsystem;
        owner.cableNames.add(name);
        long jointId = firstJointId;
        for (int i = 0; i + 1 < segments; i++) {
            double c = (i + 1) * l;
            PhysicsModel.JointBuilder j = owner.rodJoint(first + i, first + i + 1,
                    new double[] {from[0] + c * t[0], from[1] + c * t[1], from[2] + c * t[2]}, t, k, damp);
            if (jointId >= 0) {
                j.id(jointId++);
            }
            j.add();
        }
        double[] k2 = k.clone();
        double[] d2 = damp.clone();
        for (int d = 0; d < 6; d++) {
            k2[d] *= 2;
            d2[d] *= 2;
        }
        if (clampStart) {
            PhysicsModel.JointBuilder j = owner.rodJoint(first, -1, from.clone(), t, k2, d2);
            if (jointId >= 0) {
                j.id(jointId++);
            }
            j.add();
        }
        if (clampEnd) {
            PhysicsModel.JointBuilder j = owner.rodJoint(first + segments - 1, -1, to.clone(), t, k2, d2);
            if (jointId >= 0) {
                j.id(jointId++);
            }
            j.add();
        }
        return first;
    }

    /** The unit quaternion (w, x, y, z) that turns z onto the unit vector t. */
    static double[] zTo(double[] t) {
        double w = 1 + t[2];
        if (w < 1e-12) {
            return new double[] {0, 1, 0, 0}; // t = -z: half a turn about x
        }
        double x = -t[1];
        double y = t[0];
        double n = Math.sqrt(w * w + x * x + y * y);
        return new double[] {w / n, x / n, y / n, 0};
    }

    private void finite(String what, double x, double y, double z) {
        if (!Double.isFinite(x) || !Double.isFinite(y) || !Double.isFinite(z)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "cable '%s': %s must be finite, got (%s, %s, %s)",
                    name, what, x, y, z));
        }
    }
}
