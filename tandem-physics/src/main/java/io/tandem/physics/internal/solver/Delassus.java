package io.tandem.physics.internal.solver;

/*
 * Implementation notes.
 *
 * Shared setup of the projected baselines (PGS, PJ): factor every A_s, and for every row r and
 * pair k store t_rk = A_s^-1 J_rk^T (dense over the subsystem), so that an impulse change dp_r
 * updates the velocities as v_s += t_rk dp_r, and the block Delassus matrices
 * W_c = sum_k J_ck A_k^-1 J_ck^T (m x m). Cost is rows x subsystem dimension; for grouped
 * subsystems of many bodies SubADMM (which never forms A^-1 J^T) is the better choice.
 */

/** Block Delassus operator of a problem for the projected baselines. Not thread-safe. */
final class Delassus {
    final Pairs pairs = new Pairs();
    /** factorized A per subsystem (copy of problem.a) */
    double[] aFactor = new double[0];
    /** start of t for (row, pair k) at [2 row + k] */
    int[] tStart = new int[0];
    /** A^-1 J^T columns */
    double[] t = new double[0];
    /** start of block c's W (m x m row-major) */
    int[] wStart = new int[0];
    double[] w = new double[0];
    /** factor of W (+ gamma I) for HARD / SOFT blocks; lambda_max of the tangent block for contacts */
    double[] wFactor = new double[0];
    private double[] unit = new double[0];
    private double[] aInv = new double[0];
    /** subsystems up to this dimension use an explicit inverse */
    static final int SMALL = 12;

