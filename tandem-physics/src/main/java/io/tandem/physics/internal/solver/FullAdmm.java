package io.tandem.physics.internal.solver;

import java.util.Arrays;
import org.ejml.data.DMatrixSparseCSC;
import org.ejml.sparse.csc.decomposition.chol.CholeskyUpLooking_DSCC;

/*
 * Implementation notes.
 *
 * The FADMM baseline of the paper's Table I, matched to our splitting as
 * shared/specs/physics-wave2.md 7.1 (b) recommends: SubADMM's iteration (physics.md 1.3 (d), (e);
 * SubAdmm) run with ONE subsystem that holds every body, A_full = blockdiag(A_i) over the rigid
 * bodies' 6 x 6 mass blocks and the articulations' dense joint-space A_r (FullSystem), and every
 * constraint split. That isolates the paper's stated difference: where SubADMM solves many small
 * subsystems in parallel, this solves one sparse system.
 *
 *   v-step  (A_full + sum_c beta_c J_c^T J_c) v = b + sum_c J_c^T (beta_c z_c + p_c)
 *   z-step  x_c = alpha J_c v + (1 - alpha) z_c,  w_c = 1 / beta_c,
 *           yHat = e_c + x_c - w_c p_c,  p_new = law_c(yHat, w_c) (BlockLaw's exact closed forms),
 *           z_c = x_c + (p_new - p_c) / beta_c,  p_c = p_new   (u_c = -p_c)
 *
 * What is SubADMM's, unchanged: the closed-form z-step (BlockLaw.solveIsotropic: the exact Coulomb
 * law against the isotropic metric w_c), the over-relaxation alpha = SubAdmm.RELAX, the warm start
 * (p from the previous step), the consistent seed z_c = J_c v* with v* = A^-1 (b + J^T p), and the
 * penalty rule kappa x effective mass with mass splitting. With one subsystem a constraint has one
 * split variable instead of one per side; its penalty is chosen so that the z-step's metric equals
 * SubADMM's, w_c = sum_k 1 / beta_ck = sum_k tr_k n_k / (kappa m_c), i.e.
 *   beta_c = kappa m_c / sum_k (tr(J_ck A_k^-1 J_ck^T) n_k),
 * with n_k the constraints on side k's body (SubADMM's mass splitting, every constraint being split
 * here). What is not: no constraint is solved exactly inside a subsystem (everything is split), no
 * adaptive penalty and no early stop (the Table I runs are fixed budgets; SolverSettings' tolerance
 * and adaptive flag are ignored), and no parallel loops (the factorization and substitutions are
 * serial; the solver uses one thread whatever the settings say).
 *
 * The v-step matrix H = A_full + sum beta J^T J is constant within a step (fixed penalties), so it
 * is factored once per step, by EJML's up-looking sparse Cholesky (CholeskyUpLooking_DSCC, a port
 * of CSparse's cs_chol), and every iteration does one forward and one backward substitution on L.
 * H is block sparse over nodes (a body or an articulation; a block (P, Q) for every constraint
 * between them): its upper triangle is laid out in CSC after a fill-reducing permutation, the
 * minimum-degree order of the node graph (MinimumDegree; EJML 0.46 has no fill-reducing ordering
 * of its own), each node's coordinates kept together. The symbolic factorization (elimination tree,
 * column counts, L's pattern) and the ordering are kept while the node graph is unchanged (joints,
 * resting contacts), so a step then does only the numeric factorization.
 *
 * Allocation: the numeric factorization with the structure locked and the substitutions allocate
 * nothing once grown. A change of the node graph (a contact appearing between two bodies that had
 * none, or vanishing) redoes the ordering and EJML's symbolic factorization, and
 * CholeskyUpLooking_DSCC.performSymbolic allocates (its ColumnCounts_DSCC scratch, L's arrays when
 * they grow): a scene whose contacts change allocates in those steps.
 *
 * Subset equivalence (see PhysicsEngine) holds: an island's block of H is factored alone (the
 * permuted H is block diagonal over islands), the minimum-degree order keeps an island's nodes in
 * the order they would have alone (ties go to the lower index, and indices keep the global ids'
 * order), and the z-step and the penalties are per block. Tested by SubsetEquivalenceTest and
 * ArticulationTest.
 */

