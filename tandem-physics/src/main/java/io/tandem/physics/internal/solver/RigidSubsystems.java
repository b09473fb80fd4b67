package io.tandem.physics.internal.solver;

import io.tandem.physics.internal.parallel.ParallelLoop;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/*
 * Implementation notes.
 *
 * Subsystems made of rigid bodies: A_i = blockdiag(A_b) over the subsystem's bodies (6 x 6 each).
 * Every split pair touches one body, so H_i = A_i + sum beta J^T J stays block diagonal and each
 * H_b is inverted explicitly (6 x 6; one matvec per body and v-step). A compact contact pair
 * (ConstraintProblem.armed) adds beta [[I, -[r]x], [[r]x, |r|^2 I - r r^T]] (addArmed) instead of
 * its three rows' outer products. A penalty update scales all of a body's penalties alike, so it
 * rescales H_b - A_b instead of assembling H_b again (rescale). A body of the rigid layout whose
 * split pairs are all compact contacts keeps H_b = [[alpha I, -[s]x], [[s]x, D]] and is solved
 * through the 3 x 3 Schur complement of its linear block (schur, schurSolve): the 1000-sphere pile
 * took 7 % less time per step than with the 6 x 6 Cholesky substitutions (interleaved A/B, both
 * orders), whose two chains of dependent steps dominated the v-step.
 *
 * Internal equality rows G (joints inside the group, pins to the world, springs; m rows) are
 * solved exactly by the Schur complement of the subsystem's KKT system:
 *
 *   H v = r + G^T mu,  G v + e + Gamma mu = 0
 *   =>  v0 = H^-1 r,  (G H^-1 G^T + Gamma) mu = -(G v0 + e),  v = v0 + H^-1 G^T mu.
 *
 * S = G H^-1 G^T + Gamma has S_ij != 0 only when rows i and j share a body. The rows are ordered
 * by a breadth-first numbering of the subsystem's bodies from a least-connected body
 * (Cuthill-McKee on the body graph), each row keyed by the later of its bodies; with that order
 * S's envelope (profile) is narrow: for a chain every row reaches back at most to the previous
 * joint's rows, so the envelope Cholesky costs O(m) (Baraff 1996 gets O(m) for any tree with a
 * different elimination; the envelope form also takes loops, at the cost of fill). S and its
 * factor are rebuilt every step, because G and H change with the configuration and the contacts.
 * A tiny relative regularization 1e-12 S_ii keeps redundant rows (a pinned loop) factorable.
 */

/**
 * {@link Subsystems} of rigid bodies with internal equality constraints solved exactly.
 * Allocates only while the problem grows. Not thread-safe, except that {@link #factor} and
 * {@link #solve} may run concurrently for different subsystems.
 */
final class RigidSubsystems implements Subsystems {
    static final double REGULARIZATION = 1e-12;

    private ConstraintProblem pr;
    private Pairs pairs;
    /** articulated subsystems (robots in joint coordinates) are solved by this */
    private final ArticulatedSolve articulated = new ArticulatedSolve();
    private boolean[] exact;
    /** split pairs of each body (CSR): entries 2c + k */
    private int[] bodyPairStart = new int[0];
    private int[] bodyPairs = new int[0];
    private int[] cursor = new int[0];
    private int[] blockCursor = new int[0];
    /** split pairs counted per chunk of constraints (count) */
    private int[] chunkSplit = new int[0];
    private boolean fillBlocks;
    /** whether this prepare runs on several threads (counts and places by atomic adds) */
    private boolean shared;
    private static final VarHandle INT = MethodHandles.arrayElementVarHandle(int[].class);
    // loop bodies as fields: a bound method reference would allocate on every call
    private final ParallelLoop.RangeBody countRange = this::count;
    private final ParallelLoop.RangeBody fillRange = this::fill;
    private final ParallelLoop.RangeBody sortRange = this::sortChunk;
    /** A_b^-1, H_b, H_b^-1 per body (36 each) */
    private double[] aInv = new double[0];
    /** per body: whether some split pair acts on it (an articulation's links need their inverse mass then only) */
    private boolean[] linkWanted = new boolean[0];
    private double[] hBlock = new double[0];
    private double[] hInv = new double[0];
    private double[] scratch = new double[0];
    private double[] rhs = new double[0];

    // ---------------------------------------------------------------- internal equality rows
    /** exact blocks touching each body (CSR) */
    private int[] bodyBlockStart = new int[0];
    private int[] bodyBlocks = new int[0];
    /** per subsystem: first position of its rows in the ordered arrays (subsystems + 1) */
    private int[] exStart = new int[0];
    /** ordered exact rows (global row index) */
    private int[] exRow = new int[0];
    /** block of each exact row, by position */
    private int[] exBlock = new int[0];
    /** envelope: first column (local index) of each ordered row, and its offset in env */
    private int[] envFirst = new int[0];
    private int[] envStart = new int[0];
    /** envelope of S, then its Cholesky factor (diagonal stored as 1 / L_ii) */
    private double[] env = new double[0];
    /** H^-1 J^T per (row, pair k) at [6 (2 row + k)], exact rows only */
    private double[] t = new double[0];
    /** multipliers by position */
    private double[] mu = new double[0];
    /** breadth-first body number inside its subsystem, -1 if unvisited */
    private int[] bfsIndex = new int[0];
    private int[] queue = new int[0];
    private int[] keyStart = new int[0];
    private int[] bodyMinLocal = new int[0];
    private int exactRows;
    /** per body, what {@link #hInv} holds: H_RIGID, H_INVERSE, H_CHOLESKY or H_SCHUR */
    private byte[] hForm = new byte[0];
    /** H_b^-1 of the rigid layout (rigidMultiply applies) */
    private static final byte H_RIGID = 0;
    /** H_b^-1, a general 6 x 6 */
    private static final byte H_INVERSE = 1;
    /** H_b's Cholesky factor L (lower triangle, 1 / L_ii on the diagonal; cholesky6) */
    private static final byte H_CHOLESKY = 2;
    /** H_b's Schur form (schur, schurSolve): rigid layout, compact contacts only */
    private static final byte H_SCHUR = 3;
    /** per body: A_b^-1 has the rigid layout */
    private boolean[] rigidMass = new boolean[0];
    /** the exact blocks the current ordering was made for (sameStructure) */
    private int[] signature = new int[1];
    private int signatureLength;
    /** subsystem of each body when the ordering was made */
    private int[] orderedSubsystem = new int[0];

