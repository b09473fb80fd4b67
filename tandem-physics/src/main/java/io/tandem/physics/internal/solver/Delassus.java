package io.tandem.physics.internal.solver;

/*
 * Implementation notes.
 *
 * Shared setup of the projected baselines (PGS, PJ): invert every body's 6 x 6 mass block A_b,
 * and for every row r and pair k (one dynamic side) store t_rk = A_b^-1 J_rk^T (6 numbers), so
 * that an impulse change dp_r updates the velocities as v_b += t_rk dp_r, and the block Delassus
 * matrices W_c = sum_k J_ck A_k^-1 J_ck^T (m x m). The baselines ignore subsystem grouping: A is
 * block diagonal over bodies, so a group changes nothing for them.
 *
 * Articulated subsystems (robots in joint coordinates, ConstraintProblem's articulations) are the
 * exception: an impulse on one link moves every link of its robot. A row's pair on link l keeps
 * t = Lambda_l A_r^-1 Lambda_l^T J^T (the link's own response, for W) and also the joint-space
 * response tq = A_r^-1 Lambda_l^T J^T (n numbers); an impulse change adds tq dp to the robot's qd
 * and Lambda_m tq dp to every link m's velocity, so row velocities keep reading bodies' v. A block
 * with both sides on links of one robot (a limit between a link and its parent) also gets the
 * coupling terms J_A Lambda_A A_r^-1 Lambda_B^T J_B^T of W.
 */

/** Block Delassus operator of a problem for the projected baselines. Not thread-safe. */
final class Delassus {
    final Pairs pairs = new Pairs();
    /** A_b^-1 per body, 36 each */
    private double[] aInv = new double[0];
    /** A^-1 J^T per (row, pair k) at [6 (2 row + k)] */
    double[] t = new double[0];
    /** start of block c's W (m x m row-major) */
    int[] wStart = new int[0];
    double[] w = new double[0];
    /** factor of W (+ gamma I) for HARD / SOFT blocks; lambda_max of the tangent block for contacts */
    double[] wFactor = new double[0];
    private final double[] scratch = new double[36 + 6];
    private final ArticulatedSolve articulated = new ArticulatedSolve();
    /** start of pair (row, k)'s joint-space response tq in {@link #tq} at [2 row + k], -1 for rigid bodies */
    private int[] tqStart = new int[0];
    private double[] tq = new double[0];
    private final double[] coupling = new double[36];
    /** per body: whether a row acts on it (an articulation's links need their inverse mass then only) */
    private boolean[] linkWanted = new boolean[0];

