package io.tandem.physics.internal.solver;

/*
 * Implementation notes.
 *
 * The linear algebra of articulated subsystems (ConstraintProblem's articulations;
 * shared/specs/physics-wave2.md 1.5), shared by SubADMM's v-step (RigidSubsystems delegates) and
 * the projected baselines (Delassus):
 *
 *   - A_r is factored once per step (Cholesky; A_r = M(q) + M_a + h/2 (Kd + D) + h^2/4 Kp is SPD);
 *   - a link's 6 x 6 inverse mass as a row sees it, Lambda_l A_r^-1 Lambda_l^T, so that every
 *     per-body formula of the rigid code (the effective mass tr(J A^-1 J^T) of a pair) holds for a
 *     link unchanged; and the coupling blocks Lambda_l A_r^-1 Lambda_k^T between two links, which a
 *     rigid subsystem does not have (an impulse on the hand moves the elbow);
 *   - SubADMM's H_r = A_r + sum_l Lambda_l^T P_l Lambda_l, with P_l = sum beta J^T J over link l's
 *     split pairs (the 6 x 6 block the rigid code assembles for a body, with A_b = 0 for links),
 *     factored per step and after a penalty change; its solve maps the links' summed pair forces
 *     f_l to the joints, b_r + sum_l Lambda_l^T f_l, and writes v_l = Lambda_l qd;
 *   - equality rows inside one robot (HARD or SOFT rows whose sides are all its links or the
 *     world: a no-slip row, a weld of a link to the world) are solved exactly in that v-step, as
 *     RigidSubsystems does for rigid groups, by the dense Schur complement in joint space:
 *     G = J Lambda (m x n), T = H_r^-1 G^T, S = G T + Gamma, then per solve v0 = H_r^-1 r,
 *     mu = -S^-1 (G v0 + e), qd = v0 + T mu (shared/specs/physics-wave2.md 1.5).
 *
 * Storage is per articulation (at the problem's offsets), so different articulations can be
 * factored and solved concurrently. Allocates only while the problem grows.
 */

/** Factorizations and solves of a problem's articulated subsystems. Not thread-safe across one articulation. */
final class ArticulatedSolve {
    private ConstraintProblem pr;
    /** Cholesky factor of A_r and of H_r per articulation (at articulationMatrixStart) */
    double[] aFactor = new double[0];
    private double[] hFactor = new double[0];
    /** per articulation: n x 6 scratch at [6 articulationStart] (A^-1 Lambda^T), and an n-vector at articulationStart */
    private double[] cols = new double[0];
    private double[] rhs = new double[0];
    private double[] small = new double[0];
    private final boolean[] rowZero = new boolean[6];
    // ---------------------------------------------------------------- internal equality rows
    private Pairs pairs;
    /** exact blocks of each articulation (CSR, constraint order) and their rows */
    private int[] exactStart = new int[0];
    private int[] exactBlocks = new int[0];
    private int[] rowCount = new int[0];
    /** per articulation: start of its G and T (rows x n) and of its S (rows x rows) */
    private int[] gStart = new int[0];
    private int[] sStart = new int[0];
    private double[] g = new double[0];
    private double[] tMat = new double[0];
    private double[] sMat = new double[0];
    private double[] muScratch = new double[0];
    private int muStride;
    private int[] cursor = new int[0];

    /** Sizes the storage for the problem's articulations. */
    void prepare(ConstraintProblem problem) {
        pr = problem;
        int na = pr.articulations;
        if (na == 0) {
            return;
        }
        int m = pr.articulationMatrixStart[na - 1] + pr.articulationDim[na - 1] * pr.articulationDim[na - 1];
        int v = pr.articulationStart[na - 1] + pr.articulationDim[na - 1];
        aFactor = ConstraintProblem.grow(aFactor, m);
        hFactor = ConstraintProblem.grow(hFactor, m);
        cols = ConstraintProblem.grow(cols, 6 * v);
        rhs = ConstraintProblem.grow(rhs, v);
        small = ConstraintProblem.grow(small, 36 * na);
    }

