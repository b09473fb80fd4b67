package io.tandem.physics;

import io.tandem.physics.internal.dynamics.ArticulatedTree;
import io.tandem.physics.internal.dynamics.RigidOps;
import io.tandem.physics.internal.solver.ConstraintProblem;
import io.tandem.physics.internal.solver.DenseOps;

/*
 * Implementation notes.
 *
 * The engine's step for articulations (shared/specs/physics-wave2.md 1.4-1.6), in the engine's
 * drift-kick-drift midpoint form (PhysicsEngine):
 *   1. q^{k+1/2} = q^k + h/2 qd^k; the links are posed there (forward kinematics), so contacts and
 *      rows see them where the rigid bodies are, at the midpoint;
 *   2. A_r = M(q^{k+1/2}) + M_a + h/2 (Kd + D) + h^2/4 Kp and
 *      b_r = (M + M_a - h/2 (Kd + D) - h^2/4 Kp) qd^k + h [Kp (q_d - q^k) + Kd qd_d + tau_ff - C(q^{k+1/2}, qd^k)],
 *      the implicit PD and damping of 1.4 with tau_PD = Kp (q_d - qbar) + Kd (qd_d - vbar) at
 *      qbar = q^k + h/2 vbar, vbar = (qd^k + qd^{k+1}) / 2; C is not in A_r (which stays SPD) but
 *      evaluated at a predicted midpoint velocity (correctBias: the free solution's), so the velocity
 *      terms are second order too; the links' Jacobians Lambda at q^{k+1/2};
 *   3. rows on the links (1.6): a limit as a LIMIT row on the joint rate, e = (q~ - lo)/h with
 *      q~ = q^{k+1/2}, added while q~ is within h |qd| + 0.01 of the limit (beyond the limit the
 *      violation is recovered over LIMIT_RECOVERY_S instead of one step); Coulomb friction as a
 *      BOXED row, bounds +-h f_c. A joint's rate is a body-space row between the child link and its
 *      parent's body: (w_child - w_parent) . a for a revolute joint, the two bodies' velocities at
 *      the anchor along a for a prismatic one, which Lambda maps to exactly qd_j;
 *   4. the solver (ConstraintProblem's articulated subsystems);
 *   5. q^{k+1} = q^{k+1/2} + h/2 qd^{k+1}; the links posed at q^{k+1} with velocities Lambda(q^{k+1}) qd^{k+1}.
 * The PD torque a step applied (its effort) is tau_PD at the midpoint; with a finite effort limit
 * the feed-forward torque is clamped and a PD beyond the limit is counted, not clamped (1.4: the
 * limit cannot live inside A_r).
 *
 * A floating base (ArticulationBuilder.floatingBase) is re-centred before step 1: its six virtual
 * coordinates set to 0 at its root body's pose, their rates to the body's velocity (so the hinges
 * about x, y and z turn by h |w| at most in a step, nowhere near their gimbal lock at 90 degrees);
 * the step then runs on those coordinates like any other, the root body's pose coming out of the
 * forward kinematics at q^{k+1}.
 *
 * Articulations are stepped serially in index order: deterministic for any thread count.
 */

/** Steps a model's articulations inside {@link PhysicsEngine#step}. Allocation-free. Not thread-safe. */
final class ArticulationStep {
    /** a limit row is added while the joint is within h |qd| + this of its limit, rad or m */
    static final double LIMIT_MARGIN = 0.01;
    /**
     * a joint beyond its limit goes back at its violation over this time, s (MuJoCo's default
     * constraint time constant): an exact one-step correction (gap / h) threw a Panda loaded at
     * q = 0, 0.07 rad beyond joint 4's upper limit, at 70 rad/s and the arm blew up in 30 steps
     */
    static final double LIMIT_RECOVERY_S = 0.02;

    private final PhysicsModel m;
    private final Articulations art;
    private final ArticulatedTree[] trees;
    /** subsystem of each articulation in the engine's problem */
    final int[] subsystem;
    private final double[] startQ;
    private final double[] startQd;
    /** problem row of each dof's lower limit, upper limit and friction, or -1 */
    private final int[] rowOf;
    /** problem row of each no-slip row */
    private final int[] noSlipRow;
    private final double[] scratch6 = new double[6];
    private final double[] n = new double[3];
    private final double[] p = new double[3];
    private final int[] dims;
    private final double[] factor;
    private final double[] pred;
    private final double[] biasOld;
    private final double[] biasNew;

