package io.tandem.physics.internal.solver;

import java.util.Arrays;

/**
 * One step's constraint problem in impulse form (shared/specs/physics.md 1.3 (a), (b)):
 *
 * <pre>
 *   A_i v_i = b_i + sum_c J_ci^T p_c          for every subsystem i       (R1)
 *   y_c = sum_i J_ci v_i + e_c,   (p_c, y_c) in K_c   for every constraint c
 * </pre>
 *
 * <p>Bodies carry 6 velocity coordinates (linear then angular, world frame) and a 6 x 6 mass
 * block {@code A_b} (rigid bodies: diag(m I, I_world)). A subsystem is a group of bodies whose
 * coordinates are stacked in body order; its matrix {@code A_i} is block diagonal over its bodies.
 * A constraint block touches one or two bodies (side A and side B; B may be absent), with
 * {@code m_c} rows and one Jacobian row of 6 per side and row.
 *
 * <p>Block kinds and their laws on (p, y):
 * <ul>
 *   <li>{@link #HARD}: y = 0, p free;</li>
 *   <li>{@link #SOFT}: y + gamma p = 0 per row (a compliant constraint: springs, dampers);</li>
 *   <li>{@link #LIMIT}: 1 row, 0 &lt;= p perp y &gt;= 0;</li>
 *   <li>{@link #BOXED}: 1 row, lo &lt;= p &lt;= hi, y = 0 inside (a motor with a force bound);</li>
 *   <li>{@link #CONTACT}: 3 rows (normal, tangent 1, tangent 2), Signorini with the exact
 *       Coulomb cone of coefficient mu.</li>
 * </ul>
 *
 * <p>Capacities grow on demand and never shrink, so a problem reused across steps stops
 * allocating once it has seen its largest step. Not thread-safe.
 */
public final class ConstraintProblem {
    /** y = 0, p free */
    public static final int HARD = 0;
    /** y + gamma p = 0 */
    public static final int SOFT = 1;
    /** 0 <= p perp y >= 0 */
    public static final int LIMIT = 2;
    /** lo <= p <= hi */
    public static final int BOXED = 3;
    /** normal + two tangents, Coulomb cone */
    public static final int CONTACT = 4;

    // ---------------------------------------------------------------- bodies and subsystems
    /** number of dynamic bodies */
    public int bodies;
    /** subsystem of each body (bodies x 1) */
    public int[] subsystemOf = new int[0];
    /** coordinate offset of each body inside its subsystem (bodies x 1), a multiple of 6 */
    public int[] offsetInSubsystem = new int[0];
    /** number of subsystems */
    public int subsystems;
    /** dimension of each subsystem (subsystems x 1) */
    public int[] dim = new int[0];
    /** start of each subsystem's vectors in {@link #b} and {@link #v} */
    public int[] vStart = new int[0];
    /** start of each subsystem's bodies in {@link #subsystemBodies} (subsystems + 1) */
    public int[] subsystemBodyStart = new int[0];
    /** bodies of each subsystem, in body order */
    public int[] subsystemBodies = new int[0];
    /** mass block A_b of each body, row-major 6 x 6 at [36 b] */
    public double[] mass = new double[0];
    /** right-hand sides b_i (stacked) */
    public double[] b = new double[0];
    /** solution v (stacked); also the previous velocity on input, used to seed ADMM splits */
    public double[] v = new double[0];

