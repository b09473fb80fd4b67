package io.tandem.physics;

import io.tandem.physics.internal.dynamics.RigidOps;
import io.tandem.physics.internal.parallel.ParallelLoop;
import io.tandem.physics.internal.solver.ConstraintProblem;

/*
 * Implementation notes.
 *
 * Joint rows in the velocity-impulse form of shared/specs/physics.md 1.3 (b), assembled at the
 * midpoint pose q^{k+1/2} = q^k (+) h/2 v^k (PhysicsEngine). Hard rows: J v^{k+1} + phi(q^{k+1/2}) / h = 0
 * (a kinematic side contributes its known midpoint velocity J v_kin to the bias). Why this bias:
 * the end pose is q^{k+1} = q^{k+1/2} (+) h/2 v^{k+1}, so with e = 2 beta phi(q^{k+1/2}) / h the
 * linearised error and rate (phi_k, u_k = J v^k) follow
 *   phi_{k+1} = (1 - beta) (phi_k + h/2 u_k),  u_{k+1} = -(2 beta / h) (phi_k + h/2 u_k),
 * a map with eigenvalues 0 and 1 - 2 beta. beta = 1 (the pure midpoint form, phi(q^{k+1}) = 0) has
 * the undamped sign-alternating mode -1, in which solver residuals accumulate (a 10-link chain
 * diverged with it under SubADMM-60); beta = 1/2, the bias used here, is dead-beat: an error is
 * gone after two steps. Limits use the same form on the joint coordinate: e = (coord - lo) / h
 * at the midpoint, like contacts (ContactAssembly). Motors are boxed velocity rows. Springs are
 * compliant rows y + gamma p = 0 from the paper's midpoint law
 *   p = -h (k C(q^{k+1/2}) + d Cdot^{k+1/2}),  C(q^{k+1/2}) = C~ + h/4 (Cdot^{k+1} - Cdot^k),
 * with C~ the coordinate at the predicted midpoint and Cdot^k = J v^k: gamma = 1 / a and
 * e = (h k C~ + (h d / 2 - h^2 k / 4) Cdot^k) / a, a = h (h k / 4 + d / 2) (trapezoidal: an
 * undamped spring keeps its energy; the backward-Euler form it replaced damped it).
 *
 * Every hard row is its own 1-row block, so SubADMM gets a penalty per row (kappa times that row's
 * effective mass). Measured alternative: grouping a joint's 3 point rows into one block (one
 * penalty for rows whose effective masses differ 1000-fold on a pendulum bob) made the small-angle
 * pendulum unstable under SubADMM and raised the 50-link chain's error from 51 to 62 mm
 * (SubADMM-60) and from 31 to 43 mm (PGS-30).
 *
 * Joints are assembled in the order of their global ids (PhysicsModel.jointOrder), so the joint
 * rows of a group of bodies come in the same relative order in any model that holds them. Each
 * joint's blocks are counted first (blockCount: its hard rows, then its limits, motor and spring),
 * a prefix sum in that order gives each joint its first block, and the joints are then assembled in
 * parallel chunks, one assembly (scratch) per chunk, each writing only its own blocks and slots:
 * the same problem for any thread count. The projection's position rows are still added serially.
 *
 * Row layout per joint in PhysicsState.jointImpulse (warm start): slots 0..5 the hard rows
 * (ball 3, revolute 5, prismatic 5, fixed 6) or a rod's six compliant rows, 6 lower limit, 7 upper
 * limit, 8 motor, 9 spring.
 */

/** Assembles joint constraint rows into a {@link ConstraintProblem}. Allocation-free. Not thread-safe. */
final class JointAssembly {
    static final int SLOTS = 10;
    /** position feedback of hard rows: e = F phi(q^{k+1/2}) / h (see the notes) */
    static final double POSITION_FEEDBACK = 1.0;

