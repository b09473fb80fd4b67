package io.tandem.physics.internal.solver;

import java.util.Arrays;

/*
 * Implementation notes.
 *
 * The NNewton baseline of the paper's Table I: a non-smooth Newton iteration on the
 * Fischer-Burmeister (FB) reformulation of the constraint laws, after Macklin, Erleben, Mueller,
 * Chentanez, Jeschke and Makoviychuk, "Non-smooth Newton Methods for Deformable Multi-Body
 * Dynamics", ACM TOG 38(5) 2019, as specified in shared/specs/physics-wave2.md 7.2 (ours where the
 * paper could not be read). The solver works in generalized coordinates (FullSystem: rigid bodies
 * and articulations' joint velocities, A block diagonal), v(p) = A^-1 (b + J^T p), y = J v + e.
 *
 * Each row i has a residual phi_i(y_i, p_i) that is zero exactly when its law holds, all in
 * velocity units, with a (generalized) derivative a_i = d phi / d y, c_i = d phi / d p:
 *   HARD          phi = y                                   (1, 0)
 *   SOFT          phi = y + gamma p                         (1, gamma)
 *   LIMIT, normal phi = phi_FB(y, w p) = y + w p - rho,  rho = sqrt(y^2 + w^2 p^2)
 *                                                           (1 - y / rho, w (1 - w p / rho)); rho = 0: (0, w)
 *   BOXED         phi = w (p - clamp(p - y / w, lo, hi))    inside (1, 0), clamped (0, w)
 *   friction      phi = y_t + W p_t, W held fixed           (1, W) per tangent row
 * with w = W_ii = (J A^-1 J^T)_ii, the row's own Delassus diagonal. On the scale: 7.2 writes
 * phi_FB(y, s p) with s = 1 / W_ii; that mixes units (s p is impulse^2 per velocity), so we scale
 * the impulse by W_ii instead, phi_FB(y, W_ii p) = W_ii phi_FB(y / W_ii, p), which is the same
 * row scaling applied to y, and the metric of 7.3's AA (the BOXED row likewise, y / W_ii inside
 * the clamp, times W_ii to velocity units).
 *
 * Friction (Macklin et al.'s fixed-point compliance, 7.2): with u = y_t, lambda = p_t, the
 * friction disk's slack g = mu p_n - |lambda|, a scale s = (W_tt + W_ss) / 2 and
 * rho = sqrt(|u|^2 + (s g)^2),
 *   W = s (rho - s g) / (s |lambda| + max(phi_FB(|u|, s g), 0)),   0 when that is 0 / 0,
 * held constant within a Newton step (its derivatives are dropped: the one approximation of the
 * linearization). Sliding (g = 0) gives W = |u| / |lambda|, sticking (u = 0, g > 0) W = 0. At a
 * fixed point u = -W lambda, and substituting W gives (|u| + s|lambda|) phi_FB(|u|, s g) = 0: the
 * magnitude law holds, and the direction is opposite to the slip, so converged impulses satisfy
 * the exact Coulomb law (maximal dissipation), not a linearized cone. 7.2 takes the denominator
 * |u| + s mu p_n - rho = phi_FB + s |lambda|; clipping phi_FB at 0 (ours) keeps W >= 0 outside the
 * disk (g < 0 with no slip, where the plain form can turn negative) and changes no fixed point.
 * With mu p_n <= 0 (frictionless, or no normal impulse) the tangent rows are phi = s p_t (0, s),
 * which sets p_t = 0.
 *
 * Newton step: with r = A v - b - J^T p = 0 kept exactly (v is always v(p)), the system
 * [A -J^T; diag(a) J diag(c)] [dv; dp] = -[0; phi] reduces to rows: those with a = 0 take
 * dp = -phi / c; the others solve the Schur form
 *   (J A^-1 J^T + diag(c / a)) dp_F = -phi_F / a_F - (J A^-1 J^T dp_Z)_F
 * (7.2's block, with the coupling to the a = 0 rows kept), by the conjugate residual method
 * with the symmetric Jacobi scaling diag(W_ii + c_i / a_i)^-1/2 (standing in for Macklin's
 * complementarity preconditioner, which we could not read), applying J A^-1 J^T matrix-free
 * through A^-1 (the 6 x 6 inverses and the articulations' Cholesky factors). Inexact Newton: the
 * inner solve stops at a relative residual eta = min(0.1, sqrt(|phi| / |phi_0|)) (DART's "|r| <
 * 0.1 |H|" at the start, tightening as the outer residual falls), or after INNER_MAX iterations. A
 * tiny Levenberg term REGULARIZATION W_ii on the diagonal keeps redundant rows (a box's four
 * corners) solvable; it changes the direction, not the solution.
 *
 * Line search: Armijo on the merit 1/2 |phi|^2 (alpha = 1e-4, halving, DART's lcp docs), with the
 * friction compliance re-evaluated at the trial point. With W's derivatives dropped the direction
 * need not descend: if no step passes within MAX_HALVINGS the trial of least merit is taken, and
 * after ESCAPE (2) such steps in a row the full step, which leaves the stall. Measured on the
 * random articulated problems of the tests (Problems.everyKindWithArticulation, seeds 1-12, mu 0.3
 * and 2, the law error in velocity units): the purely monotone search stalled at 0.12 for good on
 * one case; always taking the full step converged but overshot to 28 within 9 steps on another;
 * with the escape all 24 cases are below 3e-7 after 100 steps and 10 at rounding after 10, though
 * an escape step can still overshoot before it converges (to 21 once). Freezing W in the merit
 * too, so that the direction always descends, diverged on one case. Physical scenes (stacks,
 * inclines, the Panda) have not stalled.
 * The iteration count is the number of Newton steps (Table I: 3, 6, 9). Warm start: p from the
 * previous step (the caller keeps it per contact feature and joint). The iteration stops early
 * only when every |phi_i| is below FLOOR (1e-13 m/s), i.e. converged to rounding.
 *
 * Approximated or ours: W's derivatives (above); the scale W_ii (for 7.2's 1 / W_ii); the
 * Jacobi-scaled CR for Macklin's preconditioner; inexact inner solves. Serial: the inner products
 * and the line search are global, so islands are not independent (no subset equivalence, unlike
 * SubADMM, PGS and PJ), and the solver uses one thread whatever the settings say. Allocation-free
 * once grown.
 */

