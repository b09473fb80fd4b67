package io.tandem.physics;

/**
 * The mutable state of a world: structure-of-arrays, preallocated for its model (MuJoCo's
 * mjData). Fields are public so other modules read and write poses without copies; the shapes
 * are in the comments. Not thread-safe: one stepping thread at a time.
 *
 * <p>It also holds the joint motors' commands (target speed and force bound, starting at the
 * model's): {@link #setMotorSpeed} changes a motor's target from the next step on, without
 * allocating, and {@link #copyFrom} carries the commands with the rest.
 *
 * <p>Besides poses, velocities and joint impulses, the state holds the <em>contact warm starts</em>:
 * the impulses of the last step's contact points, keyed by global identity (the two bodies'
 * {@linkplain PhysicsModel.BodyBuilder#id ids}, their shape indices and the contact feature), never
 * by model index. So a state's warm starts stay valid when the model is rebuilt with other bodies
 * around the same ones, and they move with a body from one state to another
 * ({@link #copyContactWarmStarts}, {@link #contactWarmStarts}, {@link #putContactWarmStart}); a
 * group of bodies whose poses, velocities, joint impulses and contact warm starts are moved into
 * another model with the same ids continues bitwise as it would have (see {@link PhysicsEngine}).
 */
public final class PhysicsState {
    /** positions of the centres of mass, m (bodies x 3) */
    public final double[] pos;
    /** orientations (w, x, y, z), body to world (bodies x 4) */
    public final double[] quat;
    /** linear velocities, m/s (bodies x 3) */
    public final double[] linVel;
    /** angular velocities in the world frame, rad/s (bodies x 3) */
    public final double[] angVel;
    /** warm-start impulses of joint rows (joints x 10: 6 hard rows, lower and upper limit, motor, spring) */
    public final double[] jointImpulse;
    /** simulated time, s */
    public double time;
    /** target speed of each joint's velocity motor, rad/s or m/s (joints); starts at the model's */
    final double[] motorSpeed;
    /** force (torque) bound of each joint's velocity motor, N or N m (joints); 0: no motor row */
    final double[] motorMaxForce;
    /** the model's joint types, to validate motor commands (joints; shared, never modified) */
    private final JointType[] jointType;
    /** completed steps */
    public long step;
    /** contact warm starts (the last step's contact impulses), keyed by global ids */
    final ContactCache contacts = new ContactCache();
    // articulations (robots in joint coordinates), per dof (PhysicsModel#dof)
    final double[] dofPos;
    final double[] dofVel;
    final double[] dofTargetPos;
    final double[] dofTargetVel;
    final double[] dofKp;
    final double[] dofKd;
    final double[] dofTorque;
    final double[] dofEffort;
    final long[] effortSaturations;
    /** warm starts of each dof's lower limit, upper limit and friction rows (3 per dof), N s or N m s */
    final double[] dofImpulse;
    /** warm starts of the articulations' no-slip rows, N s */
    final double[] noSlipImpulse;
    private final Articulations articulations;
    /** forward kinematics for {@link #setDofState} (created on first use) */
    private io.tandem.physics.internal.dynamics.ArticulatedTree[] trees;

    PhysicsState(PhysicsModel m) {
        pos = m.pos0.clone();
        quat = m.quat0.clone();
        linVel = m.linVel0.clone();
        angVel = m.angVel0.clone();
        jointImpulse = new double[JointAssembly.SLOTS * m.joints];
        motorSpeed = m.motorSpeed.clone();
        motorMaxForce = m.motorMaxForce.clone();
        jointType = m.jointType;
        articulations = m.articulations;
        Articulations art = m.articulations;
        dofPos = art.q0.clone();
        dofVel = art.qd0.clone();
        dofTargetPos = art.q0.clone();
        dofTargetVel = new double[art.dofs];
        dofKp = art.kp.clone();
        dofKd = art.kd.clone();
        dofTorque = new double[art.dofs];
        dofEffort = new double[art.dofs];
        effortSaturations = new long[art.dofs];
        dofImpulse = new double[3 * art.dofs];
        noSlipImpulse = new double[art.noSlips];
        for (int a = 0; a < art.count; a++) {
            placeLinks(a);
        }
        // kinematic bodies start on their trajectory
        double[] sample = new double[13];
        for (int i = 0; i < m.bodies; i++) {
            if (m.bodyType[i] == BodyType.KINEMATIC) {
                m.trajectory[i].sample(0, sample);
                System.arraycopy(sample, 0, pos, 3 * i, 3);
                System.arraycopy(sample, 3, quat, 4 * i, 4);
                System.arraycopy(sample, 7, linVel, 3 * i, 3);
                System.arraycopy(sample, 10, angVel, 3 * i, 3);
            }
        }
    }