    void build(ConstraintProblem pr) {
        pairs.build(pr);
        aFactor = ConstraintProblem.grow(aFactor, pr.a.length);
        System.arraycopy(pr.a, 0, aFactor, 0, pr.aStart.length == 0 ? 0 : Math.min(pr.a.length, aFactor.length));
        for (int s = 0; s < pr.subsystems; s++) {
            if (!DenseOps.cholesky(aFactor, pr.aStart[s], pr.dim[s])) {
                throw new IllegalStateException("subsystem " + s + ": its mass matrix is not positive definite");
            }
        }
        // A^-1 J^T per row and pair
        tStart = ConstraintProblem.grow(tStart, 2 * pr.totalRows);
        int total = 0;
        for (int c = 0; c < pr.constraints; c++) {
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                for (int k = 0; k < pairs.count[c]; k++) {
                    tStart[2 * r + k] = total;
                    total += pr.dim[pairs.sub[2 * c + k]];
                }
            }
        }
        t = ConstraintProblem.grow(t, total);
        unit = ConstraintProblem.grow(unit, pr.b.length);
        // small subsystems (a rigid body: 6) get an explicit inverse: t = A^-1 J^T touches only the
        // 6 columns at each side's body (pile: the setup's solves were a sixth of the step)
        aInv = ConstraintProblem.grow(aInv, pr.a.length);
        for (int s = 0; s < pr.subsystems; s++) {
            if (pr.dim[s] <= SMALL) {
                DenseOps.inverse(aFactor, pr.aStart[s], pr.dim[s], aInv, pr.aStart[s], unit, pr.vStart[s]);
            }
        }
        for (int c = 0; c < pr.constraints; c++) {
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                for (int k = 0; k < pairs.count[c]; k++) {
                    int s = pairs.sub[2 * c + k];
                    int v0 = pr.vStart[s];
                    int n = pr.dim[s];
                    int mask = pairs.sides[2 * c + k];
                    int t0 = tStart[2 * r + k];
                    if (n <= SMALL) {
                        java.util.Arrays.fill(t, t0, t0 + n, 0);
                        if ((mask & 1) != 0) {
                            addColumns(pr, s, pairs.coord[2 * c] - v0, pr.jA, r, t, t0);
                        }
                        if ((mask & 2) != 0) {
                            addColumns(pr, s, pairs.coord[2 * c + 1] - v0, pr.jB, r, t, t0);
                        }
                    } else {
                        java.util.Arrays.fill(unit, v0, v0 + n, 0);
                        pairs.addRowTransposed(pr, c, mask, r, 1.0, unit);
                        DenseOps.choleskySolve(aFactor, pr.aStart[s], n, unit, v0);
                        System.arraycopy(unit, v0, t, t0, n);
                    }
                }
            }
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
                        int sub = pairs.sub[2 * c + k];
                        s += rowDotT(pr, c, k, r0 + i, r0 + j, sub);
                    }
                    w[w0 + i * m + j] = s;
                }
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

    /** J_{c,k} row i . t_{row j, k} (both rows of block c). */
    private double rowDotT(ConstraintProblem pr, int c, int k, int rowI, int rowJ, int sub) {
        int mask = pairs.sides[2 * c + k];
        int base = pr.vStart[sub];
        int t0 = tStart[2 * rowJ + k];
        double s = 0;
        if ((mask & 1) != 0) {
            int o = pr.coord(pr.bodyA[c]) - base;
            for (int d = 0; d < 6; d++) {
                s += pr.jA[6 * rowI + d] * t[t0 + o + d];
            }
        }
        if ((mask & 2) != 0) {
            int o = pr.coord(pr.bodyB[c]) - base;
            for (int d = 0; d < 6; d++) {
                s += pr.jB[6 * rowI + d] * t[t0 + o + d];
            }
        }
        return s;
    }

    /** Solves the unconstrained dynamics v = A^-1 b into pr.v. */
    void freeVelocity(ConstraintProblem pr) {
        System.arraycopy(pr.b, 0, pr.v, 0, pr.b.length == 0 ? 0 : Math.min(pr.b.length, pr.v.length));
        for (int s = 0; s < pr.subsystems; s++) {
            DenseOps.choleskySolve(aFactor, pr.aStart[s], pr.dim[s], pr.v, pr.vStart[s]);
        }
    }

    /** t[t0..t0+n) += A_s^-1[:, o..o+6) j_row (the 6 nonzero columns of one side). */
    private void addColumns(ConstraintProblem pr, int s, int o, double[] jac, int r, double[] out, int t0) {
        int n = pr.dim[s];
        int a0 = pr.aStart[s];
        for (int i = 0; i < n; i++) {
            int row = a0 + i * n + o;
            out[t0 + i] += aInv[row] * jac[6 * r] + aInv[row + 1] * jac[6 * r + 1] + aInv[row + 2] * jac[6 * r + 2]
                    + aInv[row + 3] * jac[6 * r + 3] + aInv[row + 4] * jac[6 * r + 4] + aInv[row + 5] * jac[6 * r + 5];
        }
    }

    /** v += t_{r,k} dp for every pair of block c. */
    void applyImpulse(ConstraintProblem pr, int c, int r, double dp, double[] v) {
        if (dp == 0) {
            return;
        }
        int np = pairs.count[c];
        for (int k = 0; k < np; k++) {
            int s = pairs.sub[2 * c + k];
            int v0 = pr.vStart[s];
            int t0 = tStart[2 * r + k];
            int n = pr.dim[s];
            if (n == 6) {
                // one rigid body: unrolled (the PGS sweep's hottest line)
                v[v0] += t[t0] * dp;
                v[v0 + 1] += t[t0 + 1] * dp;
                v[v0 + 2] += t[t0 + 2] * dp;
                v[v0 + 3] += t[t0 + 3] * dp;
                v[v0 + 4] += t[t0 + 4] * dp;
                v[v0 + 5] += t[t0 + 5] * dp;
            } else {
                for (int d = 0; d < n; d++) {
                    v[v0 + d] += t[t0 + d] * dp;
                }
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
            case ConstraintProblem.LIMIT -> out[r0] = Math.max(0, pr.p[r0] - y[r0] / w[w0]);
            case ConstraintProblem.BOXED -> out[r0] = Math.min(pr.hi[r0], Math.max(pr.lo[r0], pr.p[r0] - y[r0] / w[w0]));
            case ConstraintProblem.CONTACT -> {
                // normal with its own diagonal, then the tangent pair against the isotropic metric
                // wBar = lambda_max(W_tt), accounting for the normal change, then the Coulomb disk.
                // Clipping the exact 2x2 solution instead is not a projection in the W metric: its
                // fixed point slides with friction not opposite to the slip (a block on a 40 degree
                // incline travelled 4 % too far). With a scalar metric the fixed point satisfies
                // y_t = -c p_t, the maximal-dissipation law, exactly.
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