    ArticulationStep(PhysicsModel model, int[] subsystemOfArticulation) {
        m = model;
        art = model.articulations;
        trees = new ArticulatedTree[art.count];
        dims = new int[art.count];
        for (int a = 0; a < art.count; a++) {
            trees[a] = art.tree(a);
            dims[a] = trees[a].n;
        }
        subsystem = subsystemOfArticulation;
        startQ = new double[art.dofs];
        startQd = new double[art.dofs];
        rowOf = new int[3 * art.dofs];
        noSlipRow = new int[art.noSlips];
        int most = 0;
        for (int a = 0; a < art.count; a++) {
            most = Math.max(most, dims[a]);
        }
        factor = new double[most * most];
        pred = new double[most];
        biasOld = new double[most];
        biasNew = new double[most];
    }

    /** @return coordinates (and links) per articulation */
    int[] dims() {
        return dims;
    }

    /**
     * Tells the problem which subsystems and bodies are articulated (articulations 0 ..
     * count - 1). Call after {@link ConstraintProblem#layoutArticulations} with {@link #dims()}.
     */
    void layout(ConstraintProblem pr, int[] dyn) {
        for (int a = 0; a < art.count; a++) {
            pr.articulationOf[subsystem[a]] = a;
            for (int k = 0; k < dims[a]; k++) {
                int b = art.body[art.dofStart[a] + k];
                if (b >= 0) {
                    pr.linkOf[dyn[b]] = k;
                }
            }
        }
    }

    /** 1. The first half drift of the joints, and the links posed at q^{k+1/2}. */
    void firstHalf(PhysicsState s, double h) {
        for (int a = 0; a < art.count; a++) {
            art.recentre(a, trees[a], s.pos, s.quat, s.linVel, s.angVel, s.dofPos, s.dofVel);
        }
        System.arraycopy(s.dofPos, 0, startQ, 0, art.dofs);
        System.arraycopy(s.dofVel, 0, startQd, 0, art.dofs);
        for (int d = 0; d < art.dofs; d++) {
            s.dofPos[d] += 0.5 * h * s.dofVel[d];
        }
        for (int a = 0; a < art.count; a++) {
            trees[a].kinematics(s.dofPos, art.dofStart[a]);
            art.writeLinkPoses(a, trees[a], s.pos, s.quat);
        }
    }

    /** 2. A_r, b_r and the links' Jacobians into the problem. */
    void dynamics(PhysicsState s, ConstraintProblem pr, double h) {
        for (int a = 0; a < art.count; a++) {
            ArticulatedTree t = trees[a];
            int n = t.n;
            int d0 = art.dofStart[a];
            int m0 = pr.articulationMatrixStart[a];
            int v0 = pr.articulationStart[a];
            double[] A = pr.articulationA;
            double[] b = pr.articulationB;
            java.util.Arrays.fill(A, m0, m0 + n * n, 0);
            t.addMassMatrix(A, m0);
            java.util.Arrays.fill(b, v0, v0 + n, 0);
            t.addBias(s.dofVel, d0, m.gravity, b, v0);
            // C(q, qd^k) with gravity, kept for correctBias (the gravity cancels in its difference)
            System.arraycopy(b, v0, biasOld, 0, n);
            for (int i = 0; i < n; i++) {
                int d = d0 + i;
                A[m0 + n * i + i] += art.armature[d];
                // -h C + h [Kp (q_d - q^k) + Kd qd_d + tau_ff]
                double tau = clamp(s.dofTorque[d], art.effort[d]);
                b[v0 + i] = h * (s.dofKp[d] * (s.dofTargetPos[d] - startQ[d]) + s.dofKd[d] * s.dofTargetVel[d] + tau - b[v0 + i]);
            }
            for (int i = 0; i < n; i++) {
                int d = d0 + i;
                double mv = 0;
                for (int j = 0; j < n; j++) {
                    mv += A[m0 + n * i + j] * s.dofVel[d0 + j];
                }
                double implicit = 0.5 * h * (s.dofKd[d] + art.damping[d]) + 0.25 * h * h * s.dofKp[d];
                b[v0 + i] += mv - implicit * s.dofVel[d];
                A[m0 + n * i + i] += implicit;
            }
            correctBias(s, t, A, m0, b, v0, d0, h);
            System.arraycopy(t.lambdas(), 0, pr.lambda, pr.lambdaStart[a], 6 * n * n);
            pr.indexLambda(subsystem[a]);
        }
    }