    /**
     * Collects each articulation's internal equality blocks (those SubADMM marked exact whose
     * sides are its links) and sizes their storage.
     *
     * @return the rows they hold
     */
    int prepareExact(Pairs p, boolean[] exact) {
        pairs = p;
        int na = pr.articulations;
        if (na == 0) {
            return 0;
        }
        exactStart = ConstraintProblem.grow(exactStart, na + 1);
        rowCount = ConstraintProblem.grow(rowCount, na);
        java.util.Arrays.fill(exactStart, 0, na + 1, 0);
        java.util.Arrays.fill(rowCount, 0, na, 0);
        int blocks = 0;
        for (int c = 0; c < pr.constraints; c++) {
            int a = exact[c] ? pr.articulationOf[p.sub[2 * c]] : -1;
            if (a >= 0) {
                exactStart[a + 1]++;
                rowCount[a] += pr.rows[c];
                blocks++;
            }
        }
        for (int a = 0; a < na; a++) {
            exactStart[a + 1] += exactStart[a];
        }
        exactBlocks = ConstraintProblem.grow(exactBlocks, blocks);
        if (blocks > 0) {
            // fill in constraint order
            cursor = ConstraintProblem.grow(cursor, na);
            System.arraycopy(exactStart, 0, cursor, 0, na);
            for (int c = 0; c < pr.constraints; c++) {
                int a = exact[c] ? pr.articulationOf[p.sub[2 * c]] : -1;
                if (a >= 0) {
                    exactBlocks[cursor[a]++] = c;
                }
            }
        }
        gStart = ConstraintProblem.grow(gStart, na);
        sStart = ConstraintProblem.grow(sStart, na);
        int gTotal = 0;
        int sTotal = 0;
        int rows = 0;
        for (int a = 0; a < na; a++) {
            gStart[a] = gTotal;
            sStart[a] = sTotal;
            gTotal += rowCount[a] * pr.articulationDim[a];
            sTotal += rowCount[a] * rowCount[a];
            rows = Math.max(rows, rowCount[a]);
        }
        g = ConstraintProblem.grow(g, gTotal);
        tMat = ConstraintProblem.grow(tMat, gTotal);
        sMat = ConstraintProblem.grow(sMat, sTotal);
        muStride = rows;
        muScratch = ConstraintProblem.grow(muScratch, rows * na);
        int total = 0;
        for (int a = 0; a < na; a++) {
            total += rowCount[a];
        }
        return total;
    }