    /**
     * Copies another state of the same model into this one (snapshot / restore), contact warm
     * starts and motor commands included. Allocates nothing once this state's warm-start table is as large as the
     * other's.
     *
     * @param other source, not modified
     */
    public void copyFrom(PhysicsState other) {
        System.arraycopy(other.pos, 0, pos, 0, pos.length);
        System.arraycopy(other.quat, 0, quat, 0, quat.length);
        System.arraycopy(other.linVel, 0, linVel, 0, linVel.length);
        System.arraycopy(other.angVel, 0, angVel, 0, angVel.length);
        System.arraycopy(other.jointImpulse, 0, jointImpulse, 0, jointImpulse.length);
        System.arraycopy(other.motorSpeed, 0, motorSpeed, 0, motorSpeed.length);
        System.arraycopy(other.motorMaxForce, 0, motorMaxForce, 0, motorMaxForce.length);
        contacts.copyFrom(other.contacts);
        System.arraycopy(other.dofPos, 0, dofPos, 0, dofPos.length);
        System.arraycopy(other.dofVel, 0, dofVel, 0, dofVel.length);
        System.arraycopy(other.dofTargetPos, 0, dofTargetPos, 0, dofTargetPos.length);
        System.arraycopy(other.dofTargetVel, 0, dofTargetVel, 0, dofTargetVel.length);
        System.arraycopy(other.dofKp, 0, dofKp, 0, dofKp.length);
        System.arraycopy(other.dofKd, 0, dofKd, 0, dofKd.length);
        System.arraycopy(other.dofTorque, 0, dofTorque, 0, dofTorque.length);
        System.arraycopy(other.dofEffort, 0, dofEffort, 0, dofEffort.length);
        System.arraycopy(other.effortSaturations, 0, effortSaturations, 0, effortSaturations.length);
        System.arraycopy(other.dofImpulse, 0, dofImpulse, 0, dofImpulse.length);
        System.arraycopy(other.noSlipImpulse, 0, noSlipImpulse, 0, noSlipImpulse.length);
        time = other.time;
        step = other.step;
    }

    /**
     * Commands a joint's velocity motor from the next step on, keeping its force bound: the
     * solver's motor row drives the joint towards {@code speed} with at most the bound. Allocates
     * nothing; for the stepping loop.
     *
     * @param joint joint index, a revolute or prismatic joint with a motor (a force bound &gt; 0,
     *              from {@link PhysicsModel.JointBuilder#motor} or {@link #setMotor})
     * @param speed target rate of the joint coordinate, rad/s or m/s: A relative to B about or
     *              along the axis (the sign of {@link PhysicsModel#jointVelocity}); finite
     * @throws IllegalArgumentException if the joint has no motor or the speed is not finite
     */
    public void setMotorSpeed(int joint, double speed) {
        if (!(motorMaxForce[joint] > 0)) {
            throw new IllegalArgumentException("joint " + joint + " has no motor (its max force is 0): give it one with"
                    + " JointBuilder.motor(speed, maxForce) or PhysicsState.setMotor(joint, speed, maxForce)");
        }
        if (!Double.isFinite(speed)) {
            throw new IllegalArgumentException("joint " + joint + ": motor speed must be finite, got " + speed);
        }
        motorSpeed[joint] = speed;
    }

    /**
     * Sets a joint's velocity motor (target speed and force bound) from the next step on; a bound
     * of 0 switches the motor off. Allocates nothing.
     *
     * @param joint    joint index, a revolute or prismatic joint
     * @param speed    target speed, rad/s or m/s, finite
     * @param maxForce force (torque) bound, N (N m), finite and at least 0
     * @throws IllegalArgumentException for another joint type or a bad value
     */
    public void setMotor(int joint, double speed, double maxForce) {
        if (jointType[joint] != JointType.REVOLUTE && jointType[joint] != JointType.PRISMATIC) {
            throw new IllegalArgumentException("joint " + joint + " is " + jointType[joint]
                    + ": a motor needs a revolute or prismatic joint");
        }
        if (!Double.isFinite(speed) || !(maxForce >= 0) || Double.isInfinite(maxForce)) {
            throw new IllegalArgumentException("joint " + joint + ": a motor needs a finite speed and a finite max force"
                    + " >= 0, got " + speed + ", " + maxForce);
        }
        motorSpeed[joint] = speed;
        motorMaxForce[joint] = maxForce;
    }

