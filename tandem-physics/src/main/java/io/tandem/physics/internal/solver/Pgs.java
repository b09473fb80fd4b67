package io.tandem.physics.internal.solver;

/*
 * Implementation notes.
 *
 * Projected Gauss-Seidel over constraint blocks (the sequential-impulse family of Bullet and
 * PhysX; MuJoCo's PGS): blocks are visited in order, each solves its own law exactly against its
 * block Delassus matrix W_c with the others frozen (Delassus.blockUpdate), and the velocities are
 * updated at once. Warm-started from the previous step's impulses.
 *
 * Acceleration (optional): nonsmooth nonlinear conjugate gradients on top of the sweeps
 * (Silcowitz, Niebe & Erleben, "A nonsmooth nonlinear conjugate gradient method for interactive
 * contact force problems", The Visual Computer 2010, Alg. 2): with the sweep's change
 * r_k = p_k+ - p_k as the negative gradient, beta_k = |r_k|^2 / |r_{k-1}|^2, restart (beta = 0)
 * when beta > 1, p += beta d_{k-1}, d_k = r_k + beta d_{k-1}. The velocities follow every
 * impulse change, so the next sweep projects any infeasible step back into the cones.
 */

/** Projected Gauss-Seidel. Allocation-free once grown. Not thread-safe. */
public final class Pgs implements ConstraintSolver {
    private final int iterations;
    private final double tolerance;
    private final boolean nncg;
    private double[] pPrev = new double[0];
    private double[] dir = new double[0];
    private final Delassus del = new Delassus();
    private double[] y = new double[0];
    private double[] pNew = new double[0];

    /**
     * @param iterations sweeps, at least 1
     * @param tolerance  stop when no impulse changes by more than this in a sweep; 0 = all sweeps
     */
    public Pgs(int iterations, double tolerance) {
        this(iterations, tolerance, false);
    }

    /**
     * @param iterations sweeps, at least 1
     * @param tolerance  stop when no impulse changes by more than this in a sweep; 0 = all sweeps
     * @param nncg       accelerate with nonsmooth nonlinear conjugate gradients
     */
    public Pgs(int iterations, double tolerance, boolean nncg) {
        if (iterations < 1) {
            throw new IllegalArgumentException("PGS needs at least 1 iteration, got " + iterations);
        }
        this.iterations = iterations;
        this.tolerance = tolerance;
        this.nncg = nncg;
    }

    @Override
    public int solve(ConstraintProblem pr) {
        del.build(pr);
        y = ConstraintProblem.grow(y, pr.totalRows);
        pNew = ConstraintProblem.grow(pNew, pr.totalRows);
        // v = A^-1 (b + J^T p_warm)
        del.freeVelocity(pr);
        for (int c = 0; c < pr.constraints; c++) {
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                del.applyImpulse(pr, c, r, pr.p[r], pr.v);
            }
        }
        pPrev = ConstraintProblem.grow(pPrev, pr.totalRows);
        dir = ConstraintProblem.grow(dir, pr.totalRows);
        java.util.Arrays.fill(dir, 0, pr.totalRows, 0);
        double prevNorm = 0;
        int it = 0;
        while (it < iterations) {
            it++;
            if (nncg) {
                System.arraycopy(pr.p, 0, pPrev, 0, pr.totalRows);
            }
            double change = 0;
            for (int c = 0; c < pr.constraints; c++) {
                int r0 = pr.rowStart[c];
                int m = pr.rows[c];
                for (int r = r0; r < r0 + m; r++) {
                    y[r] = del.rowVelocity(pr, c, r, pr.v);
                }
                del.blockUpdate(pr, c, y, pNew);
                for (int r = r0; r < r0 + m; r++) {
                    double dp = pNew[r] - pr.p[r];
                    change = Math.max(change, Math.abs(dp));
                    pr.p[r] = pNew[r];
                    del.applyImpulse(pr, c, r, dp, pr.v);
                }
            }
            if (tolerance > 0 && change <= tolerance) {
                break;
            }
            if (nncg && it < iterations) {
                // never after the last sweep: a conjugate step may leave the cones
                prevNorm = conjugateStep(pr, prevNorm, it == 1);
            }
        }
        return it;
    }

    /** One NNCG step after a sweep; returns |r|^2 of this sweep. */
    private double conjugateStep(ConstraintProblem pr, double prevNorm, boolean first) {
        double norm = 0;
        for (int r = 0; r < pr.totalRows; r++) {
            double g = pr.p[r] - pPrev[r];
            norm += g * g;
        }
        double beta = first || prevNorm == 0 ? 0 : norm / prevNorm;
        if (beta > 1) {
            beta = 0; // restart
        }
        for (int c = 0; c < pr.constraints; c++) {
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                double g = pr.p[r] - pPrev[r];
                double step = beta * dir[r];
                dir[r] = g + step;
                if (step != 0) {
                    pr.p[r] += step;
                    del.applyImpulse(pr, c, r, step, pr.v);
                }
            }
        }
        return norm;
    }
}