/** The full-system ADMM baseline (one subsystem, sparse Cholesky). Not thread-safe. */
public final class FullAdmm implements ConstraintSolver {
    private final int iterations;
    private final double kappa;
    private final FullSystem sys = new FullSystem();
    private final MinimumDegree ordering = new MinimumDegree();
    private final CholeskyUpLooking_DSCC cholesky = new CholeskyUpLooking_DSCC();
    private final DMatrixSparseCSC h = new DMatrixSparseCSC(1, 1, 1);

    /** penalty per block */
    private double[] beta = new double[0];
    /** constraints per body (mass splitting) */
    private int[] blocksOnBody = new int[0];
    /** split variable per row */
    private double[] z = new double[0];
    /** relaxed J v per row (the z-step's x) */
    private double[] xs = new double[0];
    private double[] yHat = new double[0];
    private double[] pNew = new double[0];
    /** generalized velocities, the v-step's right-hand side, the same permuted */
    private double[] x = new double[0];
    private double[] rhs = new double[0];
    private double[] permuted = new double[0];

    // ---------------------------------------------------------------- the node graph and its order
    /** node graph (CSR), and the one the structure below was made for */
    private int[] graphStart = new int[1];
    private int[] graph = new int[0];
    private int[] rawCount = new int[0];
    private int[] raw = new int[0];
    private int[] prevGraphStart = new int[1];
    private int[] prevGraph = new int[0];
    private int[] prevNodeStart = new int[1];
    private int prevNodes = -1;
    private int[] dims = new int[0];
    private int[] mark = new int[0];
    /** elimination order of the nodes, each node's position in it, its first permuted coordinate */
    private int[] order = new int[0];
    private int[] position = new int[0];
    private int[] permStart = new int[0];
    /** permuted coordinate k holds coordinate perm[k] */
    private int[] perm = new int[0];
    /** per node P: the neighbours before it in the order (sorted by position) and their row offsets in P's columns */
    private int[] lowStart = new int[1];
    private int[] low = new int[0];
    private int[] lowOff = new int[0];
    /** per node: rows of its columns above its diagonal block */
    private int[] lowTotal = new int[0];
    private int symbolic;
    private int lastIterations;

    /**
     * @param iterations iteration budget, at least 1
     * @param kappa      penalty scale (beta_c = kappa x effective mass, as SubADMM's), greater than 0
     */
    public FullAdmm(int iterations, double kappa) {
        if (iterations < 1) {
            throw new IllegalArgumentException("full-system ADMM needs at least 1 iteration, got " + iterations);
        }
        if (!(kappa > 0) || Double.isInfinite(kappa)) {
            throw new IllegalArgumentException("full-system ADMM penalty scale kappa must be > 0, got " + kappa);
        }
        this.iterations = iterations;
        this.kappa = kappa;
    }

    /** @return iterations of the last solve */
    public int lastIterations() {
        return lastIterations;
    }

    /** @return symbolic factorizations (orderings) so far: one per change of the node graph */
    public int symbolicFactorizations() {
        return symbolic;
    }

    @Override
    public int solve(ConstraintProblem pr) {
        sys.build(pr);
        int n = sys.n;
        int m = pr.totalRows;
        if (n == 0) {
            lastIterations = 0;
            return 0;
        }
        x = ConstraintProblem.grow(x, n);
        rhs = ConstraintProblem.grow(rhs, n);
        permuted = ConstraintProblem.grow(permuted, n);
        z = ConstraintProblem.grow(z, m);
        xs = ConstraintProblem.grow(xs, m);
        yHat = ConstraintProblem.grow(yHat, m);
        pNew = ConstraintProblem.grow(pNew, m);
        beta = ConstraintProblem.grow(beta, pr.constraints);
        penalties(pr);
        nodeGraph(pr);
        if (!sameStructure()) {
            layout();
            cholesky.setStructureLocked(false);
        }
        assemble(pr);
        if (!cholesky.decompose(h)) {
            throw new IllegalStateException("A + beta J^T J is not positive definite (a body with zero or negative mass"
                    + " or inertia?)");
        }
        if (!cholesky.isStructureLocked()) {
            symbolic++;
            checkDiagonalFirst();
            cholesky.setStructureLocked(true);
        }
        // the consistent seed: z = J v*, v* = A^-1 (b + J^T p)
        sys.forces(pr.p, rhs);
        sys.applyAInverse(rhs, x);
        for (int r = 0; r < m; r++) {
            z[r] = sys.rowTimes(r, x);
        }
        int budget = pr.constraints == 0 ? 1 : iterations;
        for (int it = 0; it < budget; it++) {
            vStep(pr);
            zStep(pr);
        }
        sys.write(x);
        lastIterations = budget;
        return budget;
    }

