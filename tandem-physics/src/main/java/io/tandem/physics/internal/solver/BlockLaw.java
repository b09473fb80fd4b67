package io.tandem.physics.internal.solver;

/*
 * Implementation notes.
 *
 * The per-block laws of shared/specs/physics.md 1.3 (b) solved against a scalar (isotropic)
 * local Delassus w: p = argsolve (p, yHat + w p) in K. For a contact this is "normal first, then
 * clip the tangential part to the disk of radius mu p_n" (1.3 (e)), which is exact because the
 * local matrix is a multiple of the identity. Used by SubADMM's z-step and, row-diagonal, by the
 * Jacobi baseline.
 */

/** Closed-form local solves of one constraint block. Stateless; allocates nothing. */
final class BlockLaw {
    private BlockLaw() {
    }

    /**
     * Solves block c's law against the isotropic Delassus {@code w}: given yHat (the block's
     * constraint velocity at p = 0), writes p into {@code out[r0..r0+m)}.
     *
     * @param yHat velocity without this block's impulse, per row (read at [r0..r0+m))
     */
    static void solveIsotropic(ConstraintProblem pr, int c, double w, double[] yHat, double[] out) {
        int r0 = pr.rowStart[c];
        int m = pr.rows[c];
        switch (pr.kind[c]) {
            case ConstraintProblem.HARD -> {
                for (int r = r0; r < r0 + m; r++) {
                    out[r] = -yHat[r] / w;
                }
            }
            case ConstraintProblem.SOFT -> {
                for (int r = r0; r < r0 + m; r++) {
                    out[r] = -yHat[r] / (w + pr.gamma[r]);
                }
            }
            case ConstraintProblem.LIMIT -> out[r0] = Math.max(0, -yHat[r0] / w);
            case ConstraintProblem.BOXED -> out[r0] = Math.min(pr.hi[r0], Math.max(pr.lo[r0], -yHat[r0] / w));
            case ConstraintProblem.CONTACT -> {
                double pn = Math.max(0, -yHat[r0] / w);
                coulomb(pr.mu[c], pn, -yHat[r0 + 1] / w, -yHat[r0 + 2] / w, out, r0);
            }
            default -> throw new IllegalStateException("unknown constraint kind " + pr.kind[c]);
        }
    }

    /**
     * Writes (pn, pt) with pt = (pt1, pt2) scaled radially onto the disk of radius mu pn if it lies
     * outside: the exact Coulomb law against an isotropic tangential metric.
     */
    static void coulomb(double mu, double pn, double pt1, double pt2, double[] out, int r0) {
        double norm = Math.sqrt(pt1 * pt1 + pt2 * pt2);
        double limit = mu * pn;
        if (norm > limit) {
            double s = norm > 0 ? limit / norm : 0;
            pt1 *= s;
            pt2 *= s;
        }
        out[r0] = pn;
        out[r0 + 1] = pt1;
        out[r0 + 2] = pt2;
    }
}