    private final PhysicsModel m;
    private final double[] rA = new double[3];
    private final double[] rB = new double[3];
    private final double[] pA = new double[3];
    private final double[] pB = new double[3];
    private final double[] axis = new double[3];
    private final double[] axisB = new double[3];
    private final double[] perp1 = new double[3];
    private final double[] perp2 = new double[3];
    private final double[] q1 = new double[4];
    private final double[] q2 = new double[4];
    private final double[] u = new double[3];
    private final double[] lever = new double[3];
    private static final double[] IDENTITY = {1, 0, 0, 0};
    /** true while {@link #assemblePositions} or {@link #positionErrors} runs */
    private boolean positionPass;
    /** true while {@link #positionErrors} runs: hard rows only test their error, nothing is added */
    private boolean errorPass;
    private double errorTolerance;
    private int[] errorGroupOf;
    private boolean[] errorExceeds;
    private boolean anyError;
    /** block index of each slot of the current step (joints x SLOTS), -1 if absent (shared by the chunks' assemblies) */
    final int[] slotRow;
    /** the next preassigned block of this assembly's current joint, or -1: add blocks to the problem */
    private int cursor = -1;
    private final ParallelLoop loop;
    /** one assembly (scratch) per parallel chunk of joints, sharing slotRow */
    private final JointAssembly[] chunkAssembly;
    /** per joint, in canonical order: its first block, counted from the step's first joint block */
    private final int[] jointBlock;
    private final ParallelLoop.RangeBody assembleRange = this::assembleRange;
    // the step being assembled, for the parallel loop
    private PhysicsState stateNow;
    private ConstraintProblem problemNow;
    private int[] dynNow;
    private double[] velNow;
    private double timeStepNow;
    private int firstBlock;

    JointAssembly(PhysicsModel m, ParallelLoop loop) {
        this(m, loop, new int[SLOTS * m.joints]);
    }

    private JointAssembly(PhysicsModel m, ParallelLoop loop, int[] slotRow) {
        this.m = m;
        this.loop = loop;
        this.slotRow = slotRow;
        this.jointBlock = new int[m.joints + 1];
        boolean worker = loop == null;
        this.chunkAssembly = worker ? null : new JointAssembly[loop.chunks(m.joints)];
        if (!worker) {
            for (int k = 0; k < chunkAssembly.length; k++) {
                chunkAssembly[k] = new JointAssembly(m, null, slotRow);
            }
        }
    }

    /**
     * Adds every joint's rows, in the joints' canonical order: the blocks of each joint are counted
     * first (a prefix sum gives each its first block), then the joints are assembled in parallel
     * chunks, each into its own blocks: the same blocks for any thread count.
     *
     * @param dyn   problem body index of each model body, -1 if not dynamic
     * @param vel   midpoint velocities of kinematic bodies / start velocities of dynamic ones
     *              (bodies x 6: linear then angular)
     */
    void assemble(PhysicsState s, ConstraintProblem pr, int[] dyn, double[] vel, double h) {
        java.util.Arrays.fill(slotRow, -1);
        // canonical order: by the joints' global ids
        int blocks = 0;
        for (int k = 0; k < m.joints; k++) {
            jointBlock[k] = blocks;
            blocks += blockCount(m.jointOrder[k], s);
        }
        jointBlock[m.joints] = blocks;
        firstBlock = pr.addBlocks(ConstraintProblem.HARD, blocks, 1);
        stateNow = s;
        problemNow = pr;
        dynNow = dyn;
        velNow = vel;
        timeStepNow = h;
        loop.run(m.joints, assembleRange);
        stateNow = null;
        problemNow = null;
        dynNow = null;
        velNow = null;
    }

    /** Joints [lo, hi) of the canonical order, each into its preassigned blocks. */
    private void assembleRange(int lo, int hi, int chunk) {
        JointAssembly a = chunkAssembly[chunk];
        for (int k = lo; k < hi; k++) {
            a.cursor = firstBlock + jointBlock[k];
            a.assembleJoint(stateNow, problemNow, m.jointOrder[k], dynNow, velNow, timeStepNow);
            if (a.cursor != firstBlock + jointBlock[k + 1]) {
                throw new IllegalStateException("joint " + m.jointOrder[k] + ": " + (a.cursor - firstBlock - jointBlock[k])
                        + " rows assembled, " + (jointBlock[k + 1] - jointBlock[k]) + " counted");
            }
        }
        a.cursor = -1;
    }