    // ---------------------------------------------------------------- articulated subsystems
    /*
     * An articulated subsystem (a robot in generalized coordinates, shared/specs/physics-wave2.md
     * 1.5) keeps its links as bodies of the problem, so every row stays a 6-column row on a body,
     * but its coordinates are the n joint velocities qd: a link's velocity is v_l = Lambda_l qd, its
     * matrix is A_r (n x n, dense) and its right-hand side b_r (n). The links' own mass blocks and
     * right-hand sides (mass, b) are zero; solvers that meet such a subsystem solve for qd and write
     * v_l = Lambda_l qd for every link, so readers of v (row velocities) need not know.
     */
    /** number of articulated subsystems */
    public int articulations;
    /** articulation of each subsystem, or -1 (subsystems x 1); set by the caller after {@link #layoutStructure} */
    public int[] articulationOf = new int[0];
    /** generalized coordinates of each articulation */
    public int[] articulationDim = new int[0];
    /** start of each articulation's entries in {@link #articulationB} and {@link #articulationV} */
    public int[] articulationStart = new int[0];
    /** start of each articulation's A_r (n x n row-major) in {@link #articulationA} */
    public int[] articulationMatrixStart = new int[0];
    /** start of each articulation's Jacobians (links x 6 x n) in {@link #lambda} */
    public int[] lambdaStart = new int[0];
    /** A_r per articulation */
    public double[] articulationA = new double[0];
    /** b_r per articulation */
    public double[] articulationB = new double[0];
    /** the solution qd per articulation (written by the solver) */
    public double[] articulationV = new double[0];
    /** link of each body inside its articulation (its Jacobian is the link-th 6 x n block), or -1 */
    public int[] linkOf = new int[0];
    /** Jacobians Lambda_l per articulation, 6 x n row-major per link, linear rows first */
    public double[] lambda = new double[0];

    /**
     * Sizes the articulation arrays: {@code dims[a]} coordinates and {@code links[a]} links per
     * articulation. Call after {@link #layoutStructure}; then set {@link #articulationOf} and
     * {@link #linkOf}. With no articulations, call it with zero length (or never).
     */
    public void layoutArticulations(int[] dims, int[] links, int count) {
        articulations = count;
        articulationDim = grow(articulationDim, count);
        articulationStart = grow(articulationStart, count);
        articulationMatrixStart = grow(articulationMatrixStart, count);
        lambdaStart = grow(lambdaStart, count);
        int v0 = 0;
        int m0 = 0;
        int l0 = 0;
        for (int a = 0; a < count; a++) {
            int n = dims[a];
            articulationDim[a] = n;
            articulationStart[a] = v0;
            articulationMatrixStart[a] = m0;
            lambdaStart[a] = l0;
            v0 += n;
            m0 += n * n;
            l0 += 6 * n * links[a];
        }
        articulationA = grow(articulationA, m0);
        articulationB = grow(articulationB, v0);
        articulationV = grow(articulationV, v0);
        lambda = grow(lambda, l0);
        articulationOf = grow(articulationOf, subsystems);
        Arrays.fill(articulationOf, 0, subsystems, -1);
        linkOf = grow(linkOf, bodies);
        Arrays.fill(linkOf, 0, bodies, -1);
        lambdaNz = grow(lambdaNz, bodies);
        Arrays.fill(lambdaNz, 0, bodies, -1);
        lambdaCols = grow(lambdaCols, l0 / 6);
    }

    /**
     * per link body: how many columns of its Jacobian Lambda_l hold a non-zero ({@link #indexLambda});
     * -1: not indexed, every column is visited
     */
    public int[] lambdaNz = new int[0];
    /** per link: the non-zero columns of Lambda_l, ascending, at [lambdaStart[a] / 6 + n link] */
    public int[] lambdaCols = new int[0];

    /**
     * Records which columns of each link's Jacobian in subsystem s (an articulation) are non-zero,
     * so that products with Lambda_l visit only those (a robot link's ancestors' joints, a
     * deformable body's node's three coordinates). Call after writing the Jacobians. Allocates
     * nothing.
     */
    public void indexLambda(int s) {
        int a = articulationOf[s];
        int n = articulationDim[a];
        for (int q = subsystemBodyStart[s]; q < subsystemBodyStart[s + 1]; q++) {
            int b = subsystemBodies[q];
            int l0 = lambdaStart[a] + 6 * n * linkOf[b];
            int c0 = lambdaStart[a] / 6 + n * linkOf[b];
            int count = 0;
            for (int j = 0; j < n; j++) {
                boolean nz = false;
                for (int d = 0; d < 6 && !nz; d++) {
                    nz = lambda[l0 + n * d + j] != 0;
                }
                if (nz) {
                    lambdaCols[c0 + count++] = j;
                }
            }
            lambdaNz[b] = count;
        }
    }

