package io.tandem.physics;

import io.tandem.physics.internal.collision.BroadPhase;
import io.tandem.physics.internal.collision.ContactManifold;
import io.tandem.physics.internal.collision.NarrowPhase;
import io.tandem.physics.internal.collision.PairBuffer;
import io.tandem.physics.internal.dynamics.RigidOps;
import io.tandem.physics.internal.geometry.AabbOps;
import io.tandem.physics.internal.solver.ConstraintProblem;
import io.tandem.physics.internal.parallel.ParallelLoop;

/*
 * Implementation notes.
 *
 * Bodies joined by a joint (or an articulation's joint), and the links of one articulation unless
 * it self-collides, never collide with each other (as in Gazebo and Bullet: a joint's
 * bodies overlap at the joint by construction). Contacts in the form of shared/specs/physics.md
 * 1.3 (b): one CONTACT block per manifold point
 * (normal, two tangents), y_n = n . (v_B(P) - v_A(P)) + e_n >= 0, Signorini-Coulomb with the
 * exact cone, restitution 0. Detection runs at the midpoint pose q^{k+1/2} (PhysicsEngine), and
 * the end gap is g(q^{k+1}) = g + h/2 y_n. Bias: a gap g within the speculative margin gives
 * e_n = g / h (the bodies may close half of it this step and the rest the next, and never pass: a
 * falling body comes to rest in two steps without penetration and without bounce); a penetration d beyond SLOP is removed at ERP per
 * step (e_n = -ERP (d - SLOP) / h), so resting contacts settle at about SLOP of overlap. Friction
 * of a pair: the geometric mean of the two colliders' coefficients (equal coefficients give that
 * coefficient). Warm start: last step's impulses of the same (collider pair, feature), rotated to
 * nothing (normals change slowly; the solver corrects the rest).
 *
 * Canonical order (subset equivalence, see PhysicsEngine): the AABBs go to the broad phase at the
 * colliders' canonical ranks (PhysicsModel: bodies by global id, then shapes in body order), so its
 * pairs (i < j, sorted by i then j) come in canonical order, side A is always the collider of
 * lower rank, and the contact blocks of any group of bodies appear in the same relative order,
 * with the same sides, whatever other bodies the model holds and whatever their indices. Manifold
 * points keep the narrow phase's order. The warm starts live in PhysicsState (ContactCache),
 * keyed by (body id A, body id B, shape indices, feature): global ids, never model indices.
 *
 * Parallel narrow phase and rows: the pairs' manifolds are computed in parallel chunks (one
 * NarrowPhase per chunk, each pair written to its own slot); a serial prefix sum over the pairs'
 * point counts gives every pair its first contact block; then the rows are filled in parallel
 * chunks, each pair writing only its own blocks and reading the warm-start table (written only
 * after the solve, in store). Every pair's manifold and rows depend only on its two poses and its
 * own warm starts, and the blocks keep pair order, so the result is bitwise the same for any
 * thread count.
 */

/** Collision detection and contact rows. Allocation-free once grown. Not thread-safe. */
final class ContactAssembly {
    /** speculative margin, m */
    static final double MARGIN = 0.005;
    /** allowed resting overlap, m */
    static final double SLOP = 0.0005;
    /** share of the excess penetration removed per step */
    static final double ERP = 0.2;