    /**
     * @param joint joint index
     * @return the target speed of its velocity motor, rad/s or m/s
     */
    public double motorSpeed(int joint) {
        return motorSpeed[joint];
    }

    /**
     * @param joint joint index
     * @return the force (torque) bound of its velocity motor, N (N m); 0 without a motor
     */
    public double motorMaxForce(int joint) {
        return motorMaxForce[joint];
    }

    /** @return dof d's joint position, rad or m (PhysicsModel#dof) */
    public double dofPosition(int dof) {
        return dofPos[dof];
    }

    /** @return dof d's joint velocity, rad/s or m/s */
    public double dofVelocity(int dof) {
        return dofVel[dof];
    }

    /**
     * @return the actuator torque (force) dof d applied in the last step, N m or N: its PD torque at
     *         the step's midpoint plus its feed-forward torque (0 before the first step)
     */
    public double dofEffort(int dof) {
        return dofEffort[dof];
    }

    /** @return the steps in which dof d's actuator torque exceeded its effort limit (the PD is not clamped) */
    public long effortSaturations(int dof) {
        return effortSaturations[dof];
    }

    /**
     * Sets dof d's PD target (the controller acts with the gains of {@link #setDofGains}).
     *
     * @param position rad or m, finite
     * @param velocity rad/s or m/s, finite
     */
    public void setDofTarget(int dof, double position, double velocity) {
        if (!Double.isFinite(position) || !Double.isFinite(velocity)) {
            throw new IllegalArgumentException("dof " + dof + ": target position and velocity must be finite, got "
                    + position + ", " + velocity);
        }
        dofTargetPos[dof] = position;
        dofTargetVel[dof] = velocity;
    }

    /** @return dof d's target position */
    public double dofTargetPosition(int dof) {
        return dofTargetPos[dof];
    }

    /** @return dof d's target velocity */
    public double dofTargetVelocity(int dof) {
        return dofTargetVel[dof];
    }

    /** @return dof d's proportional gain, N m/rad or N/m */
    public double dofKp(int dof) {
        return dofKp[dof];
    }

    /** @return dof d's derivative gain, N m s/rad or N s/m */
    public double dofKd(int dof) {
        return dofKd[dof];
    }

    /**
     * Sets dof d's PD gains (0, 0: no controller).
     *
     * @param kp N m/rad or N/m, finite and at least 0
     * @param kd N m s/rad or N s/m, finite and at least 0
     */
    public void setDofGains(int dof, double kp, double kd) {
        if (!(kp >= 0) || !(kd >= 0) || Double.isInfinite(kp) || Double.isInfinite(kd)) {
            throw new IllegalArgumentException("dof " + dof + ": gains must be finite and >= 0, got " + kp + ", " + kd);
        }
        dofKp[dof] = kp;
        dofKd[dof] = kd;
    }

    /** Sets dof d's feed-forward torque (force), N m or N, finite; clamped to the joint's effort limit. */
    public void setDofTorque(int dof, double torque) {
        if (!Double.isFinite(torque)) {
            throw new IllegalArgumentException("dof " + dof + ": torque must be finite, got " + torque);
        }
        dofTorque[dof] = torque;
    }

    /**
     * Moves dof d to a position and velocity at once (a reset); the links of its articulation are
     * posed accordingly. Allocates on the first call (the forward kinematics' scratch).
     */
    public void setDofState(int dof, double position, double velocity) {
        if (!Double.isFinite(position) || !Double.isFinite(velocity)) {
            throw new IllegalArgumentException("dof " + dof + ": position and velocity must be finite, got "
                    + position + ", " + velocity);
        }
        dofPos[dof] = position;
        dofVel[dof] = velocity;
        dofImpulse[3 * dof] = 0;
        dofImpulse[3 * dof + 1] = 0;
        dofImpulse[3 * dof + 2] = 0;
        placeLinks(articulations.articulationOf[dof]);
    }