    /** @return the number of columns of link {@code body}'s Jacobian to visit (see {@link #lambdaColumn}) */
    public int lambdaColumns(int body) {
        int c = lambdaNz[body];
        return c < 0 ? articulationDim[articulationOf[subsystemOf[body]]] : c;
    }

    /** @return the t-th column to visit of link {@code body}'s Jacobian */
    public int lambdaColumn(int body, int t) {
        if (lambdaNz[body] < 0) {
            return t;
        }
        int a = articulationOf[subsystemOf[body]];
        return lambdaCols[lambdaStart[a] / 6 + articulationDim[a] * linkOf[body] + t];
    }

    /** @return the articulation of body i, or -1 for a rigid body */
    public int articulationOfBody(int body) {
        return articulations == 0 ? -1 : articulationOf[subsystemOf[body]];
    }

    /**
     * out[o..o+6) = Lambda_l qd: the velocity of body {@code body} (a link of articulation a) for
     * the joint velocities {@code qd} at qo (stacked like {@link #articulationV}).
     */
    public void linkVelocity(int body, double[] qd, int qo, double[] out, int o) {
        int a = articulationOf[subsystemOf[body]];
        int n = articulationDim[a];
        int l0 = lambdaStart[a] + 6 * n * linkOf[body];
        int cnt = lambdaNz[body];
        if (cnt < 0) {
            for (int d = 0; d < 6; d++) {
                double s = 0;
                int r = l0 + n * d;
                for (int j = 0; j < n; j++) {
                    s += lambda[r + j] * qd[qo + j];
                }
                out[o + d] = s;
            }
            return;
        }
        int c0 = lambdaStart[a] / 6 + n * linkOf[body];
        for (int d = 0; d < 6; d++) {
            double s = 0;
            int r = l0 + n * d;
            for (int t = 0; t < cnt; t++) {
                int j = lambdaCols[c0 + t];
                s += lambda[r + j] * qd[qo + j];
            }
            out[o + d] = s;
        }
    }

    /** g[go..go+n) += Lambda_l^T f for the 6-vector f at fo on body {@code body} (a link). */
    public void addLinkForce(int body, double[] f, int fo, double[] g, int go) {
        int a = articulationOf[subsystemOf[body]];
        int n = articulationDim[a];
        int l0 = lambdaStart[a] + 6 * n * linkOf[body];
        int cnt = lambdaNz[body];
        int c0 = lambdaStart[a] / 6 + n * linkOf[body];
        for (int d = 0; d < 6; d++) {
            double fd = f[fo + d];
            if (fd == 0) {
                continue;
            }
            int r = l0 + n * d;
            if (cnt < 0) {
                for (int j = 0; j < n; j++) {
                    g[go + j] += lambda[r + j] * fd;
                }
            } else {
                for (int t = 0; t < cnt; t++) {
                    int j = lambdaCols[c0 + t];
                    g[go + j] += lambda[r + j] * fd;
                }
            }
        }
    }

    /** Writes v_l = Lambda_l qd for every link of articulation a (subsystem s) from {@link #articulationV} into {@code out} at the links' coordinates. */
    public void writeLinkVelocities(int s, double[] qd, double[] out) {
        int a = articulationOf[s];
        for (int q = subsystemBodyStart[s]; q < subsystemBodyStart[s + 1]; q++) {
            int b = subsystemBodies[q];
            linkVelocity(b, qd, articulationStart[a], out, coord(b));
        }
    }