    private final PhysicsModel m;
    private final ParallelLoop loop;
    /** one narrow phase and manifold per parallel chunk */
    private NarrowPhase[] narrow = new NarrowPhase[0];
    /** the Jacobian rows of contact blocks are left unwritten (ConstraintProblem.armedRows false) */
    private final boolean compactOnly;
    private ContactManifold[] chunkManifold = new ContactManifold[0];
    /** per broad-phase pair: its points (0: none or skipped), normal, points, depths, features */
    private int[] pairCount = new int[0];
    private double[] pairNormal = new double[0];
    private double[] pairPoint = new double[0];
    private double[] pairDepth = new double[0];
    private int[] pairFeature = new int[0];
    private final ParallelLoop.RangeBody narrowRange = this::narrowRange;
    private int[] dynNow;
    private PhysicsState stateNow;
    private final ParallelLoop.RangeBody posesRange = this::poses;
    private final BroadPhase broad;
    private final PairBuffer pairs = new PairBuffer();
    private final double[] aabbMin;
    private final double[] aabbMax;
    /** world pose of every collider this step (colliders x 3, x 4) */
    private final double[] worldPos;
    private final double[] worldQuat;
    /** broad-phase group per canonical rank (0 = static) */
    private final int[] group;
    /** per broad-phase pair: its first contact block, counted from this step's first contact block */
    private int[] pairBlock = new int[0];
    /** per parallel chunk: the contact frame (normal, two tangents) and the deepest penetration */
    private double[][] chunkFrame = new double[0][];
    private double[] chunkDepth = new double[0];
    private final ParallelLoop.RangeBody rowsRange = this::rows;
    private ConstraintProblem problemNow;
    private double[] velNow;
    private double timeStepNow;
    private int firstBlock;
    private int firstRow;
    /** per contact row block of this step: its warm-start key (body A, body B, packed) */
    private long[] blockBodyA = new long[0];
    private long[] blockBodyB = new long[0];
    private long[] blockPacked = new long[0];
    private int[] blockRow = new int[0];
    /** per parallel chunk of the store: found two blocks out of pair order */
    private boolean[] chunkUnordered = new boolean[0];
    private final ParallelLoop.RangeBody storeRange = this::storeRange;
    private ContactCache warmNow;
    private int contacts;
    private double maxDepth;
    /** body pairs joined by a joint (min << 32 | max), sorted: they never collide with each other */
    private final long[] joined;

    ContactAssembly(PhysicsModel m, ParallelLoop loop) {
        this(m, loop, false);
    }

    /**
     * @param compactOnly the solver reads contact blocks only in their compact form
     *                    (ConstraintProblem.armed: SubADMM): the Jacobian rows are not written
     */
    ContactAssembly(PhysicsModel m, ParallelLoop loop, boolean compactOnly) {
        this.m = m;
        this.loop = loop;
        this.compactOnly = compactOnly;
        this.broad = new BroadPhase(loop);
        Articulations art = m.articulations;
        // a cable or deformable body never collides with what one of its members is jointed to (a
        // grasp, a clamp): the family's members with that body
        int[] familySize = new int[1];
        for (int i = 0; i < m.bodies; i++) {
            if (m.family[i] >= 0) {
                if (m.family[i] >= familySize.length) {
                    familySize = java.util.Arrays.copyOf(familySize, m.family[i] + 1);
                }
                familySize[m.family[i]]++;
            }
        }
        java.util.TreeSet<Long> familyHolds = new java.util.TreeSet<>();
        for (int j = 0; j < m.joints; j++) {
            int a = m.jointA[j];
            int b = m.jointB[j];
            if (a >= 0 && b >= 0 && m.family[a] != m.family[b]) {
                if (m.family[a] >= 0) {
                    familyHolds.add((long) m.family[a] << 32 | b);
                }
                if (m.family[b] >= 0) {
                    familyHolds.add((long) m.family[b] << 32 | a);
                }
            }
        }
        int most = m.joints + art.dofs;
        for (long fh : familyHolds) {
            most += familySize[(int) (fh >>> 32)];
        }
        for (int a = 0; a < art.count; a++) {
            int n = art.dofStart[a + 1] - art.dofStart[a];
            most += (art.selfCollide[a] ? 0 : n * (n - 1) / 2) + (art.base[a] >= 0 ? n : 0);
        }
        long[] keys = new long[most];
        int nk = 0;
        for (int j = 0; j < m.joints; j++) {
            if (m.jointA[j] >= 0 && m.jointB[j] >= 0) {
                keys[nk++] = pairKey(m.jointA[j], m.jointB[j]);
            }
        }
        // an articulation's joints too: a link and its parent's body (its base's for a root joint)
        for (int d = 0; d < art.dofs; d++) {
            int parent = art.parentBody(d);
            if (parent < 0) {
                parent = art.base[art.articulationOf[d]];
            }
            if (art.body[d] >= 0 && parent >= 0) {
                keys[nk++] = pairKey(art.body[d], parent);
            }
        }
        // and, unless it self-collides, any two links of one articulation (Gazebo's <self_collide>
        // false, its default: a robot's links overlap near its joints by design)
        for (int a = 0; a < art.count; a++) {
            if (art.selfCollide[a]) {
                continue;
            }
            for (int d = art.dofStart[a]; d < art.dofStart[a + 1]; d++) {
                for (int e = d + 1; e < art.dofStart[a + 1]; e++) {
                    if (art.body[d] >= 0 && art.body[e] >= 0) {
                        keys[nk++] = pairKey(art.body[d], art.body[e]);
                    }
                }
                if (art.base[a] >= 0 && art.body[d] >= 0 && art.parentBody(d) >= 0) {
                    // (the base with a root joint's child is already in)
                    keys[nk++] = pairKey(art.body[d], art.base[a]);
                }
            }
        }
        if (!familyHolds.isEmpty()) {
            for (int i = 0; i < m.bodies; i++) {
                if (m.family[i] < 0) {
                    continue;
                }
                for (long fh : familyHolds.subSet((long) m.family[i] << 32, (long) (m.family[i] + 1) << 32)) {
                    keys[nk++] = pairKey(i, (int) fh);
                }
            }
        }
        joined = java.util.Arrays.copyOf(keys, nk);
        java.util.Arrays.sort(joined);
        int n = m.colliders;
        aabbMin = new double[3 * n];
        aabbMax = new double[3 * n];
        worldPos = new double[3 * n];
        worldQuat = new double[4 * n];
        group = new int[n];
        // room for 4 pairs per collider up front: the step should not allocate when contacts appear
        growPairs(4 * n + 16);
        // a robot's links (and its static base) never collide with each other: one family each,
        // which the broad phase drops at once (a base shared by several robots joins the first's;
        // the others' pairs with it are dropped by the joined-pair filter as before)
        int[] baseFamily = new int[m.bodyType.length];
        for (int a = art.count - 1; a >= 0; a--) {
            if (!art.selfCollide[a] && art.base[a] >= 0) {
                baseFamily[art.base[a]] = 2 + a;
            }
        }
        for (int c = 0; c < n; c++) {
            int b = m.colliderBody[c];
            int fam = 1;
            if (art.count > 0 && art.dofOfBody[b] >= 0) {
                int a = art.articulationOf[art.dofOfBody[b]];
                if (!art.selfCollide[a]) {
                    fam = 2 + a;
                }
            }
            if (m.family[b] >= 0) {
                // a cable's segments, a deformable body's nodes: one family each, after the robots'
                fam = 2 + art.count + m.family[b];
            }
            group[m.colliderRank[c]] = m.bodyType[b] == BodyType.DYNAMIC ? fam : baseFamily[b];
        }
    }

