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
 *
 * Islands (subset equivalence, see PhysicsEngine): the sweep itself treats separate islands
 * (Islands: connected components of bodies and blocks) separately by construction, since a
 * block's update reads only its bodies' velocities; but a global scalar would couple them: the
 * conjugate-gradient beta = |r_k|^2 / |r_{k-1}|^2 summed over all rows, its restart test, and the
 * stopping test on the largest impulse change. All three are therefore per island: each island
 * has its own |r|^2 (summed over its rows in block order), its own beta and restart, and stops
 * on its own when its largest change is below the tolerance (its blocks are then skipped). An
 * island's iterations are then exactly those it would make alone. With one island this is the
 * global algorithm, bitwise.
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
    private final Islands islands = new Islands();
    /** per island: |r|^2 of the last sweep, of this sweep, largest change, beta */
    private double[] prevNorm = new double[0];
    private double[] norm = new double[0];
    private double[] change = new double[0];
    private double[] beta = new double[0];
    private boolean[] active = new boolean[0];

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
        islands.build(pr);
        int ni = islands.count;
        int[] isl = islands.ofBlock;
        prevNorm = ConstraintProblem.grow(prevNorm, ni);
        norm = ConstraintProblem.grow(norm, ni);
        change = ConstraintProblem.grow(change, ni);
        beta = ConstraintProblem.grow(beta, ni);
        if (active.length < ni) {
            active = new boolean[Math.max(ni, 2 * active.length)];
        }
        java.util.Arrays.fill(active, 0, ni, true);
        java.util.Arrays.fill(prevNorm, 0, ni, 0);
        int activeIslands = ni;
        int it = 0;
        while (it < iterations && (activeIslands > 0 || ni == 0)) {
            it++;
            if (nncg) {
                System.arraycopy(pr.p, 0, pPrev, 0, pr.totalRows);
            }
            java.util.Arrays.fill(change, 0, ni, 0);
            for (int c = 0; c < pr.constraints; c++) {
                int i = isl[c];
                if (i < 0 || !active[i]) {
                    continue;
                }
                int r0 = pr.rowStart[c];
                int m = pr.rows[c];
                for (int r = r0; r < r0 + m; r++) {
                    y[r] = del.rowVelocity(pr, c, r, pr.v);
                }
                del.blockUpdate(pr, c, y, pNew);
                double ch = change[i];
                for (int r = r0; r < r0 + m; r++) {
                    double dp = pNew[r] - pr.p[r];
                    ch = Math.max(ch, Math.abs(dp));
                    pr.p[r] = pNew[r];
                    del.applyImpulse(pr, c, r, dp, pr.v);
                }
                change[i] = ch;
            }
            if (tolerance > 0) {
                for (int i = 0; i < ni; i++) {
                    if (active[i] && change[i] <= tolerance) {
                        active[i] = false;
                        activeIslands--;
                    }
                }
            }
            if (nncg && it < iterations && activeIslands > 0) {
                // never after the last sweep: a conjugate step may leave the cones
                conjugateStep(pr, it == 1);
            }
        }
        return it;
    }

    /** One NNCG step after a sweep, per active island (see the notes). */
    private void conjugateStep(ConstraintProblem pr, boolean first) {
        int ni = islands.count;
        int[] isl = islands.ofBlock;
        java.util.Arrays.fill(norm, 0, ni, 0);
        for (int c = 0; c < pr.constraints; c++) {
            int i = isl[c];
            if (i < 0 || !active[i]) {
                continue;
            }
            double sum = norm[i];
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                double g = pr.p[r] - pPrev[r];
                sum += g * g;
            }
            norm[i] = sum;
        }
        for (int i = 0; i < ni; i++) {
            double b = first || prevNorm[i] == 0 ? 0 : norm[i] / prevNorm[i];
            beta[i] = b > 1 ? 0 : b; // restart
            prevNorm[i] = norm[i];
        }
        for (int c = 0; c < pr.constraints; c++) {
            int i = isl[c];
            if (i < 0 || !active[i]) {
                continue;
            }
            double b = beta[i];
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                double g = pr.p[r] - pPrev[r];
                double step = b * dir[r];
                dir[r] = g + step;
                if (step != 0) {
                    pr.p[r] += step;
                    del.applyImpulse(pr, c, r, step, pr.v);
                }
            }
        }
    }
}