/** Non-smooth Newton on the Fischer-Burmeister reformulation (the NNewton baseline). Not thread-safe. */
public final class NonsmoothNewton implements ConstraintSolver {
    /** Armijo's sufficient-decrease constant */
    static final double ARMIJO = 1e-4;
    /** most halvings of the line search */
    static final int MAX_HALVINGS = 12;
    /** after this many Newton steps in a row without sufficient decrease, a full step */
    static final int ESCAPE = 2;
    /** most conjugate-residual iterations per Newton step */
    static final int INNER_MAX = 100;
    /** Levenberg term on the Schur diagonal, relative to W_ii */
    static final double REGULARIZATION = 1e-9;
    /** every |phi_i| below this (m/s): converged to rounding, stop */
    static final double FLOOR = 1e-13;
    /** rows with a below this are solved by dp = -phi / c */
    static final double A_ZERO = 1e-12;

    private final int iterations;
    private final FullSystem sys = new FullSystem();
    /** generalized velocities v(p), a scratch vector and the step's dv */
    private double[] x = new double[0];
    private double[] work = new double[0];
    private double[] work2 = new double[0];
    private double[] dx = new double[0];
    /** per row */
    private double[] y = new double[0];
    private double[] phi = new double[0];
    private double[] da = new double[0];
    private double[] dc = new double[0];
    private double[] dp = new double[0];
    private double[] dy = new double[0];
    /** per row: its scale (W_ii, or the tangent mean for friction rows) */
    private double[] scale = new double[0];
    /** per row: solved in the Schur system (a > 0) */
    private boolean[] free = new boolean[0];
    /** per row: no body can move it (W_ii = 0): left as it is */
    private boolean[] inert = new boolean[0];
    // conjugate residual, per row
    private double[] rhs = new double[0];
    private double[] res = new double[0];
    private double[] dir = new double[0];
    private double[] aRes = new double[0];
    private double[] aDir = new double[0];
    private double[] jacobi = new double[0];
    private double[] trialP = new double[0];
    private double[] trialY = new double[0];
    private int lastInner;
    /** consecutive Newton steps without sufficient decrease */
    private int failures;

