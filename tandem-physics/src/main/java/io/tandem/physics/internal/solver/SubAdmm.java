package io.tandem.physics.internal.solver;

import java.util.Arrays;

/*
 * Implementation notes.
 *
 * Subsystem-based ADMM (Lee, Lee & Lee, ICRA 2023, arXiv 2302.14344), as reconstructed in
 * shared/specs/physics.md 1.3 (c)-(i) (checked there against exact KKT solutions):
 *
 *   (15) v-step, per subsystem i:
 *        (A_i + sum_c beta_ci J_ci^T J_ci) v_i = b_i + sum_c J_ci^T (beta_ci z_ci + p_c)
 *   (13) z-step, per constraint c: x_ci = J_ci v_i, w = sum_i 1/beta_ci,
 *        yHat = e_c + sum_i x_ci - w p_c, p_new = law_c(yHat, w) (BlockLaw: exact closed forms),
 *        z_ci = x_ci + (p_new - p_c)/beta_ci
 *   (14) u-step: u_ci = -p_c, so only the impulse is stored.
 *
 * Penalty rule: one penalty per (constraint c, subsystem i) pair (an open point of 1.4; CRISP
 * also keeps beta per constraint), beta_ci = kappa m_c / tr(J_ci A_i^-1 J_ci^T), i.e. kappa times
 * the effective mass the constraint sees in that subsystem. Why: the scalar per-subsystem rule 3
 * of 1.3 (h), kappa tr(A_i) / sum ||J_ci||^2, adds kilograms to kilogram-square-metres; on a
 * wheel of inertia 0.2 kg m^2 and mass 5 kg it put beta ~ 10 on the angular rows, 50 times their
 * effective mass, and a motor took several times longer than physics to spin up. The effective
 * mass is unit-consistent per row, so light and heavy, linear and angular rows all converge at
 * the same rate; Ji et al.'s rule 1 needs an absolute constant (c = 1e5) tied to their units,
 * and CRISP's constant 0.1 start needs adaptation. Every formula of the iteration holds with beta
 * indexed by pair (w_c = sum_i 1/beta_ci; u_ci = -p_c still). beta is fixed during a step (no
 * refactorization); kappa trades early accuracy (small: Jacobi-like) against late convergence.
 *
 * Warm start: p from the previous step (the caller keeps it per contact feature / joint). z
 * starts at J v^k (the previous velocity), which makes the first v-step reproduce v^k for an
 * unconstrained subsystem.
 *
 * Optional stopping (1.3 (g)): primal r_p = ||(p_new - p)/beta||, dual
 * r_d = ||beta (z_new - z)||, both max-norms; stop when both are below the tolerance.
 *
 * Parallel structure: the v-step gathers per subsystem through a CSR list of its (constraint,
 * pair) entries, and the z-step writes only its own constraint's rows, so both loops are
 * embarrassingly parallel and results do not depend on the thread count (no cross-thread sums).
 */

/**
 * The Subsystem-ADMM constraint solver. Allocation-free once its buffers have grown to the
 * largest problem. Not thread-safe.
 */
public final class SubAdmm implements ConstraintSolver {
    private final int iterations;
    private final double kappa;
    private final double tolerance;
    private final ParallelLoop loop;

    private final Pairs pairs = new Pairs();
    /** penalty per (constraint, pair k) at [2c + k] */
    private double[] beta = new double[0];
    private double[] unit = new double[0];
    private double[] h = new double[0];
    private double[] hInv = new double[0];
    private double[] rhs = new double[0];
    /** subsystems up to this dimension get an explicit inverse of H */
    static final int EXPLICIT_INVERSE_MAX_DIM = 12;
    /** split variables z per (row, pair k) at [2 row + k] */
    private double[] z = new double[0];
    /** J v per (row, pair k) at [2 row + k] */
    private double[] x = new double[0];
    private double[] yHat = new double[0];
    private double[] pNew = new double[0];
    private int[] adjStart = new int[0];
    private int[] adj = new int[0];
    private int[] fill = new int[0];
    private double[] residuals = new double[0];
    private ConstraintProblem current;
    private int lastIterations;
    // loop bodies as fields: a bound method reference would allocate on every call
    private final ParallelLoop.RangeBody vStepBody = this::vStep;
    private final ParallelLoop.RangeBody zStepBody = this::zStep;
    private final ParallelLoop.RangeBody factorRange = this::factorRange;
    private final ParallelLoop.RangeBody seedRange = this::seedZ;

    /**
     * @param iterations iteration budget, at least 1
     * @param kappa      penalty scale (beta_ci = kappa x effective mass), greater than 0
     * @param tolerance  residual tolerance for early stopping; 0 runs the whole budget
     * @param loop       parallel loop (threads), or {@link ParallelLoop#serial()}
     */
    public SubAdmm(int iterations, double kappa, double tolerance, ParallelLoop loop) {
        if (iterations < 1) {
            throw new IllegalArgumentException("SubADMM needs at least 1 iteration, got " + iterations);
        }
        if (!(kappa > 0) || Double.isInfinite(kappa)) {
            throw new IllegalArgumentException("SubADMM penalty scale kappa must be > 0, got " + kappa);
        }
        if (!(tolerance >= 0)) {
            throw new IllegalArgumentException("SubADMM tolerance must be >= 0, got " + tolerance);
        }
        this.iterations = iterations;
        this.kappa = kappa;
        this.tolerance = tolerance;
        this.loop = loop;
    }