    /** G, T = H^-1 G^T and the factor of S = G T + Gamma of articulation a's internal rows (H factored). */
    private void factorExact(int s, int a) {
        int m = rowCount[a];
        if (m == 0) {
            return;
        }
        int n = pr.articulationDim[a];
        int g0 = gStart[a];
        int m0 = pr.articulationMatrixStart[a];
        int i = 0;
        for (int e = exactStart[a]; e < exactStart[a + 1]; e++) {
            int c = exactBlocks[e];
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++, i++) {
                int gi = g0 + n * i;
                java.util.Arrays.fill(g, gi, gi + n, 0);
                for (int k = 0; k < pairs.count[c]; k++) {
                    double[] jac = pairs.sides[2 * c + k] == 1 ? pr.jA : pr.jB;
                    pr.addLinkForce(pairs.body[2 * c + k], jac, 6 * r, g, gi);
                }
                System.arraycopy(g, gi, tMat, gi, n);
                DenseOps.choleskySolve(hFactor, m0, n, tMat, gi);
            }
        }
        int s0 = sStart[a];
        i = 0;
        for (int e = exactStart[a]; e < exactStart[a + 1]; e++) {
            int c = exactBlocks[e];
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++, i++) {
                for (int j = 0; j < m; j++) {
                    double sum = 0;
                    for (int d = 0; d < n; d++) {
                        sum += g[g0 + n * i + d] * tMat[g0 + n * j + d];
                    }
                    sMat[s0 + m * i + j] = sum;
                }
                sMat[s0 + m * i + i] += pr.gamma[r] + RigidSubsystems.REGULARIZATION * sMat[s0 + m * i + i];
            }
        }
        if (!DenseOps.cholesky(sMat, s0, m)) {
            throw new IllegalStateException("articulation " + a + " (subsystem " + s + "): its internal equality rows are"
                    + " degenerate (dependent rows?)");
        }
    }

    /** qd += T mu with mu = -S^-1 (G qd + e): the internal rows exact; their impulses into p. */
    private void enforceExact(int a, double[] qd, int v0) {
        int m = rowCount[a];
        if (m == 0) {
            return;
        }
        int n = pr.articulationDim[a];
        int g0 = gStart[a];
        int mu0 = a * muStride;
        int i = 0;
        for (int e = exactStart[a]; e < exactStart[a + 1]; e++) {
            int c = exactBlocks[e];
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++, i++) {
                double y = pr.e[r];
                for (int d = 0; d < n; d++) {
                    y += g[g0 + n * i + d] * qd[v0 + d];
                }
                muScratch[mu0 + i] = -y;
            }
        }
        DenseOps.choleskySolve(sMat, sStart[a], m, muScratch, mu0);
        i = 0;
        for (int e = exactStart[a]; e < exactStart[a + 1]; e++) {
            int c = exactBlocks[e];
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++, i++) {
                double mu = muScratch[mu0 + i];
                pr.p[r] = mu;
                for (int d = 0; d < n; d++) {
                    qd[v0 + d] += tMat[g0 + n * i + d] * mu;
                }
            }
        }
    }

    /**
     * Factors A_r of subsystem s's articulation and writes the inverse mass
     * Lambda_l A_r^-1 Lambda_l^T of each link with {@code wanted[body]} (the links some row acts on:
     * six solves each, skipped for the others) into {@code bodyInverse} at [36 body].
     *
     * @throws IllegalStateException if A_r is not positive definite
     */
    void factorMass(int s, double[] bodyInverse, boolean[] wanted) {
        int a = pr.articulationOf[s];
        int n = pr.articulationDim[a];
        int m0 = pr.articulationMatrixStart[a];
        System.arraycopy(pr.articulationA, m0, aFactor, m0, n * n);
        if (!DenseOps.cholesky(aFactor, m0, n)) {
            throw new IllegalStateException("articulation " + a + " (subsystem " + s + "): its joint-space mass matrix"
                    + " is not positive definite (a massless link at the end of a chain, or zero mass?)");
        }
        for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
            int b = pr.subsystemBodies[q];
            if (wanted[b]) {
                coupling(a, b, b, bodyInverse, 36 * b);
            }
        }
    }

    /**
     * out[o..o+36) = Lambda_b A_r^-1 Lambda_c^T for links b and c of articulation a (A_r factored
     * by {@link #factorMass}); row d, column e: the velocity d of b for a unit impulse e on c.
     */
    void coupling(int a, int b, int c, double[] out, int o) {
        int n = pr.articulationDim[a];
        int m0 = pr.articulationMatrixStart[a];
        int x0 = 6 * pr.articulationStart[a];
        int lc = pr.lambdaStart[a] + 6 * n * pr.linkOf[c];
        int lb = pr.lambdaStart[a] + 6 * n * pr.linkOf[b];
        // columns A^-1 Lambda_c^T (n x 6, column e at [x0 + n e]); a zero row of Lambda_c (a
        // deformable body's node has no angular rows) gives a zero column, and no solve
        int nc = pr.lambdaColumns(c);
        int nb = pr.lambdaColumns(b);
        for (int e = 0; e < 6; e++) {
            boolean zero = true;
            for (int t = 0; t < nc && zero; t++) {
                zero = pr.lambda[lc + n * e + pr.lambdaColumn(c, t)] == 0;
            }
            rowZero[e] = zero;
            if (!zero) {
                System.arraycopy(pr.lambda, lc + n * e, cols, x0 + n * e, n);
                DenseOps.choleskySolve(aFactor, m0, n, cols, x0 + n * e);
            }
        }
        for (int d = 0; d < 6; d++) {
            for (int e = 0; e < 6; e++) {
                double s = 0;
                if (!rowZero[e]) {
                    for (int t = 0; t < nb; t++) {
                        int j = pr.lambdaColumn(b, t);
                        s += pr.lambda[lb + n * d + j] * cols[x0 + n * e + j];
                    }
                }
                out[o + 6 * d + e] = s;
            }
        }
    }

    /**
     * H_r = A_r + sum_l Lambda_l^T P_l Lambda_l from the links' penalty blocks P_l (upper triangle
     * at [36 body] of {@code penalty}), factored.
     *
     * @throws IllegalStateException if H_r is not positive definite
     */
    void factorPenalized(int s, double[] penalty) {
        int a = pr.articulationOf[s];
        int n = pr.articulationDim[a];
        int m0 = pr.articulationMatrixStart[a];
        System.arraycopy(pr.articulationA, m0, hFactor, m0, n * n);
        double[] p = small;
        int p0 = 36 * a;
        for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
            int b = pr.subsystemBodies[q];
            int b36 = 36 * b;
            // the full symmetric P_l from its upper triangle
            boolean any = false;
            for (int d = 0; d < 6; d++) {
                for (int e = d; e < 6; e++) {
                    double v = penalty[b36 + 6 * d + e];
                    p[p0 + 6 * d + e] = v;
                    p[p0 + 6 * e + d] = v;
                    any |= v != 0;
                }
            }
            if (!any) {
                continue;
            }
            int l0 = pr.lambdaStart[a] + 6 * n * pr.linkOf[b];
            double[] lam = pr.lambda;
            // over the link's non-zero columns only (Lambda^T P Lambda is zero elsewhere)
            int nz = pr.lambdaColumns(b);
            for (int ti = 0; ti < nz; ti++) {
                int i = pr.lambdaColumn(b, ti);
                for (int tj = ti; tj < nz; tj++) {
                    int j = pr.lambdaColumn(b, tj);
                    double sum = 0;
                    for (int d = 0; d < 6; d++) {
                        double li = lam[l0 + n * d + i];
                        if (li == 0) {
                            continue;
                        }
                        double t = 0;
                        for (int e = 0; e < 6; e++) {
                            t += p[p0 + 6 * d + e] * lam[l0 + n * e + j];
                        }
                        sum += li * t;
                    }
                    hFactor[m0 + n * i + j] += sum;
                    if (j != i) {
                        hFactor[m0 + n * j + i] += sum;
                    }
                }
            }
        }
        if (!DenseOps.cholesky(hFactor, m0, n)) {
            throw new IllegalStateException("articulation " + a + " (subsystem " + s + "): A + beta J^T J is not positive definite");
        }
        factorExact(s, a);
    }

    /**
     * The v-step of subsystem s: qd = H_r^-1 (b_r + sum_l Lambda_l^T f_l), with f_l the 6-vector
     * at [fo(l)] of {@code bodyForce} (at the links' coordinates, stacked like v), into
     * {@link ConstraintProblem#articulationV} and the links' v.
     *
     * @param penalized true: H_r (SubADMM); false: A_r (the free velocity, the prediction)
     */
    void solve(int s, double[] bodyForce, boolean penalized, double[] out) {
        int a = pr.articulationOf[s];
        int n = pr.articulationDim[a];
        int v0 = pr.articulationStart[a];
        System.arraycopy(pr.articulationB, v0, rhs, v0, n);
        for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
            int b = pr.subsystemBodies[q];
            pr.addLinkForce(b, bodyForce, pr.coord(b), rhs, v0);
        }
        DenseOps.choleskySolve(penalized ? hFactor : aFactor, pr.articulationMatrixStart[a], n, rhs, v0);
        if (penalized) {
            enforceExact(a, rhs, v0);
        }
        System.arraycopy(rhs, v0, pr.articulationV, v0, n);
        pr.writeLinkVelocities(s, pr.articulationV, out);
    }
}
