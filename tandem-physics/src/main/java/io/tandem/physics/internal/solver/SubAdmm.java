package io.tandem.physics.internal.solver;

import io.tandem.physics.internal.parallel.ParallelLoop;

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
 * Warm start: p from the previous step (the caller keeps it per contact feature / joint); z from
 * the consistent seed below.
 *
 * Adaptive penalty (shared/specs/physics-wave2.md 8; Boyd et al. 2011 3.4.1 with Wohlberg 2017's
 * normalization): every ADAPT_EVERY iterations each subsystem i compares its primal residual
 * r_i = max |p_new - p| / beta (the consensus gap z - J v, m/s) with its dual residual
 * s_i = max beta |z_new - z| (N s), each normalized, r~ = r_i / max(|J v|, |z|) and
 * s~ = s_i / max |p|, and scales its penalties by sqrt(r~ / s~), clamped to [1/4, 4], when that
 * falls outside [1/2, 2], keeping the scale within [1e-4, 1e4] of the start (CRISP keeps beta in [1e-4, 1e4]); H_i is then
 * refactorized. The band: physics-wave2.md 8 takes OSQP's [1/1.5, 1.5]; [1/2, 2] (Boyd et al.
 * use a wider one still) passes the same accuracy suite, updates and refactorizes less often, and
 * took the 1000-sphere pile from 15.95 to 14.9 mean iterations (4 seeds; penetration unchanged,
 * 0.50 mm) and 10 % less time per step (interleaved A/B, both orders); [1/3, 3] let a column of 10
 * spheres sink more than 1 mm. Why the bound: at rest J v and z tend to 0, the normalized primal residual stays
 * large and every update quadrupled beta (to 1e52 on a resting stack from kappa 0.001). Adding the
 * bias |e| to the normalizer (Wohlberg's |c|) also stopped that, but let a column of 10 spheres
 * sink 1.09 mm at the default cap. The stop measures the primal residual against the starting
 * penalty, so a grown beta cannot pass the tolerance with wrong impulses. Known limit: a stop on
 * successive changes is loose where ADMM stagnates; from kappa 4 or 1000 a resting 10-sphere
 * stack stopped at 1e-8 m/s still has impulses 6e-6 and 1e-3 N s off. The dual u = -p is unscaled, so a beta change
 * needs no dual rescale. The residuals are gathered per subsystem from its own pairs (a max, exact
 * in any order), so there is no global reduction and subsystems stay independent (subset
 * equivalence holds). Why: a fixed kappa is either too stiff for sliding friction (kappa 4 at 10
 * iterations slid a box down a 20 degree, mu 0.2 incline 10.6 % too slowly; kappa 16, 55 %) or
 * too soft for stacks; the balance moves beta to where both residuals fall together. Off for
 * runs at a fixed iteration count (the paper's Table I).
 *
 * Over-relaxation (Boyd et al. 2011, 3.4.3): the z-step uses x = alpha J v + (1 - alpha) z with
 * alpha = 1.5 in place of J v. On the 1000-sphere pile at a 1e-4 m/s tolerance it cut the mean
 * iterations from 28.7 to 21.8 (alpha 1.8: 21.6).
 *
 * Mass splitting: the effective-mass penalty of a pair is divided by the number of split pairs of
 * its body (in the spirit of Tonge, Benevolenski & Voroshilov 2012, "Mass splitting for jitter-free
 * parallel rigid body simulation"): a body with n contacts otherwise gets n times kappa its own
 * mass as penalty, and a box on an incline (4 contact points, kappa 4) slid 10.6 % too slowly at 10
 * iterations; with the split, 0.6 %.
 *
 * Consistent seed: z starts at J v*, with v* = A^-1 (b + J^T p) the velocity the warm-started
 * impulses give (Subsystems.predict), not at J v^k: with an exact warm start the first v-step then
 * reproduces v*, so a steady slide or a resting stack starts at its fixed point (the incline above:
 * exact at 5 iterations).
 *
 * Stopping: primal r_p = max |p_new - p| / beta and dual r_d = max |z_new - z|, both velocities
 * (m/s), so one tolerance in m/s bounds both; stop when both are below the tolerance, tested every CHECK_EVERY iterations (the residuals are
 * only gathered then). zStepTracked and zStepPlain are one loop (zRange) behind a flag: with the
 * row form, the flag cost the pile 2-3 % per step; with compact contacts, whose residuals cost
 * little, a tracked z-step costs about a plain one, and the one loop holding the compact step
 * inline was 4-5 % faster than two loops calling it (interleaved A/B in one JVM, both orders). Per island
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
 *
 * Forces: the z-step of a constraint also forms each pair's force J_ck^T (beta z_ck + p_c) (6
 * numbers) while it holds the rows, and the v-step only adds its pairs' forces. The Jacobian rows
 * are then read once per iteration instead of twice (stir with 4000 spheres, 1 thread: 6 % less
 * time per step; the 1000-sphere pile, whose rows fit in cache: within the noise). The seed and a
 * penalty update (which changes beta) recompute them.
 *
 * Compact contacts: a contact block from ContactAssembly (ConstraintProblem.armed) has rows
 * (d_i, r x d_i) over an orthonormal frame d_i per side, so J_ck v = +-d_i . (v + w x r) and
 * J_ck^T f = (F, r x F) with F = +-sum d_i f_i. zRange does the block's whole z-step from the
 * frame and the two lever arms (15 numbers instead of 36 Jacobian entries), in registers (no x,
 * yHat or pNew arrays), with the contact law of BlockLaw inlined; RigidSubsystems forms its
 * J^T J in closed form. Same arithmetic up to rounding (SubAdmmTest compares both forms). The
 * 1000-sphere pile: 7.0 -> 5.0 ms per step over 5 seeds, mean iterations unchanged (15.45 and
 * 15.73: the pile is chaotic, a rounding change moves a seed's mean by up to 1.5 iterations).
 */

/**
 * The Subsystem-ADMM constraint solver. Allocation-free once its buffers have grown to the
 * largest problem. Not thread-safe.
 */
public final class SubAdmm implements ConstraintSolver {
    /** iterations between two penalty updates of the adaptive rule */
    static final int ADAPT_EVERY = 10;
    /** over-relaxation alpha of the z-step (Boyd et al. 2011, 3.4.3) */
    static final double RELAX = 1.5;
    /** iterations between two convergence tests when stopping early */
    static final int CHECK_EVERY = 4;
    /** a penalty update needs a balance ratio outside [1 / ADAPT_BAND, ADAPT_BAND] */
    static final double ADAPT_BAND = 2;
    /** one penalty update scales by at most this factor (or its inverse) */
    static final double ADAPT_CLAMP = 4;
    /** the adapted penalties stay within this factor (or its inverse) of the starting ones */
    static final double ADAPT_RANGE = 1e4;

    private final int iterations;
    private final double kappa;
    private final double tolerance;
    private final boolean adaptive;
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
    /**
     * per (constraint c, pair k) at [6 (2c + k)]: the pair's force on its body for the next v-step,
     * sum over c's rows of J_ck^T (beta_ck z_ck + p_c), written by c's z-step (see the notes)
     */
    private double[] force = new double[0];
    /** J v per (row, pair k) at [2 row + k] */
    private double[] x = new double[0];
    private double[] yHat = new double[0];
    private double[] pNew = new double[0];
    /**
     * stopping or adaptation: per pair at [4 (2c + k) + f]: f = 0 max |dp| / beta (m/s), 1 max |dz|
     * (m/s), 2 max(|J v|, |z|) (m/s), 3 max |p| (N s)
     */
    private double[] pairStat = new double[0];
    /** adaptation: per subsystem, its penalty scale relative to the start of the solve */
    private double[] subScale = new double[0];
    /** starting penalty per (constraint, pair k): the primal residual's yardstick, so that adapting never loosens the stop */
    private double[] beta0 = new double[0];
    /** whether this solve's iterations keep pairStat (set in setup, read by seedZ) */
    private boolean statsWanted;
    private boolean adaptNow;
    /** this solve stops islands early (tolerance > 0 and more than one iteration): {@link #active} is valid */
    private boolean stopping;
    private final Islands islands = new Islands();
    /** early stopping only: per island, whether it still iterates */
    private boolean[] active = new boolean[0];
    private double[] islandRp = new double[0];
    private double[] islandRd = new double[0];
    /**
     * convergence tests: per parallel chunk of blocks at [chunk CHUNK + r], runCount[chunk] runs of
     * consecutive blocks in one island with their largest residuals (blocks come in body order, so
     * a chunk holds few runs); reduced per island serially, over runs instead of blocks
     */
    private int[] runIsland = new int[0];
    private double[] runRp = new double[0];
    private double[] runRd = new double[0];
    private int[] runCount = new int[0];
    /** the current tracked z-step is a convergence test (records the runs) */
    private boolean checkNow;
    private int activeIslands;
    private ConstraintProblem current;
    private int lastIterations;
    // loop bodies as fields: a bound method reference would allocate on every call
    private final ParallelLoop.RangeBody vStepBody = this::vStep;
    private final ParallelLoop.RangeBody zStepBody = this::zStepPlain;
    private final ParallelLoop.RangeBody zStepTrackedBody = this::zStepTracked;
    private final ParallelLoop.RangeBody factorRange = this::factorRange;
    private final ParallelLoop.RangeBody seedRange = this::seedZ;
    private final ParallelLoop.RangeBody adaptRange = this::adapt;
    private final ParallelLoop.RangeBody predictRange = this::predict;
    private final ParallelLoop.RangeBody pairsRange = this::pairsOf;
    private final ParallelLoop.RangeBody forceRange = this::forces;
    /** armed blocks: 1 / beta per (constraint, pair k) at [2c + k] (0 for an absent pair), set with the forces */
    private double[] invBeta = new double[0];
    /** armed blocks: 1 / w_c = 1 / sum_k 1 / beta_ck, set with the forces */
    private double[] invW = new double[0];
    /** v* = A^-1 (b + J^T p), the velocity of the warm-started impulses (the z seed) */
    private double[] vPred = new double[0];

    /**
     * @param iterations iteration budget, at least 1
     * @param kappa      penalty scale (beta_ci = kappa x effective mass), greater than 0
     * @param tolerance  residual tolerance for early stopping, m/s; 0 runs the whole budget
     * @param loop       parallel loop (threads), or {@link ParallelLoop#serial()}
     */
    public SubAdmm(int iterations, double kappa, double tolerance, ParallelLoop loop) {
        this(iterations, kappa, tolerance, false, loop);
    }

    /**
     * @param iterations iteration budget (the cap with a tolerance), at least 1
     * @param kappa      penalty scale (beta_ci = kappa x effective mass), greater than 0; the
     *                   starting scale when adaptive
     * @param tolerance  residual tolerance for early stopping, m/s; 0 runs the whole budget
     * @param adaptive   balance each subsystem's penalties by its residuals every
     *                   {@value #ADAPT_EVERY} iterations
     * @param loop       parallel loop (threads), or {@link ParallelLoop#serial()}
     */
    public SubAdmm(int iterations, double kappa, double tolerance, boolean adaptive, ParallelLoop loop) {
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
        this.adaptive = adaptive;
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
        // one iteration has nothing to stop early or adapt
        boolean stopEarly = tolerance > 0 && budget > 1;
        stopping = stopEarly;
        if (stopEarly) {
            islands.build(pr, loop);
            int ni = islands.count;
            if (active.length < ni) {
                active = new boolean[Math.max(ni, 2 * active.length)];
            }
            Arrays.fill(active, 0, ni, true);
            activeIslands = ni;
            islandRp = ConstraintProblem.grow(islandRp, ni);
            islandRd = ConstraintProblem.grow(islandRd, ni);
            int runSlots = loop.chunks(pr.constraints) * ParallelLoop.CHUNK;
            runIsland = ConstraintProblem.grow(runIsland, runSlots);
            runRp = ConstraintProblem.grow(runRp, runSlots);
            runRd = ConstraintProblem.grow(runRd, runSlots);
            runCount = ConstraintProblem.grow(runCount, loop.chunks(pr.constraints));
        }
        // (pairStat, when stopEarly || adaptive && budget > 1, was cleared by seedZ: statsWanted)
        int it = 0;
        while (it < budget) {
            it++;
            loop.run(pr.subsystems, vStepBody);
            adaptNow = adaptive && it % ADAPT_EVERY == 0 && it < budget;
            // (no test after the last iteration: nothing would follow it)
            boolean check = stopEarly && it % CHECK_EVERY == 0 && it < budget;
            boolean track = check || adaptNow;
            checkNow = check;
            loop.run(pr.constraints, track ? zStepTrackedBody : zStepBody);
            if (check) {
                gather(pr, true);
            }
            if (stopEarly && activeIslands == 0) {
                break;
            }
            if (adaptNow) {
                loop.run(pr.subsystems, adaptRange);
                // the forces hold the old penalties
                loop.run(pr.constraints, forceRange);
            }
        }
        lastIterations = it;
        current = null;
        return it;
    }

    /**
     * Serially, over the z-step's runs of blocks (maxima: exact in any order): stops the islands
     * whose residuals are below the tolerance. (An adaptation gathers its residuals per subsystem
     * in parallel, in {@link #adapt}, from the subsystem's own split pairs.)
     */
    private void gather(ConstraintProblem pr, boolean check) {
        int ni = check ? islands.count : 0;
        Arrays.fill(islandRp, 0, ni, 0);
        Arrays.fill(islandRd, 0, ni, 0);
        if (check) {
            // the z-step's runs of blocks in one island, per chunk (far fewer than blocks)
            int chunks = loop.chunks(pr.constraints);
            for (int k = 0; k < chunks; k++) {
                int base = k * ParallelLoop.CHUNK;
                for (int r = base; r < base + runCount[k]; r++) {
                    int i = runIsland[r];
                    islandRp[i] = Math.max(islandRp[i], runRp[r]);
                    islandRd[i] = Math.max(islandRd[i], runRd[r]);
                }
            }
        }
        for (int i = 0; i < ni; i++) {
            if (active[i] && islandRp[i] <= tolerance && islandRd[i] <= tolerance) {
                active[i] = false;
                activeIslands--;
            }
        }
    }

    /** The adaptive penalty rule (see the notes) for subsystems [lo, hi). */
    private void adapt(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        boolean skip = stopping;
        for (int s = lo; s < hi; s++) {
            if (skip && !active[islands.ofBody[pr.subsystemBodies[pr.subsystemBodyStart[s]]]]) {
                continue;
            }
            // the subsystem's residuals: maxima over its split pairs (exact in any order)
            double r = 0;
            double d = 0;
            double xn = 0;
            double pn = 0;
            for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
                int body = pr.subsystemBodies[q];
                for (int e = subsystems.splitPairStart(body); e < subsystems.splitPairStart(body + 1); e++) {
                    int pair = subsystems.splitPair(e);
                    int k = 4 * pair;
                    double bs = beta[pair];
                    // the balance uses the current penalty: |dp| / beta
                    r = Math.max(r, pairStat[k] * beta0[pair] / bs);
                    d = Math.max(d, bs * pairStat[k + 1]);
                    xn = Math.max(xn, pairStat[k + 2]);
                    pn = Math.max(pn, pairStat[k + 3]);
                }
            }
            if (!(r > 0) || !(d > 0) || !(xn > 0) || !(pn > 0)) {
                continue;
            }
            double ratio = Math.sqrt((r / xn) / (d / pn));
            if (ratio >= 1 / ADAPT_BAND && ratio <= ADAPT_BAND) {
                continue;
            }
            double factor = Math.max(1 / ADAPT_CLAMP, Math.min(ADAPT_CLAMP, ratio));
            double scale = Math.max(1 / ADAPT_RANGE, Math.min(ADAPT_RANGE, subScale[s] * factor));
            factor = scale / subScale[s];
            if (factor == 1) {
                continue;
            }
            subScale[s] = scale;
            subsystems.rescale(s, factor, beta, chunk);
        }
    }

    private void setup(ConstraintProblem pr) {
        pairs.size(pr);
        exact = grow(exact, pr.constraints);
        loop.run(pr.constraints, pairsRange);
        int nb = pr.bodies;
        beta = ConstraintProblem.grow(beta, 2 * pr.constraints);
        splitPairs = subsystems.prepare(pr, pairs, exact, loop);
        if (adaptive) {
            subScale = ConstraintProblem.grow(subScale, pr.subsystems);
            Arrays.fill(subScale, 0, pr.subsystems, 1.0);
        }
        loop.run(pr.subsystems, factorRange);
        // the iterations' statistics (the stop test, the penalty balance) and the penalties they
        // are measured against start in seedZ, in parallel (serially they took 0.2 ms of a
        // 10,000-sphere step); without split pairs there is one iteration and neither is read
        statsWanted = splitPairs > 0 && iterations > 1 && (tolerance > 0 || adaptive);
        if (statsWanted) {
            pairStat = ConstraintProblem.grow(pairStat, 8 * pr.constraints);
        }
        if (adaptive) {
            beta0 = ConstraintProblem.grow(beta0, 2 * pr.constraints);
        }
        // split variables start at J v^k
        z = ConstraintProblem.grow(z, 2 * pr.totalRows);
        force = ConstraintProblem.grow(force, 12 * pr.constraints);
        invBeta = ConstraintProblem.grow(invBeta, 2 * pr.constraints);
        invW = ConstraintProblem.grow(invW, pr.constraints);
        x = ConstraintProblem.grow(x, 2 * pr.totalRows);
        yHat = ConstraintProblem.grow(yHat, pr.totalRows);
        pNew = ConstraintProblem.grow(pNew, pr.totalRows);
        if (splitPairs > 0) {
            // (without split pairs there is no z to seed)
            vPred = ConstraintProblem.grow(vPred, pr.v.length);
            loop.run(pr.subsystems, predictRange);
            loop.run(pr.constraints, seedRange);
        }
    }

    /** The pairs of blocks [lo, hi), and which of them are internal equalities. */
    private void pairsOf(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        pairs.build(pr, lo, hi);
        for (int c = lo; c < hi; c++) {
            int kind = pr.kind[c];
            int np = pairs.count[c];
            exact[c] = (kind == ConstraintProblem.HARD || kind == ConstraintProblem.SOFT) && np > 0
                    && (np == 1 || pairs.sub[2 * c] == pairs.sub[2 * c + 1]);
        }
    }

    private void predict(int lo, int hi, int chunk) {
        for (int s = lo; s < hi; s++) {
            subsystems.predict(s, vPred);
        }
    }

    private static boolean[] grow(boolean[] a, int n) {
        return a.length >= n ? a : Arrays.copyOf(a, Math.max(n, a.length * 2));
    }

    /** z_ck = J_ck v* for the split constraints in [lo, hi). */
    private void seedZ(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        if (adaptive) {
            System.arraycopy(beta, 2 * lo, beta0, 2 * lo, 2 * (hi - lo));
        }
        if (statsWanted) {
            Arrays.fill(pairStat, 8 * lo, 8 * hi, 0);
        }
        for (int c = lo; c < hi; c++) {
            if (exact[c]) {
                continue;
            }
            if (pr.armed[c]) {
                armedSeed(pr, c);
                continue;
            }
            for (int k = 0; k < pairs.count[c]; k++) {
                int mask = pairs.sides[2 * c + k];
                for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                    z[2 * r + k] = pairs.rowTimes(pr, c, mask, r, vPred);
                }
                pairForce(pr, c, k);
            }
        }
    }

    /** {@link #seedZ} for an armed contact block: z_ck = +-d_i . (v*_lin + w* x r), then the pairs' forces. */
    private void armedSeed(ConstraintProblem pr, int c) {
        inverses(c);
        double[] cf = pr.contactFrame;
        int f = 15 * c;
        int zr = 2 * pr.rowStart[c];
        for (int k = 0; k < pairs.count[c]; k++) {
            int side = pairs.sides[2 * c + k];
            double sg = side == 1 ? -1 : 1;
            int a = f + 6 + 3 * side;
            int o = pairs.coord[2 * c + side - 1];
            for (int i = 0; i < 3; i++) {
                z[zr + 2 * i + k] = sg * ConstraintProblem.pointVelocity(cf, f + 3 * i, cf, a, vPred, o);
            }
            pairForce(pr, c, k);
        }
    }

    /** The forces of the split constraints in [lo, hi) from the current z, p and penalties. */
    private void forces(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        for (int c = lo; c < hi; c++) {
            if (exact[c] || stopping && pairs.count[c] > 0 && !active[islands.ofBlock[c]]) {
                continue;
            }
            if (pr.armed[c]) {
                inverses(c);
            }
            for (int k = 0; k < pairs.count[c]; k++) {
                pairForce(pr, c, k);
            }
        }
    }

    /**
     * The reciprocals zRange multiplies by instead of dividing (they change only with the
     * penalties): 1 / beta_ck and 1 / w_c of block c.
     */
    private void inverses(int c) {
        double ib0 = 1.0 / beta[2 * c];
        double ib1 = pairs.count[c] == 2 ? 1.0 / beta[2 * c + 1] : 0;
        invBeta[2 * c] = ib0;
        invBeta[2 * c + 1] = ib1;
        invW[c] = 1.0 / (ib0 + ib1);
    }

    /** force[o..o+6) = (F, r x F): the wrench of force F at lever arm r = arm[a..a+3). */
    private static void wrench(double[] force, int o, double fx, double fy, double fz, double[] arm, int a) {
        double rx = arm[a];
        double ry = arm[a + 1];
        double rz = arm[a + 2];
        force[o] = fx;
        force[o + 1] = fy;
        force[o + 2] = fz;
        force[o + 3] = ry * fz - rz * fy;
        force[o + 4] = rz * fx - rx * fz;
        force[o + 5] = rx * fy - ry * fx;
    }

    /** force[6 (2c + k)..] = sum over c's rows of J_ck^T (beta_ck z_ck + p_c). */
    private void pairForce(ConstraintProblem pr, int c, int k) {
        int pair = 2 * c + k;
        double bs = beta[pair];
        if (pr.armed[c]) {
            // compact form: F = +-sum_i d_i f_i, torque r x F
            double[] cf = pr.contactFrame;
            double sg = pairs.sides[pair] == 1 ? -1 : 1;
            int r0 = pr.rowStart[c];
            double fn = bs * z[2 * r0 + k] + pr.p[r0];
            double ft = bs * z[2 * r0 + 2 + k] + pr.p[r0 + 1];
            double fs = bs * z[2 * r0 + 4 + k] + pr.p[r0 + 2];
            int d = 15 * c;
            double fx = sg * (cf[d] * fn + cf[d + 3] * ft + cf[d + 6] * fs);
            double fy = sg * (cf[d + 1] * fn + cf[d + 4] * ft + cf[d + 7] * fs);
            double fz = sg * (cf[d + 2] * fn + cf[d + 5] * ft + cf[d + 8] * fs);
            wrench(force, 6 * pair, fx, fy, fz, cf, 15 * c + 6 + 3 * pairs.sides[pair]);
            return;
        }
        double[] jac = pairs.sides[pair] == 1 ? pr.jA : pr.jB;
        double g0 = 0;
        double g1 = 0;
        double g2 = 0;
        double g3 = 0;
        double g4 = 0;
        double g5 = 0;
        for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
            double f = bs * z[2 * r + k] + pr.p[r];
            int j = 6 * r;
            g0 += jac[j] * f;
            g1 += jac[j + 1] * f;
            g2 += jac[j + 2] * f;
            g3 += jac[j + 3] * f;
            g4 += jac[j + 4] * f;
            g5 += jac[j + 5] * f;
        }
        int o = 6 * pair;
        force[o] = g0;
        force[o + 1] = g1;
        force[o + 2] = g2;
        force[o + 3] = g3;
        force[o + 4] = g4;
        force[o + 5] = g5;
    }

    /** Penalties, H and the internal factorizations of subsystems [lo, hi). */
    private void factorRange(int lo, int hi, int chunk) {
        for (int s = lo; s < hi; s++) {
            subsystems.factor(s, kappa, beta, chunk);
        }
    }

    /** (15) for subsystems [lo, hi). */
    private void vStep(int lo, int hi, int chunk) {
        subsystems.solve(lo, hi, force, chunk, stopping ? active : null, islands.ofBody);
    }

    /** (13), (14) for the split constraints in [lo, hi); records their residuals per pair. */
    private void zStepTracked(int lo, int hi, int chunk) {
        zRange(lo, hi, chunk, true);
    }

    /** (13), (14) for the split constraints in [lo, hi). */
    private void zStepPlain(int lo, int hi, int chunk) {
        zRange(lo, hi, chunk, false);
    }

    /**
     * (13), (14) for the split constraints in [lo, hi). An armed contact block
     * (ConstraintProblem.armed) is done in registers: J v from the frame and the lever arms (J_i v
     * = +-d_i . (v + w x r)), the contact law of {@link BlockLaw#solveIsotropic}, the z and p
     * updates and the pairs' forces (F = +-sum d_i f_i, torque r x F), and with {@code tracked}
     * the residuals as {@link #general} records them; other blocks in the row form
     * ({@link #general}). The armed step is inlined in the loop with the arrays it
     * reads held in locals: as a method of its own (1900 bytes of bytecode, too large to inline)
     * each call reloaded them. The same arithmetic as the row form up to rounding.
     */
    private void zRange(int lo, int hi, int chunk, boolean tracked) {
        ConstraintProblem pr = current;
        boolean skip = stopping;
        double[] v = pr.v;
        double[] cf = pr.contactFrame;
        double[] p = pr.p;
        double[] e = pr.e;
        double[] mu = pr.mu;
        int[] rowStart = pr.rowStart;
        boolean[] armed = pr.armed;
        int[] sides = pairs.sides;
        int[] coord = pairs.coord;
        int[] count = pairs.count;
        double[] z = this.z;
        double[] force = this.force;
        double[] beta = this.beta;
        double[] invBeta = this.invBeta;
        double[] invW = this.invW;
        double[] pairStat = this.pairStat;
        int base = chunk * ParallelLoop.CHUNK;
        int runs = 0;
        for (int c = lo; c < hi; c++) {
            int np = count[c];
            if (exact[c] || np == 0 || skip && !active[islands.ofBlock[c]]) {
                continue;
            }
            if (!armed[c]) {
                general(pr, c, np, tracked);
            } else {
                boolean two = np == 2;
                int f = 15 * c;
                double nx = cf[f];
                double ny = cf[f + 1];
                double nz = cf[f + 2];
                double tx = cf[f + 3];
                double ty = cf[f + 4];
                double tz = cf[f + 5];
                double sx = cf[f + 6];
                double sy = cf[f + 7];
                double sz = cf[f + 8];
                int r0 = rowStart[c];
                int zr = 2 * r0;
                // pair 0: always present
                int side0 = sides[2 * c];
                double sg0 = side0 == 1 ? -1 : 1;
                int a0 = f + 6 + 3 * side0;
                double rx0 = cf[a0];
                double ry0 = cf[a0 + 1];
                double rz0 = cf[a0 + 2];
                int o0 = coord[2 * c + side0 - 1];
                double wx = v[o0 + 3];
                double wy = v[o0 + 4];
                double wz = v[o0 + 5];
                double ux = v[o0] + wy * rz0 - wz * ry0;
                double uy = v[o0 + 1] + wz * rx0 - wx * rz0;
                double uz = v[o0 + 2] + wx * ry0 - wy * rx0;
                double b0 = beta[2 * c];
                double ib0 = invBeta[2 * c];
                double zn0 = z[zr];
                double zt0 = z[zr + 2];
                double zs0 = z[zr + 4];
                double xn0 = RELAX * (sg0 * (nx * ux + ny * uy + nz * uz)) + (1 - RELAX) * zn0;
                double xt0 = RELAX * (sg0 * (tx * ux + ty * uy + tz * uz)) + (1 - RELAX) * zt0;
                double xs0 = RELAX * (sg0 * (sx * ux + sy * uy + sz * uz)) + (1 - RELAX) * zs0;
                // pair 1: the other side when both are dynamic
                double sg1 = 0;
                int a1 = 0;
                double rx1 = 0;
                double ry1 = 0;
                double rz1 = 0;
                double b1 = 0;
                double ib1 = 0;
                double zn1 = 0;
                double zt1 = 0;
                double zs1 = 0;
                double xn1 = 0;
                double xt1 = 0;
                double xs1 = 0;
                if (two) {
                    int side1 = sides[2 * c + 1];
                    sg1 = side1 == 1 ? -1 : 1;
                    a1 = f + 6 + 3 * side1;
                    rx1 = cf[a1];
                    ry1 = cf[a1 + 1];
                    rz1 = cf[a1 + 2];
                    int o1 = coord[2 * c + side1 - 1];
                    wx = v[o1 + 3];
                    wy = v[o1 + 4];
                    wz = v[o1 + 5];
                    ux = v[o1] + wy * rz1 - wz * ry1;
                    uy = v[o1 + 1] + wz * rx1 - wx * rz1;
                    uz = v[o1 + 2] + wx * ry1 - wy * rx1;
                    b1 = beta[2 * c + 1];
                    ib1 = invBeta[2 * c + 1];
                    zn1 = z[zr + 1];
                    zt1 = z[zr + 3];
                    zs1 = z[zr + 5];
                    xn1 = RELAX * (sg1 * (nx * ux + ny * uy + nz * uz)) + (1 - RELAX) * zn1;
                    xt1 = RELAX * (sg1 * (tx * ux + ty * uy + tz * uz)) + (1 - RELAX) * zt1;
                    xs1 = RELAX * (sg1 * (sx * ux + sy * uy + sz * uz)) + (1 - RELAX) * zs1;
                }
                double w = ib0 + ib1;
                double pn = p[r0];
                double pt = p[r0 + 1];
                double ps = p[r0 + 2];
                double yn = e[r0] - w * pn + xn0 + xn1;
                double yt = e[r0 + 1] - w * pt + xt0 + xt1;
                double ys = e[r0 + 2] - w * ps + xs0 + xs1;
                // the contact law (BlockLaw.solveIsotropic, CONTACT)
                double iw = invW[c];
                double qn = Math.max(0, -yn * iw);
                double qt = -yt * iw;
                double qs = -ys * iw;
                double norm = Math.sqrt(qt * qt + qs * qs);
                double limit = mu[c] * qn;
                if (norm > limit) {
                    double scale = norm > 0 ? limit / norm : 0;
                    qt *= scale;
                    qs *= scale;
                }
                double dn = qn - pn;
                double dt = qt - pt;
                double ds = qs - ps;
                double zn0n = xn0 + dn * ib0;
                double zt0n = xt0 + dt * ib0;
                double zs0n = xs0 + ds * ib0;
                z[zr] = zn0n;
                z[zr + 2] = zt0n;
                z[zr + 4] = zs0n;
                p[r0] = qn;
                p[r0 + 1] = qt;
                p[r0 + 2] = qs;
                // pair 0's force: F = sg sum d_i (beta z_i + p_i), torque r x F
                double fn = b0 * zn0n + qn;
                double ft = b0 * zt0n + qt;
                double fs = b0 * zs0n + qs;
                double fx = sg0 * (nx * fn + tx * ft + sx * fs);
                double fy = sg0 * (ny * fn + ty * ft + sy * fs);
                double fz = sg0 * (nz * fn + tz * ft + sz * fs);
                wrench(force, 12 * c, fx, fy, fz, cf, a0);
                double zn1n = 0;
                double zt1n = 0;
                double zs1n = 0;
                if (two) {
                    zn1n = xn1 + dn * ib1;
                    zt1n = xt1 + dt * ib1;
                    zs1n = xs1 + ds * ib1;
                    z[zr + 1] = zn1n;
                    z[zr + 3] = zt1n;
                    z[zr + 5] = zs1n;
                    fn = b1 * zn1n + qn;
                    ft = b1 * zt1n + qt;
                    fs = b1 * zs1n + qs;
                    fx = sg1 * (nx * fn + tx * ft + sx * fs);
                    fy = sg1 * (ny * fn + ty * ft + sy * fs);
                    fz = sg1 * (nz * fn + tz * ft + sz * fs);
                    wrench(force, 12 * c + 6, fx, fy, fz, cf, a1);
                }
                if (tracked) {
                    double dp = Math.max(Math.abs(dn), Math.max(Math.abs(dt), Math.abs(ds)));
                    double pMax = Math.max(Math.abs(qn), Math.max(Math.abs(qt), Math.abs(qs)));
                    int q = 8 * c;
                    pairStat[q] = dp / (adaptive ? beta0[2 * c] : b0);
                    pairStat[q + 1] = Math.max(Math.abs(zn0n - zn0), Math.max(Math.abs(zt0n - zt0), Math.abs(zs0n - zs0)));
                    pairStat[q + 2] = Math.max(Math.max(Math.max(Math.abs(xn0), Math.abs(zn0n)), Math.max(Math.abs(xt0), Math.abs(zt0n))),
                            Math.max(Math.abs(xs0), Math.abs(zs0n)));
                    pairStat[q + 3] = pMax;
                    if (two) {
                        pairStat[q + 4] = dp / (adaptive ? beta0[2 * c + 1] : b1);
                        pairStat[q + 5] = Math.max(Math.abs(zn1n - zn1), Math.max(Math.abs(zt1n - zt1), Math.abs(zs1n - zs1)));
                        pairStat[q + 6] = Math.max(Math.max(Math.max(Math.abs(xn1), Math.abs(zn1n)), Math.max(Math.abs(xt1), Math.abs(zt1n))),
                                Math.max(Math.abs(xs1), Math.abs(zs1n)));
                        pairStat[q + 7] = pMax;
                    }
                }
            }
            if (tracked && checkNow) {
                int q = 8 * c;
                boolean two = np == 2;
                int island = islands.ofBlock[c];
                double rp = two ? Math.max(pairStat[q], pairStat[q + 4]) : pairStat[q];
                double rd = two ? Math.max(pairStat[q + 1], pairStat[q + 5]) : pairStat[q + 1];
                if (runs > 0 && runIsland[base + runs - 1] == island) {
                    runRp[base + runs - 1] = Math.max(runRp[base + runs - 1], rp);
                    runRd[base + runs - 1] = Math.max(runRd[base + runs - 1], rd);
                } else {
                    runIsland[base + runs] = island;
                    runRp[base + runs] = rp;
                    runRd[base + runs] = rd;
                    runs++;
                }
            }
        }
        if (tracked && checkNow) {
            runCount[chunk] = runs;
        }
    }

    /** The z-step of one block in the row form; with {@code tracked}, records its residuals per pair (pairStat). */
    private void general(ConstraintProblem pr, int c, int np, boolean tracked) {
        double[] v = pr.v;
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
            double x0 = RELAX * ConstraintProblem.dot6(j0, 6 * r, v, o0) + (1 - RELAX) * z[2 * r];
            double x1 = two ? RELAX * ConstraintProblem.dot6(j1, 6 * r, v, o1) + (1 - RELAX) * z[2 * r + 1] : 0;
            x[2 * r] = x0;
            x[2 * r + 1] = x1;
            yHat[r] = pr.e[r] - w * pr.p[r] + x0 + x1;
        }
        BlockLaw.solveIsotropic(pr, c, w, yHat, pNew);
        double dp0 = 0;
        double dz0 = 0;
        double xn0 = 0;
        double dz1 = 0;
        double xn1 = 0;
        double pn = 0;
        for (int r = r0; r < r0 + m; r++) {
            double next = pNew[r];
            double dp = next - pr.p[r];
            double z0 = x[2 * r] + dp * ib0;
            if (tracked) {
                dp0 = Math.max(dp0, Math.abs(dp));
                dz0 = Math.max(dz0, Math.abs(z0 - z[2 * r]));
                xn0 = Math.max(xn0, Math.max(Math.abs(x[2 * r]), Math.abs(z0)));
                pn = Math.max(pn, Math.abs(next));
            }
            z[2 * r] = z0;
            if (two) {
                double z1 = x[2 * r + 1] + dp * ib1;
                if (tracked) {
                    dz1 = Math.max(dz1, Math.abs(z1 - z[2 * r + 1]));
                    xn1 = Math.max(xn1, Math.max(Math.abs(x[2 * r + 1]), Math.abs(z1)));
                }
                z[2 * r + 1] = z1;
            }
            pr.p[r] = next;
        }
        // the pairs' forces, while the block's rows are in cache
        pairForce(pr, c, 0);
        if (two) {
            pairForce(pr, c, 1);
        }
        if (tracked) {
            int q = 8 * c;
            // the primal residual against the starting penalty (adapting must not loosen the stop)
            pairStat[q] = dp0 / (adaptive ? beta0[2 * c] : beta[2 * c]);
            pairStat[q + 1] = dz0;
            pairStat[q + 2] = xn0;
            pairStat[q + 3] = pn;
            if (two) {
                pairStat[q + 4] = dp0 / (adaptive ? beta0[2 * c + 1] : beta[2 * c + 1]);
                pairStat[q + 5] = dz1;
                pairStat[q + 6] = xn1;
                pairStat[q + 7] = pn;
            }
        }
    }

}