    /** Blocks (each of one row) that {@link #assembleJoint} adds for joint j in this state. */
    private int blockCount(int j, PhysicsState s) {
        int n = switch (m.jointType[j]) {
            case BALL -> 3;
            case REVOLUTE, PRISMATIC -> 5;
            case FIXED, ROD -> 6;
        };
        if (m.jointType[j] == JointType.REVOLUTE || m.jointType[j] == JointType.PRISMATIC) {
            n += (m.limitLo[j] > Double.NEGATIVE_INFINITY ? 1 : 0) + (m.limitHi[j] < Double.POSITIVE_INFINITY ? 1 : 0)
                    + (s.motorMaxForce[j] > 0 ? 1 : 0) + (m.springK[j] + m.springD[j] > 0 ? 1 : 0);
        }
        return n;
    }

    /** A one-row block: the next preassigned one, or a new one added to the problem. */
    private int block(ConstraintProblem pr, int kind, int da, int db) {
        if (cursor < 0) {
            return pr.addBlock(kind, 1, da, db, 0);
        }
        return pr.setBlock(cursor++, kind, da, db, 0);
    }

    /**
     * Adds the hard rows of the selected joints in position form, for a projection of the
     * positions onto the joint manifold: J dx + phi = 0 for a displacement dx (m, and rad for the
     * angular part). No limits, motors or springs, no warm start; the impulse slots are untouched.
     *
     * @param selected per joint, whether to add it
     */
    void assemblePositions(PhysicsState s, ConstraintProblem pr, int[] dyn, boolean[] selected, double[] zeroVel) {
        positionPass = true;
        try {
            for (int k = 0; k < m.joints; k++) {
                int j = m.jointOrder[k];
                if (selected[j]) {
                    assembleJoint(s, pr, j, dyn, zeroVel, 1.0);
                }
            }
        } finally {
            positionPass = false;
        }
    }

    /**
     * Tests the position errors of the selected joints' hard rows, the errors
     * {@link #assemblePositions} would put in the rows, without building any row: the check
     * that decides whether a projection pass is needed at all.
     *
     * @param groupOf   group (subsystem) of each problem body
     * @param tolerance largest allowed error, m (point rows) or rad (angular rows)
     * @param exceeds   per group, set true where a row's error exceeds the tolerance (not cleared)
     * @return whether any row's error exceeds the tolerance
     */
    boolean positionErrors(PhysicsState s, int[] dyn, boolean[] selected, int[] groupOf, double tolerance,
                           boolean[] exceeds) {
        positionPass = true;
        errorPass = true;
        errorTolerance = tolerance;
        errorGroupOf = groupOf;
        errorExceeds = exceeds;
        anyError = false;
        try {
            for (int k = 0; k < m.joints; k++) {
                int j = m.jointOrder[k];
                if (selected[j]) {
                    assembleJoint(s, null, j, dyn, null, 1.0);
                }
            }
        } finally {
            positionPass = false;
            errorPass = false;
            errorGroupOf = null;
            errorExceeds = null;
        }
        return anyError;
    }

    /** The error test of {@link #positionErrors} for one hard row between problem bodies da and db. */
    private void testError(int da, int db, double phi) {
        if (Math.abs(phi) > errorTolerance) {
            errorExceeds[errorGroupOf[da >= 0 ? da : db]] = true;
            anyError = true;
        }
    }