    private void growPairs(int np) {
        if (pairCount.length < np) {
            int cap = Math.max(np, 2 * pairCount.length);
            pairCount = new int[cap];
            pairNormal = new double[3 * cap];
            pairPoint = new double[3 * ContactManifold.MAX_POINTS * cap];
            pairDepth = new double[ContactManifold.MAX_POINTS * cap];
            pairFeature = new int[ContactManifold.MAX_POINTS * cap];
            pairBlock = new int[cap];
        }
        int chunks = loop.chunks(np);
        if (narrow.length < chunks) {
            int old = narrow.length;
            narrow = java.util.Arrays.copyOf(narrow, chunks);
            chunkManifold = java.util.Arrays.copyOf(chunkManifold, chunks);
            chunkFrame = java.util.Arrays.copyOf(chunkFrame, chunks);
            chunkDepth = java.util.Arrays.copyOf(chunkDepth, chunks);
            for (int i = old; i < chunks; i++) {
                narrow[i] = new NarrowPhase();
                chunkManifold[i] = new ContactManifold();
                // 9 used, padded so that two chunks' frames never share a cache line
                chunkFrame[i] = new double[24];
            }
        }
    }

    /** World pose and box of colliders [lo, hi). */
    private void poses(int lo, int hi, int chunk) {
        PhysicsState s = stateNow;
        // world pose of every collider: its body's pose composed with its pose in the body
        for (int c = lo; c < hi; c++) {
            int b = m.colliderBody[c];
            if (m.colliderOffset[c]) {
                RigidOps.rotate(s.quat, 4 * b, m.colliderPos[3 * c], m.colliderPos[3 * c + 1], m.colliderPos[3 * c + 2],
                        worldPos, 3 * c);
                worldPos[3 * c] += s.pos[3 * b];
                worldPos[3 * c + 1] += s.pos[3 * b + 1];
                worldPos[3 * c + 2] += s.pos[3 * b + 2];
                RigidOps.multiply(s.quat, 4 * b, m.colliderQuat, 4 * c, worldQuat, 4 * c);
            } else {
                System.arraycopy(s.pos, 3 * b, worldPos, 3 * c, 3);
                System.arraycopy(s.quat, 4 * b, worldQuat, 4 * c, 4);
            }
            // boxes at canonical ranks: the pairs come out in canonical order
            AabbOps.compute(m.colliderShape[c], worldPos, worldQuat, c, MARGIN, aabbMin, aabbMax, m.colliderRank[c]);
        }
    }

