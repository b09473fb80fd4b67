package io.tandem.physics.internal.solver;

import java.util.Arrays;

/*
 * Implementation notes.
 *
 * The whole problem as one system in generalized coordinates, for the two baselines that work on
 * it as a whole (FullAdmm, NonsmoothNewton): a node is a rigid body (6 coordinates, its 6 x 6
 * mass block) or an articulation (its n joint velocities qd, its dense A_r). A constraint row's
 * Jacobian on a node is the row itself on a rigid body and g = Lambda_l^T j on link l of an
 * articulation (n numbers), so J v = sum over the row's segments g . x_node. Both sides of a row
 * on one node (two links of one robot, a limit between a link and its parent) are merged into
 * one segment, g_A + g_B, which is how the coupling Lambda_A A_r^-1 Lambda_B^T enters W_ii and
 * J^T J. Nodes are numbered in body order (an articulation where its first link comes), so the
 * layout follows the bodies' global ids like every other order of the engine.
 *
 * Allocates only while the problem grows. Not thread-safe.
 */

/** A {@link ConstraintProblem} in generalized coordinates: nodes, A^-1, the rows' segments, W's diagonal. */
final class FullSystem {
    /** nodes (rigid bodies and articulations) */
    int nodes;
    /** coordinates of all nodes */
    int n;
    /** first coordinate of each node (nodes + 1) */
    int[] nodeStart = new int[1];
    /** rigid body of each node, or -1 for an articulation */
    int[] nodeBody = new int[0];
    /** articulation of each node, or -1 for a rigid body */
    int[] nodeArticulation = new int[0];
    /** node of each body */
    int[] nodeOfBody = new int[0];
    /** per row: the node of its segments 0 and 1 at [2 row + k], -1 if absent (segment 0 absent: the row touches no body) */
    int[] segNode = new int[0];
    /** per row: the offset of segment k's coefficients in {@link #coef} at [2 row + k] */
    int[] segOff = new int[0];
    double[] coef = new double[0];
    /** per row and side (0 = A, 1 = B) at [2 row + k]: j A^-1 j^T of that side alone (0 if absent) */
    double[] sideQuad = new double[0];
    /** per row: W_ii = J_i A^-1 J_i^T */
    double[] diag = new double[0];
    /** b in generalized coordinates */
    double[] b = new double[0];

    private ConstraintProblem pr;
    /** A_b^-1 per rigid body at [36 body] */
    private double[] aInv = new double[0];
    /** Cholesky factor of A_r per articulation, at the problem's articulationMatrixStart */
    private double[] artFactor = new double[0];
    private final double[] scratch = new double[42];
    private double[] tmp = new double[0];
    /** node of each articulation while laying out */
    private int[] artNode = new int[0];

    /** Lays out the nodes and rows of {@code problem} and factors A; allocates only while it grows. */
    void build(ConstraintProblem problem) {
        if (!problem.armedRows) {
            throw new IllegalStateException("the full-system baselines need the contact rows, but the problem holds only"
                    + " their compact form (ConstraintProblem.armedRows is false)");
        }
        pr = problem;
        int nb = pr.bodies;
        nodeOfBody = ConstraintProblem.grow(nodeOfBody, nb);
        nodeBody = ConstraintProblem.grow(nodeBody, nb);
        nodeArticulation = ConstraintProblem.grow(nodeArticulation, nb);
        nodeStart = ConstraintProblem.grow(nodeStart, nb + 1);
        int na = pr.articulations;
        artNode = ConstraintProblem.grow(artNode, na);
        Arrays.fill(artNode, 0, na, -1);
        int count = 0;
        int coords = 0;
        for (int body = 0; body < nb; body++) {
            int a = na > 0 ? pr.articulationOfBody(body) : -1;
            if (a < 0) {
                nodeBody[count] = body;
                nodeArticulation[count] = -1;
                nodeStart[count] = coords;
                nodeOfBody[body] = count++;
                coords += 6;
                continue;
            }
            // an articulation is one node, where its first link comes
            if (artNode[a] < 0) {
                artNode[a] = count;
                nodeBody[count] = -1;
                nodeArticulation[count] = a;
                nodeStart[count] = coords;
                count++;
                coords += pr.articulationDim[a];
            }
            nodeOfBody[body] = artNode[a];
        }
        nodes = count;
        n = coords;
        nodeStart[count] = coords;
        // A^-1 (rigid) and the factor of A_r (articulations), b
        aInv = ConstraintProblem.grow(aInv, 36 * nb);
        b = ConstraintProblem.grow(b, n);
        tmp = ConstraintProblem.grow(tmp, 2 * Math.max(6, maxDim()));
        if (na > 0) {
            int m = pr.articulationMatrixStart[na - 1] + pr.articulationDim[na - 1] * pr.articulationDim[na - 1];
            artFactor = ConstraintProblem.grow(artFactor, m);
        }
        for (int q = 0; q < nodes; q++) {
            int o = nodeStart[q];
            int body = nodeBody[q];
            if (body >= 0) {
                if (!DenseOps.invertSpd(pr.mass, 36 * body, 6, aInv, 36 * body, scratch, 0)) {
                    throw new IllegalStateException("body " + body + ": its mass matrix is not positive definite"
                            + " (zero or negative mass or inertia?)");
                }
                System.arraycopy(pr.b, pr.coord(body), b, o, 6);
            } else {
                int a = nodeArticulation[q];
                int d = pr.articulationDim[a];
                int m0 = pr.articulationMatrixStart[a];
                System.arraycopy(pr.articulationA, m0, artFactor, m0, d * d);
                if (!DenseOps.cholesky(artFactor, m0, d)) {
                    throw new IllegalStateException("articulation " + a + ": its joint-space mass matrix is not positive"
                            + " definite (a massless link at the end of a chain, or zero mass?)");
                }
                System.arraycopy(pr.articulationB, pr.articulationStart[a], b, o, d);
            }
        }
        buildRows();
    }