    // ---------------------------------------------------------------- constraints
    /** number of constraint blocks */
    public int constraints;
    /** kind of each block */
    public int[] kind = new int[0];
    /** first row of each block */
    public int[] rowStart = new int[0];
    /** rows of each block */
    public int[] rows = new int[0];
    /** body on side A (index into the dynamic bodies), or -1 */
    public int[] bodyA = new int[0];
    /** body on side B, or -1 */
    public int[] bodyB = new int[0];
    /** friction coefficient of contact blocks */
    public double[] mu = new double[0];
    /** total rows */
    public int totalRows;
    /** velocity coordinates of all subsystems (the used length of b and v), set by {@link #layoutStructure} */
    private int coordinates;
    /** Jacobian rows of side A (totalRows x 6) */
    public double[] jA = new double[0];
    /** Jacobian rows of side B (totalRows x 6) */
    public double[] jB = new double[0];
    /** bias e per row */
    public double[] e = new double[0];
    /** compliance gamma per row (SOFT rows) */
    public double[] gamma = new double[0];
    /** lower bound per row (BOXED) */
    public double[] lo = new double[0];
    /** upper bound per row (BOXED) */
    public double[] hi = new double[0];
    /** impulse per row: warm start on input, solution on output */
    public double[] p = new double[0];
    /**
     * per block, whether it is a contact in the compact form: 3 rows (d_i, r x d_i) per side over
     * an orthonormal frame d_i (normal, tangent, tangent; side A's rows negated) and the side's
     * lever arm r, both kept in {@link #contactFrame}. Solvers may then use J v = +-d_i . (v + w x
     * r) and J^T J = [[I, -[r]x], [[r]x, |r|^2 I - r r^T]] instead of the rows, which are still
     * filled. Set by the block's writer; {@link #addBlocks} and {@link #setBlock} clear it.
     */
    public boolean[] armed = new boolean[0];
    /**
     * whether the rows (jA, jB, and gamma, lo, hi, which a contact does not use) of {@link #armed}
     * blocks are filled; false when the writer was told that the solver reads only the compact
     * form (ContactAssembly for SubADMM), and then those rows hold stale values: readers of rows
     * must use the compact form or refuse.
     * {@link #resetBodies} sets it to true.
     */
    public boolean armedRows = true;
    /**
     * {@link #armed} blocks' frames and lever arms at [15c]: the normal at [0, 3), the tangents at
     * [3, 6) and [6, 9) (side B's row directions), r_A at [9, 12), r_B at [12, 15) (m, world frame)
     */
    public double[] contactFrame = new double[0];

    /**
     * Clears the problem and sizes it for {@code nBodies} bodies, each its own subsystem unless
     * {@link #group} is used.
     *
     * @param nBodies dynamic bodies
     */
    public void resetBodies(int nBodies) {
        bodies = nBodies;
        subsystemOf = grow(subsystemOf, nBodies);
        offsetInSubsystem = grow(offsetInSubsystem, nBodies);
        for (int i = 0; i < nBodies; i++) {
            subsystemOf[i] = i;
            offsetInSubsystem[i] = 0;
        }
        constraints = 0;
        totalRows = 0;
        armedRows = true;
        articulations = 0;
    }

    /**
     * Removes every block and row but keeps the bodies, their subsystems and the layout, for a
     * caller whose bodies and grouping are those of the last {@link #layoutStructure} (the engine,
     * step after step); A, b and v keep their values for the caller to overwrite.
     */
    public void clearBlocks() {
        constraints = 0;
        totalRows = 0;
        armedRows = true;
    }

    /**
     * Groups bodies into subsystems: {@code groupOf[i]} is the subsystem of body i; subsystems
     * are numbered 0..n-1 and bodies keep their order inside a subsystem. Call after
     * {@link #resetBodies} and before {@link #layout}.
     *
     * @param groupOf subsystem per body (not modified)
     */
    public void group(int[] groupOf) {
        for (int i = 0; i < bodies; i++) {
            subsystemOf[i] = groupOf[i];
        }
    }

    /** Computes subsystem dimensions, offsets and body lists, sizes A, b and v, and zeroes A and b. */
    public void layout() {
        layoutStructure();
        Arrays.fill(mass, 0, 36 * bodies, 0);
        Arrays.fill(b, 0, coordinates, 0);
    }

