package io.tandem.physics;

import java.util.ArrayList;
import java.util.List;

/**
 * Describes a robot: a kinematic tree of revolute and prismatic joints on a fixed base, stepped as
 * one subsystem in generalized (joint) coordinates (shared/specs/physics-wave2.md 1): its own
 * joint-space mass matrix, joint limits as inequality rows, damping, armature, Coulomb friction and
 * an implicit joint-space PD controller folded into its matrix, so that stiff gains (the Panda's
 * Kp = 4500 N m/rad) are stable at millisecond steps. Its links are ordinary bodies of the model
 * (their shapes collide, their poses are read as any body's); their poses follow the joints.
 *
 * <p>Joints are given like {@link PhysicsModel.Builder#revoluteJoint}: an anchor and an axis in
 * world coordinates at the bodies' build poses, which are the joints' zero configuration. A joint's
 * coordinate grows when its child turns about (slides along) the axis relative to its parent.
 * Joints are numbered in the order they are added; a parent comes before its children.
 *
 * <p>{@link #maximalCoordinates()} builds the same tree from ordinary joints instead (hard rows
 * between the links), for comparison and for closed loops; it takes limits, damping and friction,
 * not armature, gains or massless links.
 *
 * <p>Validates each call eagerly. Not thread-safe.
 */
public final class ArticulationBuilder {
    private final PhysicsModel.Builder owner;
    final String name;
    final List<Joint> joints = new ArrayList<>();
    /** no-slip rows: joint (whose child link), point (3), direction (3), world coordinates at the build pose */
    final List<double[]> noSlip = new ArrayList<>();
    boolean maximal;
    boolean selfCollide;
    /** the body the tree is fixed to (its collisions are the robot's base), or -1 */
    int base = -1;
    /** the root link's body when the base floats (joints 0-5 are its six virtual joints), else -1 */
    int floating = -1;

    /** One joint and its child link. */
    static final class Joint {
        final JointType type;
        final int parent;
        final int body;
        final double[] anchor;
        final double[] axis;
        double lo = Double.NEGATIVE_INFINITY;
        double hi = Double.POSITIVE_INFINITY;
        double damping;
        double armature;
        double friction;
        double effort = Double.POSITIVE_INFINITY;
        double kp;
        double kd;
        double q0;
        double qd0;

        Joint(JointType type, int parent, int body, double[] anchor, double[] axis) {
            this.type = type;
            this.parent = parent;
            this.body = body;
            this.anchor = anchor;
            this.axis = axis;
        }
    }

    ArticulationBuilder(PhysicsModel.Builder owner, String name) {
        this.owner = owner;
        this.name = name;
    }