    /** values per dof in {@link #exportDof} / {@link #importDof} */
    public static final int DOF_VALUES = 11;

    /**
     * Dof d's whole state into out[o, o + {@link #DOF_VALUES}): position, velocity, target
     * position and velocity, kp, kd, feed-forward torque, and the warm starts of its lower limit,
     * upper limit and friction rows and of its link's no-slip row (0 without one): what the dof
     * carries to another state (a handover).
     */
    public void exportDof(int dof, double[] out, int o) {
        out[o] = dofPos[dof];
        out[o + 1] = dofVel[dof];
        out[o + 2] = dofTargetPos[dof];
        out[o + 3] = dofTargetVel[dof];
        out[o + 4] = dofKp[dof];
        out[o + 5] = dofKd[dof];
        out[o + 6] = dofTorque[dof];
        System.arraycopy(dofImpulse, 3 * dof, out, o + 7, 3);
        int k = articulations.noSlipOfDof[dof];
        out[o + 10] = k >= 0 ? noSlipImpulse[k] : 0;
    }

    /**
     * Takes dof d's state from {@link #exportDof}'s layout; poses its articulation's links from its
     * joints. Allocates on the first call (the forward kinematics' scratch).
     *
     * @throws IllegalArgumentException if a value is not finite or a gain negative (nothing is changed)
     */
    public void importDof(int dof, double[] in, int o) {
        for (int k = 0; k < DOF_VALUES; k++) {
            if (!Double.isFinite(in[o + k])) {
                throw new IllegalArgumentException("dof " + dof + ": state value " + k + " is not finite: " + in[o + k]);
            }
        }
        if (in[o + 4] < 0 || in[o + 5] < 0) {
            throw new IllegalArgumentException("dof " + dof + ": gains must be >= 0, got " + in[o + 4] + ", " + in[o + 5]);
        }
        dofPos[dof] = in[o];
        dofVel[dof] = in[o + 1];
        dofTargetPos[dof] = in[o + 2];
        dofTargetVel[dof] = in[o + 3];
        dofKp[dof] = in[o + 4];
        dofKd[dof] = in[o + 5];
        dofTorque[dof] = in[o + 6];
        System.arraycopy(in, o + 7, dofImpulse, 3 * dof, 3);
        int k = articulations.noSlipOfDof[dof];
        if (k >= 0) {
            noSlipImpulse[k] = in[o + 10];
        }
        placeLinks(articulations.articulationOf[dof]);
    }

    /**
     * The Jacobian of a point on a dof's link with respect to its articulation's joints, at this
     * state's joint positions: out (6 x n row-major, n = the articulation's joint count, in its
     * order) maps the joint velocities to the point's velocity (rows 0-2, m/s) and the link's
     * angular velocity (rows 3-5, rad/s), all in world axes; columns of joints that do not move
     * the link are 0. For inverse kinematics and operational-space control. Allocates on the
     * first call per articulation (its kinematics' scratch).
     *
     * @param dof the joint whose child link carries the point
     * @param px  the point, world coordinates now, m
     * @param out at least 6 n entries
     */
    public void pointJacobian(int dof, double px, double py, double pz, double[] out) {
        int a = articulations.articulationOf[dof];
        if (trees == null) {
            trees = new io.tandem.physics.internal.dynamics.ArticulatedTree[articulations.count];
        }
        if (trees[a] == null) {
            trees[a] = articulations.tree(a);
        }
        io.tandem.physics.internal.dynamics.ArticulatedTree t = trees[a];
        int start = articulations.dofStart[a];
        int n = t.n;
        articulations.recentre(a, t, pos, quat, linVel, angVel, dofPos, dofVel);
        t.kinematics(dofPos, start);
        java.util.Arrays.fill(out, 0, 6 * n, 0);
        double[] axis = t.worldAxes();
        double[] origin = t.linkOrigins();
        for (int j = dof - start; j >= 0; j = t.parent(j)) {
            double ax = axis[3 * j];
            double ay = axis[3 * j + 1];
            double az = axis[3 * j + 2];
            if (t.type(j) == io.tandem.physics.internal.dynamics.ArticulatedTree.PRISMATIC) {
                out[j] = ax;
                out[n + j] = ay;
                out[2 * n + j] = az;
                continue;
            }
            double rx = px - origin[3 * j];
            double ry = py - origin[3 * j + 1];
            double rz = pz - origin[3 * j + 2];
            out[j] = ay * rz - az * ry;
            out[n + j] = az * rx - ax * rz;
            out[2 * n + j] = ax * ry - ay * rx;
            out[3 * n + j] = ax;
            out[4 * n + j] = ay;
            out[5 * n + j] = az;
        }
    }