    @Override
    public int splitPairStart(int body) {
        return bodyPairStart[body];
    }

    @Override
    public int splitPair(int e) {
        return bodyPairs[e];
    }

    @Override
    public int exactRows() {
        return exactRows;
    }

    @Override
    public int prepare(ConstraintProblem problem, Pairs p, boolean[] exactBlocks, ParallelLoop loop) {
        int chunks = loop.chunks(problem.subsystems);
        this.pr = problem;
        this.pairs = p;
        this.exact = exactBlocks;
        articulated.prepare(pr);
        int nb = pr.bodies;
        int ns = pr.subsystems;
        aInv = ConstraintProblem.grow(aInv, 36 * nb);
        if (linkWanted.length < nb) {
            linkWanted = new boolean[Math.max(nb, 2 * linkWanted.length)];
        }
        if (hForm.length < nb) {
            hForm = new byte[Math.max(nb, 2 * hForm.length)];
            rigidMass = new boolean[hForm.length];
        }
        hBlock = ConstraintProblem.grow(hBlock, 36 * nb);
        hInv = ConstraintProblem.grow(hInv, 36 * nb);
        scratch = ConstraintProblem.grow(scratch, 42 * Math.max(1, chunks));
        rhs = ConstraintProblem.grow(rhs, pr.b.length);
        // split pairs and exact blocks of each body (CSR, constraint order)
        bodyPairStart = ConstraintProblem.grow(bodyPairStart, nb + 1);
        bodyBlockStart = ConstraintProblem.grow(bodyBlockStart, nb + 1);
        cursor = ConstraintProblem.grow(cursor, nb + 1);
        Arrays.fill(bodyPairStart, 0, nb + 1, 0);
        Arrays.fill(bodyBlockStart, 0, nb + 1, 0);
        exStart = ConstraintProblem.grow(exStart, ns + 1);
        Arrays.fill(exStart, 0, ns + 1, 0);
        // counted by atomic adds on several threads (exact in any order), then each list filled by
        // atomic places on its body's cursor and sorted, which is constraint order (see fill)
        shared = loop.threads() > 1 && pr.constraints > ParallelLoop.CHUNK;
        int countChunks = shared ? loop.chunks(pr.constraints) : 1;
        chunkSplit = ConstraintProblem.grow(chunkSplit, countChunks);
        if (shared) {
            loop.run(pr.constraints, countRange);
        } else {
            count(0, pr.constraints, 0);
        }
        int split = 0;
        for (int k = 0; k < countChunks; k++) {
            split += chunkSplit[k];
        }
        for (int b = 0; b < nb; b++) {
            bodyPairStart[b + 1] += bodyPairStart[b];
            bodyBlockStart[b + 1] += bodyBlockStart[b];
        }
        for (int s = 0; s < ns; s++) {
            exStart[s + 1] += exStart[s];
        }
        exactRows = exStart[ns];
        bodyPairs = ConstraintProblem.grow(bodyPairs, bodyPairStart[nb]);
        bodyBlocks = ConstraintProblem.grow(bodyBlocks, bodyBlockStart[nb]);
        int articulatedRows = articulated.prepareExact(pairs, exact);
        fillBlocks = exactRows > 0 || articulatedRows > 0;
        System.arraycopy(bodyPairStart, 0, cursor, 0, nb);
        if (fillBlocks) {
            blockCursor = ConstraintProblem.grow(blockCursor, nb);
            System.arraycopy(bodyBlockStart, 0, blockCursor, 0, nb);
        }
        if (shared) {
            loop.run(pr.constraints, fillRange);
            loop.run(nb, sortRange);
        } else {
            fill(0, pr.constraints, 0);
        }
        if (exactRows > 0) {
            if (!sameStructure(ns)) {
                orderExactRows(ns, nb);
            }
        } else {
            signatureLength = 0;
        }
        t = ConstraintProblem.grow(t, 12 * pr.totalRows);
        mu = ConstraintProblem.grow(mu, exactRows);
        return split;
    }

    /**
     * Counts each body's split pairs and exact blocks (into the start of the next body) and each
     * subsystem's exact rows, for blocks [lo, hi); the split pairs into chunkSplit[chunk].
     */
    private void count(int lo, int hi, int chunk) {
        boolean atomic = shared;
        int split = 0;
        for (int c = lo; c < hi; c++) {
            for (int k = 0; k < pairs.count[c]; k++) {
                int b = pairs.body[2 * c + k];
                if (exact[c]) {
                    add(atomic, bodyBlockStart, b + 1, 1);
                } else {
                    add(atomic, bodyPairStart, b + 1, 1);
                    split++;
                }
            }
            if (exact[c] && !articulated(pairs.sub[2 * c])) {
                // (an articulated subsystem's internal rows are ArticulatedSolve's)
                add(atomic, exStart, pairs.sub[2 * c] + 1, pr.rows[c]);
            }
        }
        chunkSplit[chunk] = split;
    }

    /**
     * Puts blocks [lo, hi) into their bodies' lists at the cursors. Serially that is constraint
     * order; on several threads a body's list comes out in any order and sortRange sorts it (its
     * entries increase with the constraint, so sorted is constraint order: the serial lists).
     */
    private void fill(int lo, int hi, int chunk) {
        boolean atomic = shared;
        for (int c = lo; c < hi; c++) {
            if (!exact[c]) {
                for (int k = 0; k < pairs.count[c]; k++) {
                    bodyPairs[add(atomic, cursor, pairs.body[2 * c + k], 1)] = 2 * c + k;
                }
            } else if (fillBlocks) {
                for (int k = 0; k < pairs.count[c]; k++) {
                    bodyBlocks[add(atomic, blockCursor, pairs.body[2 * c + k], 1)] = c;
                }
            }
        }
    }

    /** a[i] += d, atomically or not; returns the old value. */
    private static int add(boolean atomic, int[] a, int i, int d) {
        if (atomic) {
            return (int) INT.getAndAdd(a, i, d);
        }
        int old = a[i];
        a[i] = old + d;
        return old;
    }

    private void sortChunk(int lo, int hi, int chunk) {
        for (int b = lo; b < hi; b++) {
            insertionSort(bodyPairs, bodyPairStart[b], bodyPairStart[b + 1]);
            if (fillBlocks) {
                insertionSort(bodyBlocks, bodyBlockStart[b], bodyBlockStart[b + 1]);
            }
        }
    }

