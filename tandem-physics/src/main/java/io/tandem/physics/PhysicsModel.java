package io.tandem.physics;

import io.tandem.physics.internal.dynamics.RigidOps;
import io.tandem.physics.internal.geometry.MassProperties;
import io.tandem.physics.internal.geometry.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable, compiled world: bodies, joints, gravity, time step and solver settings. Build it
 * with {@link #builder()}; create states with {@link #newState()} and step them with a
 * {@link PhysicsEngine}. Arrays are structure-of-arrays indexed by body or joint; callers must
 * not modify what the package-level accessors return.
 *
 * <p>Units: SI (m, kg, s, rad). The world is z-up. Thread-safe (immutable).
 */
public final class PhysicsModel {
    final double timeStep;
    final double[] gravity;
    final SolverSettings solver;
    // bodies
    final int bodies;
    final String[] bodyName;
    final BodyType[] bodyType;
    /** mass (bodies), infinite for static / kinematic */
    final double[] mass;
    /** principal inertia in the body frame (bodies x 3) */
    final double[] inertia;
    final double[] pos0;
    final double[] quat0;
    final double[] linVel0;
    final double[] angVel0;
    final int[] subsystem;
    final KinematicTrajectory[] trajectory;
    // colliders (any number per body, each at a pose in its body's frame)
    final int colliders;
    final int[] colliderBody;
    final Shape[] colliderShape;
    final double[] colliderFriction;
    /** collider position in its body's frame, m (colliders x 3) */
    final double[] colliderPos;
    /** collider orientation in its body's frame, (w, x, y, z) (colliders x 4) */
    final double[] colliderQuat;
    /** whether a collider sits away from its body's origin or turned (else its pose is the body's) */
    final boolean[] colliderOffset;
    // joints
    final int joints;
    final JointType[] jointType;
    final int[] jointA;
    final int[] jointB;
    /** anchor in A's and B's body frames (joints x 3 each) */
    final double[] anchorA;
    final double[] anchorB;
    /** axis in A's and B's body frames (joints x 3 each) */
    final double[] axisA;
    final double[] axisB;
    /** initial relative orientation conj(qB) (x) qA (joints x 4) */
    final double[] relRot0;
    final double[] limitLo;
    final double[] limitHi;
    final double[] motorSpeed;
    final double[] motorMaxForce;
    final double[] springK;
    final double[] springD;
    /** a rod joint's six stiffnesses (stretch, shear, shear, twist, bend, bend), N/m and N m/rad (joints x 6) */
    final double[] rodK;
    /** a rod joint's six dampings, N s/m and N m s/rad (joints x 6) */
    final double[] rodD;
    /**
     * collision family of each body, or -1: bodies of one family never collide with each other (a
     * cable's segments, a deformable body's nodes)
     */
    final int[] family;
    // stable identity (see the class notes)
    /** global id of each body (bodies) */
    final long[] bodyId;
    /** body indices sorted by global id: the canonical body order (bodies) */
    final int[] bodyOrder;
    /** global ids in canonical order, for lookups by id (bodies) */
    private final long[] sortedBodyIds;
    /** index of each collider among its body's shapes (colliders) */
    final int[] colliderShapeIndex;
    /** canonical rank of each collider: by (body id, shape index) (colliders) */
    final int[] colliderRank;
    /** collider of each canonical rank (colliders) */
    final int[] colliderAtRank;
    /** global id of each joint (joints) */
    final long[] jointId;
    /** robots in joint coordinates (ArticulationBuilder) */
    final Articulations articulations;
    /** deformable bodies (DeformableBuilder) */
    final Deformables deformables;
    /** joint indices sorted by global id: the order in which joint rows are assembled (joints) */
    final int[] jointOrder;
    private final long[] sortedJointIds;

    private PhysicsModel(Builder b) {
        timeStep = b.timeStep;
        gravity = b.gravity.clone();
        solver = b.solver;
        bodies = b.bodies.size();
        bodyName = new String[bodies];
        bodyType = new BodyType[bodies];
        mass = new double[bodies];
        inertia = new double[3 * bodies];
        pos0 = new double[3 * bodies];
        quat0 = new double[4 * bodies];
        linVel0 = new double[3 * bodies];
        angVel0 = new double[3 * bodies];
        subsystem = new int[bodies];
        trajectory = new KinematicTrajectory[bodies];
        for (int i = 0; i < bodies; i++) {
            BodyBuilder s = b.bodies.get(i);
            bodyName[i] = s.name;
            bodyType[i] = s.type;
            mass[i] = s.type == BodyType.DYNAMIC ? s.mass : Double.POSITIVE_INFINITY;
            System.arraycopy(s.inertia, 0, inertia, 3 * i, 3);
            System.arraycopy(s.pos, 0, pos0, 3 * i, 3);
            System.arraycopy(s.quat, 0, quat0, 4 * i, 4);
            System.arraycopy(s.linVel, 0, linVel0, 3 * i, 3);
            System.arraycopy(s.angVel, 0, angVel0, 3 * i, 3);
            subsystem[i] = s.subsystem;
            trajectory[i] = s.trajectory;
        }
        // automatic subsystems (a cable's runs, a deformable body's blocks) after every chosen id
        int firstAuto = 0;
        for (int i = 0; i < bodies; i++) {
            firstAuto = Math.max(firstAuto, subsystem[i] + 1);
        }
        family = new int[bodies];
        for (int i = 0; i < bodies; i++) {
            BodyBuilder s = b.bodies.get(i);
            if (s.autoSubsystem >= 0) {
                subsystem[i] = firstAuto + s.autoSubsystem;
            }
            family[i] = s.family;
        }
        bodyId = new long[bodies];
        for (int i = 0; i < bodies; i++) {
            BodyBuilder s = b.bodies.get(i);
            bodyId[i] = s.idSet ? s.id : i;
        }
        bodyOrder = orderById(bodyId, "body", i -> "'" + b.bodies.get(i).name + "'");
        sortedBodyIds = new long[bodies];
        for (int k = 0; k < bodies; k++) {
            sortedBodyIds[k] = bodyId[bodyOrder[k]];
        }
        int nc = 0;
        for (BodyBuilder s : b.bodies) {
            nc += s.shapes.size();
        }
        colliders = nc;
        colliderBody = new int[nc];
        colliderShape = new Shape[nc];
        colliderFriction = new double[nc];
        colliderPos = new double[3 * nc];
        colliderQuat = new double[4 * nc];
        colliderOffset = new boolean[nc];
        colliderShapeIndex = new int[nc];
        int c = 0;
        for (int i = 0; i < bodies; i++) {
            BodyBuilder s = b.bodies.get(i);
            for (int k = 0; k < s.shapes.size(); k++) {
                colliderBody[c] = i;
                colliderShape[c] = s.shapes.get(k);
                colliderFriction[c] = s.friction;
                double[] pose = s.shapePoses.get(k);
                System.arraycopy(pose, 0, colliderPos, 3 * c, 3);
                System.arraycopy(pose, 3, colliderQuat, 4 * c, 4);
                colliderOffset[c] = pose[0] != 0 || pose[1] != 0 || pose[2] != 0 || pose[3] != 1;
                colliderShapeIndex[c] = k;
                c++;
            }
        }
        // canonical collider order: bodies by global id, then their shapes in order
        int[] bodyFirstCollider = new int[bodies + 1];
        for (int k = 0; k < nc; k++) {
            bodyFirstCollider[colliderBody[k] + 1]++;
        }
        for (int i = 0; i < bodies; i++) {
            bodyFirstCollider[i + 1] += bodyFirstCollider[i];
        }
        colliderRank = new int[nc];
        colliderAtRank = new int[nc];
        int rank = 0;
        for (int k = 0; k < bodies; k++) {
            int i = bodyOrder[k];
            for (int q = bodyFirstCollider[i]; q < bodyFirstCollider[i + 1]; q++) {
                colliderRank[q] = rank;
                colliderAtRank[rank++] = q;
            }
        }
        joints = b.joints.size();
        jointType = new JointType[joints];
        jointA = new int[joints];
        jointB = new int[joints];
        anchorA = new double[3 * joints];
        anchorB = new double[3 * joints];
        axisA = new double[3 * joints];
        axisB = new double[3 * joints];
        relRot0 = new double[4 * joints];
        limitLo = new double[joints];
        limitHi = new double[joints];
        motorSpeed = new double[joints];
        motorMaxForce = new double[joints];
        springK = new double[joints];
        springD = new double[joints];
        rodK = new double[6 * joints];
        rodD = new double[6 * joints];
        double[] tmp = new double[4];
        double[] identity = {1, 0, 0, 0};
        for (int j = 0; j < joints; j++) {
            JointBuilder s = b.joints.get(j);
            jointType[j] = s.type;
            jointA[j] = s.a;
            jointB[j] = s.b;
            double[] qa = s.a >= 0 ? quat0 : identity;
            int qai = s.a >= 0 ? 4 * s.a : 0;
            double[] qb = s.b >= 0 ? quat0 : identity;
            int qbi = s.b >= 0 ? 4 * s.b : 0;
            double[] pa = s.a >= 0 ? new double[] {pos0[3 * s.a], pos0[3 * s.a + 1], pos0[3 * s.a + 2]} : new double[3];
            double[] pb = s.b >= 0 ? new double[] {pos0[3 * s.b], pos0[3 * s.b + 1], pos0[3 * s.b + 2]} : new double[3];
            RigidOps.rotateInverse(qa, qai, s.anchor[0] - pa[0], s.anchor[1] - pa[1], s.anchor[2] - pa[2], anchorA, 3 * j);
            RigidOps.rotateInverse(qb, qbi, s.anchor[0] - pb[0], s.anchor[1] - pb[1], s.anchor[2] - pb[2], anchorB, 3 * j);
            RigidOps.rotateInverse(qa, qai, s.axis[0], s.axis[1], s.axis[2], axisA, 3 * j);
            RigidOps.rotateInverse(qb, qbi, s.axis[0], s.axis[1], s.axis[2], axisB, 3 * j);
            RigidOps.multiplyConjugate(qb, qbi, qa, qai, tmp, 0);
            System.arraycopy(tmp, 0, relRot0, 4 * j, 4);
            limitLo[j] = s.limitLo;
            limitHi[j] = s.limitHi;
            motorSpeed[j] = s.motorSpeed;
            motorMaxForce[j] = s.motorMaxForce;
            springK[j] = s.springK;
            springD[j] = s.springD;
            if (s.rodK != null) {
                System.arraycopy(s.rodK, 0, rodK, 6 * j, 6);
                System.arraycopy(s.rodD, 0, rodD, 6 * j, 6);
            }
        }
        jointId = new long[joints];
        for (int j = 0; j < joints; j++) {
            JointBuilder s = b.joints.get(j);
            jointId[j] = s.idSet ? s.id : j;
        }
        jointOrder = orderById(jointId, "joint", j -> String.valueOf(j));
        articulations = new Articulations(b.articulations, bodies, pos0, quat0, mass, inertia);
        deformables = new Deformables(b.deformables, bodies);
        sortedJointIds = new long[joints];
        for (int k = 0; k < joints; k++) {
            sortedJointIds[k] = jointId[jointOrder[k]];
        }
    }

    /** Indices sorted by id; throws if an id is used twice. */
    private static int[] orderById(long[] ids, String what, java.util.function.IntFunction<String> name) {
        Integer[] boxed = new Integer[ids.length];
        for (int i = 0; i < ids.length; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (x, y) -> Long.compare(ids[x], ids[y]));
        int[] order = new int[ids.length];
        for (int k = 0; k < ids.length; k++) {
            order[k] = boxed[k];
            if (k > 0 && ids[order[k]] == ids[order[k - 1]]) {
                throw new IllegalArgumentException(what + " id " + ids[order[k]] + " is used twice (" + what + "s "
                        + name.apply(order[k - 1]) + " and " + name.apply(order[k]) + "); ids default to the index");
            }
        }
        return order;
    }

    /** @return a builder with Earth gravity (-9.81 m/s^2 along z), 1/240 s steps and SubADMM(60) */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a state at the model's initial configuration */
    public PhysicsState newState() {
        return new PhysicsState(this);
    }

    /** @return the time step, s */
    public double timeStep() {
        return timeStep;
    }

    /** @return the solver settings */
    public SolverSettings solver() {
        return solver;
    }

    /** @return the number of bodies */
    public int bodyCount() {
        return bodies;
    }

    /** @return the number of joints */
    public int jointCount() {
        return joints;
    }

    /** @return the number of articulations (robots in joint coordinates) */
    public int articulationCount() {
        return articulations.count;
    }

    /** @return articulation a's name */
    public String articulationName(int a) {
        return articulations.name[a];
    }

    /** @return the index of the articulation of this name, or -1 */
    public int articulationIndex(String name) {
        for (int a = 0; a < articulations.count; a++) {
            if (articulations.name[a].equals(name)) {
                return a;
            }
        }
        return -1;
    }

    /** @return the number of joints (generalized coordinates) of articulation a */
    public int articulationJointCount(int a) {
        return articulations.dofStart[a + 1] - articulations.dofStart[a];
    }

    /**
     * @return the model-wide index ("dof") of joint {@code joint} of articulation {@code a}, the
     *         index {@link PhysicsState}'s dof methods take
     */
    public int dof(int a, int joint) {
        if (joint < 0 || joint >= articulationJointCount(a)) {
            throw new IllegalArgumentException("articulation '" + articulations.name[a] + "' has no joint " + joint);
        }
        return articulations.dofStart[a] + joint;
    }

    /** @return the number of dofs: the joints of all articulations */
    public int dofCount() {
        return articulations.dofs;
    }

    /** @return the link body of a dof (its joint's child), or -1 for a massless link */
    public int dofBody(int dof) {
        return articulations.body[dof];
    }

    /**
     * A dof's coordinate computed from its link bodies' poses alone, as {@link #jointPosition} does
     * for a joint of maximal coordinates: the angle (rad, wrapped into (-pi, pi]) or displacement
     * (m) from the build pose. What a process that holds only body poses (a distributed primary)
     * computes; equal to {@link PhysicsState#dofPosition} up to rounding and the wrap. Allocates nothing.
     *
     * @return rad or m; NaN where a massless link that turns lies between the joint and its parent's body
     */
    public double dofPositionOfPoses(PhysicsState s, int dof) {
        return articulations.positionOfPoses(s.pos, s.quat, dof);
    }

    /** @return the dof whose link body is {@code body}, or -1 if the body is no articulation's link */
    public int dofOfBody(int body) {
        return articulations.dofOfBody[body];
    }

    /**
     * @param body body index
     * @return its name
     */
    public String bodyName(int body) {
        return bodyName[body];
    }

    /**
     * @param body body index
     * @return its global id ({@link BodyBuilder#id}; the body index unless given)
     */
    public long bodyId(int body) {
        return bodyId[body];
    }

    /**
     * Looks a body up by its global id (binary search; allocates nothing).
     *
     * @param id a global body id
     * @return the body's index, or -1 if no body has that id
     */
    public int bodyIndex(long id) {
        int k = Arrays.binarySearch(sortedBodyIds, id);
        return k >= 0 ? bodyOrder[k] : -1;
    }

    /**
     * @param joint joint index
     * @return its global id ({@link JointBuilder#id}; the joint index unless given)
     */
    public long jointId(int joint) {
        return jointId[joint];
    }

    /**
     * Looks a joint up by its global id (binary search; allocates nothing).
     *
     * @param id a global joint id
     * @return the joint's index, or -1 if no joint has that id
     */
    public int jointIndex(long id) {
        int k = Arrays.binarySearch(sortedJointIds, id);
        return k >= 0 ? jointOrder[k] : -1;
    }

    /**
     * @param body body index
     * @return its type
     */
    public BodyType bodyType(int body) {
        return bodyType[body];
    }

    /**
     * @param body body index
     * @return its mass, kg (infinite for static and kinematic bodies)
     */
    public double mass(int body) {
        return mass[body];
    }

    /**
     * @param body body index
     * @param axis 0, 1, 2
     * @return its principal moment of inertia about that body axis, kg m^2
     */
    public double inertia(int body, int axis) {
        return inertia[3 * body + axis];
    }

    /**
     * @param joint joint index
     * @return its type
     */
    public JointType jointType(int joint) {
        return jointType[joint];
    }

    /**
     * The coordinate of a revolute or prismatic joint in a state: for a revolute joint the angle
     * of A relative to B about the axis since the model's initial configuration, wrapped into
     * (-pi, pi] (so a spinning wheel's angle wraps); for a prismatic joint the displacement of A's
     * anchor from B's along B's axis, m. Allocates nothing; thread-safe for distinct states.
     *
     * @param s     a state of this model, not modified
     * @param joint joint index, a revolute or prismatic joint
     * @return the angle (rad) or displacement (m)
     * @throws IllegalArgumentException for a ball or fixed joint
     */
    public double jointPosition(PhysicsState s, int joint) {
        int a = jointA[joint];
        int b = jointB[joint];
        int j = joint;
        if (jointType[j] == JointType.REVOLUTE) {
            // d = conj(qB (x) rel0) (x) qA, its rotation about A's local axis (as JointAssembly)
            double bw = b >= 0 ? s.quat[4 * b] : 1;
            double bx = b >= 0 ? s.quat[4 * b + 1] : 0;
            double by = b >= 0 ? s.quat[4 * b + 2] : 0;
            double bz = b >= 0 ? s.quat[4 * b + 3] : 0;
            double rw = relRot0[4 * j];
            double rx = relRot0[4 * j + 1];
            double ry = relRot0[4 * j + 2];
            double rz = relRot0[4 * j + 3];
            double tw = bw * rw - bx * rx - by * ry - bz * rz;
            double tx = bw * rx + bx * rw + by * rz - bz * ry;
            double ty = bw * ry - bx * rz + by * rw + bz * rx;
            double tz = bw * rz + bx * ry - by * rx + bz * rw;
            double aw = a >= 0 ? s.quat[4 * a] : 1;
            double ax = a >= 0 ? s.quat[4 * a + 1] : 0;
            double ay = a >= 0 ? s.quat[4 * a + 2] : 0;
            double az = a >= 0 ? s.quat[4 * a + 3] : 0;
            // conj(t) (x) qA
            double dw = tw * aw + tx * ax + ty * ay + tz * az;
            double dx = tw * ax - tx * aw - ty * az + tz * ay;
            double dy = tw * ay + tx * az - ty * aw - tz * ax;
            double dz = tw * az - tx * ay + ty * ax - tz * aw;
            double proj = dx * axisA[3 * j] + dy * axisA[3 * j + 1] + dz * axisA[3 * j + 2];
            double angle = 2 * Math.atan2(proj, dw);
            if (angle > Math.PI) {
                angle -= 2 * Math.PI;
            } else if (angle <= -Math.PI) {
                angle += 2 * Math.PI;
            }
            return angle;
        }
        if (jointType[j] == JointType.PRISMATIC) {
            double sum = 0;
            for (int c = 0; c < 3; c++) {
                double n = axisComponent(s, b, axisB, j, c);
                double pa = (a >= 0 ? s.pos[3 * a + c] + rotated(s.quat, a, anchorA, j, c) : anchorA[3 * j + c]);
                double pb = (b >= 0 ? s.pos[3 * b + c] + rotated(s.quat, b, anchorB, j, c) : anchorB[3 * j + c]);
                sum += (pa - pb) * n;
            }
            return sum;
        }
        throw new IllegalArgumentException("joint " + joint + " is " + jointType[j]
                + ": only revolute and prismatic joints have a coordinate");
    }

    /**
     * The rate of a revolute or prismatic joint's coordinate in a state: (omega_A - omega_B) . axis
     * (rad/s), or the relative velocity of the anchors along B's axis (m/s): the quantity a joint
     * motor drives to its target speed. Allocates nothing.
     *
     * @param s     a state of this model, not modified
     * @param joint joint index, a revolute or prismatic joint
     * @return rad/s or m/s
     * @throws IllegalArgumentException for a ball or fixed joint
     */
    public double jointVelocity(PhysicsState s, int joint) {
        int a = jointA[joint];
        int b = jointB[joint];
        int j = joint;
        if (jointType[j] == JointType.REVOLUTE) {
            double sum = 0;
            for (int c = 0; c < 3; c++) {
                double n = axisComponent(s, a, axisA, j, c);
                sum += ((a >= 0 ? s.angVel[3 * a + c] : 0) - (b >= 0 ? s.angVel[3 * b + c] : 0)) * n;
            }
            return sum;
        }
        if (jointType[j] == JointType.PRISMATIC) {
            double sum = 0;
            for (int c = 0; c < 3; c++) {
                double n = axisComponent(s, b, axisB, j, c);
                sum += (pointVelocity(s, a, anchorA, j, c) - pointVelocity(s, b, anchorB, j, c)) * n;
            }
            return sum;
        }
        throw new IllegalArgumentException("joint " + joint + " is " + jointType[j]
                + ": only revolute and prismatic joints have a velocity");
    }

    /** Component c of a joint axis in the world: R(q_body) axis (the world: the axis itself). */
    private static double axisComponent(PhysicsState s, int body, double[] axes, int j, int c) {
        return body >= 0 ? rotated(s.quat, body, axes, j, c) : axes[3 * j + c];
    }

    /** Component c of R(q_body) v, v = vectors[3 j .. 3 j + 2]. */
    private static double rotated(double[] quat, int body, double[] vectors, int j, int c) {
        double w = quat[4 * body];
        double x = quat[4 * body + 1];
        double y = quat[4 * body + 2];
        double z = quat[4 * body + 3];
        double vx = vectors[3 * j];
        double vy = vectors[3 * j + 1];
        double vz = vectors[3 * j + 2];
        // t = 2 q_vec x v ; v' = v + w t + q_vec x t
        double tx = 2 * (y * vz - z * vy);
        double ty = 2 * (z * vx - x * vz);
        double tz = 2 * (x * vy - y * vx);
        return switch (c) {
            case 0 -> vx + w * tx + (y * tz - z * ty);
            case 1 -> vy + w * ty + (z * tx - x * tz);
            default -> vz + w * tz + (x * ty - y * tx);
        };
    }

    /** Component c of the world velocity of a body's anchor point, v + omega x (R anchor); 0 for the world. */
    private static double pointVelocity(PhysicsState s, int body, double[] anchors, int j, int c) {
        if (body < 0) {
            return 0;
        }
        double rx = rotated(s.quat, body, anchors, j, 0);
        double ry = rotated(s.quat, body, anchors, j, 1);
        double rz = rotated(s.quat, body, anchors, j, 2);
        double wx = s.angVel[3 * body];
        double wy = s.angVel[3 * body + 1];
        double wz = s.angVel[3 * body + 2];
        double cross = switch (c) {
            case 0 -> wy * rz - wz * ry;
            case 1 -> wz * rx - wx * rz;
            default -> wx * ry - wy * rx;
        };
        return s.linVel[3 * body + c] + cross;
    }

    /** Builds a {@link PhysicsModel}; validates every argument when it is given. Not thread-safe. */
    public static final class Builder {
        private double timeStep = 1.0 / 240;
        private final double[] gravity = {0, 0, -9.81};
        private SolverSettings solver = SolverSettings.defaults();
        private final List<BodyBuilder> bodies = new ArrayList<>();
        /** the names of the bodies added: a hash set, so that a world of 10^6 bodies builds in linear time */
        private final java.util.Set<String> bodyNames = new java.util.HashSet<>();
        private final List<JointBuilder> joints = new ArrayList<>();
        final List<ArticulationBuilder> articulations = new ArrayList<>();
        /** automatic subsystems handed out so far (cables' runs, deformable blocks) */
        int autoSubsystems;
        /** collision families handed out so far */
        int families;
        final List<String> cableNames = new ArrayList<>();
        final List<Deformables.Spec> deformables = new ArrayList<>();

        private Builder() {
        }

        /**
         * @param seconds time step, finite and greater than 0
         * @return this
         */
        public Builder timeStep(double seconds) {
            if (!(seconds > 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("time step must be a finite number > 0 s, got " + seconds);
            }
            timeStep = seconds;
            return this;
        }

        /** @return this, with gravity (x, y, z) in m/s^2 */
        public Builder gravity(double x, double y, double z) {
            requireFinite("gravity", x, y, z);
            gravity[0] = x;
            gravity[1] = y;
            gravity[2] = z;
            return this;
        }

        /** @return this, with these solver settings */
        public Builder solver(SolverSettings settings) {
            if (settings == null) {
                throw new IllegalArgumentException("solver settings must not be null");
            }
            solver = settings;
            return this;
        }

        /**
         * Starts a body; finish it with {@link BodyBuilder#add()}.
         *
         * @param name unique, non-empty
         * @return the body's builder
         */
        public BodyBuilder body(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("body name must not be empty");
            }
            if (bodyNames.contains(name)) {
                throw new IllegalArgumentException("body name '" + name + "' is used twice");
            }
            return new BodyBuilder(this, name);
        }

        /** A ball joint between a and b (-1 = world) at a world anchor. */
        public JointBuilder ballJoint(int a, int b, double ax, double ay, double az) {
            return joint(JointType.BALL, a, b, new double[] {ax, ay, az}, new double[] {0, 0, 1});
        }

        /** A revolute joint between a and b (-1 = world) at a world anchor about a world axis. */
        public JointBuilder revoluteJoint(int a, int b, double ax, double ay, double az, double axisX, double axisY, double axisZ) {
            return joint(JointType.REVOLUTE, a, b, new double[] {ax, ay, az}, unit(axisX, axisY, axisZ));
        }

        /** A prismatic joint between a and b (-1 = world) along a world axis through a world anchor. */
        public JointBuilder prismaticJoint(int a, int b, double ax, double ay, double az, double axisX, double axisY, double axisZ) {
            return joint(JointType.PRISMATIC, a, b, new double[] {ax, ay, az}, unit(axisX, axisY, axisZ));
        }

        /** A fixed joint (weld) between a and b (-1 = world) at a world anchor. */
        public JointBuilder fixedJoint(int a, int b, double ax, double ay, double az) {
            return joint(JointType.FIXED, a, b, new double[] {ax, ay, az}, new double[] {0, 0, 1});
        }

        private JointBuilder joint(JointType type, int a, int b, double[] anchor, double[] axis) {
            requireFinite("joint anchor", anchor[0], anchor[1], anchor[2]);
            if (a < -1 || a >= bodies.size() || b < -1 || b >= bodies.size()) {
                throw new IllegalArgumentException(type + " joint: body indices " + a + ", " + b
                        + " out of range (-1 = world, 0.." + (bodies.size() - 1) + ")");
            }
            if (a == b) {
                throw new IllegalArgumentException(type + " joint connects body " + a + " to itself");
            }
            boolean aMoves = a >= 0 && bodies.get(a).type == BodyType.DYNAMIC;
            boolean bMoves = b >= 0 && bodies.get(b).type == BodyType.DYNAMIC;
            if (!aMoves && !bMoves) {
                throw new IllegalArgumentException(type + " joint between " + name(a) + " and " + name(b)
                        + ": at least one side must be a dynamic body");
            }
            return new JointBuilder(this, type, a, b, anchor, axis);
        }

        private String name(int i) {
            return i < 0 ? "the world" : "'" + bodies.get(i).name + "'";
        }

        private static double[] unit(double x, double y, double z) {
            requireFinite("joint axis", x, y, z);
            double n = Math.sqrt(x * x + y * y + z * z);
            if (!(n > 1e-12)) {
                throw new IllegalArgumentException("joint axis must be non-zero, got (" + x + ", " + y + ", " + z + ")");
            }
            return new double[] {x / n, y / n, z / n};
        }

        /**
         * Starts a cable of rigid capsule segments joined by Cosserat rod connections; finish it
         * with {@link CableBuilder#add()}.
         *
         * @param name unique among the cables, non-empty; its segments are bodies NAME/0, NAME/1, ...
         * @return the cable's builder
         */
        public CableBuilder cable(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("cable name must not be empty");
            }
            if (cableNames.contains(name)) {
                throw new IllegalArgumentException("cable name '" + name + "' is used twice");
            }
            return new CableBuilder(this, name);
        }

        /**
         * Starts a deformable body (co-rotational tetrahedral FEM); finish it with
         * {@link DeformableBuilder#add()}.
         *
         * @param name unique among the deformable bodies, non-empty; its nodes are bodies NAME/i
         * @return the deformable body's builder
         */
        public DeformableBuilder deformable(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("deformable name must not be empty");
            }
            for (Deformables.Spec d : deformables) {
                if (d.name().equals(name)) {
                    throw new IllegalArgumentException("deformable name '" + name + "' is used twice");
                }
            }
            return new DeformableBuilder(this, name);
        }

        /**
         * @param deformable a deformable body's index ({@link DeformableBuilder#add()})
         * @param node       a node of its mesh
         * @return the body of that node (its copy in the first block holding it)
         */
        public int deformableNode(int deformable, int node) {
            if (deformable < 0 || deformable >= deformables.size()) {
                throw new IllegalArgumentException("no deformable body " + deformable + " (0.." + (deformables.size() - 1) + ")");
            }
            int[] bodies = deformables.get(deformable).nodeBody();
            if (node < 0 || node >= bodies.length) {
                throw new IllegalArgumentException("deformable '" + deformables.get(deformable).name() + "' has nodes 0.."
                        + (bodies.length - 1) + ", not " + node);
            }
            return bodies[node];
        }

        /**
         * Welds every node of a deformable body whose position passes the filter to a body (or the
         * world, -1) by a ball joint at the node: 3 hard rows each (a grasp, a clamp).
         *
         * @return the number of nodes welded (at least 1)
         * @throws IllegalArgumentException if no node passes the filter
         */
        public int weldNodes(int deformable, int body, NodeFilter filter) {
            return weldNodes(deformable, body, filter, -1);
        }

        /**
         * {@link #weldNodes(int, int, NodeFilter)} with stable global ids for the welds:
         * {@code firstJointId, firstJointId + 1, ...} in node order (-1: their indices).
         */
        public int weldNodes(int deformable, int body, NodeFilter filter, long firstJointId) {
            int n = deformableNode(deformable, 0) >= 0 ? deformables.get(deformable).nodeBody().length : 0;
            int welded = 0;
            for (int v = 0; v < n; v++) {
                int nb = deformableNode(deformable, v);
                double[] p = bodies.get(nb).pos;
                if (filter.test(p[0], p[1], p[2])) {
                    JointBuilder j = ballJoint(nb, body, p[0], p[1], p[2]);
                    if (firstJointId >= 0) {
                        j.id(firstJointId + welded);
                    }
                    j.add();
                    welded++;
                }
            }
            if (welded == 0) {
                throw new IllegalArgumentException("deformable '" + deformables.get(deformable).name() + "': no node passes"
                        + " the weld's filter; check its coordinates (world frame, m)");
            }
            return welded;
        }

        /** A rod joint (CableBuilder) between a and b (-1 = world) at a world anchor, tangent along a world axis. */
        JointBuilder rodJoint(int a, int b, double[] anchor, double[] tangent, double[] k, double[] d) {
            JointBuilder j = joint(JointType.ROD, a, b, anchor, unit(tangent[0], tangent[1], tangent[2]));
            j.rodK = k.clone();
            j.rodD = d.clone();
            return j;
        }

        /**
         * Starts a robot in joint coordinates; finish it with {@link ArticulationBuilder#add()}.
         *
         * @param name unique among the articulations, non-empty
         * @return the articulation's builder
         */
        public ArticulationBuilder articulation(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("articulation name must not be empty");
            }
            for (ArticulationBuilder a : articulations) {
                if (a.name.equals(name)) {
                    throw new IllegalArgumentException("articulation name '" + name + "' is used twice");
                }
            }
            return new ArticulationBuilder(this, name);
        }

        /** @return the bodies added so far */
        public int bodyCount() {
            return bodies.size();
        }

        /** @return the joints added so far */
        public int jointCount() {
            return joints.size();
        }

        BodyType bodyType(int i) {
            return bodies.get(i).type;
        }

        String bodyName(int i) {
            return bodies.get(i).name;
        }

        double[] bodyPosition(int i) {
            return bodies.get(i).pos.clone();
        }

        /** Adds a finished articulation (or, in maximal coordinates, its joints); see {@link ArticulationBuilder#add()}. */
        int addArticulation(ArticulationBuilder a) {
            if (!a.maximal) {
                articulations.add(a);
                return articulations.size() - 1;
            }
            int first = joints.size();
            // a floating root is a free body: its six virtual joints have no rows
            for (int k = a.floating >= 0 ? 6 : 0; k < a.joints.size(); k++) {
                ArticulationBuilder.Joint j = a.joints.get(k);
                String what = "articulation '" + a.name + "' joint " + k + " in maximal coordinates";
                if (j.body < 0) {
                    throw new IllegalArgumentException(what + ": every link needs a body (a massless link needs joint coordinates)");
                }
                if (!a.noSlip.isEmpty()) {
                    throw new IllegalArgumentException("articulation '" + a.name + "': no-slip rows need joint coordinates");
                }
                if (j.armature != 0 || j.kp != 0 || j.kd != 0 || j.q0 != 0 || j.qd0 != 0) {
                    throw new IllegalArgumentException(what + ": armature, gains and initial positions need joint coordinates"
                            + " (place the bodies instead)");
                }
                int parentBody = j.parent < 0 ? -1 : a.joints.get(j.parent).body;
                // side A the child, so that the coordinate grows as the child turns about the axis
                JointBuilder jb = j.type == JointType.PRISMATIC
                        ? prismaticJoint(j.body, parentBody, j.anchor[0], j.anchor[1], j.anchor[2], j.axis[0], j.axis[1], j.axis[2])
                        : revoluteJoint(j.body, parentBody, j.anchor[0], j.anchor[1], j.anchor[2], j.axis[0], j.axis[1], j.axis[2]);
                if (j.lo > Double.NEGATIVE_INFINITY || j.hi < Double.POSITIVE_INFINITY) {
                    jb.limits(j.lo, j.hi);
                }
                if (j.damping > 0) {
                    jb.spring(0, j.damping);
                }
                if (j.friction > 0) {
                    jb.motor(0, j.friction);
                }
                jb.add();
            }
            return first;
        }

        /** @return the compiled model */
        public PhysicsModel build() {
            return new PhysicsModel(this);
        }
    }

    /** Chooses nodes by their world position at build time, m. */
    @FunctionalInterface
    public interface NodeFilter {
        /** @return whether the node at (x, y, z) is chosen */
        boolean test(double x, double y, double z);
    }

    /** @return the number of deformable bodies */
    public int deformableCount() {
        return deformables.count;
    }

    /** @return the body of node {@code node} of deformable body {@code d} (its first block's copy) */
    public int deformableNode(int d, int node) {
        return deformables.nodeBody[d][node];
    }

    /** @return the number of mesh nodes of deformable body {@code d} */
    public int deformableNodeCount(int d) {
        return deformables.nodeBody[d].length;
    }

    /** @return the name deformable body {@code d} was built with */
    public String deformableName(int d) {
        return deformables.name[d];
    }

    /**
     * The boundary of deformable body {@code d}: every face of exactly one tetrahedron, for
     * drawing it. Allocates the copy it returns.
     *
     * @return 3 mesh node indices per triangle, counter-clockwise seen from outside the rest mesh
     */
    public int[] deformableSurface(int d) {
        return deformables.surface[d].clone();
    }

    /** Describes one body; defaults: dynamic, at the origin, identity orientation, at rest. */
    public static final class BodyBuilder {
        /** most shapes per body (contact warm-start keys hold a shape index in 15 bits) */
        public static final int MAX_SHAPES = 32767;
        private final Builder owner;
        final String name;
        BodyType type = BodyType.DYNAMIC;
        double mass = Double.NaN;
        final double[] inertia = new double[3];
        final double[] pos = new double[3];
        final double[] quat = {1, 0, 0, 0};
        final double[] linVel = new double[3];
        final double[] angVel = new double[3];
        int subsystem = -1;
        /** an automatic subsystem (numbered after every chosen id at build time), or -1 */
        int autoSubsystem = -1;
        /** collision family (PhysicsModel.family), or -1 */
        int family = -1;
        KinematicTrajectory trajectory;
        final java.util.List<Shape> shapes = new java.util.ArrayList<>();
        /** per shape: x, y, z, qw, qx, qy, qz in the body frame */
        final java.util.List<double[]> shapePoses = new java.util.ArrayList<>();
        double friction = 0.5;
        double density = Double.NaN;
        long id;
        boolean idSet;

        private BodyBuilder(Builder owner, String name) {
            this.owner = owner;
            this.name = name;
        }

        /**
         * Gives the body a stable global id (default: its index). Everything order-dependent in a
         * step (the order of contact rows, which collider of a pair is side A, the order of the
         * bodies in the solver, the keys of contact warm starts) depends only on these ids, never
         * on indices: a group of bodies that does not interact with the others steps bitwise the
         * same in any model that holds it with the same ids (see {@link PhysicsEngine}).
         *
         * @param globalId any value, unique in the model
         * @return this
         */
        public BodyBuilder id(long globalId) {
            id = globalId;
            idSet = true;
            return this;
        }

        /** @return this, as a static body */
        public BodyBuilder makeStatic() {
            type = BodyType.STATIC;
            return this;
        }

        /** @return this, as a kinematic body following {@code t} */
        public BodyBuilder kinematic(KinematicTrajectory t) {
            if (t == null) {
                throw new IllegalArgumentException("body '" + name + "': kinematic trajectory must not be null");
            }
            type = BodyType.KINEMATIC;
            trajectory = t;
            return this;
        }

        /**
         * @param m   mass, kg, greater than 0
         * @param ixx principal inertia about the body x axis, kg m^2, greater than 0
         * @param iyy about y
         * @param izz about z
         * @return this
         */
        public BodyBuilder mass(double m, double ixx, double iyy, double izz) {
            if (!(m > 0) || Double.isInfinite(m)) {
                throw new IllegalArgumentException("body '" + name + "': mass must be a finite number > 0 kg, got " + m);
            }
            if (!(ixx > 0) || !(iyy > 0) || !(izz > 0) || Double.isInfinite(ixx + iyy + izz)) {
                throw new IllegalArgumentException("body '" + name + "': inertia must be finite and > 0, got ("
                        + ixx + ", " + iyy + ", " + izz + ")");
            }
            mass = m;
            inertia[0] = ixx;
            inertia[1] = iyy;
            inertia[2] = izz;
            return this;
        }

        /** @return this, with the centre of mass at (x, y, z), m */
        public BodyBuilder position(double x, double y, double z) {
            requireFinite("body '" + name + "' position", x, y, z);
            pos[0] = x;
            pos[1] = y;
            pos[2] = z;
            return this;
        }

        /** @return this, with orientation (w, x, y, z), normalized */
        public BodyBuilder orientation(double w, double x, double y, double z) {
            requireFinite("body '" + name + "' orientation", w, x, y, z);
            double n = Math.sqrt(w * w + x * x + y * y + z * z);
            if (!(n > 1e-12)) {
                throw new IllegalArgumentException("body '" + name + "': orientation quaternion must be non-zero");
            }
            quat[0] = w / n;
            quat[1] = x / n;
            quat[2] = y / n;
            quat[3] = z / n;
            return this;
        }

        /** @return this, with linear velocity (m/s) */
        public BodyBuilder linearVelocity(double x, double y, double z) {
            requireFinite("body '" + name + "' velocity", x, y, z);
            linVel[0] = x;
            linVel[1] = y;
            linVel[2] = z;
            return this;
        }

        /** @return this, with angular velocity (rad/s, world frame) */
        public BodyBuilder angularVelocity(double x, double y, double z) {
            requireFinite("body '" + name + "' angular velocity", x, y, z);
            angVel[0] = x;
            angVel[1] = y;
            angVel[2] = z;
            return this;
        }

        /**
         * Puts this body in a caller-chosen subsystem; bodies default to one subsystem each.
         * SubADMM solves the joints inside a subsystem (between two of its bodies, or one of them
         * and the world or a static or kinematic body) exactly, with a sparse direct solve, and
         * projects them back onto their positions every step; only constraints between
         * subsystems and contacts are split. Group what is stiffly jointed (a chain, a cable, a
         * robot); the other solvers ignore subsystems.
         *
         * @param group subsystem id, at least 0; bodies with the same id share a subsystem
         * @return this
         */
        public BodyBuilder subsystem(int group) {
            if (group < 0) {
                throw new IllegalArgumentException("body '" + name + "': subsystem id must be >= 0, got " + group);
            }
            subsystem = group;
            return this;
        }

        /** @return this, with a sphere of radius r (m) as a collision shape at the body origin */
        public BodyBuilder sphere(double r) {
            return shape(Shape.sphere(r));
        }

        /** @return this, with a box of half extents (m) along the body axes as a collision shape at the body origin */
        public BodyBuilder box(double hx, double hy, double hz) {
            return shape(Shape.box(hx, hy, hz));
        }

        /** @return this, with a capsule (radius, half length of its segment along body z), m, at the body origin */
        public BodyBuilder capsule(double r, double halfLength) {
            return shape(Shape.capsule(r, halfLength));
        }

        /** @return this, with a cylinder (radius, half height along body z), m, at the body origin */
        public BodyBuilder cylinder(double r, double halfHeight) {
            return shape(Shape.cylinder(r, halfHeight));
        }

        /** @return this, with the infinite plane z = 0 of the body frame (normal +z); static bodies only */
        public BodyBuilder plane() {
            return shape(Shape.plane());
        }

        /**
         * Adds the convex hull of a point cloud as a collision shape, e.g. the vertices of a mesh
         * loaded from an STL, OBJ or COLLADA file (a concave mesh collides as its hull). The points
         * are in the shape frame, which starts at the body origin, unturned; place it with
         * {@link #at}. The hull need not be centred on the shape origin. Coplanar facets merge into
         * polygon faces (relative tolerance 1e-6); a hull with 128 or more vertices, faces or edges
         * is simplified to a subset of its vertices, which lies inside the full hull (up to about
         * 6.5 % of the radius deep for a finely tessellated sphere, far less for meshes with flat
         * faces).
         *
         * <p>With {@link #density}, mass and inertia are those of the (possibly simplified) hull,
         * exact for that polytope; as for every shape, the body frame must then be the centre of
         * mass on principal axes, which a mesh in its file's frame rarely is: place the hull with
         * {@link #at} or give {@link #mass} explicitly.
         *
         * <p>Computes the hull here: allocates, build time only (calling thread; a builder is not
         * thread-safe).
         *
         * @param xyz points x0, y0, z0, x1, ... in the shape frame, m; at least 4 not in one plane,
         *     all finite. Not modified (copied).
         * @return this
         * @throws IllegalArgumentException if the array is null or not a list of x, y, z triples, a
         *     coordinate is not finite, or the points do not span a volume (a flat or degenerate mesh)
         */
        public BodyBuilder convex(double[] xyz) {
            Shape s;
            try {
                s = Shape.convex(xyz);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("body '" + name + "': " + e.getMessage(), e);
            }
            return shape(s);
        }

        /**
         * Places the shape added last at a pose in the body frame (a body may have several shapes,
         * each at its own pose; a new shape starts at the body origin, unturned).
         *
         * @param x  position in the body frame, m
         * @param y  position, m
         * @param z  position, m
         * @param qw orientation in the body frame (w, x, y, z), normalized here; not zero
         * @param qx orientation x
         * @param qy orientation y
         * @param qz orientation z
         * @return this
         */
        public BodyBuilder at(double x, double y, double z, double qw, double qx, double qy, double qz) {
            if (shapes.isEmpty()) {
                throw new IllegalArgumentException("body '" + name + "': at(...) places the shape added last; add a shape"
                        + " first (sphere, box, capsule, cylinder, convex or plane)");
            }
            requireFinite("body '" + name + "' shape position", x, y, z);
            requireFinite("body '" + name + "' shape orientation", qw, qx, qy, qz);
            double n = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
            if (!(n > 1e-12)) {
                throw new IllegalArgumentException("body '" + name + "': shape orientation quaternion must be non-zero");
            }
            double[] pose = shapePoses.get(shapePoses.size() - 1);
            pose[0] = x;
            pose[1] = y;
            pose[2] = z;
            pose[3] = qw / n;
            pose[4] = qx / n;
            pose[5] = qy / n;
            pose[6] = qz / n;
            return this;
        }

        private BodyBuilder shape(Shape s) {
            if (shapes.size() >= MAX_SHAPES) {
                throw new IllegalArgumentException("body '" + name + "' has more than " + MAX_SHAPES + " shapes");
            }
            shapes.add(s);
            shapePoses.add(new double[] {0, 0, 0, 1, 0, 0, 0});
            return this;
        }

        /**
         * @param mu Coulomb friction coefficient of this body's shape, at least 0 (default 0.5; a pair
         *           uses the geometric mean of its two coefficients)
         * @return this
         */
        public BodyBuilder friction(double mu) {
            if (!(mu >= 0) || Double.isInfinite(mu)) {
                throw new IllegalArgumentException("body '" + name + "': friction must be a finite number >= 0, got " + mu);
            }
            friction = mu;
            return this;
        }

        /**
         * Derives mass and inertia from the shape and a density (unless {@link #mass} is given).
         *
         * @param kgPerM3 density, greater than 0
         * @return this
         */
        public BodyBuilder density(double kgPerM3) {
            if (!(kgPerM3 > 0) || Double.isInfinite(kgPerM3)) {
                throw new IllegalArgumentException("body '" + name + "': density must be a finite number > 0, got " + kgPerM3);
            }
            density = kgPerM3;
            return this;
        }

        /** @return the new body's index */
        public int add() {
            if (type == BodyType.DYNAMIC && Double.isNaN(mass) && !Double.isNaN(density)) {
                if (shapes.isEmpty()) {
                    throw new IllegalArgumentException("body '" + name + "': density needs a shape to compute the mass");
                }
                massFromShapes();
            }
            if (type == BodyType.DYNAMIC) {
                for (Shape sh : shapes) {
                    if (sh.type() == io.tandem.physics.internal.geometry.ShapeType.PLANE) {
                        throw new IllegalArgumentException("body '" + name + "': a plane is infinite; only static bodies may have one");
                    }
                }
            }
            if (type == BodyType.DYNAMIC && Double.isNaN(mass)) {
                throw new IllegalArgumentException("dynamic body '" + name + "' needs a mass: call mass(m, ixx, iyy, izz)"
                        + " or give it a shape and a density");
            }
            if (!owner.bodyNames.add(name)) {
                // two builders of one name, both started before either was added
                throw new IllegalArgumentException("body name '" + name + "' is used twice");
            }
            owner.bodies.add(this);
            return owner.bodies.size() - 1;
        }

        /**
         * Mass and principal inertia of the body's shapes at uniform density. The body frame must
         * be their centre of mass on principal axes (the engine's body frame): otherwise the
         * caller gives the mass explicitly.
         */
        private void massFromShapes() {
            double m = 0;
            double[] com = new double[3];
            double[] tensor = new double[9];
            double[] r = new double[9];
            double[] rot = new double[9];
            double[] c = new double[3];
            double[] products = new double[9];
            for (int k = 0; k < shapes.size(); k++) {
                MassProperties mp = MassProperties.of(shapes.get(k), density);
                double[] pose = shapePoses.get(k);
                rotation(pose, rot);
                // the shape's centre of mass in the body frame (its pose, but for a convex hull)
                for (int d = 0; d < 3; d++) {
                    c[d] = pose[d] + (rot[3 * d] * mp.comX() + rot[3 * d + 1] * mp.comY() + rot[3 * d + 2] * mp.comZ());
                }
                m += mp.mass();
                for (int d = 0; d < 3; d++) {
                    com[d] += mp.mass() * c[d];
                }
                // R I R^T of this shape (the diagonal, then the products of a convex hull), then the
                // parallel-axis term about the body origin
                RigidOps.worldInertia(pose, 3, mp.ixx(), mp.iyy(), mp.izz(), r, 0);
                products[1] = mp.ixy();
                products[3] = mp.ixy();
                products[2] = mp.ixz();
                products[6] = mp.ixz();
                products[5] = mp.iyz();
                products[7] = mp.iyz();
                double d2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
                for (int a = 0; a < 3; a++) {
                    for (int b2 = 0; b2 < 3; b2++) {
                        double off = 0;
                        for (int i = 0; i < 3; i++) {
                            for (int j = 0; j < 3; j++) {
                                off += rot[3 * a + i] * products[3 * i + j] * rot[3 * b2 + j];
                            }
                        }
                        tensor[3 * a + b2] += r[3 * a + b2] + off + mp.mass() * ((a == b2 ? d2 : 0) - c[a] * c[b2]);
                    }
                }
            }
            double scale = Math.max(tensor[0] + tensor[4] + tensor[8], 1e-300);
            double comNorm = Math.sqrt(com[0] * com[0] + com[1] * com[1] + com[2] * com[2]) / m;
            double off = Math.abs(tensor[1]) + Math.abs(tensor[2]) + Math.abs(tensor[5]);
            if (comNorm > 1e-9 || off > 1e-9 * scale) {
                throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                        "body '%s': its shapes' centre of mass is at (%.4g, %.4g, %.4g) m in the body frame and their"
                                + " inertia is not diagonal there; the body frame must be the centre of mass on principal"
                                + " axes: place the shapes around it with at(...), or give the mass with mass(m, ixx, iyy, izz)",
                        name, com[0] / m, com[1] / m, com[2] / m));
            }
            mass(m, tensor[0], tensor[4], tensor[8]);
        }
    }

    /** Row-major rotation matrix of the unit quaternion pose[3..6] (build time). */
    private static void rotation(double[] pose, double[] m) {
        double w = pose[3];
        double x = pose[4];
        double y = pose[5];
        double z = pose[6];
        m[0] = 1 - 2 * (y * y + z * z);
        m[1] = 2 * (x * y - w * z);
        m[2] = 2 * (x * z + w * y);
        m[3] = 2 * (x * y + w * z);
        m[4] = 1 - 2 * (x * x + z * z);
        m[5] = 2 * (y * z - w * x);
        m[6] = 2 * (x * z - w * y);
        m[7] = 2 * (y * z + w * x);
        m[8] = 1 - 2 * (x * x + y * y);
    }

    /** Describes one joint; finish with {@link #add()}. */
    public static final class JointBuilder {
        private final Builder owner;
        final JointType type;
        final int a;
        final int b;
        final double[] anchor;
        final double[] axis;
        double limitLo = Double.NEGATIVE_INFINITY;
        double limitHi = Double.POSITIVE_INFINITY;
        double motorSpeed;
        double motorMaxForce;
        double springK;
        double springD;
        double[] rodK;
        double[] rodD;
        long id;
        boolean idSet;

        private JointBuilder(Builder owner, JointType type, int a, int b, double[] anchor, double[] axis) {
            this.owner = owner;
            this.type = type;
            this.a = a;
            this.b = b;
            this.anchor = anchor;
            this.axis = axis;
        }

        private void requireAxisJoint(String what) {
            if (type != JointType.REVOLUTE && type != JointType.PRISMATIC) {
                throw new IllegalArgumentException(what + " needs a revolute or prismatic joint, not " + type);
            }
        }

        /**
         * @param lo lower limit (rad or m), may be -infinity
         * @param hi upper limit, at least lo
         * @return this
         */
        public JointBuilder limits(double lo, double hi) {
            requireAxisJoint("a limit");
            if (Double.isNaN(lo) || Double.isNaN(hi) || lo > hi) {
                throw new IllegalArgumentException("joint limits need lo <= hi, got [" + lo + ", " + hi + "]");
            }
            limitLo = lo;
            limitHi = hi;
            return this;
        }

        /**
         * A velocity motor: drives A relative to B about/along the axis towards {@code speed}
         * with at most {@code maxForce}.
         *
         * @param speed    target speed (rad/s or m/s)
         * @param maxForce force (torque) bound, N (N m), at least 0
         * @return this
         */
        public JointBuilder motor(double speed, double maxForce) {
            requireAxisJoint("a motor");
            if (!Double.isFinite(speed) || !(maxForce >= 0) || Double.isInfinite(maxForce)) {
                throw new IllegalArgumentException("motor needs a finite speed and a finite max force >= 0, got "
                        + speed + ", " + maxForce);
            }
            motorSpeed = speed;
            motorMaxForce = maxForce;
            return this;
        }

        /**
         * A spring-damper about/along the axis towards the initial configuration.
         *
         * @param stiffness N/m or N m/rad, at least 0
         * @param damping   N s/m or N m s/rad, at least 0; stiffness + damping &gt; 0
         * @return this
         */
        public JointBuilder spring(double stiffness, double damping) {
            requireAxisJoint("a spring");
            if (!(stiffness >= 0) || !(damping >= 0) || !(stiffness + damping > 0) || Double.isInfinite(stiffness + damping)) {
                throw new IllegalArgumentException("spring needs finite stiffness and damping >= 0, not both 0; got "
                        + stiffness + ", " + damping);
            }
            springK = stiffness;
            springD = damping;
            return this;
        }

        /**
         * Gives the joint a stable global id (default: its index). Joint rows are assembled in
         * the order of these ids.
         *
         * @param globalId any value, unique among the model's joints
         * @return this
         */
        public JointBuilder id(long globalId) {
            id = globalId;
            idSet = true;
            return this;
        }

        /** @return the new joint's index */
        public int add() {
            owner.joints.add(this);
            return owner.joints.size() - 1;
        }
    }

    private static void requireFinite(String what, double... v) {
        for (double x : v) {
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException(what + " must be finite, got " + Arrays.toString(v));
            }
        }
    }
}