    private void assembleJoint(PhysicsState s, ConstraintProblem pr, int j, int[] dyn, double[] vel, double h) {
        int a = m.jointA[j];
        int b = m.jointB[j];
        frame(s, a, m.anchorA, j, rA, pA);
        frame(s, b, m.anchorB, j, rB, pB);
        int da = a >= 0 ? dyn[a] : -1;
        int db = b >= 0 ? dyn[b] : -1;
        switch (m.jointType[j]) {
            case BALL -> pointRows(s, pr, j, 0, a, b, da, db, vel, h);
            case REVOLUTE -> {
                pointRows(s, pr, j, 0, a, b, da, db, vel, h);
                worldAxes(s, j, a, b);
                RigidOps.perpendicular(axis, perp1, perp2);
                // d(aA x aB)/dt ~ (omega_B - omega_A) projected: phi_i = -p_i . (aA x aB)
                double cx = axis[1] * axisB[2] - axis[2] * axisB[1];
                double cy = axis[2] * axisB[0] - axis[0] * axisB[2];
                double cz = axis[0] * axisB[1] - axis[1] * axisB[0];
                angularRow(pr, j, 3, a, b, da, db, perp1, -(perp1[0] * cx + perp1[1] * cy + perp1[2] * cz), vel, h, s);
                angularRow(pr, j, 4, a, b, da, db, perp2, -(perp2[0] * cx + perp2[1] * cy + perp2[2] * cz), vel, h, s);
                axisRows(s, pr, j, a, b, da, db, vel, h, revoluteAngle(s, j, a, b), false);
            }
            case PRISMATIC -> {
                rotationRows(s, pr, j, 0, a, b, da, db, vel, h);
                worldAxes(s, j, a, b);
                RigidOps.perpendicular(axisB, perp1, perp2);
                double dx = pA[0] - pB[0];
                double dy = pA[1] - pB[1];
                double dz = pA[2] - pB[2];
                linearRow(pr, j, 3, a, b, da, db, perp1, dx * perp1[0] + dy * perp1[1] + dz * perp1[2], vel, h, true, s);
                linearRow(pr, j, 4, a, b, da, db, perp2, dx * perp2[0] + dy * perp2[1] + dz * perp2[2], vel, h, true, s);
                System.arraycopy(axisB, 0, axis, 0, 3);
                axisRows(s, pr, j, a, b, da, db, vel, h, dx * axis[0] + dy * axis[1] + dz * axis[2], true);
            }
            case FIXED -> {
                pointRows(s, pr, j, 0, a, b, da, db, vel, h);
                rotationRows(s, pr, j, 3, a, b, da, db, vel, h);
            }
            case ROD -> rodRows(s, pr, j, a, b, da, db, vel, h);
        }
    }

    /**
     * The six compliant rows of a Cosserat rod connection (shared/specs/physics-wave2.md 5.2), in
     * A's material axes (t the tangent, n1 and n2 normal to it): slots 0-2 stretch along t and
     * shear along n1, n2 on the anchors' gap pA - pB; slots 3-5 twist about t and bend about n1, n2
     * on the relative rotation's error vector (the one FIXED rows use). Each row is a spring-damper
     * with the midpoint law of {@link #springRow}. A rod joint has no hard rows, so it takes no part
     * in the position projection.
     */
    private void rodRows(PhysicsState s, ConstraintProblem pr, int j, int a, int b, int da, int db, double[] vel, double h) {
        if (positionPass) {
            return;
        }
        worldAxes(s, j, a, b);
        RigidOps.perpendicular(axis, perp1, perp2);
        double dx = pA[0] - pB[0];
        double dy = pA[1] - pB[1];
        double dz = pA[2] - pB[2];
        for (int k = 0; k < 3; k++) {
            double[] dir = k == 0 ? axis : k == 1 ? perp1 : perp2;
            int row = block(pr, ConstraintProblem.SOFT, da, db);
            setLinear(pr.jA, row, dir, rA, 1);
            setLinear(pr.jB, row, dir, rB, -1);
            springRow(s, pr, j, k, row, a, b, da, db, dx * dir[0] + dy * dir[1] + dz * dir[2], m.rodK[6 * j + k],
                    m.rodD[6 * j + k], vel, h);
        }
        // the rotation error vector, world frame (as rotationRows)
        double[] qa = a >= 0 ? s.quat : IDENTITY;
        double[] qb = b >= 0 ? s.quat : IDENTITY;
        RigidOps.multiply(qb, b >= 0 ? 4 * b : 0, m.relRot0, 4 * j, q1, 0);
        RigidOps.multiplyConjugate(q1, 0, qa, a >= 0 ? 4 * a : 0, q2, 0);
        double sign = q2[0] < 0 ? -2 : 2;
        RigidOps.rotate(q1, 0, sign * q2[1], sign * q2[2], sign * q2[3], lever, 0);
        for (int k = 0; k < 3; k++) {
            double[] dir = k == 0 ? axis : k == 1 ? perp1 : perp2;
            int row = block(pr, ConstraintProblem.SOFT, da, db);
            setAngular(pr.jA, row, dir, 1);
            setAngular(pr.jB, row, dir, -1);
            springRow(s, pr, j, 3 + k, row, a, b, da, db, lever[0] * dir[0] + lever[1] * dir[1] + lever[2] * dir[2],
                    m.rodK[6 * j + 3 + k], m.rodD[6 * j + 3 + k], vel, h);
        }
    }