    /**
     * {@link #layout} without zeroing A and b, for a caller that writes all 36 entries of every
     * body's A and every entry of b itself (in parallel, say).
     */
    public void layoutStructure() {
        int n = 0;
        for (int i = 0; i < bodies; i++) {
            n = Math.max(n, subsystemOf[i] + 1);
        }
        subsystems = n;
        dim = grow(dim, n);
        vStart = grow(vStart, n);
        subsystemBodyStart = grow(subsystemBodyStart, n + 1);
        subsystemBodies = grow(subsystemBodies, bodies);
        Arrays.fill(dim, 0, n, 0);
        for (int i = 0; i < bodies; i++) {
            int s = subsystemOf[i];
            offsetInSubsystem[i] = dim[s];
            dim[s] += 6;
        }
        int vTotal = 0;
        int bTotal = 0;
        for (int s = 0; s < n; s++) {
            vStart[s] = vTotal;
            subsystemBodyStart[s] = bTotal;
            vTotal += dim[s];
            bTotal += dim[s] / 6;
        }
        subsystemBodyStart[n] = bTotal;
        for (int i = 0; i < bodies; i++) {
            int s = subsystemOf[i];
            subsystemBodies[subsystemBodyStart[s] + offsetInSubsystem[i] / 6] = i;
        }
        mass = grow(mass, 36 * bodies);
        b = grow(b, vTotal);
        v = grow(v, vTotal);
        coordinates = vTotal;
    }

    /** @return index of body i's first coordinate in {@link #b} / {@link #v} */
    public int coord(int body) {
        return vStart[subsystemOf[body]] + offsetInSubsystem[body];
    }

    /**
     * Adds a constraint block and returns its first row; fill {@link #jA}, {@link #jB},
     * {@link #e} (and gamma, lo, hi) for its rows afterwards. The impulse rows are left as they
     * are (warm start); set them explicitly.
     *
     * @param blockKind one of the kind constants
     * @param m         rows
     * @param a         body of side A or -1
     * @param b         body of side B or -1
     * @param friction  friction coefficient (CONTACT)
     * @return the block's first row
     */
    public int addBlock(int blockKind, int m, int a, int b, double friction) {
        return setBlock(addBlocks(blockKind, 1, m), blockKind, a, b, friction);
    }

    /**
     * Sets up block c of {@link #addBlocks} as {@link #addBlock} would have added it: its kind,
     * sides and friction, and its rows cleared (Jacobians, bias and compliance 0, bounds
     * infinite); the impulses are left as they are. Touches only block c's entries, so blocks can
     * be set up in parallel.
     *
     * @return the block's first row
     */
    public int setBlock(int c, int blockKind, int a, int b, double friction) {
        kind[c] = blockKind;
        armed[c] = false;
        bodyA[c] = a;
        bodyB[c] = b;
        mu[c] = friction;
        int r0 = rowStart[c];
        int r1 = r0 + rows[c];
        // plain loops: blocks have 1 to 6 rows, where Arrays.fill's call costs more than the stores
        for (int i = 6 * r0; i < 6 * r1; i++) {
            jA[i] = 0;
            jB[i] = 0;
        }
        for (int r = r0; r < r1; r++) {
            e[r] = 0;
            gamma[r] = 0;
            lo[r] = Double.NEGATIVE_INFINITY;
            hi[r] = Double.POSITIVE_INFINITY;
        }
        return r0;
    }

    /**
     * Adds {@code count} blocks of one kind with {@code m} rows each, for a caller that fills them
     * in parallel: sets each block's kind, rows and first row (block {@code first + i} starts at
     * row {@code rowStart[first] + i m}) and sizes every per-block and per-row array, but leaves
     * the sides ({@link #bodyA}, {@link #bodyB}), {@link #mu} and every row's Jacobians, bias,
     * compliance, bounds and impulse for the caller to set, each block by one writer.
     *
     * @param blockKind one of the kind constants
     * @param count     blocks to add, at least 0
     * @param m         rows per block
     * @return the first new block
     */
    public int addBlocks(int blockKind, int count, int m) {
        int first = reserveBlocks(count, m);
        int r0 = totalRows - count * m;
        for (int i = 0; i < count; i++) {
            kind[first + i] = blockKind;
            armed[first + i] = false;
            rowStart[first + i] = r0 + i * m;
            rows[first + i] = m;
        }
        return first;
    }