    /** The manifolds of broad-phase pairs [lo, hi), each into its own slot. */
    private void narrowRange(int lo, int hi, int chunk) {
        NarrowPhase np = narrow[chunk];
        ContactManifold mf = chunkManifold[chunk];
        int[] dyn = dynNow;
        for (int k = lo; k < hi; k++) {
            pairCount[k] = 0;
            int ca = m.colliderAtRank[pairs.first(k)];
            int cb = m.colliderAtRank[pairs.second(k)];
            int ba = m.colliderBody[ca];
            int bb = m.colliderBody[cb];
            if (ba == bb || (dyn[ba] < 0 && dyn[bb] < 0)
                    || (joined.length > 0 && java.util.Arrays.binarySearch(joined, pairKey(ba, bb)) >= 0)) {
                continue;
            }
            int points = np.collide(m.colliderShape[ca], worldPos, worldQuat, ca, m.colliderShape[cb], cb, MARGIN, mf);
            pairCount[k] = points;
            if (points > 0) {
                System.arraycopy(mf.normal, 0, pairNormal, 3 * k, 3);
                System.arraycopy(mf.point, 0, pairPoint, 12 * k, 3 * points);
                System.arraycopy(mf.depth, 0, pairDepth, 4 * k, points);
                System.arraycopy(mf.feature, 0, pairFeature, 4 * k, points);
            }
        }
    }

    /** @return contact points of the last step */
    int contacts() {
        return contacts;
    }

    /** @return the largest penetration found by the last step's collision detection, m */
    double maxDepth() {
        return maxDepth;
    }

    void assemble(PhysicsState s, ConstraintProblem pr, int[] dyn, double[] vel, double h) {
        int n = m.colliders;
        contacts = 0;
        maxDepth = 0;
        if (n < 2) {
            return;
        }
        // world pose and box of every collider, in parallel (each writes its own slots)
        stateNow = s;
        loop.run(n, posesRange);
        // the lookups walk the warm starts in pair order (a no-op unless entries were added since)
        s.contacts.order();
        int np = broad.findPairs(n, aabbMin, aabbMax, group, pairs);
        growPairs(np);
        dynNow = dyn;
        loop.run(np, narrowRange);
        // each pair's first block (a prefix sum in pair order), then the rows in parallel, each
        // pair writing its own blocks: the same blocks in the same order for any thread count
        int blocks = 0;
        for (int k = 0; k < np; k++) {
            pairBlock[k] = blocks;
            blocks += pairCount[k];
        }
        contacts = blocks;
        growBlocks(blocks);
        problemNow = pr;
        velNow = vel;
        timeStepNow = h;
        firstRow = pr.totalRows;
        // each block's kind and rows are set by its pair in rows
        firstBlock = pr.reserveBlocks(blocks, 3);
        if (compactOnly) {
            pr.armedRows = false;
        }
        java.util.Arrays.fill(chunkDepth, 0, loop.chunks(np), 0);
        loop.run(np, rowsRange);
        for (int k = 0; k < loop.chunks(np); k++) {
            maxDepth = Math.max(maxDepth, chunkDepth[k]);
        }
        problemNow = null;
        velNow = null;
        stateNow = null;
        dynNow = null;
    }