    /**
     * Adds a joint and its child link.
     *
     * @param type        {@link JointType#REVOLUTE} or {@link JointType#PRISMATIC}
     * @param parentJoint the parent link's joint, or -1 for the fixed base (the world)
     * @param body        the child link: a dynamic body of the model, or -1 for a massless link
     *                    (an intermediate frame, e.g. a mobile base's x and y slides)
     * @param ax          anchor, world coordinates at the build poses, m
     * @param axisX       axis, world coordinates, non-zero
     * @return the joint's index in this articulation
     */
    public int joint(JointType type, int parentJoint, int body, double ax, double ay, double az,
                     double axisX, double axisY, double axisZ) {
        String what = "articulation '" + name + "' joint " + joints.size();
        if (type != JointType.REVOLUTE && type != JointType.PRISMATIC) {
            throw new IllegalArgumentException(what + ": an articulation takes revolute and prismatic joints, not " + type
                    + " (lump a fixed link into its parent; a ball joint needs maximal coordinates)");
        }
        if (parentJoint < -1 || parentJoint >= joints.size()) {
            throw new IllegalArgumentException(what + ": parent joint " + parentJoint + " must be -1 (the base) or one of"
                    + " the joints added before it (0.." + (joints.size() - 1) + ")");
        }
        if (floating >= 0 && parentJoint < 5) {
            throw new IllegalArgumentException(what + ": a floating robot's joints hang from its root: parent joint 5 or"
                    + " a later one, got " + parentJoint);
        }
        if (body < -1 || body >= owner.bodyCount()) {
            throw new IllegalArgumentException(what + ": body " + body + " out of range (-1 = massless, 0.."
                    + (owner.bodyCount() - 1) + ")");
        }
        if (body >= 0 && owner.bodyType(body) != BodyType.DYNAMIC) {
            throw new IllegalArgumentException(what + ": body '" + owner.bodyName(body) + "' must be dynamic to be a link");
        }
        for (Joint j : joints) {
            if (body >= 0 && j.body == body) {
                throw new IllegalArgumentException(what + ": body '" + owner.bodyName(body) + "' is already a link of this"
                        + " articulation");
            }
        }
        double[] anchor = {ax, ay, az};
        for (double v : anchor) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException(what + ": anchor must be finite");
            }
        }
        double n = Math.sqrt(axisX * axisX + axisY * axisY + axisZ * axisZ);
        if (!(n > 1e-12) || !Double.isFinite(n)) {
            throw new IllegalArgumentException(what + ": axis must be finite and non-zero, got (" + axisX + ", " + axisY
                    + ", " + axisZ + ")");
        }
        joints.add(new Joint(type, parentJoint, body, anchor, new double[] {axisX / n, axisY / n, axisZ / n}));
        return joints.size() - 1;
    }

    private Joint at(int joint) {
        if (joint < 0 || joint >= joints.size()) {
            throw new IllegalArgumentException("articulation '" + name + "' has no joint " + joint + " (0.."
                    + (joints.size() - 1) + ")");
        }
        if (floating >= 0 && joint < 6) {
            throw new IllegalArgumentException("articulation '" + name + "' joint " + joint + " is one of its floating base's"
                    + " virtual joints (0-5): it takes no limits, gains, friction or initial state (move the root body instead)");
        }
        return joints.get(joint);
    }

    private static double nonNegative(String what, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be finite and >= 0, got " + v);
        }
        return v;
    }

    /** @return this, with joint limits lo &lt;= hi (rad or m; infinite for none) as inequality rows */
    public ArticulationBuilder limits(int joint, double lo, double hi) {
        Joint j = at(joint);
        if (Double.isNaN(lo) || Double.isNaN(hi) || lo > hi) {
            throw new IllegalArgumentException("joint " + joint + " limits need lo <= hi, got [" + lo + ", " + hi + "]");
        }
        j.lo = lo;
        j.hi = hi;
        return this;
    }

    /** @return this, with viscous damping (N m s/rad or N s/m), implicit in the joint-space matrix */
    public ArticulationBuilder damping(int joint, double damping) {
        at(joint).damping = nonNegative("joint " + joint + " damping", damping);
        return this;
    }

    /** @return this, with armature (reflected rotor inertia, kg m^2 or kg) added to the mass matrix's diagonal */
    public ArticulationBuilder armature(int joint, double armature) {
        at(joint).armature = nonNegative("joint " + joint + " armature", armature);
        return this;
    }

    /** @return this, with Coulomb friction (N m or N): a boxed row that holds the joint up to this torque */
    public ArticulationBuilder friction(int joint, double friction) {
        at(joint).friction = nonNegative("joint " + joint + " friction", friction);
        return this;
    }

    /**
     * The actuator's torque (force) bound: a feed-forward torque is clamped to it, and the steps in
     * which the folded-in PD torque exceeds it are counted ({@link PhysicsState#effortSaturations}).
     *
     * @return this
     */
    public ArticulationBuilder effortLimit(int joint, double effort) {
        if (!(effort > 0)) {
            throw new IllegalArgumentException("joint " + joint + " effort limit must be > 0, got " + effort);
        }
        at(joint).effort = effort;
        return this;
    }

    /**
     * Start gains of the joint's PD controller (changed at run time with
     * {@link PhysicsState#setDofGains}); the target starts at the initial position and rest.
     *
     * @param kp N m/rad or N/m, at least 0
     * @param kd N m s/rad or N s/m, at least 0
     * @return this
     */
    public ArticulationBuilder gains(int joint, double kp, double kd) {
        Joint j = at(joint);
        j.kp = nonNegative("joint " + joint + " kp", kp);
        j.kd = nonNegative("joint " + joint + " kd", kd);
        return this;
    }

    /** @return this, with the joint's initial position (rad or m from the build pose) and velocity */
    public ArticulationBuilder initial(int joint, double position, double velocity) {
        Joint j = at(joint);
        if (!Double.isFinite(position) || !Double.isFinite(velocity)) {
            throw new IllegalArgumentException("joint " + joint + " initial position and velocity must be finite");
        }
        j.q0 = position;
        j.qd0 = velocity;
        return this;
    }

    /**
     * A non-holonomic no-slip row (shared/specs/physics-wave2.md 4.2): the velocity of a point of
     * a joint's child link along a direction fixed in that link is held at zero, as a wheeled
     * base that cannot slide sideways (point: its centre, direction: its lateral axis). A hard row
     * without a position term (the constraint has no integral). One per link.
     *
     * @param joint the joint whose child link carries the point; the link needs a body
     * @param px    the point, world coordinates at the build pose, m
     * @param nx    the direction, world coordinates at the build pose, non-zero
     * @return this
     */
    public ArticulationBuilder noSlip(int joint, double px, double py, double pz, double nx, double ny, double nz) {
        Joint j = at(joint);
        if (j.body < 0) {
            throw new IllegalArgumentException("articulation '" + name + "' joint " + joint + ": a no-slip row needs a link"
                    + " body on the joint's child");
        }
        double n = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(n > 1e-12) || !Double.isFinite(n) || !Double.isFinite(px + py + pz)) {
            throw new IllegalArgumentException("articulation '" + name + "' joint " + joint + ": a no-slip row needs a finite"
                    + " point and a non-zero direction, got (" + px + ", " + py + ", " + pz + "), (" + nx + ", " + ny + ", " + nz + ")");
        }
        for (double[] row : noSlip) {
            if ((int) row[0] == joint) {
                throw new IllegalArgumentException("articulation '" + name + "' joint " + joint + " has a no-slip row already"
                        + " (one per link)");
            }
        }
        noSlip.add(new double[] {joint, px, py, pz, nx / n, ny / n, nz / n});
        return this;
    }

    /**
     * Makes the tree's root float: a free body carried by six virtual joints, slides along x, y, z
     * and hinges about x, y, z of the root's frame (joints 0-5, the last carrying the body), which
     * the step re-centres on the body's pose before each step (so they stay far from the
     * hinges' gimbal lock): the root's state is its body's pose and velocity, and setting those
     * moves the robot. Call it first; attach the robot's joints to the returned joint. The six
     * coordinates read 0 at each step's start (read the base from its body); they take no limits,
     * gains or friction. In {@link #maximalCoordinates()} the root is just a free body.
     *
     * @param body the root link, a dynamic body (its centre is the virtual joints' anchor)
     * @return the joint that carries the root link (5), the parent of the robot's first joints
     * @throws IllegalArgumentException if joints were added before, or the body is not dynamic
     */
    public int floatingBase(int body) {
        if (!joints.isEmpty()) {
            throw new IllegalArgumentException("articulation '" + name + "': floatingBase(...) must come before any joint");
        }
        if (body < 0 || body >= owner.bodyCount() || owner.bodyType(body) != BodyType.DYNAMIC) {
            throw new IllegalArgumentException("articulation '" + name + "': a floating base must be a dynamic body, got "
                    + (body < 0 || body >= owner.bodyCount() ? "index " + body : "'" + owner.bodyName(body) + "'"));
        }
        if (base >= 0) {
            throw new IllegalArgumentException("articulation '" + name + "' has a static base already: it cannot also float");
        }
        double[] c = owner.bodyPosition(body);
        int parent = -1;
        for (int k = 0; k < 6; k++) {
            double ex = k % 3 == 0 ? 1 : 0;
            double ey = k % 3 == 1 ? 1 : 0;
            double ez = k % 3 == 2 ? 1 : 0;
            joints.add(new Joint(k < 3 ? JointType.PRISMATIC : JointType.REVOLUTE, parent, k == 5 ? body : -1,
                    c.clone(), new double[] {ex, ey, ez}));
            parent = k;
        }
        floating = body;
        return 5;
    }

    /**
     * Names the static (or kinematic) body the tree's base is fixed to, such as a robot's
     * welded root link: it does not collide with the links (with the root joints' children only,
     * when the articulation self-collides). The tree's joints still hang from the world.
     *
     * @param body a static or kinematic body
     * @return this
     */
    public ArticulationBuilder base(int body) {
        if (body < 0 || body >= owner.bodyCount() || owner.bodyType(body) == BodyType.DYNAMIC) {
            throw new IllegalArgumentException("articulation '" + name + "': its base must be a static or kinematic body, got "
                    + (body < 0 || body >= owner.bodyCount() ? "index " + body : "dynamic '" + owner.bodyName(body) + "'"));
        }
        if (floating >= 0) {
            throw new IllegalArgumentException("articulation '" + name + "' floats: it cannot also have a static base");
        }
        base = body;
        return this;
    }

    /**
     * Lets the articulation's links collide with each other (Gazebo's {@code <self_collide>}),
     * except a link and its parent's. Off by default, as in Gazebo: a robot's collision shapes
     * overlap near its joints by design.
     *
     * @return this
     */
    public ArticulationBuilder selfCollide() {
        selfCollide = true;
        return this;
    }

    /**
     * Builds the tree from ordinary joints between the links instead (maximal coordinates: each
     * link a free body, each joint 5 hard rows); joint indices of {@link PhysicsModel} are then the
     * articulation's joints in order, starting at the index {@link #add()} returns.
     *
     * @return this
     */
    public ArticulationBuilder maximalCoordinates() {
        maximal = true;
        return this;
    }

    /**
     * @return the articulation's index in the model (generalized coordinates), or, with
     *         {@link #maximalCoordinates()}, the model index of its first joint
     */
    public int add() {
        if (joints.isEmpty()) {
            throw new IllegalArgumentException("articulation '" + name + "' has no joints");
        }
        return owner.addArticulation(this);
    }
}
