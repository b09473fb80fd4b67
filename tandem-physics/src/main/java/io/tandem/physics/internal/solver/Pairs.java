package io.tandem.physics.internal.solver;

/**
 * The (constraint, side) pairs of a problem: one pair per dynamic side of a block (a block
 * touches one or two bodies), each with the body's subsystem. Both sides of a block inside one
 * subsystem stay two pairs, so a pair's Jacobian always touches exactly one body and every
 * subsystem matrix A_i + sum beta J^T J stays block diagonal over its bodies. Provides J and J^T
 * products restricted to one pair. Recomputed per solve; allocation-free once grown.
 */
final class Pairs {
    /** pairs per block (0..2) */
    int[] count = new int[0];
    /** subsystem of pair k of block c at [2c + k] */
    int[] sub = new int[0];
    /** which side pair k of block c is, at [2c + k]: 1 = side A, 2 = side B */
    int[] sides = new int[0];
    /** body of pair k of block c at [2c + k] */
    int[] body = new int[0];
    /** coordinate of side A's and side B's body at [2c], [2c + 1] (-1 if absent) */
    int[] coord = new int[0];

    /** Sizes the arrays for the problem's blocks; then {@link #build(ConstraintProblem, int, int)} fills them. */
    void size(ConstraintProblem pr) {
        int n = pr.constraints;
        count = ConstraintProblem.grow(count, n);
        sub = ConstraintProblem.grow(sub, 2 * n);
        sides = ConstraintProblem.grow(sides, 2 * n);
        coord = ConstraintProblem.grow(coord, 2 * n);
        body = ConstraintProblem.grow(body, 2 * n);
    }

    void build(ConstraintProblem pr) {
        size(pr);
        build(pr, 0, pr.constraints);
    }

    /** The pairs of blocks [lo, hi) (each block writes only its own entries: parallel chunks may). */
    void build(ConstraintProblem pr, int lo, int hi) {
        for (int c = lo; c < hi; c++) {
            int a = pr.bodyA[c];
            int b = pr.bodyB[c];
            coord[2 * c] = a >= 0 ? pr.coord(a) : -1;
            coord[2 * c + 1] = b >= 0 ? pr.coord(b) : -1;
            int k = 0;
            if (a >= 0) {
                sub[2 * c] = pr.subsystemOf[a];
                sides[2 * c] = 1;
                body[2 * c] = a;
                k = 1;
            }
            if (b >= 0) {
                sub[2 * c + k] = pr.subsystemOf[b];
                sides[2 * c + k] = 2;
                body[2 * c + k] = b;
                k++;
            }
            count[c] = k;
        }
    }

    /**
     * x = J_{c,k} row {@code row} times the stacked vector {@code vec} (stacked like v), where the
     * mask selects the sides (1 = A, 2 = B, 3 = both).
     */
    double rowTimes(ConstraintProblem pr, int c, int sidesMask, int row, double[] vec) {
        double x = 0;
        if ((sidesMask & 1) != 0) {
            x += ConstraintProblem.dot6(pr.jA, 6 * row, vec, coord[2 * c]);
        }
        if ((sidesMask & 2) != 0) {
            x += ConstraintProblem.dot6(pr.jB, 6 * row, vec, coord[2 * c + 1]);
        }
        return x;
    }

    /** out += J_{c,k} row {@code row}^T * s, into the stacked vector {@code out}. */
    void addRowTransposed(ConstraintProblem pr, int c, int sidesMask, int row, double s, double[] out) {
        if ((sidesMask & 1) != 0) {
            int o = coord[2 * c];
            int j = 6 * row;
            for (int d = 0; d < 6; d++) {
                out[o + d] += pr.jA[j + d] * s;
            }
        }
        if ((sidesMask & 2) != 0) {
            int o = coord[2 * c + 1];
            int j = 6 * row;
            for (int d = 0; d < 6; d++) {
                out[o + d] += pr.jB[j + d] * s;
            }
        }
    }
}