    /**
     * The velocity terms at the predicted midpoint velocity: b_r += h (C(q, qd^k) - C(q, vbar)) with
     * vbar = (qd^k + qd*)/2 and qd* = A_r^-1 b_r the free (contact-less) solution, which makes the
     * Coriolis and centrifugal terms second order in h (explicit at qd^k they are first order: a
     * double pendulum's tip drifted 4.1 mm in 3 s at h = 1 ms).
     */
    private void correctBias(PhysicsState s, ArticulatedTree t, double[] A, int m0, double[] b, int v0, int d0, double h) {
        int n = t.n;
        System.arraycopy(A, m0, factor, 0, n * n);
        if (!DenseOps.cholesky(factor, 0, n)) {
            return; // the solver reports a matrix that is not positive definite
        }
        System.arraycopy(b, v0, pred, 0, n);
        DenseOps.choleskySolve(factor, 0, n, pred, 0);
        for (int i = 0; i < n; i++) {
            pred[i] = 0.5 * (s.dofVel[d0 + i] + pred[i]);
            biasNew[i] = 0;
        }
        // C(q, vbar) with gravity too: biasOld - biasNew is the velocity terms' change alone
        t.addBias(pred, 0, m.gravity, biasNew, 0);
        for (int i = 0; i < n; i++) {
            b[v0 + i] += h * (biasOld[i] - biasNew[i]);
        }
    }

    private static double clamp(double tau, double limit) {
        return tau > limit ? limit : tau < -limit ? -limit : tau;
    }

    /** 3. Limit and friction rows of every joint (warm-started from the state). */
    void rows(PhysicsState s, ConstraintProblem pr, int[] dyn, double h) {
        for (int a = 0; a < art.count; a++) {
            ArticulatedTree t = trees[a];
            for (int k = 0; k < t.n; k++) {
                int d = art.dofStart[a] + k;
                rowOf[3 * d] = -1;
                rowOf[3 * d + 1] = -1;
                rowOf[3 * d + 2] = -1;
                if (art.body[d] < 0) {
                    continue;
                }
                double q = s.dofPos[d];
                double margin = h * Math.abs(s.dofVel[d]) + LIMIT_MARGIN;
                if (art.lo[d] > Double.NEGATIVE_INFINITY && q - art.lo[d] < margin) {
                    int r = rateRow(s, pr, dyn, a, k, d, ConstraintProblem.LIMIT, 1);
                    pr.e[r] = bias(q - art.lo[d], h);
                    pr.p[r] = s.dofImpulse[3 * d];
                    rowOf[3 * d] = r;
                }
                if (art.hi[d] < Double.POSITIVE_INFINITY && art.hi[d] - q < margin) {
                    int r = rateRow(s, pr, dyn, a, k, d, ConstraintProblem.LIMIT, -1);
                    pr.e[r] = bias(art.hi[d] - q, h);
                    pr.p[r] = s.dofImpulse[3 * d + 1];
                    rowOf[3 * d + 1] = r;
                }
                if (art.friction[d] > 0) {
                    int r = rateRow(s, pr, dyn, a, k, d, ConstraintProblem.BOXED, 1);
                    pr.lo[r] = -h * art.friction[d];
                    pr.hi[r] = h * art.friction[d];
                    pr.p[r] = s.dofImpulse[3 * d + 2];
                    rowOf[3 * d + 2] = r;
                }
            }
        }
    }

    /**
     * The no-slip rows: a HARD row on the link's body, (n; r x n) with n the direction and r the
     * lever arm from the body's centre to the point, both turned with the link (its rotation at
     * q^{k+1/2}); e = 0 (no position term).
     */
    void noSlipRows(PhysicsState s, ConstraintProblem pr, int[] dyn) {
        for (int k = 0; k < art.noSlips; k++) {
            int d = art.noSlipDof[k];
            int a = art.articulationOf[d];
            int link = d - art.dofStart[a];
            int body = art.body[d];
            double[] lq = trees[a].linkQuaternions();
            double[] o = trees[a].linkOrigins();
            RigidOps.rotate(lq, 4 * link, art.noSlipDirection[3 * k], art.noSlipDirection[3 * k + 1], art.noSlipDirection[3 * k + 2], n, 0);
            RigidOps.rotate(lq, 4 * link, art.noSlipPoint[3 * k], art.noSlipPoint[3 * k + 1], art.noSlipPoint[3 * k + 2], p, 0);
            int r = pr.addBlock(ConstraintProblem.HARD, 1, dyn[body], -1, 0);
            ContactAssembly.fill(pr.jA, r, n, 0, o[3 * link] + p[0] - s.pos[3 * body], o[3 * link + 1] + p[1] - s.pos[3 * body + 1],
                    o[3 * link + 2] + p[2] - s.pos[3 * body + 2], 1);
            pr.p[r] = s.noSlipImpulse[k];
            noSlipRow[k] = r;
        }
    }