    /** beta_c = kappa m_c / sum_k tr_k n_k (see the notes). */
    private void penalties(ConstraintProblem pr) {
        blocksOnBody = ConstraintProblem.grow(blocksOnBody, pr.bodies);
        Arrays.fill(blocksOnBody, 0, pr.bodies, 0);
        for (int c = 0; c < pr.constraints; c++) {
            if (pr.bodyA[c] >= 0) {
                blocksOnBody[pr.bodyA[c]]++;
            }
            if (pr.bodyB[c] >= 0) {
                blocksOnBody[pr.bodyB[c]]++;
            }
        }
        for (int c = 0; c < pr.constraints; c++) {
            double trA = 0;
            double trB = 0;
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                trA += sys.sideQuad[2 * r];
                trB += sys.sideQuad[2 * r + 1];
            }
            double d = (pr.bodyA[c] >= 0 ? trA * blocksOnBody[pr.bodyA[c]] : 0)
                    + (pr.bodyB[c] >= 0 ? trB * blocksOnBody[pr.bodyB[c]] : 0);
            beta[c] = d > 0 ? kappa * pr.rows[c] / d : 1.0;
        }
    }

    /** The node graph: an edge between the two nodes of every block on two different nodes (CSR, sorted, no duplicates). */
    private void nodeGraph(ConstraintProblem pr) {
        int nodes = sys.nodes;
        rawCount = ConstraintProblem.grow(rawCount, nodes + 1);
        Arrays.fill(rawCount, 0, nodes + 1, 0);
        for (int c = 0; c < pr.constraints; c++) {
            int r0 = pr.rowStart[c];
            int a = sys.segNode[2 * r0];
            int b = sys.segNode[2 * r0 + 1];
            if (a >= 0 && b >= 0) {
                rawCount[a + 1]++;
                rawCount[b + 1]++;
            }
        }
        for (int q = 0; q < nodes; q++) {
            rawCount[q + 1] += rawCount[q];
        }
        raw = ConstraintProblem.grow(raw, rawCount[nodes]);
        graphStart = ConstraintProblem.grow(graphStart, nodes + 1);
        graph = ConstraintProblem.grow(graph, rawCount[nodes]);
        // fill with a cursor per node (graphStart as scratch)
        System.arraycopy(rawCount, 0, graphStart, 0, nodes);
        for (int c = 0; c < pr.constraints; c++) {
            int r0 = pr.rowStart[c];
            int a = sys.segNode[2 * r0];
            int b = sys.segNode[2 * r0 + 1];
            if (a >= 0 && b >= 0) {
                raw[graphStart[a]++] = b;
                raw[graphStart[b]++] = a;
            }
        }
        // sort each list and drop duplicates
        int out = 0;
        for (int q = 0; q < nodes; q++) {
            int s = rawCount[q];
            int e = rawCount[q + 1];
            Arrays.sort(raw, s, e);
            graphStart[q] = out;
            for (int i = s; i < e; i++) {
                if (i == s || raw[i] != raw[i - 1]) {
                    graph[out++] = raw[i];
                }
            }
        }
        graphStart[nodes] = out;
    }

    /** Whether the node graph and the nodes' sizes are those the current structure was made for; records them. */
    private boolean sameStructure() {
        int nodes = sys.nodes;
        int edges = graphStart[nodes];
        boolean same = prevNodes == nodes && prevGraphStart[nodes] == edges;
        for (int q = 0; same && q <= nodes; q++) {
            same = prevGraphStart[q] == graphStart[q] && prevNodeStart[q] == sys.nodeStart[q];
        }
        for (int e = 0; same && e < edges; e++) {
            same = prevGraph[e] == graph[e];
        }
        if (!same) {
            prevNodes = nodes;
            prevGraphStart = ConstraintProblem.grow(prevGraphStart, nodes + 1);
            prevNodeStart = ConstraintProblem.grow(prevNodeStart, nodes + 1);
            prevGraph = ConstraintProblem.grow(prevGraph, edges);
            System.arraycopy(graphStart, 0, prevGraphStart, 0, nodes + 1);
            System.arraycopy(sys.nodeStart, 0, prevNodeStart, 0, nodes + 1);
            System.arraycopy(graph, 0, prevGraph, 0, edges);
        }
        return same;
    }

    /** The minimum-degree order and the CSC pattern of H's permuted upper triangle. */
    private void layout() {
        int nodes = sys.nodes;
        int n = sys.n;
        dims = ConstraintProblem.grow(dims, nodes);
        for (int q = 0; q < nodes; q++) {
            dims[q] = sys.dim(q);
        }
        order = ConstraintProblem.grow(order, nodes);
        position = ConstraintProblem.grow(position, nodes);
        permStart = ConstraintProblem.grow(permStart, nodes);
        perm = ConstraintProblem.grow(perm, n);
        ordering.order(nodes, graphStart, graph, dims, order);
        int k = 0;
        for (int i = 0; i < nodes; i++) {
            int q = order[i];
            position[q] = i;
            permStart[q] = k;
            for (int d = 0; d < dims[q]; d++) {
                perm[k + d] = sys.nodeStart[q] + d;
            }
            k += dims[q];
        }
        // the neighbours before each node, by position
        lowStart = ConstraintProblem.grow(lowStart, nodes + 1);
        low = ConstraintProblem.grow(low, graphStart[nodes]);
        lowOff = ConstraintProblem.grow(lowOff, graphStart[nodes]);
        lowTotal = ConstraintProblem.grow(lowTotal, nodes);
        mark = ConstraintProblem.grow(mark, nodes);
        int count = 0;
        long nz = 0;
        for (int q = 0; q < nodes; q++) {
            lowStart[q] = count;
            for (int e = graphStart[q]; e < graphStart[q + 1]; e++) {
                int other = graph[e];
                if (position[other] < position[q]) {
                    low[count++] = other;
                }
            }
            // insertion sort by position (short lists)
            for (int i = lowStart[q] + 1; i < count; i++) {
                int v = low[i];
                int j = i - 1;
                while (j >= lowStart[q] && position[low[j]] > position[v]) {
                    low[j + 1] = low[j];
                    j--;
                }
                low[j + 1] = v;
            }
            int off = 0;
            for (int i = lowStart[q]; i < count; i++) {
                lowOff[i] = off;
                off += dims[low[i]];
            }
            lowTotal[q] = off;
            nz += (long) dims[q] * off + (long) dims[q] * (dims[q] + 1) / 2;
        }
        lowStart[nodes] = count;
        if (nz > Integer.MAX_VALUE) {
            throw new IllegalStateException("full-system ADMM: the v-step matrix has too many entries (" + nz + ")");
        }
        h.reshape(n, n, (int) nz);
        int p = 0;
        for (int i = 0; i < nodes; i++) {
            int q = order[i];
            int c0 = permStart[q];
            for (int jj = 0; jj < dims[q]; jj++) {
                h.col_idx[c0 + jj] = p;
                for (int e = lowStart[q]; e < lowStart[q + 1]; e++) {
                    int o = low[e];
                    for (int d = 0; d < dims[o]; d++) {
                        h.nz_rows[p++] = permStart[o] + d;
                    }
                }
                for (int d = 0; d <= jj; d++) {
                    h.nz_rows[p++] = c0 + d;
                }
            }
        }
        h.col_idx[n] = p;
        h.nz_length = p;
        h.indicesSorted = true;
    }

    /** H = A_full + sum_c beta_c J_c^T J_c into the CSC values (upper triangle, permuted). */
    private void assemble(ConstraintProblem pr) {
        double[] val = h.nz_values;
        Arrays.fill(val, 0, h.nz_length, 0);
        for (int q = 0; q < sys.nodes; q++) {
            int d = sys.dim(q);
            for (int j = 0; j < d; j++) {
                int col = h.col_idx[permStart[q] + j] + lowTotal[q];
                for (int i = 0; i <= j; i++) {
                    val[col + i] += sys.a(q, i, j);
                }
            }
        }
        for (int c = 0; c < pr.constraints; c++) {
            double bc = beta[c];
            int r0 = pr.rowStart[c];
            int qa = sys.segNode[2 * r0];
            int qb = sys.segNode[2 * r0 + 1];
            if (qa < 0) {
                continue;
            }
            // (the block's position in the column of the later node)
            int lowEntry = -1;
            if (qb >= 0) {
                int later = position[qa] > position[qb] ? qa : qb;
                int earlier = later == qa ? qb : qa;
                for (int e = lowStart[later]; e < lowStart[later + 1]; e++) {
                    if (low[e] == earlier) {
                        lowEntry = e;
                        break;
                    }
                }
            }
            for (int r = r0; r < r0 + pr.rows[c]; r++) {
                addDiagonal(qa, sys.segOff[2 * r], bc, val);
                if (qb >= 0) {
                    addDiagonal(qb, sys.segOff[2 * r + 1], bc, val);
                    boolean aFirst = position[qa] < position[qb];
                    int earlier = aFirst ? qa : qb;
                    int later = aFirst ? qb : qa;
                    int ge = sys.segOff[2 * r + (aFirst ? 0 : 1)];
                    int gl = sys.segOff[2 * r + (aFirst ? 1 : 0)];
                    int de = sys.dim(earlier);
                    int dl = sys.dim(later);
                    for (int j = 0; j < dl; j++) {
                        double gj = bc * sys.coef[gl + j];
                        if (gj == 0) {
                            continue;
                        }
                        int col = h.col_idx[permStart[later] + j] + lowOff[lowEntry];
                        for (int i = 0; i < de; i++) {
                            val[col + i] += sys.coef[ge + i] * gj;
                        }
                    }
                }
            }
        }
    }

    /** The diagonal block of node q += beta g g^T (upper triangle), g at coef[off..]. */
    private void addDiagonal(int q, int off, double bc, double[] val) {
        int d = sys.dim(q);
        double[] g = sys.coef;
        for (int j = 0; j < d; j++) {
            double gj = bc * g[off + j];
            if (gj == 0) {
                continue;
            }
            int col = h.col_idx[permStart[q] + j] + lowTotal[q];
            for (int i = 0; i <= j; i++) {
                val[col + i] += g[off + i] * gj;
            }
        }
    }

    /** The substitutions below read L's diagonal as each column's first entry (as cs_chol writes it). */
    private void checkDiagonalFirst() {
        DMatrixSparseCSC l = cholesky.getL();
        for (int j = 0; j < sys.n; j++) {
            if (l.col_idx[j] >= l.col_idx[j + 1] || l.nz_rows[l.col_idx[j]] != j) {
                throw new IllegalStateException("EJML's Cholesky factor does not hold the diagonal first in column " + j);
            }
        }
    }

    /** (15) for the one subsystem: x = H^-1 (b + sum J^T (beta z + p)), by L's substitutions. */
    private void vStep(ConstraintProblem pr) {
        int n = sys.n;
        System.arraycopy(sys.b, 0, rhs, 0, n);
        for (int c = 0; c < pr.constraints; c++) {
            double bc = beta[c];
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                sys.addRowTransposed(r, bc * z[r] + pr.p[r], rhs);
            }
        }
        for (int k = 0; k < n; k++) {
            permuted[k] = rhs[perm[k]];
        }
        DMatrixSparseCSC l = cholesky.getL();
        int[] col = l.col_idx;
        int[] row = l.nz_rows;
        double[] val = l.nz_values;
        // L y = rhs
        for (int j = 0; j < n; j++) {
            int p0 = col[j];
            double yj = permuted[j] / val[p0];
            permuted[j] = yj;
            if (yj != 0) {
                for (int p = p0 + 1; p < col[j + 1]; p++) {
                    permuted[row[p]] -= val[p] * yj;
                }
            }
        }
        // L^T x = y
        for (int j = n - 1; j >= 0; j--) {
            int p0 = col[j];
            double s = permuted[j];
            for (int p = p0 + 1; p < col[j + 1]; p++) {
                s -= val[p] * permuted[row[p]];
            }
            permuted[j] = s / val[p0];
        }
        for (int k = 0; k < n; k++) {
            x[perm[k]] = permuted[k];
        }
    }

    /** (13), (14) for every block (see the notes). */
    private void zStep(ConstraintProblem pr) {
        double relax = SubAdmm.RELAX;
        for (int c = 0; c < pr.constraints; c++) {
            int r0 = pr.rowStart[c];
            if (sys.segNode[2 * r0] < 0) {
                continue;
            }
            double w = 1 / beta[c];
            int r1 = r0 + pr.rows[c];
            for (int r = r0; r < r1; r++) {
                double xr = relax * sys.rowTimes(r, x) + (1 - relax) * z[r];
                xs[r] = xr;
                yHat[r] = pr.e[r] + xr - w * pr.p[r];
            }
            BlockLaw.solveIsotropic(pr, c, w, yHat, pNew);
            for (int r = r0; r < r1; r++) {
                z[r] = xs[r] + (pNew[r] - pr.p[r]) * w;
                pr.p[r] = pNew[r];
            }
        }
    }
}
