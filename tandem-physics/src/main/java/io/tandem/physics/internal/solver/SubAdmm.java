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
 * Subsystems (the open point of 1.4, decided): a constraint whose dynamic sides all lie in one
 * subsystem is solved inside that subsystem's v-step, exactly, when it is an equality (HARD or
 * SOFT: a joint, a pin to the world, a spring); only the other constraints are split. So a
 * subsystem's v-step (15) is the equality-constrained solve
 *   H_i v = r_i + G_i^T mu,  G_i v + e + Gamma mu = 0,   H_i = A_i + sum_split beta J^T J,
 * done by the Schur complement S = G H^-1 G^T + Gamma (SubsystemSolve: H is block diagonal over
 * the subsystem's bodies because every split pair touches one body, S is sparse, banded for a
 * chain, factorized once per step in envelope form). A chain grouped into one subsystem is then
 * solved exactly by one iteration (the paper groups cable segments this way), and a problem
 * without split constraints stops after that one iteration. At the fixed point the internal
 * equalities hold exactly and the split constraints as in (f), so consistency is kept.
 * Intra-subsystem inequalities (limits, motors, contacts between bodies of one group) are split
 * per side: a pair is one (constraint, body), which keeps H block diagonal.
 *
 * Warm start: p from the previous step (the caller keeps it per contact feature / joint). z
 * starts at J v^k (the previous velocity), which makes the first v-step reproduce v^k for an
 * unconstrained subsystem.
 *
 * Optional stopping (1.3 (g)): primal r_p = ||(p_new - p)/beta||, dual
 * r_d = ||beta (z_new - z)||, both max-norms; stop when both are below the tolerance. Per island
 * (Islands: connected components of bodies, subsystems and blocks): an island whose residuals are
 * below the tolerance stops, and its subsystems and blocks are skipped from then on, so that one
 * island's convergence never changes another island's iteration count (subset equivalence, see
 * PhysicsEngine). The residuals are kept per block and reduced per island serially, in block
 * order (a max: exact in any order).
 *
 * Subset equivalence otherwise: the v-step of a subsystem reads only its own bodies, the z-step
 * of a block only its bodies, the penalties are per (block, body), and the per-body sums run
 * over the body's pairs in block order (the CSR of RigidSubsystems). The one global decision,
 * "no split pair in the whole problem: one iteration", is harmless: the v-step of a subsystem
 * without split pairs reads only b, its own matrices and its internal rows, so repeating it
 * reproduces the same bits, and an island without split pairs gets the same result from 1 or
 * from N iterations.
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
    private final Subsystems subsystems = new RigidSubsystems();
    /** penalty per (constraint, pair k) at [2c + k] */
    private double[] beta = new double[0];
    /** true if block c is solved exactly inside its subsystem */
    private boolean[] exact = new boolean[0];
    private int splitPairs;
    /** split variables z per (row, pair k) at [2 row + k] */
    private double[] z = new double[0];
    /** J v per (row, pair k) at [2 row + k] */
    private double[] x = new double[0];
    private double[] yHat = new double[0];
    private double[] pNew = new double[0];
    /** early stopping only: residuals per block at [2c] (primal), [2c + 1] (dual) */
    private double[] blockResidual = new double[0];
    private final Islands islands = new Islands();
    /** early stopping only: per island, whether it still iterates */
    private boolean[] active = new boolean[0];
    private double[] islandRp = new double[0];
    private double[] islandRd = new double[0];
    private int activeIslands;
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

    /** @return constraint rows the last solve handled exactly inside their subsystems */
    public int lastExactRows() {
        return subsystems.exactRows();
    }

    @Override
    public int solve(ConstraintProblem pr) {
        current = pr;
        setup(pr);
        return iterate(pr);
    }

    private int iterate(ConstraintProblem pr) {
        // without split constraints one v-step is the exact solution
        int budget = splitPairs == 0 ? 1 : iterations;
        if (tolerance > 0) {
            islands.build(pr);
            int ni = islands.count;
            if (active.length < ni) {
                active = new boolean[Math.max(ni, 2 * active.length)];
            }
            Arrays.fill(active, 0, ni, true);
            activeIslands = ni;
            islandRp = ConstraintProblem.grow(islandRp, ni);
            islandRd = ConstraintProblem.grow(islandRd, ni);
            blockResidual = ConstraintProblem.grow(blockResidual, 2 * pr.constraints);
            Arrays.fill(blockResidual, 0, 2 * pr.constraints, 0);
        }
        int it = 0;
        while (it < budget) {
            it++;
            loop.run(pr.subsystems, vStepBody);
            loop.run(pr.constraints, zStepBody);
            if (tolerance > 0 && converged(pr)) {
                break;
            }
        }
        lastIterations = it;
        current = null;
        return it;
    }

    /** Stops the islands whose residuals are below the tolerance; true when none iterates any more. */
    private boolean converged(ConstraintProblem pr) {
        int ni = islands.count;
        Arrays.fill(islandRp, 0, ni, 0);
        Arrays.fill(islandRd, 0, ni, 0);
        for (int c = 0; c < pr.constraints; c++) {
            int i = islands.ofBlock[c];
            if (i >= 0) {
                islandRp[i] = Math.max(islandRp[i], blockResidual[2 * c]);
                islandRd[i] = Math.max(islandRd[i], blockResidual[2 * c + 1]);
            }
        }
        for (int i = 0; i < ni; i++) {
            if (active[i] && islandRp[i] <= tolerance && islandRd[i] <= tolerance) {
                active[i] = false;
                activeIslands--;
            }
        }
        return activeIslands == 0;
    }

    private void setup(ConstraintProblem pr) {
        pairs.build(pr);
        int nb = pr.bodies;
        // which blocks are internal equalities
        exact = grow(exact, pr.constraints);
        for (int c = 0; c < pr.constraints; c++) {
            int kind = pr.kind[c];
            int np = pairs.count[c];
            exact[c] = (kind == ConstraintProblem.HARD || kind == ConstraintProblem.SOFT) && np > 0
                    && (np == 1 || pairs.sub[2 * c] == pairs.sub[2 * c + 1]);
        }
        beta = ConstraintProblem.grow(beta, 2 * pr.constraints);
        splitPairs = subsystems.prepare(pr, pairs, exact, loop.chunks(pr.subsystems));
        loop.run(pr.subsystems, factorRange);
        // split variables start at J v^k
        z = ConstraintProblem.grow(z, 2 * pr.totalRows);
        x = ConstraintProblem.grow(x, 2 * pr.totalRows);
        yHat = ConstraintProblem.grow(yHat, pr.totalRows);
        pNew = ConstraintProblem.grow(pNew, pr.totalRows);
        loop.run(pr.constraints, seedRange);
    }

    private static boolean[] grow(boolean[] a, int n) {
        return a.length >= n ? a : Arrays.copyOf(a, Math.max(n, a.length * 2));
    }

    /** z_ck = J_ck v^k for the split constraints in [lo, hi). */
    private void seedZ(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        for (int c = lo; c < hi; c++) {
            if (exact[c]) {
                continue;
            }
            for (int k = 0; k < pairs.count[c]; k++) {
                int mask = pairs.sides[2 * c + k];
                for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                    z[2 * r + k] = pairs.rowTimes(pr, c, mask, r, pr.v);
                }
            }
        }
    }

    /** Penalties, H and the internal factorizations of subsystems [lo, hi). */
    private void factorRange(int lo, int hi, int chunk) {
        for (int s = lo; s < hi; s++) {
            subsystems.factor(s, kappa, beta, chunk);
        }
    }

    /** (15) for subsystems [lo, hi). */
    private void vStep(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        boolean skip = tolerance > 0;
        for (int s = lo; s < hi; s++) {
            if (skip && !active[islands.ofBody[pr.subsystemBodies[pr.subsystemBodyStart[s]]]]) {
                continue;
            }
            subsystems.solve(s, beta, z, chunk);
        }
    }

    /** (13), (14) for the split constraints in [lo, hi); records the chunk's residuals. */
    private void zStep(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        boolean track = tolerance > 0;
        double[] v = pr.v;
        for (int c = lo; c < hi; c++) {
            int np = pairs.count[c];
            if (exact[c] || np == 0 || track && !active[islands.ofBlock[c]]) {
                continue;
            }
            double rp = 0;
            double rd = 0;
            int r0 = pr.rowStart[c];
            int m = pr.rows[c];
            // pair 0 always exists; pair 1 only for two dynamic sides
            int s0 = pairs.sides[2 * c];
            double[] j0 = s0 == 1 ? pr.jA : pr.jB;
            int o0 = pairs.coord[2 * c + s0 - 1];
            double ib0 = 1.0 / beta[2 * c];
            boolean two = np == 2;
            double[] j1 = pr.jB;
            int o1 = 0;
            double ib1 = 0;
            if (two) {
                int s1 = pairs.sides[2 * c + 1];
                j1 = s1 == 1 ? pr.jA : pr.jB;
                o1 = pairs.coord[2 * c + s1 - 1];
                ib1 = 1.0 / beta[2 * c + 1];
            }
            double w = ib0 + ib1;
            for (int r = r0; r < r0 + m; r++) {
                double x0 = ConstraintProblem.dot6(j0, 6 * r, v, o0);
                double x1 = two ? ConstraintProblem.dot6(j1, 6 * r, v, o1) : 0;
                x[2 * r] = x0;
                x[2 * r + 1] = x1;
                yHat[r] = pr.e[r] - w * pr.p[r] + x0 + x1;
            }
            BlockLaw.solveIsotropic(pr, c, w, yHat, pNew);
            for (int r = r0; r < r0 + m; r++) {
                double dp = pNew[r] - pr.p[r];
                double z0 = x[2 * r] + dp * ib0;
                if (track) {
                    rd = Math.max(rd, Math.abs((z0 - z[2 * r]) / ib0));
                    rp = Math.max(rp, Math.abs(dp * ib0));
                }
                z[2 * r] = z0;
                if (two) {
                    double z1 = x[2 * r + 1] + dp * ib1;
                    if (track) {
                        rd = Math.max(rd, Math.abs((z1 - z[2 * r + 1]) / ib1));
                        rp = Math.max(rp, Math.abs(dp * ib1));
                    }
                    z[2 * r + 1] = z1;
                }
                pr.p[r] = pNew[r];
            }
            if (track) {
                blockResidual[2 * c] = rp;
                blockResidual[2 * c + 1] = rd;
            }
        }
    }
}