    /**
     * A compliant row y + gamma p = 0 on a row whose Jacobian is set, from the midpoint law
     * p = -h (k C(q^{k+1/2}) + d Cdot^{k+1/2}) (see the notes): coordinate C at the predicted
     * midpoint, rate at the step start J v^k.
     */
    private void springRow(PhysicsState s, ConstraintProblem pr, int j, int slot, int row, int a, int b, int da, int db,
                           double coord, double k, double d, double[] vel, double h) {
        double rate0 = (a >= 0 ? dot(pr.jA, row, vel, a) : 0) + (b >= 0 ? dot(pr.jB, row, vel, b) : 0);
        double compliance = h * (0.25 * h * k + 0.5 * d);
        pr.e[row] = (h * k * coord + (0.5 * h * d - 0.25 * h * h * k) * rate0) / compliance
                + kinematicPart(pr, row, a, b, da, db, vel);
        pr.gamma[row] = 1.0 / compliance;
        pr.p[row] = s.jointImpulse[SLOTS * j + slot];
        slotRow[SLOTS * j + slot] = row;
    }

    /** World lever r = R anchor and anchor point p = x + r of one side (the world: p = anchor). */
    private void frame(PhysicsState s, int body, double[] anchors, int j, double[] r, double[] p) {
        if (body < 0) {
            r[0] = anchors[3 * j];
            r[1] = anchors[3 * j + 1];
            r[2] = anchors[3 * j + 2];
            p[0] = r[0];
            p[1] = r[1];
            p[2] = r[2];
            r[0] = 0;
            r[1] = 0;
            r[2] = 0;
            return;
        }
        RigidOps.rotate(s.quat, 4 * body, anchors[3 * j], anchors[3 * j + 1], anchors[3 * j + 2], r, 0);
        p[0] = s.pos[3 * body] + r[0];
        p[1] = s.pos[3 * body + 1] + r[1];
        p[2] = s.pos[3 * body + 2] + r[2];
    }

    private void worldAxes(PhysicsState s, int j, int a, int b) {
        double[] qa = a >= 0 ? s.quat : IDENTITY;
        double[] qb = b >= 0 ? s.quat : IDENTITY;
        RigidOps.rotate(qa, a >= 0 ? 4 * a : 0, m.axisA[3 * j], m.axisA[3 * j + 1], m.axisA[3 * j + 2], axis, 0);
        RigidOps.rotate(qb, b >= 0 ? 4 * b : 0, m.axisB[3 * j], m.axisB[3 * j + 1], m.axisB[3 * j + 2], axisB, 0);
    }

    /** Relative rotation angle of A about the joint axis since the start. */
    private double revoluteAngle(PhysicsState s, int j, int a, int b) {
        double[] qa = a >= 0 ? s.quat : IDENTITY;
        double[] qb = b >= 0 ? s.quat : IDENTITY;
        // d = conj(qB (x) rel0) (x) qA; angle about A's local axis
        RigidOps.multiply(qb, b >= 0 ? 4 * b : 0, m.relRot0, 4 * j, q1, 0);
        RigidOps.multiplyConjugate(q1, 0, qa, a >= 0 ? 4 * a : 0, q2, 0);
        double proj = q2[1] * m.axisA[3 * j] + q2[2] * m.axisA[3 * j + 1] + q2[3] * m.axisA[3 * j + 2];
        return 2 * Math.atan2(proj, q2[0]);
    }

    private void pointRows(PhysicsState s, ConstraintProblem pr, int j, int slot0, int a, int b, int da, int db,
                           double[] vel, double h) {
        for (int k = 0; k < 3; k++) {
            u[0] = k == 0 ? 1 : 0;
            u[1] = k == 1 ? 1 : 0;
            u[2] = k == 2 ? 1 : 0;
            linearRow(pr, j, slot0 + k, a, b, da, db, u, pA[k] - pB[k], vel, h, true, s);
        }
    }