    /** The contact blocks of broad-phase pairs [lo, hi), at the blocks the prefix sum gave them. */
    private void rows(int lo, int hi, int chunk) {
        PhysicsState s = stateNow;
        ConstraintProblem pr = problemNow;
        int[] dyn = dynNow;
        double[] vel = velNow;
        double h = timeStepNow;
        ContactCache warm = s.contacts;
        double[] nrm = chunkFrame[chunk];
        double depthMax = 0;
        // the pairs come in pair order, as the warm starts do: one cursor walks them forward
        int cursor = 0;
        for (int k = lo; k < hi; k++) {
            int points = pairCount[k];
            if (points == 0) {
                continue;
            }
            int ca = m.colliderAtRank[pairs.first(k)];
            int cb = m.colliderAtRank[pairs.second(k)];
            int ba = m.colliderBody[ca];
            int bb = m.colliderBody[cb];
            int da = dyn[ba];
            int db = dyn[bb];
            double mu = Math.sqrt(m.colliderFriction[ca] * m.colliderFriction[cb]);
            // the frame: normal at [0, 3), tangents at [3, 6) and [6, 9)
            System.arraycopy(pairNormal, 3 * k, nrm, 0, 3);
            RigidOps.perpendicular(nrm, 0, nrm, 3, nrm, 6);
            long idA = m.bodyId[ba];
            long idB = m.bodyId[bb];
            long pairPacked = ContactCache.packed(m.colliderShapeIndex[ca], m.colliderShapeIndex[cb], 0);
            cursor = warm.seek(cursor, idA, idB, pairPacked);
            for (int q = 0; q < points; q++) {
                int block = pairBlock[k] + q;
                int c = firstBlock + block;
                int r0 = firstRow + 3 * block;
                pr.kind[c] = ConstraintProblem.CONTACT;
                pr.rows[c] = 3;
                pr.rowStart[c] = r0;
                pr.bodyA[c] = da;
                pr.bodyB[c] = db;
                pr.mu[c] = mu;
                double depth = pairDepth[4 * k + q];
                depthMax = Math.max(depthMax, depth);
                double px = pairPoint[12 * k + 3 * q];
                double py = pairPoint[12 * k + 3 * q + 1];
                double pz = pairPoint[12 * k + 3 * q + 2];
                // the compact form: frame and lever arms (the rows below are (d, r x d), side A negated)
                int f = 15 * c;
                System.arraycopy(nrm, 0, pr.contactFrame, f, 9);
                pr.contactFrame[f + 9] = px - s.pos[3 * ba];
                pr.contactFrame[f + 10] = py - s.pos[3 * ba + 1];
                pr.contactFrame[f + 11] = pz - s.pos[3 * ba + 2];
                pr.contactFrame[f + 12] = px - s.pos[3 * bb];
                pr.contactFrame[f + 13] = py - s.pos[3 * bb + 1];
                pr.contactFrame[f + 14] = pz - s.pos[3 * bb + 2];
                pr.armed[c] = true;
                for (int r = 0; r < 3; r++) {
                    int row = r0 + r;
                    // a static or kinematic side has no velocity unknowns: its rows stay 0, and a
                    // kinematic side's own motion (J_side vel_side) goes into the bias
                    double bias = 0;
                    if (da >= 0) {
                        if (!compactOnly) {
                            fill(pr.jA, row, nrm, 3 * r, pr.contactFrame[f + 9], pr.contactFrame[f + 10], pr.contactFrame[f + 11], -1);
                        }
                    } else {
                        if (!compactOnly) {
                            clear(pr.jA, row);
                        }
                        bias += moving(nrm, 3 * r, pr.contactFrame, f + 9, ba, vel, -1);
                    }
                    if (db >= 0) {
                        if (!compactOnly) {
                            fill(pr.jB, row, nrm, 3 * r, pr.contactFrame[f + 12], pr.contactFrame[f + 13], pr.contactFrame[f + 14], 1);
                        }
                    } else {
                        if (!compactOnly) {
                            clear(pr.jB, row);
                        }
                        bias += moving(nrm, 3 * r, pr.contactFrame, f + 12, bb, vel, 1);
                    }
                    pr.e[row] = bias;
                    if (!compactOnly) {
                        pr.gamma[row] = 0;
                        pr.lo[row] = Double.NEGATIVE_INFINITY;
                        pr.hi[row] = Double.POSITIVE_INFINITY;
                    }
                }
                pr.e[r0] += depth < 0 ? -depth / h : -ERP * Math.max(0, depth - SLOP) / h;
                long packed = pairPacked | (pairFeature[4 * k + q] & 0xFFFFFFFFL);
                // the table is only read during the step (store writes it afterwards)
                int slot = warm.match(cursor, idA, idB, packed);
                pr.p[r0] = slot >= 0 ? warm.value(slot, 0) : 0;
                pr.p[r0 + 1] = slot >= 0 ? warm.value(slot, 1) : 0;
                pr.p[r0 + 2] = slot >= 0 ? warm.value(slot, 2) : 0;
                blockBodyA[block] = idA;
                blockBodyB[block] = idB;
                blockPacked[block] = packed;
                blockRow[block] = r0;
            }
        }
        chunkDepth[chunk] = depthMax;
    }

