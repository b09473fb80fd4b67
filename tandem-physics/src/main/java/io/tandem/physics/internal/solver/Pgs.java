package io.tandem.physics.internal.solver;

/*
 * Implementation notes.
 *
 * Projected Gauss-Seidel over constraint blocks (the sequential-impulse family of Bullet and
 * PhysX; MuJoCo's PGS): blocks are visited in order, each solves its own law exactly against its
 * block Delassus matrix W_c with the others frozen (Delassus.blockUpdate), and the velocities are
 * updated at once. Warm-started from the previous step's impulses.
 *
 * Not yet here: the nonsmooth nonlinear conjugate-gradient acceleration (Silcowitz, Niebe &
 * Erleben 2010) that the issue asks for on top of the sweeps.
 */

/** Projected Gauss-Seidel. Allocation-free once grown. Not thread-safe. */
public final class Pgs implements ConstraintSolver {
    private final int iterations;
    private final double tolerance;
    private final Delassus del = new Delassus();
    private double[] y = new double[0];
    private double[] pNew = new double[0];

    /**
     * @param iterations sweeps, at least 1
     * @param tolerance  stop when no impulse changes by more than this in a sweep; 0 = all sweeps
     */
    public Pgs(int iterations, double tolerance) {
        if (iterations < 1) {
            throw new IllegalArgumentException("PGS needs at least 1 iteration, got " + iterations);
        }
        this.iterations = iterations;
        this.tolerance = tolerance;
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
        int it = 0;
        while (it < iterations) {
            it++;
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
        }
        return it;
    }
}
