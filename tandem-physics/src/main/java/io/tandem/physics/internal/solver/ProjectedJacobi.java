package io.tandem.physics.internal.solver;

import io.tandem.physics.internal.parallel.ParallelLoop;

/*
 * Implementation notes.
 *
 * Projected Jacobi: every block computes its exact projected update (Delassus.blockUpdate) from
 * the same velocities, then all updates are applied together, relaxed by
 * omega_c = 1 / (number of blocks on its busiest subsystem), which keeps the simultaneous update
 * from overshooting where many blocks share a body (a stack, a pile). The block loop is parallel
 * and thread-count independent (each block writes only its own rows).
 */

/** Projected Jacobi. Allocation-free once grown. Not thread-safe. */
public final class ProjectedJacobi implements ConstraintSolver {
    private final int iterations;
    private final ParallelLoop loop;
    private final Delassus del = new Delassus();
    private double[] y = new double[0];
    private double[] pNew = new double[0];
    private double[] omega = new double[0];
    private int[] degree = new int[0];
    private ConstraintProblem current;
    private final ParallelLoop.RangeBody updateBody = this::update;

    /**
     * @param iterations sweeps, at least 1
     * @param loop       parallel loop for the block updates
     */
    public ProjectedJacobi(int iterations, ParallelLoop loop) {
        if (iterations < 1) {
            throw new IllegalArgumentException("projected Jacobi needs at least 1 iteration, got " + iterations);
        }
        this.iterations = iterations;
        this.loop = loop;
    }

    @Override
    public int solve(ConstraintProblem pr) {
        current = pr;
        del.build(pr);
        y = ConstraintProblem.grow(y, pr.totalRows);
        pNew = ConstraintProblem.grow(pNew, pr.totalRows);
        omega = ConstraintProblem.grow(omega, pr.constraints);
        // relaxation by body degree (the baselines ignore subsystem grouping)
        degree = ConstraintProblem.grow(degree, pr.bodies);
        java.util.Arrays.fill(degree, 0, pr.bodies, 0);
        Pairs pairs = del.pairs;
        for (int c = 0; c < pr.constraints; c++) {
            for (int k = 0; k < pairs.count[c]; k++) {
                degree[pairs.body[2 * c + k]]++;
            }
        }
        if (pr.articulations > 0) {
            // an impulse on one link moves the whole robot: its links share one degree, the blocks on all of them
            for (int s = 0; s < pr.subsystems; s++) {
                if (pr.articulationOf[s] < 0) {
                    continue;
                }
                int total = 0;
                for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
                    total += degree[pr.subsystemBodies[q]];
                }
                for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
                    degree[pr.subsystemBodies[q]] = total;
                }
            }
        }
        for (int c = 0; c < pr.constraints; c++) {
            int d = 1;
            for (int k = 0; k < pairs.count[c]; k++) {
                d = Math.max(d, degree[pairs.body[2 * c + k]]);
            }
            omega[c] = 1.0 / d;
        }
        del.freeVelocity(pr);
        for (int c = 0; c < pr.constraints; c++) {
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                del.applyImpulse(pr, c, r, pr.p[r], pr.v);
            }
        }
        for (int it = 0; it < iterations; it++) {
            loop.run(pr.constraints, updateBody);
            for (int c = 0; c < pr.constraints; c++) {
                for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                    double dp = omega[c] * (pNew[r] - pr.p[r]);
                    pr.p[r] += dp;
                    del.applyImpulse(pr, c, r, dp, pr.v);
                }
            }
        }
        current = null;
        return iterations;
    }

    private void update(int lo, int hi, int chunk) {
        ConstraintProblem pr = current;
        for (int c = lo; c < hi; c++) {
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                y[r] = del.rowVelocity(pr, c, r, pr.v);
            }
            del.blockUpdate(pr, c, y, pNew);
        }
    }
}