    /** @return iterations of the last solve */
    public int lastIterations() {
        return lastIterations;
    }

    @Override
    public int solve(ConstraintProblem pr) {
        current = pr;
        setup(pr);
        int it = 0;
        while (it < iterations) {
            it++;
            loop.run(pr.subsystems, vStepBody);
            Arrays.fill(residuals, 0, 2 * loop.chunks(pr.constraints), 0);
            loop.run(pr.constraints, zStepBody);
            if (tolerance > 0 && converged(pr)) {
                break;
            }
        }
        lastIterations = it;
        current = null;
        return it;
    }

    private boolean converged(ConstraintProblem pr) {
        int chunks = loop.chunks(pr.constraints);
        double rp = 0;
        double rd = 0;
        for (int k = 0; k < chunks; k++) {
            rp = Math.max(rp, residuals[2 * k]);
            rd = Math.max(rd, residuals[2 * k + 1]);
        }
        return rp <= tolerance && rd <= tolerance;
    }

    private void setup(ConstraintProblem pr) {
        pairs.build(pr);
        int ns = pr.subsystems;
        beta = ConstraintProblem.grow(beta, ns);
        // CSR adjacency: the (c, k) entries of each subsystem, in constraint order
        adjStart = ConstraintProblem.grow(adjStart, ns + 1);
        fill = ConstraintProblem.grow(fill, ns);
        Arrays.fill(adjStart, 0, ns + 1, 0);
        for (int c = 0; c < pr.constraints; c++) {
            for (int k = 0; k < pairs.count[c]; k++) {
                adjStart[pairs.sub[2 * c + k] + 1]++;
            }
        }
        for (int s = 0; s < ns; s++) {
            adjStart[s + 1] += adjStart[s];
        }
        adj = ConstraintProblem.grow(adj, adjStart[ns]);
        System.arraycopy(adjStart, 0, fill, 0, ns);
        for (int c = 0; c < pr.constraints; c++) {
            for (int k = 0; k < pairs.count[c]; k++) {
                adj[fill[pairs.sub[2 * c + k]]++] = 2 * c + k;
            }
        }
        // penalties per (constraint, subsystem) pair: kappa times the pair's effective mass
        // rows / tr(J A^-1 J^T), then factorized H_i = A_i + sum_c beta_ci J_ci^T J_ci
        h = ConstraintProblem.grow(h, pr.a.length);
        hInv = ConstraintProblem.grow(hInv, pr.a.length);
        beta = ConstraintProblem.grow(beta, 2 * pr.constraints);
        unit = ConstraintProblem.grow(unit, pr.b.length);
        loop.run(ns, factorRange);
        // split variables start at J v^k
        z = ConstraintProblem.grow(z, 2 * pr.totalRows);
        x = ConstraintProblem.grow(x, 2 * pr.totalRows);
        yHat = ConstraintProblem.grow(yHat, pr.totalRows);
        pNew = ConstraintProblem.grow(pNew, pr.totalRows);
        residuals = ConstraintProblem.grow(residuals, 2 * loop.chunks(pr.constraints));
        rhs = ConstraintProblem.grow(rhs, pr.b.length);
        loop.run(pr.constraints, seedRange);
    }