    private static long pairKey(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }

    private void growBlocks(int blocks) {
        if (blockRow.length < blocks) {
            int cap = Math.max(64, Math.max(blocks, 2 * blockRow.length));
            blockBodyA = new long[cap];
            blockBodyB = new long[cap];
            blockPacked = new long[cap];
            blockRow = new int[cap];
            chunkUnordered = new boolean[loop.chunks(cap)];
        }
    }

    /** Keeps this step's contact impulses in the state, for the next step's warm start. */
    void store(PhysicsState s, ConstraintProblem pr) {
        // every lookup of this step is done: the table now takes this step's impulses, in block
        // order, which is pair order (each chunk checks its part; a run out of order is sorted)
        warmNow = s.contacts;
        problemNow = pr;
        warmNow.startRun(contacts);
        java.util.Arrays.fill(chunkUnordered, 0, loop.chunks(contacts), false);
        loop.run(contacts, storeRange);
        for (int k = 0; k < loop.chunks(contacts); k++) {
            if (chunkUnordered[k]) {
                warmNow.markUnordered();
            }
        }
        warmNow = null;
        problemNow = null;
    }

    /** Warm-start entries [lo, hi) of this step's contact blocks. */
    private void storeRange(int lo, int hi, int chunk) {
        ContactCache warm = warmNow;
        double[] p = problemNow.p;
        boolean unordered = false;
        for (int k = lo; k < hi; k++) {
            int r = blockRow[k];
            warm.set(k, blockBodyA[k], blockBodyB[k], blockPacked[k], p[r], p[r + 1], p[r + 2]);
            unordered |= k > 0 && ContactCache.comparePairs(blockBodyA[k - 1], blockBodyB[k - 1], blockPacked[k - 1],
                    blockBodyA[k], blockBodyB[k], blockPacked[k]) > 0;
        }
        chunkUnordered[chunk] = unordered;
    }

    /**
     * Row r of j (6 wide at [6r]) = sign (d; r x d): the velocity along direction d = d[d0..d0+3)
     * of the point at lever arm (rx, ry, rz) from a body's centre (also ArticulationStep's rows).
     */
    static void fill(double[] j, int r, double[] d, int d0, double rx, double ry, double rz, double sign) {
        int o = 6 * r;
        double dx = d[d0];
        double dy = d[d0 + 1];
        double dz = d[d0 + 2];
        j[o] = sign * dx;
        j[o + 1] = sign * dy;
        j[o + 2] = sign * dz;
        j[o + 3] = sign * (ry * dz - rz * dy);
        j[o + 4] = sign * (rz * dx - rx * dz);
        j[o + 5] = sign * (rx * dy - ry * dx);
    }

    /**
     * J_side vel_side of a static or kinematic side for the row along d = dir[d0..]: sign d . (v +
     * w x r) with the side's lever arm r at arm[a..]; 0 for a side at rest (a static body).
     */
    private static double moving(double[] dir, int d0, double[] arm, int a, int body, double[] vel, double sign) {
        int o = 6 * body;
        if (vel[o] == 0 && vel[o + 1] == 0 && vel[o + 2] == 0 && vel[o + 3] == 0 && vel[o + 4] == 0 && vel[o + 5] == 0) {
            return 0;
        }
        return sign * ConstraintProblem.pointVelocity(dir, d0, arm, a, vel, o);
    }

    private static void clear(double[] j, int r) {
        for (int d = 0; d < 6; d++) {
            j[6 * r + d] = 0;
        }
    }
}