    /** Sorts a[from, to) ascending (a body's list: a few entries, nearly any order). */
    private static void insertionSort(int[] a, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            int v = a[i];
            int j = i - 1;
            while (j >= from && a[j] > v) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }

    /**
     * Whether the exact blocks (index, first row, bodies, subsystem) are those of the last
     * ordering, so it still holds (the usual case: joints are the same every step); records them.
     */
    private boolean sameStructure(int ns) {
        int need = 4 * pr.constraints + 1;
        if (signature.length < need) {
            signature = Arrays.copyOf(signature, Math.max(need, 2 * signature.length));
        }
        boolean same = signature[0] == ns;
        signature[0] = ns;
        int n = 1;
        for (int c = 0; c < pr.constraints; c++) {
            if (!exact[c]) {
                continue;
            }
            int b0 = pairs.body[2 * c];
            int b1 = pairs.count[c] == 2 ? pairs.body[2 * c + 1] : -1;
            same = same && n + 4 <= signatureLength && signature[n] == c && signature[n + 1] == pr.rowStart[c]
                    && signature[n + 2] == b0 && signature[n + 3] == b1 && sameSubsystem(b0);
            signature[n] = c;
            signature[n + 1] = pr.rowStart[c];
            signature[n + 2] = b0;
            signature[n + 3] = b1;
            n += 4;
        }
        same = same && n == signatureLength;
        signatureLength = n;
        return same;
    }

    private boolean sameSubsystem(int body) {
        return orderedSubsystem[body] == pr.subsystemOf[body];
    }