    /** Poses articulation a's link bodies and sets their velocities from its joints. */
    private void placeLinks(int a) {
        if (trees == null) {
            trees = new io.tandem.physics.internal.dynamics.ArticulatedTree[articulations.count];
        }
        if (trees[a] == null) {
            trees[a] = articulations.tree(a);
        }
        articulations.recentre(a, trees[a], pos, quat, linVel, angVel, dofPos, dofVel);
        trees[a].kinematics(dofPos, articulations.dofStart[a]);
        articulations.writeLinkPoses(a, trees[a], pos, quat, false);
        articulations.writeLinkVelocities(a, trees[a], dofVel, linVel, angVel, new double[6], false);
    }

    /** @return contact warm starts held: the contact points of the last step */
    public int contactWarmStartCount() {
        return contacts.size();
    }

    /**
     * Copies into this state the contact warm starts of {@code from} that touch a body whose global
     * id {@code bodies} accepts (either side), replacing those with the same key; the other entries
     * of this state stay. Use it to move a body or an island (with its poses, velocities and joint
     * impulses) from one state to another, e.g. to a model rebuilt around it. Allocates only while
     * this state's table grows; not for the stepping loop.
     *
     * @param from   the source state (any model), not modified
     * @param bodies accepts the global body ids whose contacts to copy
     * @return entries copied
     */
    public int copyContactWarmStarts(PhysicsState from, java.util.function.LongPredicate bodies) {
        ContactCache src = from.contacts;
        // ordered first, so that an entry src holds twice is copied once, the one added last
        src.order();
        int n = 0;
        for (int i = 0; i < src.size(); i++) {
            if (bodies.test(src.bodyA(i)) || bodies.test(src.bodyB(i))) {
                contacts.add(src.bodyA(i), src.bodyB(i), src.packed(i), src.value(i, 0), src.value(i, 1), src.value(i, 2));
                n++;
            }
        }
        return n;
    }

    /**
     * Drops the contact warm starts that touch a body whose global id {@code bodies} accepts
     * (either side), e.g. of bodies recreated from a file or handed to another process. Allocates.
     *
     * @param bodies accepts the global body ids whose contacts to drop
     */
    public void removeContactWarmStarts(java.util.function.LongPredicate bodies) {
        contacts.retain((a, b) -> !bodies.test(a) && !bodies.test(b));
    }

    /**
     * The contact warm starts touching a body whose global id {@code bodies} accepts, as values
     * (to send them to another process). Allocates; in pair order (body id A, shape A, body id B,
     * shape B), so the same contacts give the same list.
     *
     * @param bodies accepts the global body ids whose contacts to export
     * @return the entries
     */
    public java.util.List<ContactWarmStart> contactWarmStarts(java.util.function.LongPredicate bodies) {
        java.util.List<ContactWarmStart> out = new java.util.ArrayList<>();
        contacts.order();
        for (int i = 0; i < contacts.size(); i++) {
            if (bodies.test(contacts.bodyA(i)) || bodies.test(contacts.bodyB(i))) {
                long p = contacts.packed(i);
                out.add(new ContactWarmStart(contacts.bodyA(i), (int) (p >>> 47), contacts.bodyB(i), (int) (p >>> 32) & 0x7FFF,
                        (int) p, contacts.value(i, 0), contacts.value(i, 1), contacts.value(i, 2)));
            }
        }
        return out;
    }

    /**
     * Adds (or replaces) one contact warm start, e.g. one received from another process.
     * Allocates only while the table grows.
     *
     * @param w the entry
     */
    public void putContactWarmStart(ContactWarmStart w) {
        contacts.add(w.bodyA(), w.bodyB(), ContactCache.packed(w.shapeA(), w.shapeB(), w.feature()), w.normal(),
                w.tangent1(), w.tangent2());
    }
}