    private void rotationRows(PhysicsState s, ConstraintProblem pr, int j, int slot0, int a, int b, int da, int db,
                              double[] vel, double h) {
        double[] qa = a >= 0 ? s.quat : IDENTITY;
        double[] qb = b >= 0 ? s.quat : IDENTITY;
        // target qA* = qB (x) rel0; error q_e = qA (x) conj(qA*), phi = 2 vec(q_e) (w >= 0)
        RigidOps.multiply(qb, b >= 0 ? 4 * b : 0, m.relRot0, 4 * j, q1, 0);
        // q2 = conj(q1) (x) qA is the error in A's frame; rotate to world with q1
        RigidOps.multiplyConjugate(q1, 0, qa, a >= 0 ? 4 * a : 0, q2, 0);
        double sign = q2[0] < 0 ? -2 : 2;
        RigidOps.rotate(q1, 0, sign * q2[1], sign * q2[2], sign * q2[3], lever, 0);
        double ex = lever[0];
        double ey = lever[1];
        double ez = lever[2];
        for (int k = 0; k < 3; k++) {
            u[0] = k == 0 ? 1 : 0;
            u[1] = k == 1 ? 1 : 0;
            u[2] = k == 2 ? 1 : 0;
            angularRow(pr, j, slot0 + k, a, b, da, db, u, k == 0 ? ex : k == 1 ? ey : ez, vel, h, s);
        }
    }

    /** A hard row on the linear direction {@code dir} at the anchors, with error phi. */
    private void linearRow(ConstraintProblem pr, int j, int slot, int a, int b, int da, int db, double[] dir,
                           double phi, double[] vel, double h, boolean hard, PhysicsState s) {
        if (errorPass) {
            testError(da, db, phi);
            return;
        }
        int row = block(pr, ConstraintProblem.HARD, da, db);
        setLinear(pr.jA, row, dir, rA, 1);
        setLinear(pr.jB, row, dir, rB, -1);
        finishHard(pr, j, slot, row, a, b, da, db, phi, vel, h, s);
    }

    private void angularRow(ConstraintProblem pr, int j, int slot, int a, int b, int da, int db, double[] dir,
                            double phi, double[] vel, double h, PhysicsState s) {
        if (errorPass) {
            testError(da, db, phi);
            return;
        }
        int row = block(pr, ConstraintProblem.HARD, da, db);
        setAngular(pr.jA, row, dir, 1);
        setAngular(pr.jB, row, dir, -1);
        finishHard(pr, j, slot, row, a, b, da, db, phi, vel, h, s);
    }

    private void finishHard(ConstraintProblem pr, int j, int slot, int row, int a, int b, int da, int db, double phi,
                            double[] vel, double h, PhysicsState s) {
        if (positionPass) {
            pr.e[row] = phi;
            pr.p[row] = 0;
        } else {
            pr.e[row] = POSITION_FEEDBACK * phi / h + kinematicVelocity(pr.jA, row, a, da, vel)
                    + kinematicVelocity(pr.jB, row, b, db, vel);
            pr.p[row] = s.jointImpulse[SLOTS * j + slot];
            slotRow[SLOTS * j + slot] = row;
        }
        if (da < 0) {
            clear(pr.jA, row);
        }
        if (db < 0) {
            clear(pr.jB, row);
        }
    }

    /** J v of a kinematic side (its known midpoint velocity); 0 for dynamic, static and world sides. */
    private double kinematicVelocity(double[] jac, int row, int body, int dynIndex, double[] vel) {
        if (body < 0 || dynIndex >= 0) {
            return 0;
        }
        double y = 0;
        for (int d = 0; d < 6; d++) {
            y += jac[6 * row + d] * vel[6 * body + d];
        }
        return y;
    }