    /** z_ck = J_ck v^k for constraints [lo, hi). */
    private void seedZ(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        for (int c = lo; c < hi; c++) {
            for (int k = 0; k < pairs.count[c]; k++) {
                int mask = pairs.sides[2 * c + k];
                for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                    z[2 * r + k] = pairs.rowTimes(pr, c, mask, r, pr.v);
                }
            }
        }
    }

    /** H_s += beta J_{c,k}^T J_{c,k} over the block's rows (sides given by the mask). */
    private void addJtJ(ConstraintProblem pr, int c, int mask, int s, double bs) {
        int n = pr.dim[s];
        int a0 = pr.aStart[s];
        int base = pr.vStart[s];
        for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
            for (int si = 1; si <= 2; si++) {
                if ((mask & si) == 0) {
                    continue;
                }
                double[] ji = si == 1 ? pr.jA : pr.jB;
                int oi = pr.coord(si == 1 ? pr.bodyA[c] : pr.bodyB[c]) - base;
                for (int sj = 1; sj <= 2; sj++) {
                    if ((mask & sj) == 0) {
                        continue;
                    }
                    double[] jj = sj == 1 ? pr.jA : pr.jB;
                    int oj = pr.coord(sj == 1 ? pr.bodyA[c] : pr.bodyB[c]) - base;
                    for (int d = 0; d < 6; d++) {
                        double jd = bs * ji[6 * r + d];
                        if (jd == 0) {
                            continue;
                        }
                        int rowOff = a0 + (oi + d) * n + oj;
                        for (int f = 0; f < 6; f++) {
                            h[rowOff + f] += jd * jj[6 * r + f];
                        }
                    }
                }
            }
        }
    }

    /** Penalties, H_s, its factor and (small s) its inverse, for subsystems [lo, hi): each touches only its own data. */
    private void factorRange(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        for (int s = lo; s < hi; s++) {
                int n = pr.dim[s];
                int a0 = pr.aStart[s];
                int v0 = pr.vStart[s];
                System.arraycopy(pr.a, a0, h, a0, n * n);
                if (!DenseOps.cholesky(h, a0, n)) {
                    throw new IllegalStateException("subsystem " + s + ": its mass matrix is not positive definite"
                            + " (a body with zero or negative mass or inertia?)");
                }
                for (int q = adjStart[s]; q < adjStart[s + 1]; q++) {
                    int c = adj[q] >> 1;
                    int mask = pairs.sides[adj[q]];
                    double trace = 0;
                    for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                        Arrays.fill(unit, v0, v0 + n, 0);
                        pairs.addRowTransposed(pr, c, mask, r, 1.0, unit);
                        // unit holds J_r^T; trace += J_r A^-1 J_r^T = |L^-1 J_r^T|^2
                        DenseOps.forwardSolve(h, a0, n, unit, v0);
                        for (int d = 0; d < n; d++) {
                            trace += unit[v0 + d] * unit[v0 + d];
                        }
                    }
                    beta[adj[q]] = trace > 0 ? kappa * pr.rows[c] / trace : 1.0;
                }
                System.arraycopy(pr.a, a0, h, a0, n * n);
                for (int q = adjStart[s]; q < adjStart[s + 1]; q++) {
                    addJtJ(pr, adj[q] >> 1, pairs.sides[adj[q]], s, beta[adj[q]]);
                }
                if (!DenseOps.cholesky(h, a0, n)) {
                    throw new IllegalStateException("subsystem " + s + ": A + beta J^T J is not positive definite");
                }
                if (n <= EXPLICIT_INVERSE_MAX_DIM) {
                    // small subsystems (a rigid body: 6): a dense inverse makes each v-step one matvec
                    // (pile of 1000 spheres: v-step time roughly halved against two triangular solves)
                    DenseOps.inverse(h, a0, n, hInv, a0, unit, v0);
                }
        }
    }

    /** (15): v_s = H_s^-1 (b_s + sum J^T (beta z + p)) for subsystems [lo, hi). */
    private void vStep(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        for (int s = lo; s < hi; s++) {
            int n = pr.dim[s];
            int v0 = pr.vStart[s];
            double[] target = n <= EXPLICIT_INVERSE_MAX_DIM ? rhs : pr.v;
            System.arraycopy(pr.b, v0, target, v0, n);
            for (int q = adjStart[s]; q < adjStart[s + 1]; q++) {
                int c = adj[q] >> 1;
                int k = adj[q] & 1;
                int mask = pairs.sides[adj[q]];
                double bs = beta[adj[q]];
                for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                    pairs.addRowTransposed(pr, c, mask, r, bs * z[2 * r + k] + pr.p[r], target);
                }
            }
            if (n <= EXPLICIT_INVERSE_MAX_DIM) {
                DenseOps.multiply(hInv, pr.aStart[s], n, rhs, v0, pr.v, v0);
            } else {
                DenseOps.choleskySolve(h, pr.aStart[s], n, pr.v, v0);
            }
        }
    }

    /** (13), (14) for constraints [lo, hi); records the chunk's residuals. */
    private void zStep(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        double rp = 0;
        double rd = 0;
        for (int c = lo; c < hi; c++) {
            int r0 = pr.rowStart[c];
            int m = pr.rows[c];
            int np = pairs.count[c];
            double w = 0;
            for (int k = 0; k < np; k++) {
                w += 1.0 / beta[2 * c + k];
            }
            for (int r = r0; r < r0 + m; r++) {
                double y = pr.e[r] - w * pr.p[r];
                for (int k = 0; k < np; k++) {
                    double xr = pairs.rowTimes(pr, c, pairs.sides[2 * c + k], r, pr.v);
                    x[2 * r + k] = xr;
                    y += xr;
                }
                yHat[r] = y;
            }
            if (np == 0) {
                continue;
            }
            BlockLaw.solveIsotropic(pr, c, w, yHat, pNew);
            for (int r = r0; r < r0 + m; r++) {
                double dp = pNew[r] - pr.p[r];
                for (int k = 0; k < np; k++) {
                    double bs = beta[2 * c + k];
                    double zNew = x[2 * r + k] + dp / bs;
                    rd = Math.max(rd, Math.abs(bs * (zNew - z[2 * r + k])));
                    z[2 * r + k] = zNew;
                    rp = Math.max(rp, Math.abs(dp / bs));
                }
                pr.p[r] = pNew[r];
            }
        }
        residuals[2 * chunk] = Math.max(residuals[2 * chunk], rp);
        residuals[2 * chunk + 1] = Math.max(residuals[2 * chunk + 1], rd);
    }
}