    /** Orders each subsystem's exact rows (bodies numbered breadth first) and lays out S's envelope. */
    private void orderExactRows(int ns, int nb) {
        bfsIndex = ConstraintProblem.grow(bfsIndex, nb);
        queue = ConstraintProblem.grow(queue, nb);
        keyStart = ConstraintProblem.grow(keyStart, nb + 1);
        bodyMinLocal = ConstraintProblem.grow(bodyMinLocal, nb);
        exRow = ConstraintProblem.grow(exRow, exactRows);
        exBlock = ConstraintProblem.grow(exBlock, exactRows);
        envFirst = ConstraintProblem.grow(envFirst, exactRows);
        envStart = ConstraintProblem.grow(envStart, exactRows + 1);
        orderedSubsystem = ConstraintProblem.grow(orderedSubsystem, nb);
        System.arraycopy(pr.subsystemOf, 0, orderedSubsystem, 0, nb);
        Arrays.fill(bfsIndex, 0, nb, -1);
        Arrays.fill(bodyMinLocal, 0, nb, Integer.MAX_VALUE);
        for (int s = 0; s < ns; s++) {
            if (exStart[s + 1] == exStart[s]) {
                continue;
            }
            int q0 = pr.subsystemBodyStart[s];
            int q1 = pr.subsystemBodyStart[s + 1];
            // breadth-first numbering from a least-connected body, then the other components
            int start = -1;
            for (int q = q0; q < q1; q++) {
                int b = pr.subsystemBodies[q];
                int deg = bodyBlockStart[b + 1] - bodyBlockStart[b];
                if (deg > 0 && (start < 0 || deg < bodyBlockStart[start + 1] - bodyBlockStart[start])) {
                    start = b;
                }
            }
            int numbered = 0;
            int head = q0;
            int tail = q0;
            for (int q = q0 - 1; q < q1; q++) {
                int root = q < q0 ? start : pr.subsystemBodies[q];
                if (bfsIndex[root] >= 0 || bodyBlockStart[root + 1] == bodyBlockStart[root]) {
                    continue;
                }
                bfsIndex[root] = numbered++;
                queue[tail++] = root;
                while (head < tail) {
                    int b = queue[head++];
                    for (int e = bodyBlockStart[b]; e < bodyBlockStart[b + 1]; e++) {
                        int c = bodyBlocks[e];
                        for (int k = 0; k < pairs.count[c]; k++) {
                            int other = pairs.body[2 * c + k];
                            if (bfsIndex[other] < 0) {
                                bfsIndex[other] = numbered++;
                                queue[tail++] = other;
                            }
                        }
                    }
                }
            }
            // counting sort of the rows by key = the later body of their block
            Arrays.fill(keyStart, q0, q0 + numbered + 1, 0);
            for (int q = q0; q < q0 + numbered; q++) {
                int b = queue[q];
                for (int e = bodyBlockStart[b]; e < bodyBlockStart[b + 1]; e++) {
                    int c = bodyBlocks[e];
                    if (key(c) == bfsIndex[b]) {
                        keyStart[q0 + bfsIndex[b] + 1] += pr.rows[c];
                    }
                }
            }
            keyStart[q0] = exStart[s];
            for (int k = 0; k < numbered; k++) {
                keyStart[q0 + k + 1] += keyStart[q0 + k];
            }
            for (int q = q0; q < q0 + numbered; q++) {
                int b = queue[q];
                for (int e = bodyBlockStart[b]; e < bodyBlockStart[b + 1]; e++) {
                    int c = bodyBlocks[e];
                    if (key(c) == bfsIndex[b]) {
                        int pos = keyStart[q0 + bfsIndex[b]];
                        for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                            exRow[pos] = r;
                            exBlock[pos] = c;
                            pos++;
                        }
                        keyStart[q0 + bfsIndex[b]] = pos;
                    }
                }
            }
            // envelope: a row reaches back to the first row of any of its bodies
            int base = exStart[s];
            for (int i = base; i < exStart[s + 1]; i++) {
                int c = exBlock[i];
                int first = i - base;
                for (int k = 0; k < pairs.count[c]; k++) {
                    int b = pairs.body[2 * c + k];
                    if (bodyMinLocal[b] == Integer.MAX_VALUE) {
                        bodyMinLocal[b] = i - base;
                    }
                    first = Math.min(first, bodyMinLocal[b]);
                }
                envFirst[i] = first;
            }
            for (int q = q0; q < q0 + numbered; q++) {
                bfsIndex[queue[q]] = -1;
                bodyMinLocal[queue[q]] = Integer.MAX_VALUE;
            }
        }
        int total = 0;
        for (int s = 0; s < ns; s++) {
            for (int i = exStart[s]; i < exStart[s + 1]; i++) {
                envStart[i] = total;
                total += i - exStart[s] - envFirst[i] + 1;
            }
        }
        envStart[exactRows] = total;
        env = ConstraintProblem.grow(env, total);
    }

    /** Breadth-first number of block c's later body (bfsIndex must be set for its subsystem). */
    private int key(int c) {
        int k = bfsIndex[pairs.body[2 * c]];
        if (pairs.count[c] == 2) {
            k = Math.max(k, bfsIndex[pairs.body[2 * c + 1]]);
        }
        return k;
    }

    @Override
    public void factor(int s, double kappa, double[] beta, int chunk) {
        boolean art = articulated(s);
        if (art) {
            // each link's inverse mass as its rows see it, Lambda A_r^-1 Lambda^T (general layout)
            for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
                int b = pr.subsystemBodies[q];
                linkWanted[b] = bodyPairStart[b + 1] > bodyPairStart[b];
            }
            articulated.factorMass(s, aInv, linkWanted);
        }
        for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
            int b = pr.subsystemBodies[q];
            int b36 = 36 * b;
            int layout = art ? 0 : invertMass(pr.mass, b36, aInv, chunk);
            if (layout < 0) {
                throw new IllegalStateException("body " + b + " (subsystem " + s + "): its mass matrix is not"
                        + " positive definite (zero or negative mass or inertia?)");
            }
            rigidMass[b] = layout == 1;
            int n = bodyPairStart[b + 1] - bodyPairStart[b];
            for (int e = bodyPairStart[b]; e < bodyPairStart[b + 1]; e++) {
                int pair = bodyPairs[e];
                int c = pair >> 1;
                double[] jac = pairs.sides[pair] == 1 ? pr.jA : pr.jB;
                // beta = kappa x the pair's effective mass: rows / tr(J A^-1 J^T), shared by the
                // body's n split pairs (mass splitting)
                double trace = 0;
                if (pr.armed[c]) {
                    int a = 15 * c + 6 + 3 * pairs.sides[pair];
                    trace = layout == 1 ? armedTrace(aInv, b36, pr.contactFrame, a) : armedTraceGeneral(aInv, b36, pr.contactFrame, a, chunk);
                } else {
                    for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                        trace += layout == 1 ? rigidQuadratic(aInv, b36, jac, 6 * r) : quadratic(aInv, b36, jac, 6 * r);
                    }
                }
                beta[pair] = trace > 0 ? kappa * pr.rows[c] / (trace * n) : 1.0;
            }
        }
        assemble(s, beta, chunk);
    }

    @Override
    public void rescale(int s, double factor, double[] beta, int chunk) {
        boolean art = articulated(s);
        for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
            int b = pr.subsystemBodies[q];
            if (bodyPairStart[b] == bodyPairStart[b + 1]) {
                continue;
            }
            for (int e = bodyPairStart[b]; e < bodyPairStart[b + 1]; e++) {
                beta[bodyPairs[e]] *= factor;
            }
            // every penalty of the body scales alike: H = A + factor (H - A), upper triangle
            int b36 = 36 * b;
            for (int d = 0; d < 6; d++) {
                for (int f = d; f < 6; f++) {
                    int i = b36 + 6 * d + f;
                    hBlock[i] = pr.mass[i] + factor * (hBlock[i] - pr.mass[i]);
                }
            }
            if (!art) {
                factorH(b, s);
            }
        }
        if (art) {
            articulated.factorPenalized(s, hBlock);
        }
        if (exactRows > 0 && exStart[s + 1] > exStart[s]) {
            factorInternal(s);
        }
    }

    /** H_b = A_b + sum beta J^T J and its inverse per body, then the internal rows' factor. */
    private void assemble(int s, double[] beta, int chunk) {
        boolean art = articulated(s);
        for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
            int b = pr.subsystemBodies[q];
            int b36 = 36 * b;
            if (!art && bodyPairStart[b] == bodyPairStart[b + 1]) {
                // no split pairs: H_b = A_b
                System.arraycopy(aInv, b36, hInv, b36, 36);
                hForm[b] = rigidMass[b] ? H_RIGID : H_INVERSE;
                continue;
            }
            // H_b keeps the Schur form's structure when A_b has the rigid layout and every split
            // pair is a compact contact (see schur)
            boolean schur = rigidMass[b];
            System.arraycopy(pr.mass, b36, hBlock, b36, 36);
            for (int e = bodyPairStart[b]; e < bodyPairStart[b + 1]; e++) {
                int pair = bodyPairs[e];
                int c = pair >> 1;
                double[] jac = pairs.sides[pair] == 1 ? pr.jA : pr.jB;
                double bs = beta[pair];
                schur &= pr.armed[c];
                if (pr.armed[c]) {
                    addArmed(hBlock, b36, bs, pr.contactFrame, 15 * c + 6 + 3 * pairs.sides[pair]);
                    continue;
                }
                // H += beta J^T J, upper triangle (mirrored below)
                for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                    int j = 6 * r;
                    for (int d = 0; d < 6; d++) {
                        double jd = bs * jac[j + d];
                        int h0 = b36 + 6 * d;
                        for (int f = d; f < 6; f++) {
                            hBlock[h0 + f] += jd * jac[j + f];
                        }
                    }
                }
            }
            hForm[b] = schur ? H_SCHUR : H_CHOLESKY;
            if (!art) {
                factorH(b, s);
            }
        }
        if (art) {
            // the links' blocks hold sum beta J^T J (A_b = 0 for links): H_r from them
            articulated.factorPenalized(s, hBlock);
            return;
        }
        if (exactRows > 0 && exStart[s + 1] > exStart[s]) {
            factorInternal(s);
        }
    }

    /** @return whether subsystem s is articulated (a robot in joint coordinates; no internal exact rows) */
    private boolean articulated(int s) {
        return pr.articulations > 0 && pr.articulationOf[s] >= 0;
    }

    /** H_b's factor in the form {@link #hForm} says (H_SCHUR or H_CHOLESKY) from its upper triangle in {@link #hBlock}. */
    private void factorH(int b, int s) {
        int o = 36 * b;
        if (hForm[b] == H_SCHUR ? !schur(hBlock, hInv, o) : !cholesky6(hBlock, hInv, o)) {
            throw new IllegalStateException("body " + b + " (subsystem " + s + "): A + beta J^T J is not positive definite");
        }
    }

    /**
     * The Schur form of H = [[alpha I, -[s]x], [[s]x, D]] (upper triangle of h at o): a rigid
     * body's A = diag(m I, I_world) plus compact contact pairs, each adding beta [[I, -[r]x],
     * [[r]x, |r|^2 I - r r^T]] (so alpha = m + sum beta, s = sum beta r). Eliminating the linear
     * block leaves the 3 x 3 S = D - (|s|^2 I - s s^T) / alpha, kept inverted: out[o] = 1 / alpha,
     * out[o+1..o+3] = s, out[o+4..o+9] = S^-1 (00, 01, 02, 11, 12, 22). A solve is then two cross
     * products and a 3 x 3 product (schurSolve) instead of two 6-step substitutions, and the
     * factorization needs no square roots.
     *
     * @return false if H is not positive definite
     */
    static boolean schur(double[] h, double[] out, int o) {
        double alpha = h[o];
        double sx = h[o + 11];
        double sy = -h[o + 5];
        double sz = h[o + 4];
        if (!(alpha > 0)) {
            return false;
        }
        double ia = 1.0 / alpha;
        double s00 = h[o + 21] - (sy * sy + sz * sz) * ia;
        double s11 = h[o + 28] - (sx * sx + sz * sz) * ia;
        double s22 = h[o + 35] - (sx * sx + sy * sy) * ia;
        double s01 = h[o + 22] + sx * sy * ia;
        double s02 = h[o + 23] + sx * sz * ia;
        double s12 = h[o + 29] + sy * sz * ia;
        double c00 = s11 * s22 - s12 * s12;
        double c01 = s02 * s12 - s01 * s22;
        double c02 = s01 * s12 - s02 * s11;
        double det = s00 * c00 + s01 * c01 + s02 * c02;
        if (!(s00 > 0) || !(s00 * s11 - s01 * s01 > 0) || !(det > 0)) {
            return false;
        }
        double id = 1.0 / det;
        out[o] = ia;
        out[o + 1] = sx;
        out[o + 2] = sy;
        out[o + 3] = sz;
        out[o + 4] = c00 * id;
        out[o + 5] = c01 * id;
        out[o + 6] = c02 * id;
        out[o + 7] = (s00 * s22 - s02 * s02) * id;
        out[o + 8] = (s01 * s02 - s00 * s12) * id;
        out[o + 9] = (s00 * s11 - s01 * s01) * id;
        return true;
    }

    /**
     * y = H^-1 x for the Schur form of {@link #schur}: w = S^-1 (x_ang - s x x_lin / alpha), then
     * y_lin = (x_lin + s x w) / alpha, y_ang = w. x and y may be the same array.
     */
    static void schurSolve(double[] f, int o, double[] x, int xo, double[] y, int yo) {
        schurSolve(f, o, x[xo], x[xo + 1], x[xo + 2], x[xo + 3], x[xo + 4], x[xo + 5], y, yo);
    }

    /** {@link #schurSolve(double[], int, double[], int, double[], int)} of x = (x0..x5), from registers. */
    static void schurSolve(double[] f, int o, double x0, double x1, double x2, double x3, double x4, double x5,
            double[] y, int yo) {
        double ia = f[o];
        double sx = f[o + 1];
        double sy = f[o + 2];
        double sz = f[o + 3];
        double t0 = x3 - (sy * x2 - sz * x1) * ia;
        double t1 = x4 - (sz * x0 - sx * x2) * ia;
        double t2 = x5 - (sx * x1 - sy * x0) * ia;
        double w0 = f[o + 4] * t0 + f[o + 5] * t1 + f[o + 6] * t2;
        double w1 = f[o + 5] * t0 + f[o + 7] * t1 + f[o + 8] * t2;
        double w2 = f[o + 6] * t0 + f[o + 8] * t1 + f[o + 9] * t2;
        y[yo] = (x0 + sy * w2 - sz * w1) * ia;
        y[yo + 1] = (x1 + sz * w0 - sx * w2) * ia;
        y[yo + 2] = (x2 + sx * w1 - sy * w0) * ia;
        y[yo + 3] = w0;
        y[yo + 4] = w1;
        y[yo + 5] = w2;
    }

    /** T = H^-1 G^T, S = G T + Gamma in the envelope, and its Cholesky factor. */
    private void factorInternal(int s) {
        int base = exStart[s];
        int end = exStart[s + 1];
        for (int i = base; i < end; i++) {
            int r = exRow[i];
            int c = exBlock[i];
            for (int k = 0; k < pairs.count[c]; k++) {
                int pair = 2 * c + k;
                double[] jac = pairs.sides[pair] == 1 ? pr.jA : pr.jB;
                int body = pairs.body[pair];
                applyHInverse(body, jac, 6 * r, t, 6 * (2 * r + k));
            }
        }
        for (int i = base; i < end; i++) {
            int ri = exRow[i];
            int ci = exBlock[i];
            int li = i - base;
            int e0 = envStart[i] - envFirst[i];
            for (int lj = envFirst[i]; lj <= li; lj++) {
                int j = base + lj;
                int rj = exRow[j];
                int cj = exBlock[j];
                double sij = 0;
                for (int k = 0; k < pairs.count[ci]; k++) {
                    int bi = pairs.body[2 * ci + k];
                    double[] jac = pairs.sides[2 * ci + k] == 1 ? pr.jA : pr.jB;
                    for (int kk = 0; kk < pairs.count[cj]; kk++) {
                        if (pairs.body[2 * cj + kk] == bi) {
                            sij += ConstraintProblem.dot6(jac, 6 * ri, t, 6 * (2 * rj + kk));
                        }
                    }
                }
                env[e0 + lj] = sij;
            }
            double d = env[e0 + li];
            env[e0 + li] = d + pr.gamma[ri] + REGULARIZATION * d;
        }
        // envelope Cholesky, in place: L_ij for first_i <= j < i, 1 / L_ii on the diagonal
        for (int i = base; i < end; i++) {
            int li = i - base;
            int fi = envFirst[i];
            int ei = envStart[i] - fi;
            for (int lj = fi; lj < li; lj++) {
                int j = base + lj;
                int fj = envFirst[j];
                int ej = envStart[j] - fj;
                double sum = env[ei + lj];
                for (int k = Math.max(fi, fj); k < lj; k++) {
                    sum -= env[ei + k] * env[ej + k];
                }
                env[ei + lj] = sum * env[ej + lj];
            }
            double d = env[ei + li];
            for (int k = fi; k < li; k++) {
                d -= env[ei + k] * env[ei + k];
            }
            if (!(d > 0)) {
                throw new IllegalStateException("subsystem " + s + ": its joint rows are degenerate (row "
                        + exRow[i] + " depends on the others and has no compliance)");
            }
            env[ei + li] = 1.0 / Math.sqrt(d);
        }
    }

    @Override
    public void solve(int lo, int hi, double[] force, int chunk, boolean[] activeIsland, int[] islandOfBody) {
        // the arrays in locals: one call runs a chunk of subsystems
        ConstraintProblem pr = this.pr;
        int[] bodyStart = pr.subsystemBodyStart;
        int[] bodies = pr.subsystemBodies;
        int[] subsystemOf = pr.subsystemOf;
        int[] vStart = pr.vStart;
        int[] offset = pr.offsetInSubsystem;
        double[] b = pr.b;
        double[] v = pr.v;
        double[] f = this.hInv;
        byte[] form = hForm;
        int[] pairStart = bodyPairStart;
        int[] pairList = bodyPairs;
        for (int s = lo; s < hi; s++) {
            if (activeIsland != null && !activeIsland[islandOfBody[bodies[bodyStart[s]]]]) {
                continue;
            }
            if (articulated(s)) {
                solveArticulated(s, force);
                continue;
            }
            for (int q = bodyStart[s]; q < bodyStart[s + 1]; q++) {
                int body = bodies[q];
                int o = vStart[subsystemOf[body]] + offset[body];
                double x0 = b[o];
                double x1 = b[o + 1];
                double x2 = b[o + 2];
                double x3 = b[o + 3];
                double x4 = b[o + 4];
                double x5 = b[o + 5];
                for (int e = pairStart[body]; e < pairStart[body + 1]; e++) {
                    int g = 6 * pairList[e];
                    x0 += force[g];
                    x1 += force[g + 1];
                    x2 += force[g + 2];
                    x3 += force[g + 3];
                    x4 += force[g + 4];
                    x5 += force[g + 5];
                }
                if (form[body] == H_SCHUR) {
                    schurSolve(f, 36 * body, x0, x1, x2, x3, x4, x5, v, o);
                    continue;
                }
                rhs[o] = x0;
                rhs[o + 1] = x1;
                rhs[o + 2] = x2;
                rhs[o + 3] = x3;
                rhs[o + 4] = x4;
                rhs[o + 5] = x5;
                applyHInverse(body, rhs, o, v, o);
            }
            if (exactRows > 0 && exStart[s + 1] > exStart[s]) {
                enforceInternal(s);
            }
        }
    }

    /** The v-step of an articulated subsystem: each link's pair forces summed, then the joint-space solve. */
    private void solveArticulated(int s, double[] force) {
        for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
            int body = pr.subsystemBodies[q];
            int o = pr.coord(body);
            for (int d = 0; d < 6; d++) {
                rhs[o + d] = 0;
            }
            for (int e = bodyPairStart[body]; e < bodyPairStart[body + 1]; e++) {
                int g = 6 * bodyPairs[e];
                for (int d = 0; d < 6; d++) {
                    rhs[o + d] += force[g + d];
                }
            }
        }
        articulated.solve(s, rhs, true, pr.v);
    }

    @Override
    public void predict(int s, double[] out) {
        boolean art = articulated(s);
        for (int q = pr.subsystemBodyStart[s]; q < pr.subsystemBodyStart[s + 1]; q++) {
            int b = pr.subsystemBodies[q];
            int o = pr.coord(b);
            System.arraycopy(pr.b, o, rhs, o, 6);
            for (int e = bodyPairStart[b]; e < bodyPairStart[b + 1]; e++) {
                int pair = bodyPairs[e];
                int c = pair >> 1;
                if (pr.armed[c]) {
                    addArmedTransposed(c, pairs.sides[pair], o);
                } else {
                    addTransposed(c, pairs.sides[pair] == 1 ? pr.jA : pr.jB, o);
                }
            }
            for (int e = bodyBlockStart[b]; e < bodyBlockStart[b + 1]; e++) {
                int c = bodyBlocks[e];
                int k = pairs.body[2 * c] == b ? 0 : 1;
                addTransposed(c, pairs.sides[2 * c + k] == 1 ? pr.jA : pr.jB, o);
            }
            if (art) {
                continue;
            }
            if (rigidMass[b]) {
                rigidMultiply(aInv, 36 * b, rhs, o, out, o);
            } else {
                DenseOps.multiply(aInv, 36 * b, 6, rhs, o, out, o);
            }
        }
        if (art) {
            articulated.solve(s, rhs, false, out);
        }
    }

    /** {@link #addTransposed} for an armed contact block (side 1 = A, 2 = B): F = +-sum d_i p_i, torque r x F. */
    private void addArmedTransposed(int c, int side, int o) {
        double[] cf = pr.contactFrame;
        int f = 15 * c;
        int r0 = pr.rowStart[c];
        double pn = pr.p[r0];
        double pt = pr.p[r0 + 1];
        double ps = pr.p[r0 + 2];
        double sg = side == 1 ? -1 : 1;
        double fx = sg * (cf[f] * pn + cf[f + 3] * pt + cf[f + 6] * ps);
        double fy = sg * (cf[f + 1] * pn + cf[f + 4] * pt + cf[f + 7] * ps);
        double fz = sg * (cf[f + 2] * pn + cf[f + 5] * pt + cf[f + 8] * ps);
        int a = f + 6 + 3 * side;
        double rx = cf[a];
        double ry = cf[a + 1];
        double rz = cf[a + 2];
        rhs[o] += fx;
        rhs[o + 1] += fy;
        rhs[o + 2] += fz;
        rhs[o + 3] += ry * fz - rz * fy;
        rhs[o + 4] += rz * fx - rx * fz;
        rhs[o + 5] += rx * fy - ry * fx;
    }

    /** rhs[o..o+6) += J_c^T p_c for block c's rows on one side. */
    private void addTransposed(int c, double[] jac, int o) {
        for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
            double f = pr.p[r];
            int j = 6 * r;
            for (int d = 0; d < 6; d++) {
                rhs[o + d] += jac[j + d] * f;
            }
        }
    }

    /** mu = -S^-1 (G v0 + e), then v += T mu; writes mu as the rows' impulses. */
    private void enforceInternal(int s) {
        int base = exStart[s];
        int end = exStart[s + 1];
        // forward: L y = -(G v0 + e)
        for (int i = base; i < end; i++) {
            int r = exRow[i];
            int c = exBlock[i];
            double g = pr.e[r];
            for (int k = 0; k < pairs.count[c]; k++) {
                int pair = 2 * c + k;
                double[] jac = pairs.sides[pair] == 1 ? pr.jA : pr.jB;
                g += ConstraintProblem.dot6(jac, 6 * r, pr.v, pairs.coord[2 * c + pairs.sides[pair] - 1]);
            }
            int li = i - base;
            int ei = envStart[i] - envFirst[i];
            double sum = -g;
            for (int k = envFirst[i]; k < li; k++) {
                sum -= env[ei + k] * mu[base + k];
            }
            mu[i] = sum * env[ei + li];
        }
        // backward: L^T mu = y
        for (int i = end - 1; i >= base; i--) {
            int li = i - base;
            int ei = envStart[i] - envFirst[i];
            double x = mu[i] * env[ei + li];
            mu[i] = x;
            for (int k = envFirst[i]; k < li; k++) {
                mu[base + k] -= env[ei + k] * x;
            }
        }
        for (int i = base; i < end; i++) {
            int r = exRow[i];
            int c = exBlock[i];
            double m = mu[i];
            pr.p[r] = m;
            for (int k = 0; k < pairs.count[c]; k++) {
                int o = pairs.coord[2 * c + pairs.sides[2 * c + k] - 1];
                int t0 = 6 * (2 * r + k);
                for (int d = 0; d < 6; d++) {
                    pr.v[o + d] += t[t0 + d] * m;
                }
            }
        }
    }

    /**
     * A_b^-1 into {@code out[o..]}: closed form for a rigid body's diag(m I, I_w) (the common case:
     * a sixth of the general inverse's cost), the general SPD inverse otherwise.
     *
     * @return 1 for the rigid layout, 0 for a general matrix, -1 if not positive definite
     */
    private int invertMass(double[] a, int o, double[] out, int chunk) {
        // rigid layout: the linear block m I, no coupling between linear and angular
        boolean rigid = a[o] > 0;
        for (int i = 0; i < 3 && rigid; i++) {
            for (int j = 0; j < 6; j++) {
                double lin = a[o + 6 * i + j];
                double mirrored = a[o + 6 * j + i];
                if (j == i ? lin != a[o] : lin != 0 || mirrored != 0) {
                    rigid = false;
                    break;
                }
            }
        }
        if (!rigid) {
            return DenseOps.invertSpd(a, o, 6, out, o, scratch, 42 * chunk) ? 0 : -1;
        }
        java.util.Arrays.fill(out, o, o + 36, 0);
        double im = 1.0 / a[o];
        out[o] = im;
        out[o + 7] = im;
        out[o + 14] = im;
        // 3 x 3 inertia block by its adjugate
        double a00 = a[o + 21];
        double a01 = a[o + 22];
        double a02 = a[o + 23];
        double a10 = a[o + 27];
        double a11 = a[o + 28];
        double a12 = a[o + 29];
        double a20 = a[o + 33];
        double a21 = a[o + 34];
        double a22 = a[o + 35];
        double c00 = a11 * a22 - a12 * a21;
        double c01 = a02 * a21 - a01 * a22;
        double c02 = a01 * a12 - a02 * a11;
        double det = a00 * c00 + a10 * c01 + a20 * c02;
        if (!(det > 0) || !(a00 > 0) || !(a00 * a11 - a01 * a10 > 0)) {
            return -1;
        }
        double id = 1.0 / det;
        out[o + 21] = c00 * id;
        out[o + 22] = c01 * id;
        out[o + 23] = c02 * id;
        out[o + 27] = (a12 * a20 - a10 * a22) * id;
        out[o + 28] = (a00 * a22 - a02 * a20) * id;
        out[o + 29] = (a02 * a10 - a00 * a12) * id;
        out[o + 33] = (a10 * a21 - a11 * a20) * id;
        out[o + 34] = (a01 * a20 - a00 * a21) * id;
        out[o + 35] = (a00 * a11 - a01 * a10) * id;
        return 1;
    }

    /** y = H_b^-1 x, in the form {@link #hForm} says. */
    private void applyHInverse(int b, double[] x, int xo, double[] y, int yo) {
        int o = 36 * b;
        switch (hForm[b]) {
            case H_RIGID -> rigidMultiply(hInv, o, x, xo, y, yo);
            case H_INVERSE -> DenseOps.multiply(hInv, o, 6, x, xo, y, yo);
            case H_SCHUR -> schurSolve(hInv, o, x, xo, y, yo);
            default -> choleskySolve6(hInv, o, x, xo, y, yo);
        }
    }

    /**
     * Cholesky factor of the symmetric 6 x 6 at {@code a[o..]} (upper triangle read) into
     * {@code l[o..]}: L_ij (j < i) at 6 i + j, 1 / L_ii at 6 i + i.
     *
     * @return false if not positive definite
     */
    static boolean cholesky6(double[] a, double[] l, int o) {
        for (int i = 0; i < 6; i++) {
            int ri = o + 6 * i;
            for (int j = 0; j < i; j++) {
                int rj = o + 6 * j;
                double sum = a[rj + i];
                for (int k = 0; k < j; k++) {
                    sum -= l[ri + k] * l[rj + k];
                }
                l[ri + j] = sum * l[rj + j];
            }
            double d = a[ri + i];
            for (int k = 0; k < i; k++) {
                d -= l[ri + k] * l[ri + k];
            }
            if (!(d > 0)) {
                return false;
            }
            l[ri + i] = 1.0 / Math.sqrt(d);
        }
        return true;
    }

    /** y = (L L^T)^-1 x for a factor of {@link #cholesky6}; x and y may be the same array, not overlapping otherwise. */
    static void choleskySolve6(double[] l, int o, double[] x, int xo, double[] y, int yo) {
        double y0 = x[xo] * l[o];
        double y1 = (x[xo + 1] - l[o + 6] * y0) * l[o + 7];
        double y2 = (x[xo + 2] - l[o + 12] * y0 - l[o + 13] * y1) * l[o + 14];
        double y3 = (x[xo + 3] - l[o + 18] * y0 - l[o + 19] * y1 - l[o + 20] * y2) * l[o + 21];
        double y4 = (x[xo + 4] - l[o + 24] * y0 - l[o + 25] * y1 - l[o + 26] * y2 - l[o + 27] * y3) * l[o + 28];
        double y5 = (x[xo + 5] - l[o + 30] * y0 - l[o + 31] * y1 - l[o + 32] * y2 - l[o + 33] * y3 - l[o + 34] * y4)
                * l[o + 35];
        double x5 = y5 * l[o + 35];
        double x4 = (y4 - l[o + 34] * x5) * l[o + 28];
        double x3 = (y3 - l[o + 27] * x4 - l[o + 33] * x5) * l[o + 21];
        double x2 = (y2 - l[o + 20] * x3 - l[o + 26] * x4 - l[o + 32] * x5) * l[o + 14];
        double x1 = (y1 - l[o + 13] * x2 - l[o + 19] * x3 - l[o + 25] * x4 - l[o + 31] * x5) * l[o + 7];
        double x0 = (y0 - l[o + 6] * x1 - l[o + 12] * x2 - l[o + 18] * x3 - l[o + 24] * x4 - l[o + 30] * x5) * l[o];
        y[yo] = x0;
        y[yo + 1] = x1;
        y[yo + 2] = x2;
        y[yo + 3] = x3;
        y[yo + 4] = x4;
        y[yo + 5] = x5;
    }

    /** y = M x for a block of the rigid layout (diagonal linear part, no coupling). */
    private static void rigidMultiply(double[] m, int mo, double[] x, int xo, double[] y, int yo) {
        double im = m[mo];
        y[yo] = im * x[xo];
        y[yo + 1] = im * x[xo + 1];
        y[yo + 2] = im * x[xo + 2];
        double x3 = x[xo + 3];
        double x4 = x[xo + 4];
        double x5 = x[xo + 5];
        y[yo + 3] = m[mo + 21] * x3 + m[mo + 22] * x4 + m[mo + 23] * x5;
        y[yo + 4] = m[mo + 27] * x3 + m[mo + 28] * x4 + m[mo + 29] * x5;
        y[yo + 5] = m[mo + 33] * x3 + m[mo + 34] * x4 + m[mo + 35] * x5;
    }

    /**
     * H += beta J^T J for an armed contact pair (ConstraintProblem.armed: 3 rows (d_i, r x d_i)
     * over an orthonormal frame), upper triangle: sum_i J_i^T J_i = [[I, -[r]x], [[r]x, |r|^2 I -
     * r r^T]], whatever the frame and the side's sign.
     */
    static void addArmed(double[] h, int o, double beta, double[] arm, int ao) {
        double rx = arm[ao];
        double ry = arm[ao + 1];
        double rz = arm[ao + 2];
        double bx = beta * rx;
        double by = beta * ry;
        double bz = beta * rz;
        h[o] += beta;
        h[o + 7] += beta;
        h[o + 14] += beta;
        // -[r]x: rows (0, rz, -ry), (-rz, 0, rx), (ry, -rx, 0)
        h[o + 4] += bz;
        h[o + 5] -= by;
        h[o + 9] -= bz;
        h[o + 11] += bx;
        h[o + 15] += by;
        h[o + 16] -= bx;
        // |r|^2 I - r r^T
        h[o + 21] += by * ry + bz * rz;
        h[o + 22] -= bx * ry;
        h[o + 23] -= bx * rz;
        h[o + 28] += bx * rx + bz * rz;
        h[o + 29] -= by * rz;
        h[o + 35] += bx * rx + by * ry;
    }

    /**
     * tr(J A^-1 J^T) for an armed contact pair and a^-1 of the rigid layout: 3 / m + |r|^2 tr(I^-1) - r^T I^-1 r.
     */
    static double armedTrace(double[] a, int o, double[] arm, int ao) {
        double rx = arm[ao];
        double ry = arm[ao + 1];
        double rz = arm[ao + 2];
        double r2 = rx * rx + ry * ry + rz * rz;
        double quad = rx * (a[o + 21] * rx + a[o + 22] * ry + a[o + 23] * rz)
                + ry * (a[o + 27] * rx + a[o + 28] * ry + a[o + 29] * rz)
                + rz * (a[o + 33] * rx + a[o + 34] * ry + a[o + 35] * rz);
        return 3 * a[o] + r2 * (a[o + 21] + a[o + 28] + a[o + 35]) - quad;
    }

    /** {@link #armedTrace} for a general A^-1 (6 x 6 at a[o..]): tr(A^-1 K), K from {@link #addArmed} with beta 1. */
    private double armedTraceGeneral(double[] a, int o, double[] arm, int ao, int chunk) {
        int t = 42 * chunk;
        java.util.Arrays.fill(scratch, t, t + 36, 0);
        addArmed(scratch, t, 1, arm, ao);
        double trace = 0;
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                // K's upper triangle only: K_ji = K_ij
                double k = j >= i ? scratch[t + 6 * i + j] : scratch[t + 6 * j + i];
                trace += a[o + 6 * i + j] * k;
            }
        }
        return trace;
    }

    /** j A j^T for the 6 x 6 block at {@code a[ao..]} and the row at {@code j[jo..jo+6)}. */
    /** j^T a j for a of the rigid layout (inverse mass on the diagonal of the linear block, no coupling). */
    static double rigidQuadratic(double[] a, int ao, double[] j, int jo) {
        double j3 = j[jo + 3];
        double j4 = j[jo + 4];
        double j5 = j[jo + 5];
        double lin = (j[jo] * j[jo] + j[jo + 1] * j[jo + 1] + j[jo + 2] * j[jo + 2]) * a[ao];
        return lin + j3 * (a[ao + 21] * j3 + a[ao + 22] * j4 + a[ao + 23] * j5)
                + j4 * (a[ao + 27] * j3 + a[ao + 28] * j4 + a[ao + 29] * j5)
                + j5 * (a[ao + 33] * j3 + a[ao + 34] * j4 + a[ao + 35] * j5);
    }

    static double quadratic(double[] a, int ao, double[] j, int jo) {
        double s = 0;
        for (int d = 0; d < 6; d++) {
            double row = 0;
            for (int f = 0; f < 6; f++) {
                row += a[ao + 6 * d + f] * j[jo + f];
            }
            s += j[jo + d] * row;
        }
        return s;
    }
}