    /**
     * @param iterations Newton iterations, at least 1
     */
    public NonsmoothNewton(int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("the non-smooth Newton solver needs at least 1 iteration, got " + iterations);
        }
        this.iterations = iterations;
    }

    /** @return conjugate-residual iterations of the last solve's Newton steps, summed */
    public int lastInnerIterations() {
        return lastInner;
    }

    @Override
    public int solve(ConstraintProblem pr) {
        sys.build(pr);
        int n = sys.n;
        int m = pr.totalRows;
        x = ConstraintProblem.grow(x, n);
        work = ConstraintProblem.grow(work, n);
        work2 = ConstraintProblem.grow(work2, n);
        dx = ConstraintProblem.grow(dx, n);
        y = ConstraintProblem.grow(y, m);
        phi = ConstraintProblem.grow(phi, m);
        da = ConstraintProblem.grow(da, m);
        dc = ConstraintProblem.grow(dc, m);
        dp = ConstraintProblem.grow(dp, m);
        dy = ConstraintProblem.grow(dy, m);
        scale = ConstraintProblem.grow(scale, m);
        rhs = ConstraintProblem.grow(rhs, m);
        res = ConstraintProblem.grow(res, m);
        dir = ConstraintProblem.grow(dir, m);
        aRes = ConstraintProblem.grow(aRes, m);
        aDir = ConstraintProblem.grow(aDir, m);
        jacobi = ConstraintProblem.grow(jacobi, m);
        trialP = ConstraintProblem.grow(trialP, m);
        trialY = ConstraintProblem.grow(trialY, m);
        if (free.length < m) {
            free = new boolean[Math.max(m, 2 * free.length)];
            inert = new boolean[free.length];
        }
        double wMax = 0;
        for (int r = 0; r < m; r++) {
            wMax = Math.max(wMax, sys.diag[r]);
        }
        for (int c = 0; c < pr.constraints; c++) {
            int r0 = pr.rowStart[c];
            for (int r = r0; r < r0 + pr.rows[c]; r++) {
                inert[r] = !(sys.diag[r] > 1e-14 * wMax);
                scale[r] = sys.diag[r];
            }
            if (pr.kind[c] == ConstraintProblem.CONTACT) {
                double s = 0.5 * (sys.diag[r0 + 1] + sys.diag[r0 + 2]);
                scale[r0 + 1] = s;
                scale[r0 + 2] = s;
                // the tangent rows follow their normal (a contact moves as one)
                inert[r0 + 1] = inert[r0];
                inert[r0 + 2] = inert[r0];
            }
        }
        // v(p) = A^-1 (b + J^T p), the warm start's velocity
        sys.forces(pr.p, work);
        sys.applyAInverse(work, x);
        lastInner = 0;
        failures = 0;
        double phi0 = -1;
        int it = 0;
        while (it < iterations) {
            for (int r = 0; r < m; r++) {
                y[r] = pr.e[r] + sys.rowTimes(r, x);
            }
            double merit = residuals(pr, pr.p, y, true);
            double norm = Math.sqrt(2 * merit);
            if (phi0 < 0) {
                phi0 = norm;
            }
            if (maxAbs(m) < FLOOR) {
                break;
            }
            it++;
            direction(m, phi0 > 0 ? Math.min(0.1, Math.sqrt(norm / phi0)) : 0.1);
            // dx = A^-1 J^T dp, dy = J dx
            Arrays.fill(work, 0, n, 0);
            for (int r = 0; r < m; r++) {
                sys.addRowTransposed(r, dp[r], work);
            }
            sys.applyAInverse(work, dx);
            for (int r = 0; r < m; r++) {
                dy[r] = sys.rowTimes(r, dx);
            }
            double t = lineSearch(pr, m, merit);
            if (t < 0) {
                // no sufficient decrease: the trial of least merit, or after ESCAPE such steps in a
                // row the full step (see the notes)
                failures++;
                t = failures >= ESCAPE ? 1 : -t;
                if (failures >= ESCAPE) {
                    failures = 0;
                }
            } else {
                failures = 0;
            }
            for (int r = 0; r < m; r++) {
                pr.p[r] += t * dp[r];
            }
            for (int i = 0; i < n; i++) {
                x[i] += t * dx[i];
            }
        }
        // v from the final impulses (no drift from the incremental updates)
        sys.forces(pr.p, work);
        sys.applyAInverse(work, x);
        sys.write(x);
        return it;
    }

    private double maxAbs(int m) {
        double mx = 0;
        for (int r = 0; r < m; r++) {
            mx = Math.max(mx, Math.abs(phi[r]));
        }
        return mx;
    }

    /**
     * phi (and with {@code linearize} a and c) of every row at (p, y).
     *
     * @return the merit 1/2 |phi|^2
     */
    private double residuals(ConstraintProblem pr, double[] p, double[] yy, boolean linearize) {
        double merit = 0;
        for (int c = 0; c < pr.constraints; c++) {
            int r0 = pr.rowStart[c];
            int rows = pr.rows[c];
            switch (pr.kind[c]) {
                case ConstraintProblem.HARD -> {
                    for (int r = r0; r < r0 + rows; r++) {
                        set(r, yy[r], 1, 0, linearize);
                    }
                }
                case ConstraintProblem.SOFT -> {
                    for (int r = r0; r < r0 + rows; r++) {
                        set(r, yy[r] + pr.gamma[r] * p[r], 1, pr.gamma[r], linearize);
                    }
                }
                case ConstraintProblem.LIMIT -> fischerBurmeister(r0, yy[r0], p[r0], scale[r0], linearize);
                case ConstraintProblem.BOXED -> {
                    double w = scale[r0];
                    double q = p[r0] - yy[r0] / w;
                    if (q <= pr.lo[r0]) {
                        set(r0, w * (p[r0] - pr.lo[r0]), 0, w, linearize);
                    } else if (q >= pr.hi[r0]) {
                        set(r0, w * (p[r0] - pr.hi[r0]), 0, w, linearize);
                    } else {
                        set(r0, yy[r0], 1, 0, linearize);
                    }
                }
                case ConstraintProblem.CONTACT -> {
                    fischerBurmeister(r0, yy[r0], p[r0], scale[r0], linearize);
                    friction(pr, c, r0, p, yy, linearize);
                }
                default -> throw new IllegalStateException("unknown constraint kind " + pr.kind[c]);
            }
            for (int r = r0; r < r0 + rows; r++) {
                if (inert[r]) {
                    phi[r] = 0;
                    continue;
                }
                merit += 0.5 * phi[r] * phi[r];
            }
        }
        return merit;
    }

    private void set(int r, double f, double a, double c, boolean linearize) {
        phi[r] = f;
        if (linearize) {
            da[r] = a;
            dc[r] = c;
        }
    }

    /** phi_FB(y, w p) and its derivatives (the normal of a contact, a limit). */
    private void fischerBurmeister(int r, double yr, double pr0, double w, boolean linearize) {
        double wp = w * pr0;
        double rho = Math.sqrt(yr * yr + wp * wp);
        if (rho == 0) {
            set(r, 0, 0, w, linearize);
            return;
        }
        set(r, yr + wp - rho, 1 - yr / rho, w * (1 - wp / rho), linearize);
    }

    /**
     * The tangent rows of contact c: phi = y_t + W p_t with Macklin's fixed-point compliance W (see
     * the notes); W is computed when linearizing and re-evaluated at line-search trials.
     */
    private void friction(ConstraintProblem pr, int c, int r0, double[] p, double[] yy, boolean linearize) {
        double s = scale[r0 + 1];
        double l1 = p[r0 + 1];
        double l2 = p[r0 + 2];
        double u1 = yy[r0 + 1];
        double u2 = yy[r0 + 2];
        double wc = compliance(pr.mu[c] * p[r0], s, u1, u2, l1, l2);
        if (wc < 0) {
            // no friction (mu = 0) or no normal impulse: p_t = 0
            set(r0 + 1, s * l1, 0, s, linearize);
            set(r0 + 2, s * l2, 0, s, linearize);
            return;
        }
        set(r0 + 1, u1 + wc * l1, 1, wc, linearize);
        set(r0 + 2, u2 + wc * l2, 1, wc, linearize);
    }

    /**
     * Macklin's fixed-point friction compliance W for the cone radius {@code limit} = mu p_n,
     * scale s, slip u and friction impulse lambda (see the notes), or -1 when mu p_n <= 0.
     */
    static double compliance(double limit, double s, double u1, double u2, double l1, double l2) {
        if (!(limit > 0)) {
            return -1;
        }
        double u = Math.sqrt(u1 * u1 + u2 * u2);
        double lam = Math.sqrt(l1 * l1 + l2 * l2);
        double sg = s * (limit - lam);
        double rho = Math.sqrt(u * u + sg * sg);
        double fb = u + sg - rho;
        double den = s * lam + Math.max(fb, 0);
        double num = s * (rho - sg);
        return den > 0 && num > 0 ? num / den : 0;
    }

    /** The Newton direction dp (see the notes), the Schur rows solved to the relative residual eta. */
    private void direction(int m, double eta) {
        boolean anyFixed = false;
        for (int r = 0; r < m; r++) {
            if (inert[r]) {
                free[r] = false;
                dp[r] = 0;
                continue;
            }
            free[r] = da[r] > A_ZERO;
            if (!free[r]) {
                dp[r] = -phi[r] / dc[r];
                anyFixed |= dp[r] != 0;
            } else {
                dp[r] = 0;
            }
        }
        // rhs_F = -phi_F / a_F - (W dp_Z)_F
        if (anyFixed) {
            applyW(dp, aRes, m, false);
        }
        for (int r = 0; r < m; r++) {
            if (free[r]) {
                rhs[r] = -phi[r] / da[r] - (anyFixed ? aRes[r] : 0);
                double d = sys.diag[r] + dc[r] / da[r] + REGULARIZATION * sys.diag[r];
                // (a tangent row that no body can move while its normal can: no scaling)
                jacobi[r] = d > 0 ? 1 / Math.sqrt(d) : 1;
            } else {
                rhs[r] = 0;
                jacobi[r] = 0;
            }
        }
        conjugateResidual(m, eta);
    }

    /**
     * out_F = (W + diag(c / a + reg W_ii)) v over the free rows when {@code schur}, else out = W v
     * over all rows (v read where nonzero).
     */
    private void applyW(double[] v, double[] out, int m, boolean schur) {
        int n = sys.n;
        Arrays.fill(work, 0, n, 0);
        for (int r = 0; r < m; r++) {
            sys.addRowTransposed(r, v[r], work);
        }
        sys.applyAInverse(work, work2);
        for (int r = 0; r < m; r++) {
            if (schur && !free[r]) {
                out[r] = 0;
                continue;
            }
            double s = sys.rowTimes(r, work2);
            if (schur) {
                s += (dc[r] / da[r] + REGULARIZATION * sys.diag[r]) * v[r];
            }
            out[r] = s;
        }
    }

    /**
     * Conjugate residual on the Jacobi-scaled Schur system S M S z = S rhs, dp_F = S z (S =
     * {@link #jacobi}), from z = 0, to |residual| <= eta |S rhs| or {@link #INNER_MAX} iterations.
     * Writes dp on the free rows.
     */
    private void conjugateResidual(int m, double eta) {
        // z in dir's partner: trialP holds z (scaled unknowns), res the scaled residual
        double[] z = trialP;
        double rr = 0;
        for (int r = 0; r < m; r++) {
            z[r] = 0;
            res[r] = jacobi[r] * rhs[r];
            dir[r] = res[r];
            rr += res[r] * res[r];
        }
        double tol = eta * Math.sqrt(rr);
        if (rr == 0) {
            return;
        }
        scaledApply(res, aRes, m);
        System.arraycopy(aRes, 0, aDir, 0, m);
        double rAr = dot(res, aRes, m);
        for (int k = 0; k < INNER_MAX; k++) {
            double apap = dot(aDir, aDir, m);
            if (!(apap > 0) || !(rAr > 0)) {
                break;
            }
            double alpha = rAr / apap;
            double norm = 0;
            for (int r = 0; r < m; r++) {
                z[r] += alpha * dir[r];
                res[r] -= alpha * aDir[r];
                norm += res[r] * res[r];
            }
            lastInner++;
            if (Math.sqrt(norm) <= tol) {
                break;
            }
            scaledApply(res, aRes, m);
            double next = dot(res, aRes, m);
            double beta = next / rAr;
            rAr = next;
            for (int r = 0; r < m; r++) {
                dir[r] = res[r] + beta * dir[r];
                aDir[r] = aRes[r] + beta * aDir[r];
            }
        }
        for (int r = 0; r < m; r++) {
            if (free[r]) {
                dp[r] = jacobi[r] * z[r];
            }
        }
    }

    /** out = S M S v over the free rows (S = {@link #jacobi}, zero elsewhere). */
    private void scaledApply(double[] v, double[] out, int m) {
        for (int r = 0; r < m; r++) {
            trialY[r] = jacobi[r] * v[r];
        }
        applyW(trialY, out, m, true);
        for (int r = 0; r < m; r++) {
            out[r] *= jacobi[r];
        }
    }

    private static double dot(double[] a, double[] b, int m) {
        double s = 0;
        for (int r = 0; r < m; r++) {
            s += a[r] * b[r];
        }
        return s;
    }

    /**
     * Armijo backtracking on 1/2 |phi|^2 along (dp, dy): returns the step t (1, 1/2, ...), or minus
     * the trial of least merit if none decreases enough. Leaves phi undefined (the next iteration
     * recomputes it).
     */
    private double lineSearch(ConstraintProblem pr, int m, double merit) {
        double t = 1;
        double best = 1;
        double bestMerit = Double.POSITIVE_INFINITY;
        for (int h = 0; h <= MAX_HALVINGS; h++) {
            for (int r = 0; r < m; r++) {
                trialP[r] = pr.p[r] + t * dp[r];
                trialY[r] = y[r] + t * dy[r];
            }
            double f = residuals(pr, trialP, trialY, false);
            if (f <= (1 - 2 * ARMIJO * t) * merit) {
                return t;
            }
            if (f < bestMerit) {
                bestMerit = f;
                best = t;
            }
            t *= 0.5;
        }
        return -best;
    }
}