    void build(ConstraintProblem pr) {
        if (!pr.armedRows) {
            throw new IllegalStateException("the Delassus blocks need the contact rows, but the problem holds only"
                    + " their compact form (ConstraintProblem.armedRows is false)");
        }
        pairs.build(pr);
        aInv = ConstraintProblem.grow(aInv, 36 * pr.bodies);
        articulated.prepare(pr);
        if (pr.articulations > 0) {
            if (linkWanted.length < pr.bodies) {
                linkWanted = new boolean[Math.max(pr.bodies, 2 * linkWanted.length)];
            }
            java.util.Arrays.fill(linkWanted, 0, pr.bodies, false);
            for (int c = 0; c < pr.constraints; c++) {
                for (int k = 0; k < pairs.count[c]; k++) {
                    linkWanted[pairs.body[2 * c + k]] = true;
                }
            }
            for (int s = 0; s < pr.subsystems; s++) {
                if (pr.articulationOf[s] >= 0) {
                    articulated.factorMass(s, aInv, linkWanted);
                }
            }
        }
        for (int b = 0; b < pr.bodies; b++) {
            if (pr.articulations > 0 && pr.articulationOfBody(b) >= 0) {
                continue;
            }
            if (!DenseOps.invertSpd(pr.mass, 36 * b, 6, aInv, 36 * b, scratch, 0)) {
                throw new IllegalStateException("body " + b + ": its mass matrix is not positive definite"
                        + " (zero or negative mass or inertia?)");
            }
        }
        t = ConstraintProblem.grow(t, 12 * pr.totalRows);
        for (int c = 0; c < pr.constraints; c++) {
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                for (int k = 0; k < pairs.count[c]; k++) {
                    double[] jac = pairs.sides[2 * c + k] == 1 ? pr.jA : pr.jB;
                    DenseOps.multiply(aInv, 36 * pairs.body[2 * c + k], 6, jac, 6 * r, t, 6 * (2 * r + k));
                }
            }
        }
        if (pr.articulations > 0) {
            jointSpaceResponses(pr);
        }
        // block Delassus matrices and their local factors
        wStart = ConstraintProblem.grow(wStart, pr.constraints);
        int wTotal = 0;
        for (int c = 0; c < pr.constraints; c++) {
            wStart[c] = wTotal;
            wTotal += pr.rows[c] * pr.rows[c];
        }
        w = ConstraintProblem.grow(w, wTotal);
        wFactor = ConstraintProblem.grow(wFactor, wTotal);
        for (int c = 0; c < pr.constraints; c++) {
            int m = pr.rows[c];
            int r0 = pr.rowStart[c];
            int w0 = wStart[c];
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < m; j++) {
                    double s = 0;
                    for (int k = 0; k < pairs.count[c]; k++) {
                        double[] jac = pairs.sides[2 * c + k] == 1 ? pr.jA : pr.jB;
                        s += ConstraintProblem.dot6(jac, 6 * (r0 + i), t, 6 * (2 * (r0 + j) + k));
                    }
                    w[w0 + i * m + j] = s;
                }
            }
            if (pairs.count[c] == 2 && pr.articulations > 0 && pairs.sub[2 * c] == pairs.sub[2 * c + 1]
                    && pr.articulationOf[pairs.sub[2 * c]] >= 0) {
                addCoupling(pr, c);
            }
            System.arraycopy(w, w0, wFactor, w0, m * m);
            int kind = pr.kind[c];
            if (kind == ConstraintProblem.HARD || kind == ConstraintProblem.SOFT) {
                for (int i = 0; i < m; i++) {
                    wFactor[w0 + i * m + i] += pr.gamma[r0 + i] + 1e-14 * (1 + w[w0 + i * m + i]);
                }
                if (!DenseOps.cholesky(wFactor, w0, m)) {
                    throw new IllegalStateException("constraint block " + c + " is degenerate (its Jacobian rows are dependent)");
                }
            } else if (kind == ConstraintProblem.CONTACT) {
                // isotropic tangential metric: the largest eigenvalue of the 2x2 tangent block
                double a = w[w0 + 4];
                double b = w[w0 + 5];
                double d = w[w0 + 8];
                wFactor[w0] = 0.5 * (a + d) + Math.sqrt(0.25 * (a - d) * (a - d) + b * b);
            }
        }
    }

    /** tq = A_r^-1 Lambda_l^T J^T for every pair on a link (the joint-space response of its row). */
    private void jointSpaceResponses(ConstraintProblem pr) {
        tqStart = ConstraintProblem.grow(tqStart, 2 * pr.totalRows);
        int total = 0;
        for (int c = 0; c < pr.constraints; c++) {
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                for (int k = 0; k < 2; k++) {
                    int a = k < pairs.count[c] ? pr.articulationOfBody(pairs.body[2 * c + k]) : -1;
                    tqStart[2 * r + k] = a >= 0 ? total : -1;
                    total += a >= 0 ? pr.articulationDim[a] : 0;
                }
            }
        }
        tq = ConstraintProblem.grow(tq, total);
        for (int c = 0; c < pr.constraints; c++) {
            for (int k = 0; k < pairs.count[c]; k++) {
                int body = pairs.body[2 * c + k];
                int a = pr.articulationOfBody(body);
                if (a < 0) {
                    continue;
                }
                int n = pr.articulationDim[a];
                double[] jac = pairs.sides[2 * c + k] == 1 ? pr.jA : pr.jB;
                for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                    int o = tqStart[2 * r + k];
                    java.util.Arrays.fill(tq, o, o + n, 0);
                    pr.addLinkForce(body, jac, 6 * r, tq, o);
                    DenseOps.choleskySolve(articulated.aFactor, pr.articulationMatrixStart[a], n, tq, o);
                }
            }
        }
    }

    /** W_c += J_A C_AB J_B^T + J_B C_BA J_A^T for a block whose two sides are links of one robot. */
    private void addCoupling(ConstraintProblem pr, int c) {
        int a = pr.articulationOfBody(pairs.body[2 * c]);
        int bodyA = pairs.body[2 * c];
        int bodyB = pairs.body[2 * c + 1];
        double[] jacA = pairs.sides[2 * c] == 1 ? pr.jA : pr.jB;
        double[] jacB = pairs.sides[2 * c + 1] == 1 ? pr.jA : pr.jB;
        articulated.coupling(a, bodyA, bodyB, coupling, 0);
        int m = pr.rows[c];
        int r0 = pr.rowStart[c];
        int w0 = wStart[c];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                // J_A,i C_AB J_B,j^T + J_B,i C_BA J_A,j^T, with C_BA = C_AB^T
                double s = 0;
                for (int d = 0; d < 6; d++) {
                    for (int e = 0; e < 6; e++) {
                        double cde = coupling[6 * d + e];
                        s += jacA[6 * (r0 + i) + d] * cde * jacB[6 * (r0 + j) + e]
                                + jacB[6 * (r0 + i) + e] * cde * jacA[6 * (r0 + j) + d];
                    }
                }
                w[w0 + i * m + j] += s;
            }
        }
    }

    /** Solves the unconstrained dynamics v = A^-1 b into pr.v. */
    void freeVelocity(ConstraintProblem pr) {
        for (int b = 0; b < pr.bodies; b++) {
            if (pr.articulations > 0 && pr.articulationOfBody(b) >= 0) {
                continue;
            }
            int o = pr.coord(b);
            DenseOps.multiply(aInv, 36 * b, 6, pr.b, o, pr.v, o);
        }
        if (pr.articulations > 0) {
            for (int s = 0; s < pr.subsystems; s++) {
                if (pr.articulationOf[s] >= 0) {
                    // the links' b is zero: qd = A_r^-1 b_r
                    articulated.solve(s, pr.b, false, pr.v);
                }
            }
        }
    }

    /** v += t_{r,k} dp for every pair of block c. */
    void applyImpulse(ConstraintProblem pr, int c, int r, double dp, double[] v) {
        if (dp == 0) {
            return;
        }
        int np = pairs.count[c];
        for (int k = 0; k < np; k++) {
            if (pr.articulations > 0 && tqStart[2 * r + k] >= 0) {
                applyJointSpace(pr, pairs.body[2 * c + k], tqStart[2 * r + k], dp, v);
                continue;
            }
            int o = pairs.coord[2 * c + pairs.sides[2 * c + k] - 1];
            int t0 = 6 * (2 * r + k);
            v[o] += t[t0] * dp;
            v[o + 1] += t[t0 + 1] * dp;
            v[o + 2] += t[t0 + 2] * dp;
            v[o + 3] += t[t0 + 3] * dp;
            v[o + 4] += t[t0 + 4] * dp;
            v[o + 5] += t[t0 + 5] * dp;
        }
    }
    /** qd += tq dp for the robot of link {@code body}, and every link's v += Lambda_m tq dp. */
    private void applyJointSpace(ConstraintProblem pr, int body, int t0, double dp, double[] v) {
        int s = pr.subsystemOf[body];
        int a = pr.articulationOf[s];
        int n = pr.articulationDim[a];
        int q0 = pr.articulationStart[a];
        for (int j = 0; j < n; j++) {
            pr.articulationV[q0 + j] += tq[t0 + j] * dp;
        }
        for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
            int m = pr.subsystemBodies[q];
            int l0 = pr.lambdaStart[a] + 6 * n * pr.linkOf[m];
            int o = pr.coord(m);
            int nz = pr.lambdaColumns(m);
            for (int d = 0; d < 6; d++) {
                double x = 0;
                for (int t = 0; t < nz; t++) {
                    int j = pr.lambdaColumn(m, t);
                    x += pr.lambda[l0 + n * d + j] * tq[t0 + j];
                }
                v[o + d] += x * dp;
            }
        }
    }

    /** y_r = J_r v + e_r over the block's pairs. */
    double rowVelocity(ConstraintProblem pr, int c, int r, double[] v) {
        double y = pr.e[r];
        for (int k = 0; k < pairs.count[c]; k++) {
            y += pairs.rowTimes(pr, c, pairs.sides[2 * c + k], r, v);
        }
        return y;
    }

    /**
     * The exact projected block update used by PGS (and, relaxed, by PJ): given the block's
     * current constraint velocities {@code y} (length m at [r0..]) and impulses, writes the new
     * impulses into {@code out}.
     */
    void blockUpdate(ConstraintProblem pr, int c, double[] y, double[] out) {
        int m = pr.rows[c];
        int r0 = pr.rowStart[c];
        int w0 = wStart[c];
        switch (pr.kind[c]) {
            case ConstraintProblem.HARD, ConstraintProblem.SOFT -> {
                // p_new = p - (W + gamma)^-1 (y + gamma p)
                for (int i = 0; i < m; i++) {
                    out[r0 + i] = y[r0 + i] + pr.gamma[r0 + i] * pr.p[r0 + i];
                }
                DenseOps.choleskySolve(wFactor, w0, m, out, r0);
                for (int i = 0; i < m; i++) {
                    out[r0 + i] = pr.p[r0 + i] - out[r0 + i];
                }
            }
            // (W > 0 but for a row no velocity can move: two links of one robot that cannot part)
            case ConstraintProblem.LIMIT -> out[r0] = w[w0] > 0 ? Math.max(0, pr.p[r0] - y[r0] / w[w0]) : pr.p[r0];
            case ConstraintProblem.BOXED -> out[r0] = w[w0] > 0
                    ? Math.min(pr.hi[r0], Math.max(pr.lo[r0], pr.p[r0] - y[r0] / w[w0])) : pr.p[r0];
            case ConstraintProblem.CONTACT -> {
                // normal with its own diagonal, then the tangent pair against the isotropic metric
                // wBar = lambda_max(W_tt), accounting for the normal change, then the Coulomb disk.
                // Clipping the exact 2x2 solution instead is not a projection in the W metric: its
                // fixed point slides with friction not opposite to the slip (a block on a 40 degree
                // incline travelled 4 % too far). With a scalar metric the fixed point satisfies
                // y_t = -c p_t, the maximal-dissipation law, exactly.
                if (!(w[w0] > 0) || !(wFactor[w0] > 0)) {
                    System.arraycopy(pr.p, r0, out, r0, 3);
                    return;
                }
                double pn = Math.max(0, pr.p[r0] - y[r0] / w[w0]);
                double dpn = pn - pr.p[r0];
                double y1 = y[r0 + 1] + w[w0 + 3] * dpn;
                double y2 = y[r0 + 2] + w[w0 + 6] * dpn;
                double wBar = wFactor[w0];
                BlockLaw.coulomb(pr.mu[c], pn, pr.p[r0 + 1] - y1 / wBar, pr.p[r0 + 2] - y2 / wBar, out, r0);
            }
            default -> throw new IllegalStateException("unknown constraint kind " + pr.kind[c]);
        }
    }
}