    /** A limit's bias for a gap (rad or m): exact while within the limit, a bounded recovery beyond it. */
    private static double bias(double gap, double h) {
        return gap >= 0 ? gap / h : gap / Math.max(h, LIMIT_RECOVERY_S);
    }

    /** A 1-row block whose velocity is sign x qd_d: child link on side A, its parent's body (or the world) on side B. */
    private int rateRow(PhysicsState s, ConstraintProblem pr, int[] dyn, int a, int k, int d, int kind, double sign) {
        int child = art.body[d];
        int parent = art.parentBody(d);
        int r = pr.addBlock(kind, 1, dyn[child], parent >= 0 ? dyn[parent] : -1, 0);
        double[] axis = trees[a].worldAxes();
        double ax = sign * axis[3 * k];
        double ay = sign * axis[3 * k + 1];
        double az = sign * axis[3 * k + 2];
        int j = 6 * r;
        if (art.type[d] == ArticulatedTree.REVOLUTE) {
            pr.jA[j + 3] = ax;
            pr.jA[j + 4] = ay;
            pr.jA[j + 5] = az;
            if (parent >= 0) {
                pr.jB[j + 3] = -ax;
                pr.jB[j + 4] = -ay;
                pr.jB[j + 5] = -az;
            }
            return r;
        }
        // prismatic: a . (v + w x (o - c)) on each body at the anchor o
        double[] o = trees[a].linkOrigins();
        n[0] = ax;
        n[1] = ay;
        n[2] = az;
        ContactAssembly.fill(pr.jA, r, n, 0, o[3 * k] - s.pos[3 * child], o[3 * k + 1] - s.pos[3 * child + 1],
                o[3 * k + 2] - s.pos[3 * child + 2], 1);
        if (parent >= 0) {
            ContactAssembly.fill(pr.jB, r, n, 0, o[3 * k] - s.pos[3 * parent], o[3 * k + 1] - s.pos[3 * parent + 1],
                    o[3 * k + 2] - s.pos[3 * parent + 2], -1);
        }
        return r;
    }

    /** @return the first dof with a non-finite solved velocity, or -1 */
    int nonFinite(ConstraintProblem pr) {
        for (int a = 0; a < art.count; a++) {
            int v0 = pr.articulationStart[a];
            for (int i = 0; i < dims[a]; i++) {
                if (!Double.isFinite(pr.articulationV[v0 + i])) {
                    return art.dofStart[a] + i;
                }
            }
        }
        return -1;
    }

    /** 5. The second half drift, the links posed at q^{k+1}, efforts and impulses into the state. */
    void secondHalf(PhysicsState s, ConstraintProblem pr, double h) {
        for (int a = 0; a < art.count; a++) {
            ArticulatedTree t = trees[a];
            int d0 = art.dofStart[a];
            int v0 = pr.articulationStart[a];
            for (int i = 0; i < t.n; i++) {
                int d = d0 + i;
                double v = pr.articulationV[v0 + i];
                double vBar = 0.5 * (startQd[d] + v);
                double qBar = startQ[d] + 0.5 * h * vBar;
                double pd = s.dofKp[d] * (s.dofTargetPos[d] - qBar) + s.dofKd[d] * (s.dofTargetVel[d] - vBar);
                double total = pd + clamp(s.dofTorque[d], art.effort[d]);
                if (Math.abs(total) > art.effort[d]) {
                    s.effortSaturations[d]++;
                }
                s.dofEffort[d] = total;
                s.dofVel[d] = v;
                s.dofPos[d] += 0.5 * h * v;
                for (int c = 0; c < 3; c++) {
                    int r = rowOf[3 * d + c];
                    s.dofImpulse[3 * d + c] = r >= 0 ? pr.p[r] : 0;
                }
            }
            t.kinematics(s.dofPos, d0);
            art.writeLinkPoses(a, t, s.pos, s.quat);
            art.writeLinkVelocities(a, t, s.dofVel, s.linVel, s.angVel, scratch6);
        }
    }

    /** The no-slip rows' impulses into the state (their warm starts). */
    void storeNoSlip(PhysicsState s, ConstraintProblem pr) {
        for (int k = 0; k < art.noSlips; k++) {
            s.noSlipImpulse[k] = pr.p[noSlipRow[k]];
        }
    }

    /** A diverged step: the joints back to the step's start (the engine restores the bodies). */
    void restore(PhysicsState s) {
        System.arraycopy(startQ, 0, s.dofPos, 0, art.dofs);
        System.arraycopy(startQd, 0, s.dofVel, 0, art.dofs);
    }
}