    private int maxDim() {
        int d = 6;
        for (int a = 0; a < pr.articulations; a++) {
            d = Math.max(d, pr.articulationDim[a]);
        }
        return d;
    }

    /** @return coordinates of node q */
    int dim(int q) {
        return nodeStart[q + 1] - nodeStart[q];
    }

    /** The rows' segments in generalized coordinates, each side's j A^-1 j^T, and W's diagonal. */
    private void buildRows() {
        int rows = pr.totalRows;
        segNode = ConstraintProblem.grow(segNode, 2 * rows);
        segOff = ConstraintProblem.grow(segOff, 2 * rows);
        sideQuad = ConstraintProblem.grow(sideQuad, 2 * rows);
        diag = ConstraintProblem.grow(diag, rows);
        int total = 0;
        for (int c = 0; c < pr.constraints; c++) {
            int na = pr.bodyA[c] >= 0 ? nodeOfBody[pr.bodyA[c]] : -1;
            int nbB = pr.bodyB[c] >= 0 ? nodeOfBody[pr.bodyB[c]] : -1;
            int per = (na >= 0 ? dim(na) : 0) + (nbB >= 0 && nbB != na ? dim(nbB) : 0);
            total += per * pr.rows[c];
        }
        coef = ConstraintProblem.grow(coef, total);
        int off = 0;
        for (int c = 0; c < pr.constraints; c++) {
            int bodyA = pr.bodyA[c];
            int bodyB = pr.bodyB[c];
            int nodeA = bodyA >= 0 ? nodeOfBody[bodyA] : -1;
            int nodeB = bodyB >= 0 ? nodeOfBody[bodyB] : -1;
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                segNode[2 * r] = -1;
                segNode[2 * r + 1] = -1;
                sideQuad[2 * r] = 0;
                sideQuad[2 * r + 1] = 0;
                int k = 0;
                if (nodeA >= 0) {
                    segNode[2 * r] = nodeA;
                    segOff[2 * r] = off;
                    int d = dim(nodeA);
                    Arrays.fill(coef, off, off + d, 0);
                    addSide(bodyA, pr.jA, r, off);
                    sideQuad[2 * r] = quad(nodeA, coef, off);
                    off += d;
                    k = 1;
                }
                if (nodeB >= 0) {
                    int d = dim(nodeB);
                    if (nodeB == nodeA) {
                        // both sides on one node: side B's quadratic form alone, then merged
                        int t = tmp.length / 2;
                        Arrays.fill(tmp, t, t + d, 0);
                        addSideInto(bodyB, pr.jB, r, tmp, t);
                        sideQuad[2 * r + 1] = quad(nodeB, tmp, t);
                        for (int i = 0; i < d; i++) {
                            coef[segOff[2 * r] + i] += tmp[t + i];
                        }
                    } else {
                        segNode[2 * r + k] = nodeB;
                        segOff[2 * r + k] = off;
                        Arrays.fill(coef, off, off + d, 0);
                        addSide(bodyB, pr.jB, r, off);
                        sideQuad[2 * r + 1] = quad(nodeB, coef, off);
                        off += d;
                    }
                }
                double w = 0;
                for (int s = 0; s < 2; s++) {
                    int q = segNode[2 * r + s];
                    if (q >= 0) {
                        w += quad(q, coef, segOff[2 * r + s]);
                    }
                }
                diag[r] = w;
            }
        }
    }

    private void addSide(int body, double[] jac, int r, int off) {
        addSideInto(body, jac, r, coef, off);
    }

    /** out[o..] += the side's row in generalized coordinates: the row itself (rigid) or Lambda_l^T j (link). */
    private void addSideInto(int body, double[] jac, int r, double[] out, int o) {
        if (pr.articulations > 0 && pr.articulationOfBody(body) >= 0) {
            pr.addLinkForce(body, jac, 6 * r, out, o);
            return;
        }
        for (int d = 0; d < 6; d++) {
            out[o + d] += jac[6 * r + d];
        }
    }

    /** g^T A_q^-1 g for node q's segment at g[o..]. */
    private double quad(int q, double[] g, int o) {
        int body = nodeBody[q];
        if (body >= 0) {
            return RigidSubsystems.quadratic(aInv, 36 * body, g, o);
        }
        int a = nodeArticulation[q];
        int d = pr.articulationDim[a];
        System.arraycopy(g, o, tmp, 0, d);
        DenseOps.forwardSolve(artFactor, pr.articulationMatrixStart[a], d, tmp, 0);
        double s = 0;
        for (int i = 0; i < d; i++) {
            s += tmp[i] * tmp[i];
        }
        return s;
    }

    /** @return J_r x (without the bias) for x in generalized coordinates */
    double rowTimes(int r, double[] x) {
        double s = 0;
        for (int k = 0; k < 2; k++) {
            int q = segNode[2 * r + k];
            if (q < 0) {
                break;
            }
            int o = segOff[2 * r + k];
            int x0 = nodeStart[q];
            int d = nodeStart[q + 1] - x0;
            for (int i = 0; i < d; i++) {
                s += coef[o + i] * x[x0 + i];
            }
        }
        return s;
    }

    /** out += J_r^T s (generalized coordinates). */
    void addRowTransposed(int r, double s, double[] out) {
        if (s == 0) {
            return;
        }
        for (int k = 0; k < 2; k++) {
            int q = segNode[2 * r + k];
            if (q < 0) {
                break;
            }
            int o = segOff[2 * r + k];
            int x0 = nodeStart[q];
            int d = nodeStart[q + 1] - x0;
            for (int i = 0; i < d; i++) {
                out[x0 + i] += coef[o + i] * s;
            }
        }
    }

    /** out = A^-1 x (generalized coordinates; x and out must differ). */
    void applyAInverse(double[] x, double[] out) {
        for (int q = 0; q < nodes; q++) {
            int o = nodeStart[q];
            int body = nodeBody[q];
            if (body >= 0) {
                DenseOps.multiply(aInv, 36 * body, 6, x, o, out, o);
            } else {
                int a = nodeArticulation[q];
                int d = pr.articulationDim[a];
                System.arraycopy(x, o, out, o, d);
                DenseOps.choleskySolve(artFactor, pr.articulationMatrixStart[a], d, out, o);
            }
        }
    }

    /** out = b + J^T p over every row (generalized coordinates). */
    void forces(double[] p, double[] out) {
        System.arraycopy(b, 0, out, 0, n);
        for (int r = 0; r < pr.totalRows; r++) {
            addRowTransposed(r, p[r], out);
        }
    }

    /**
     * A_q's entry (i, j) of node q: the body's mass block or the articulation's A_r.
     */
    double a(int q, int i, int j) {
        int body = nodeBody[q];
        if (body >= 0) {
            return pr.mass[36 * body + 6 * i + j];
        }
        int a = nodeArticulation[q];
        return pr.articulationA[pr.articulationMatrixStart[a] + pr.articulationDim[a] * i + j];
    }

    /** Writes x (generalized coordinates) into the problem: bodies' v, articulations' qd and their links' v. */
    void write(double[] x) {
        for (int q = 0; q < nodes; q++) {
            int o = nodeStart[q];
            int body = nodeBody[q];
            if (body >= 0) {
                System.arraycopy(x, o, pr.v, pr.coord(body), 6);
            } else {
                int a = nodeArticulation[q];
                System.arraycopy(x, o, pr.articulationV, pr.articulationStart[a], pr.articulationDim[a]);
            }
        }
        for (int s = 0; s < pr.subsystems && pr.articulations > 0; s++) {
            if (pr.articulationOf[s] >= 0) {
                pr.writeLinkVelocities(s, pr.articulationV, pr.v);
            }
        }
    }
}