    /** Limit, motor and spring rows on the joint coordinate (angle or displacement). */
    private void axisRows(PhysicsState s, ConstraintProblem pr, int j, int a, int b, int da, int db, double[] vel,
                          double h, double coord, boolean linear) {
        if (positionPass) {
            return;
        }
        if (m.limitLo[j] > Double.NEGATIVE_INFINITY) {
            int row = block(pr, ConstraintProblem.LIMIT, da, db);
            axisJacobian(pr, row, da, db, linear, 1);
            pr.e[row] = (coord - m.limitLo[j]) / h + kinematicPart(pr, row, a, b, da, db, vel);
            pr.p[row] = s.jointImpulse[SLOTS * j + 6];
            slotRow[SLOTS * j + 6] = row;
        }
        if (m.limitHi[j] < Double.POSITIVE_INFINITY) {
            int row = block(pr, ConstraintProblem.LIMIT, da, db);
            axisJacobian(pr, row, da, db, linear, -1);
            pr.e[row] = (m.limitHi[j] - coord) / h + kinematicPart(pr, row, a, b, da, db, vel);
            pr.p[row] = s.jointImpulse[SLOTS * j + 7];
            slotRow[SLOTS * j + 7] = row;
        }
        // motor commands live in the state (PhysicsState.setMotorSpeed), the model holds their start values
        double maxForce = s.motorMaxForce[j];
        if (maxForce > 0) {
            int row = block(pr, ConstraintProblem.BOXED, da, db);
            axisJacobian(pr, row, da, db, linear, 1);
            pr.e[row] = -s.motorSpeed[j] + kinematicPart(pr, row, a, b, da, db, vel);
            pr.lo[row] = -maxForce * h;
            pr.hi[row] = maxForce * h;
            pr.p[row] = s.jointImpulse[SLOTS * j + 8];
            slotRow[SLOTS * j + 8] = row;
        }
        if (m.springK[j] + m.springD[j] > 0) {
            int row = block(pr, ConstraintProblem.SOFT, da, db);
            axisJacobian(pr, row, da, db, linear, 1);
            springRow(s, pr, j, 9, row, a, b, da, db, coord, m.springK[j], m.springD[j], vel, h);
        }
    }

    /** Rate of the joint coordinate: angular (omega_A - omega_B).a or linear along a at the anchors. */
    private void axisJacobian(ConstraintProblem pr, int row, int da, int db, boolean linear, double sign) {
        u[0] = sign * axis[0];
        u[1] = sign * axis[1];
        u[2] = sign * axis[2];
        if (linear) {
            setLinear(pr.jA, row, u, rA, 1);
            setLinear(pr.jB, row, u, rB, -1);
        } else {
            setAngular(pr.jA, row, u, 1);
            setAngular(pr.jB, row, u, -1);
        }
    }

    /** J v_kin of kinematic sides (their rows are removed from the problem afterwards). */
    private double kinematicPart(ConstraintProblem pr, int row, int a, int b, int da, int db, double[] vel) {
        double y = 0;
        if (a >= 0 && da < 0) {
            y += dot(pr.jA, row, vel, a);
            clear(pr.jA, row);
        } else if (da < 0) {
            clear(pr.jA, row);
        }
        if (b >= 0 && db < 0) {
            y += dot(pr.jB, row, vel, b);
            clear(pr.jB, row);
        } else if (db < 0) {
            clear(pr.jB, row);
        }
        return y;
    }

    private static double dot(double[] jac, int row, double[] vel, int body) {
        double y = 0;
        for (int d = 0; d < 6; d++) {
            y += jac[6 * row + d] * vel[6 * body + d];
        }
        return y;
    }

    private static void setLinear(double[] jac, int row, double[] dir, double[] r, double sign) {
        int o = 6 * row;
        jac[o] = sign * dir[0];
        jac[o + 1] = sign * dir[1];
        jac[o + 2] = sign * dir[2];
        jac[o + 3] = sign * (r[1] * dir[2] - r[2] * dir[1]);
        jac[o + 4] = sign * (r[2] * dir[0] - r[0] * dir[2]);
        jac[o + 5] = sign * (r[0] * dir[1] - r[1] * dir[0]);
    }

    private static void setAngular(double[] jac, int row, double[] dir, double sign) {
        int o = 6 * row;
        jac[o] = 0;
        jac[o + 1] = 0;
        jac[o + 2] = 0;
        jac[o + 3] = sign * dir[0];
        jac[o + 4] = sign * dir[1];
        jac[o + 5] = sign * dir[2];
    }

    private static void clear(double[] jac, int row) {
        for (int d = 0; d < 6; d++) {
            jac[6 * row + d] = 0;
        }
    }

    /** Saves this step's joint impulses for the next step's warm start. */
    void store(PhysicsState s, ConstraintProblem pr) {
        for (int q = 0; q < slotRow.length; q++) {
            s.jointImpulse[q] = slotRow[q] >= 0 ? pr.p[slotRow[q]] : 0;
        }
    }
}