    /**
     * {@link #addBlocks} for a caller that also sets each block's {@link #kind}, {@link #rows},
     * {@link #rowStart} (block {@code first + i} at row {@code rowStart(first) + i m}, where the
     * first new row is {@link #totalRows} before the call) and {@link #armed} in its own parallel
     * loop: only sizes the arrays.
     *
     * @param count blocks to add, at least 0
     * @param m     rows per block
     * @return the first new block
     */
    public int reserveBlocks(int count, int m) {
        int first = constraints;
        constraints += count;
        kind = grow(kind, constraints);
        rowStart = grow(rowStart, constraints);
        rows = grow(rows, constraints);
        bodyA = grow(bodyA, constraints);
        bodyB = grow(bodyB, constraints);
        mu = grow(mu, constraints);
        armed = grow(armed, constraints);
        contactFrame = grow(contactFrame, 15 * constraints);
        totalRows += count * m;
        jA = grow(jA, 6 * totalRows);
        jB = grow(jB, 6 * totalRows);
        e = grow(e, totalRows);
        gamma = grow(gamma, totalRows);
        lo = grow(lo, totalRows);
        hi = grow(hi, totalRows);
        p = grow(p, totalRows);
        return first;
    }

    /**
     * Constraint velocity y of a row at the current {@link #v}.
     *
     * @param row the row
     * @return J v + e for that row
     */
    public double rowVelocity(int row) {
        int c = blockOfRow(row);
        double y = e[row];
        if (armed[c] && !armedRows) {
            // the compact form (the rows are not filled): +-d_i . (v + w x r) per side
            int f = 15 * c;
            int d = f + 3 * (row - rowStart[c]);
            if (bodyA[c] >= 0) {
                y -= pointVelocity(contactFrame, d, contactFrame, f + 9, v, coord(bodyA[c]));
            }
            if (bodyB[c] >= 0) {
                y += pointVelocity(contactFrame, d, contactFrame, f + 12, v, coord(bodyB[c]));
            }
            return y;
        }
        if (bodyA[c] >= 0) {
            y += dot6(jA, 6 * row, v, coord(bodyA[c]));
        }
        if (bodyB[c] >= 0) {
            y += dot6(jB, 6 * row, v, coord(bodyB[c]));
        }
        return y;
    }

    /**
     * d . (v + w x r): the velocity along the direction d = dir[d..d+3) of the point at lever arm
     * r = arm[a..a+3) from a body moving with (v, w) = vel[o..o+6), the form of a compact contact
     * row (see {@link #armed}).
     */
    public static double pointVelocity(double[] dir, int d, double[] arm, int a, double[] vel, int o) {
        double wx = vel[o + 3];
        double wy = vel[o + 4];
        double wz = vel[o + 5];
        double ux = vel[o] + wy * arm[a + 2] - wz * arm[a + 1];
        double uy = vel[o + 1] + wz * arm[a] - wx * arm[a + 2];
        double uz = vel[o + 2] + wx * arm[a + 1] - wy * arm[a];
        return dir[d] * ux + dir[d + 1] * uy + dir[d + 2] * uz;
    }

    private int blockOfRow(int row) {
        int lo0 = 0;
        int hi0 = constraints - 1;
        while (lo0 < hi0) {
            int mid = (lo0 + hi0 + 1) >>> 1;
            if (rowStart[mid] <= row) {
                lo0 = mid;
            } else {
                hi0 = mid - 1;
            }
        }
        return lo0;
    }

    static double dot6(double[] x, int xi, double[] y, int yi) {
        return x[xi] * y[yi] + x[xi + 1] * y[yi + 1] + x[xi + 2] * y[yi + 2]
                + x[xi + 3] * y[yi + 3] + x[xi + 4] * y[yi + 4] + x[xi + 5] * y[yi + 5];
    }

    static boolean[] grow(boolean[] a, int n) {
        return a.length >= n ? a : Arrays.copyOf(a, Math.max(n, a.length * 2));
    }

    static int[] grow(int[] a, int n) {
        return a.length >= n ? a : Arrays.copyOf(a, Math.max(n, a.length * 2));
    }

    static double[] grow(double[] a, int n) {
        return a.length >= n ? a : Arrays.copyOf(a, Math.max(n, a.length * 2));
    }
}
