package io.tandem.physics.internal.solver;

import io.tandem.physics.internal.parallel.ParallelLoop;

/**
 * The subsystems S_i of a step's problem, as Subsystem-ADMM sees them (shared/specs/physics.md
 * 1.3 (c), (d)): each owns its coordinates, its matrix A_i, the factorization of
 * H_i = A_i + sum_c beta_ci J_ci^T J_ci over its split constraint pairs, the Jacobian blocks of
 * the constraints that touch it, and the equality constraints internal to it, which its solve
 * satisfies exactly. Subsystems are independent of each other, so {@link #factor} and
 * {@link #solve} run in parallel over subsystems; each call touches only its own subsystem's data.
 *
 * <p>Implemented by {@link RigidSubsystems} (groups of rigid bodies joined by joints). Articulated
 * robots in reduced coordinates and FEM blocks are further implementations of the same three
 * operations. Implementations allocate only in {@link #prepare}, and only while the problem grows.
 */
interface Subsystems {
    /**
     * Reads the problem's structure: which pairs each subsystem owns and the layout of its
     * internal equality rows; the same result, bitwise, for any thread count of {@code loop}.
     *
     * @param pr     the problem
     * @param pairs  its (constraint, side) pairs
     * @param exact  per block: solved inside its subsystem (an internal equality)
     * @param loop   the loop the later calls will use (its chunks get scratch)
     * @return the number of split pairs (0: one v-step solves the problem)
     */
    int prepare(ConstraintProblem pr, Pairs pairs, boolean[] exact, ParallelLoop loop);

    /**
     * Chooses the penalties of subsystem {@code s}'s split pairs (kappa times the pair's effective
     * mass) into {@code beta[2c + k]} and factorizes H_s and its internal rows.
     *
     * @throws IllegalStateException if a matrix is not positive definite (names the body)
     */
    void factor(int s, double kappa, double[] beta, int chunk);

    /**
     * Scales the penalties of subsystem {@code s}'s split pairs by {@code factor} and refactorizes
     * (the adaptive rule; needs {@link #factor} first in the same solve).
     */
    void rescale(int s, double factor, double[] beta, int chunk);

    /**
     * (15) for subsystems [lo, hi): v_s from b_s + sum_c J_cs^T (beta z_cs + p_c) over the split
     * pairs, with the internal equality rows exact (their impulses are written to the problem's p).
     *
     * @param force        per (constraint c, pair k) at [6 (2c + k)]: J_ck^T (beta_ck z_ck + p_c)
     *                     summed over c's rows (the z-step computes it while it holds the rows)
     * @param activeIsland null to solve every subsystem in the range, else per island whether it
     *                     still iterates: a subsystem is skipped when the island of its first body
     *                     ({@code islandOfBody}) has stopped
     */
    void solve(int lo, int hi, double[] force, int chunk, boolean[] activeIsland, int[] islandOfBody);

    /**
     * The velocity the warm-started impulses give, v* = A_s^-1 (b_s + J_s^T p) over every row that
     * touches the subsystem (split and internal), into {@code out} at the subsystem's coordinates.
     * Needs {@link #factor} first (it uses A_s^-1).
     */
    void predict(int s, double[] out);

    /**
     * The split pairs of body b (entries 2c + k, in constraint order) are {@link #splitPair}(e)
     * for e in [splitPairStart(b), splitPairStart(b + 1)), after {@link #prepare}.
     */
    int splitPairStart(int body);

    /** @return entry e of the bodies' split-pair lists (see {@link #splitPairStart}) */
    int splitPair(int e);

    /** @return equality rows solved inside subsystems in the current problem */
    int exactRows();
}
