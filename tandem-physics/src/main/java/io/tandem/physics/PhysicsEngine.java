package io.tandem.physics;

import io.tandem.physics.internal.dynamics.RigidOps;
import io.tandem.physics.internal.solver.ConstraintProblem;
import io.tandem.physics.internal.solver.ConstraintSolver;
import io.tandem.physics.internal.solver.FullAdmm;
import io.tandem.physics.internal.solver.NonsmoothNewton;
import io.tandem.physics.internal.parallel.ParallelLoop;
import io.tandem.physics.internal.solver.Pgs;
import io.tandem.physics.internal.solver.ProjectedJacobi;
import io.tandem.physics.internal.solver.SubAdmm;

/*
 * Implementation notes.
 *
 * One step: the midpoint rule of shared/specs/physics.md 1.3 (a), in its drift-kick-drift form
 * (Moreau's midpoint scheme; position Verlet without constraints):
 *   1. the first half drift: q^{k+1/2} = q^k (+) h/2 v^k for dynamic bodies; kinematic bodies take
 *      their trajectory's pose and velocity at t + h/2;
 *   2. dynamics at the midpoint: per dynamic body A = diag(m I, I_w(q^{k+1/2})) and
 *      b = A v^k + h m g (linear) and I_w w^k - h w^k x (I_w w^k) (gyroscopic term, explicit at v^k);
 *   3. constraints at the midpoint: joint rows (JointAssembly), contact rows (ContactAssembly:
 *      broad phase, narrow phase, one Signorini-Coulomb block per manifold point, warm-started by
 *      feature), Jacobians and errors evaluated at q^{k+1/2};
 *   4. the solver (SubADMM, PGS, projected Jacobi, or a baseline: full-system ADMM, non-smooth
 *      Newton) yields v^{k+1} and the impulses;
 *   5. a finite check on every dynamic body before anything is kept (a NaN names the body and
 *      the step, and the start poses are restored);
 *   6. the second half drift: q^{k+1} = q^{k+1/2} (+) h/2 v^{k+1}, so that
 *      x^{k+1} = x^k + h (v^k + v^{k+1}) / 2 (for rotations the two half rotations are composed);
 *   7. SubADMM only: the joints it solves inside a subsystem (both bodies in one subsystem, or one
 *      body and the world) are projected back onto their position manifold: Newton steps
 *      min |dx|_A s.t. J dx + phi = 0 (post-stabilization, Cline & Pai 2003), each solved exactly
 *      by the same subsystem solve, while any row's error exceeds 0.1 mm (or 1e-4 rad), at most 3.
 *      Velocities are left as solved. Why: a velocity-exact solve still drifts by the anchors'
 *      second-order motion, about h^2 w^2 r / 2 per step; in the 50-link chain's whip that reached
 *      33 mm (feedback 0.5 only halves it per step). One Newton pass left 8.9 mm, the adaptive
 *      passes 0.13 mm, and most steps need no pass (their drift stays below the tolerance).
 *      Tried and dropped: predicting that motion in the joint bias from w^k kept a spinning body
 *      exact but made the chain's whip blow up (the bias injects energy when w changes fast);
 *      chord steps reusing the first pass's factorization diverged in the whip.
 *
 * Why Jacobians at q^{k+1/2}: with the midpoint update, constraint impulses do work
 * p . J v^{k+1/2}. Evaluated at q^k (an earlier version), J v^k carries the motion's curvature and
 * the impulses did net positive work: a 1 m, 1 kg pendulum released at 1 rad (h = 1/240 s, 10^4
 * steps) gained 17.3 J for every bias form tried, so that version integrated positions with
 * v^{k+1} (symplectic Euler) instead. Evaluated at the predicted midpoint, with the hard-row bias
 * e = phi(q^{k+1/2}) / h, the same pendulum keeps its energy within [-0.0013, 0] J and its rod
 * length within 0.06 mm (symplectic Euler: [-0.033, +0.027] J, 0.16 mm), and a constant force
 * (free fall) is integrated exactly. JointAssembly explains the bias.
 *
 * Subset equivalence (the prerequisite of Gazebo-style distributed runs, where a secondary steps
 * only some of the world's bodies): a group of bodies that shares no constraint with the others
 * (no contact, no joint, no subsystem; static and kinematic bodies do not connect groups) steps
 * bitwise the same whether the others are in the model or not, and whatever indices its bodies
 * have, provided they keep their global ids (BodyBuilder.id). What makes it so:
 *   - everything order-dependent follows global ids, never indices or hashing: the solver's body
 *     order (dyn numbering by PhysicsModel.bodyOrder), joint rows (by joint id), contact blocks
 *     (broad-phase pairs in canonical collider order, side A the lower (body id, shape index);
 *     manifold points in the narrow phase's order), so a group's blocks come in the same relative
 *     order and every per-body sum runs over the same terms in the same order;
 *   - no scalar computed over all constraints reaches a body: the solvers' global scalars (PGS's
 *     conjugate-gradient beta, the early-stopping tests of PGS and SubADMM) are per island
 *     (Islands), and the joint projection (7.) decides per subsystem;
 *   - every dynamic input of a step is in PhysicsState: poses, velocities, joint impulses, motor
 *     commands (PhysicsState.setMotorSpeed), and the contact warm starts keyed by global ids (ContactCache); the engine keeps only scratch and
 *     structure caches that do not change results. A new engine on a rebuilt model continues
 *     bitwise, and a group's state moves between states (copyContactWarmStarts).
 * This holds for SUB_ADMM, PGS (with its per-island NNCG) and PROJECTED_JACOBI, for any thread
 * count, and for the FULL_ADMM baseline (its minimum-degree order keeps each island's relative
 * order). Tested by SubsetEquivalenceTest. Not for the NONSMOOTH_NEWTON baseline, whose inner
 * products and line search span every island.
 */

/**
 * Steps a {@link PhysicsState} of one {@link PhysicsModel}. Holds all scratch (a workspace sized
 * on the first step): after that a step allocates nothing. Not thread-safe: one stepping thread;
 * with {@code threads > 1} the step's stages (per-body updates, collision, contact rows, the
 * solver) share their work with {@code threads - 1} worker threads of the engine's own (results
 * are bitwise the same for any thread count). Close it to stop them.
 *
 * <p>An engine keeps no dynamic state of its own (contact warm starts are in the state), and a
 * step depends on bodies' global ids, never on their indices: a group of bodies that interacts
 * with no other body (no contact, no joint, no shared subsystem) steps bitwise the same in any
 * model that holds it with the same ids, for every solver and thread count. That is what lets a
 * distributed run reproduce a standalone one, and a body move between models with its state.
 */
public final class PhysicsEngine implements AutoCloseable {
    private final PhysicsModel m;
    private final ConstraintProblem pr = new ConstraintProblem();
    private final ParallelLoop loop;
    private final ConstraintSolver solver;
    private final JointAssembly joints;
    private final ContactAssembly contacts;
    /** problem index of each body, -1 if not dynamic */
    private final int[] dyn;
    /** body of each problem index */
    private final int[] bodyOf;
    private final int[] groups;
    /** per body: start velocity (dynamic) or midpoint velocity (kinematic), 6 each */
    private final double[] vel;
    /** per parallel chunk: a world inertia (3 x 3) */
    private final double[][] chunkInertia;
    /** per parallel chunk: its first body with a non-finite velocity, or -1 */
    private final int[] chunkNonFinite;
    /** the problem's bodies and subsystems are laid out (the first step does it) */
    private boolean laidOut;
    /** the state being stepped, for the per-body loops */
    private PhysicsState stateNow;
    // loop bodies as fields: a bound method reference would allocate on every call
    private final ParallelLoop.RangeBody firstDriftRange = this::firstDrift;
    private final ParallelLoop.RangeBody dynamicsRange = this::dynamics;
    private final ParallelLoop.RangeBody finiteRange = this::finite;
    private final ParallelLoop.RangeBody secondDriftRange = this::secondDrift;
    private final java.util.function.LongSupplier stageClockNs;
    private long lastSolveNs;
    private int lastIterations;
    private final double[] sample = new double[13];
    /** poses at the start of the step, restored when a step diverges */
    private final double[] startPos;
    private final double[] startQuat;
    // position projection of the joints SubADMM solves inside a subsystem (see the notes, 7.)
    private final boolean[] projected;
    private final boolean anyProjected;
    private final ConstraintProblem projection = new ConstraintProblem();
    private final SubAdmm projector;
    private final double[] zeroVel;
    /** per subsystem of the projection: its joints exceed the tolerance / its solve is not finite */
    private boolean[] needsPass = new boolean[0];
    private boolean[] skipPass = new boolean[0];
    /** subsystems (groups) of the dynamic bodies: groups holds 0 .. subsystemCount - 1 */
    private final int subsystemCount;
    /** the articulations' part of a step, or null without articulations */
    private final ArticulationStep articulated;
    /** the deformable bodies' part of a step, or null without them */
    private final DeformableStep deformable;
    /** per body: a link of an articulation (posed by its joints, not drifted) or a deformable body's node */
    private final boolean[] isLink;
    /** most Newton passes of the joint projection per step */
    static final int PROJECTION_PASSES = 3;
    /** joint rows with errors below this need no projection, m (point rows) or rad (angular rows) */
    static final double PROJECTION_TOLERANCE = 1e-4;

    /**
     * @param model the world to step
     */
    public PhysicsEngine(PhysicsModel model) {
        this(model, null);
    }

    /**
     * @param model        the world to step
     * @param stageClockNs a monotonic nanosecond clock for the stage timers ({@link #lastSolveNanos()}),
     *                     or null for none; the engine never reads wall time by itself
     */
    public PhysicsEngine(PhysicsModel model, java.util.function.LongSupplier stageClockNs) {
        this.m = model;
        this.stageClockNs = stageClockNs;
        SolverSettings st = model.solver;
        this.loop = st.threads() > 1 ? ParallelLoop.withThreads(st.threads()) : ParallelLoop.serial();
        this.solver = switch (st.kind()) {
            case SUB_ADMM -> new SubAdmm(st.iterations(), st.kappa(), st.tolerance(), st.adaptive(), loop);
            case PGS -> new Pgs(st.iterations(), st.tolerance(), true);
            case PROJECTED_JACOBI -> new ProjectedJacobi(st.iterations(), loop);
            case FULL_ADMM -> new FullAdmm(st.iterations(), st.kappa());
            case NONSMOOTH_NEWTON -> new NonsmoothNewton(st.iterations());
        };
        this.joints = new JointAssembly(model, loop);
        // SubADMM reads contact blocks only in their compact form: their rows are not written
        this.contacts = new ContactAssembly(model, loop, st.kind() == SolverKind.SUB_ADMM);
        this.dyn = new int[model.bodies];
        // the solver's body order is the canonical one: by global id
        int n = 0;
        for (int k = 0; k < model.bodies; k++) {
            int i = model.bodyOrder[k];
            dyn[i] = model.bodyType[i] == BodyType.DYNAMIC ? n++ : -1;
        }
        this.bodyOf = new int[n];
        this.groups = new int[n];
        // caller-chosen subsystems and articulations first (renumbered densely, in body order),
        // then one per remaining body
        int[] remap = new int[model.bodies + 1];
        java.util.Arrays.fill(remap, -1);
        Articulations art = model.articulations;
        int[] artGroup = new int[art.count];
        java.util.Arrays.fill(artGroup, -1);
        this.isLink = new boolean[model.bodies];
        Deformables def = model.deformables;
        int[] blockGroup = new int[def.blocks.length];
        java.util.Arrays.fill(blockGroup, -1);
        int next = 0;
        for (int k = 0; k < model.bodies; k++) {
            int i = model.bodyOrder[k];
            if (dyn[i] >= 0) {
                bodyOf[dyn[i]] = i;
                int g = model.subsystem[i];
                int d = art.dofOfBody[i];
                int block = def.blockOfBody[i];
                if (block >= 0) {
                    // a deformable body's node: its block is one subsystem
                    isLink[i] = true;
                    if (blockGroup[block] < 0) {
                        blockGroup[block] = next++;
                    }
                    groups[dyn[i]] = blockGroup[block];
                } else if (d >= 0) {
                    isLink[i] = true;
                    int a = art.articulationOf[d];
                    if (artGroup[a] < 0) {
                        artGroup[a] = next++;
                    }
                    groups[dyn[i]] = artGroup[a];
                } else if (g >= 0) {
                    if (g >= remap.length) {
                        remap = java.util.Arrays.copyOf(remap, g + 1);
                    }
                    if (remap[g] < 0) {
                        remap[g] = next++;
                    }
                    groups[dyn[i]] = remap[g];
                } else {
                    groups[dyn[i]] = -1;
                }
            }
        }
        for (int q = 0; q < n; q++) {
            if (groups[q] < 0) {
                groups[q] = next++;
            }
        }
        this.subsystemCount = next;
        for (int a = 0; a < art.count; a++) {
            if (artGroup[a] < 0) {
                throw new IllegalArgumentException("articulation '" + art.name[a] + "' has no link body (every link is"
                        + " massless)");
            }
        }
        this.articulated = art.count > 0 ? new ArticulationStep(model, artGroup) : null;
        this.deformable = def.blocks.length > 0 ? new DeformableStep(model, blockGroup) : null;
        this.vel = new double[6 * model.bodies];
        int chunks = loop.chunks(Math.max(model.bodies, 1));
        // 9 used, padded so that two chunks' scratch never share a cache line
        this.chunkInertia = new double[chunks][24];
        this.chunkNonFinite = new int[chunks];
        this.startPos = new double[3 * model.bodies];
        this.startQuat = new double[4 * model.bodies];
        this.zeroVel = new double[6 * model.bodies];
        this.projected = new boolean[model.joints];
        boolean any = false;
        if (st.kind() == SolverKind.SUB_ADMM) {
            for (int j = 0; j < model.joints; j++) {
                int a = model.jointA[j] >= 0 ? dyn[model.jointA[j]] : -1;
                int b = model.jointB[j] >= 0 ? dyn[model.jointB[j]] : -1;
                int ga = a >= 0 ? groups[a] : -1;
                int gb = b >= 0 ? groups[b] : -1;
                // a joint on an articulation's link is split, never projected: the joints pose the links
                boolean link = model.jointA[j] >= 0 && isLink[model.jointA[j]] || model.jointB[j] >= 0 && isLink[model.jointB[j]];
                // a rod joint (a cable's connection) has compliant rows only: nothing to project
                projected[j] = !link && model.jointType[j] != JointType.ROD && (ga >= 0 || gb >= 0)
                        && (ga < 0 || gb < 0 || ga == gb);
                any |= projected[j];
            }
        }
        this.anyProjected = any;
        this.projector = any ? new SubAdmm(1, 1, 0, loop) : null;
    }

    /**
     * @return iterations the constraint solver ran in the last step (the most over its islands when
     *         it stops early); 0 before the first step or when a step had no constraints
     */
    public int lastIterations() {
        return lastIterations;
    }

    /** @return ns the constraint solver took in the last step (0 without a stage clock) */
    public long lastSolveNanos() {
        return lastSolveNs;
    }

    /**
     * The last step's average constraint error (the paper's "AA"): per constraint block, |J v + e|
     * for hard rows, the Fischer-Burmeister residual of the normal for contacts plus the distance of
     * the friction impulse from its Coulomb projection, |y + gamma p| for soft rows; averaged over
     * blocks. Computed on demand; allocates nothing.
     *
     * @return the average error (m/s for velocity rows, N s for impulse residuals), 0 without constraints
     */
    public double lastConstraintError() {
        if (pr.constraints == 0) {
            return 0;
        }
        double sum = 0;
        for (int c = 0; c < pr.constraints; c++) {
            int r0 = pr.rowStart[c];
            switch (pr.kind[c]) {
                case ConstraintProblem.CONTACT -> {
                    double pn = pr.p[r0];
                    double yn = pr.rowVelocity(r0);
                    double fb = pn + yn - Math.sqrt(pn * pn + yn * yn);
                    // friction: p_t against its projection onto the disk of p_t - y_t
                    double qt1 = pr.p[r0 + 1] - pr.rowVelocity(r0 + 1);
                    double qt2 = pr.p[r0 + 2] - pr.rowVelocity(r0 + 2);
                    double norm = Math.sqrt(qt1 * qt1 + qt2 * qt2);
                    double lim = pr.mu[c] * Math.max(pn, 0);
                    if (norm > lim) {
                        qt1 *= lim / norm;
                        qt2 *= lim / norm;
                    }
                    double ft = Math.hypot(pr.p[r0 + 1] - qt1, pr.p[r0 + 2] - qt2);
                    sum += Math.abs(fb) + ft;
                }
                case ConstraintProblem.LIMIT -> {
                    double p = pr.p[r0];
                    double y = pr.rowVelocity(r0);
                    sum += Math.abs(p + y - Math.sqrt(p * p + y * y));
                }
                case ConstraintProblem.BOXED -> {
                    double y = pr.rowVelocity(r0);
                    double p = pr.p[r0];
                    boolean free = p > pr.lo[r0] && p < pr.hi[r0];
                    sum += free ? Math.abs(y) : 0;
                }
                default -> {
                    double e = 0;
                    for (int r = r0; r < r0 + pr.rows[c]; r++) {
                        double y = pr.rowVelocity(r) + pr.gamma[r] * pr.p[r];
                        e += y * y;
                    }
                    sum += Math.sqrt(e);
                }
            }
        }
        return sum / pr.constraints;
    }

    /** @return contact points found by the last step */
    public int contactCount() {
        return contacts.contacts();
    }

    /** @return the largest penetration depth found by the last step's collision detection, m */
    public double maxPenetration() {
        return contacts.maxDepth();
    }

    /** @return the model this engine steps */
    public PhysicsModel model() {
        return m;
    }

    /**
     * Advances the state by one time step.
     *
     * @param s the state, modified
     * @throws SimulationDivergedException if a body's state would become NaN or infinite (the
     *                                     state is left as before the step)
     */
    public void step(PhysicsState s) {
        double h = m.timeStep;
        int n = bodyOf.length;
        // 1. velocities: start velocities of dynamic bodies, midpoint velocities of kinematic ones;
        //    poses: the first half drift to q^{k+1/2} (start pose kept for a diverged step)
        System.arraycopy(s.pos, 0, startPos, 0, startPos.length);
        System.arraycopy(s.quat, 0, startQuat, 0, startQuat.length);
        for (int i = 0; i < m.bodies; i++) {
            if (m.bodyType[i] == BodyType.KINEMATIC) {
                m.trajectory[i].sample(s.time + 0.5 * h, sample);
                System.arraycopy(sample, 0, s.pos, 3 * i, 3);
                System.arraycopy(sample, 3, s.quat, 4 * i, 4);
                System.arraycopy(sample, 7, vel, 6 * i, 3);
                System.arraycopy(sample, 10, vel, 6 * i + 3, 3);
            }
        }
        stateNow = s;
        loop.run(m.bodies, firstDriftRange);
        if (articulated != null) {
            articulated.firstHalf(s, h);
        }
        if (deformable != null) {
            deformable.firstHalf(s, h);
        }
        // 2. dynamics of every subsystem (bodies and subsystems are laid out once: they never change)
        if (laidOut) {
            pr.clearBlocks();
        } else {
            pr.resetBodies(n);
            pr.group(groups);
            pr.layoutStructure();
            layoutSubsystemMatrices();
            laidOut = true;
        }
        loop.run(n, dynamicsRange);
        if (articulated != null) {
            articulated.dynamics(s, pr, h);
        }
        if (deformable != null) {
            deformable.dynamics(s, startPos, pr, h);
        }
        // 3. constraints
        joints.assemble(s, pr, dyn, vel, h);
        contacts.assemble(s, pr, dyn, vel, h);
        if (articulated != null) {
            articulated.rows(s, pr, dyn, h);
            articulated.noSlipRows(s, pr, dyn);
        }
        // 4. solve
        long t0 = stageClockNs == null ? 0 : stageClockNs.getAsLong();
        lastIterations = solver.solve(pr);
        lastSolveNs = stageClockNs == null ? 0 : stageClockNs.getAsLong() - t0;
        // 5. no NaN may reach the state: the first body (in problem order) with a non-finite velocity
        loop.run(n, finiteRange);
        for (int k = 0; k < loop.chunks(n); k++) {
            int q = chunkNonFinite[k];
            if (q >= 0) {
                restore(s);
                throw new SimulationDivergedException("body '" + m.bodyName[bodyOf[q]] + "' (index " + bodyOf[q]
                        + ") got a non-finite velocity at step " + s.step + " (t = " + s.time
                        + " s); check its mass, inertia and forces, or reduce the time step");
            }
        }
        int badDof = articulated != null ? articulated.nonFinite(pr) : -1;
        if (badDof >= 0) {
            restore(s);
            throw new SimulationDivergedException("articulation '" + m.articulations.name[m.articulations.articulationOf[badDof]]
                    + "' joint " + (badDof - m.articulations.dofStart[m.articulations.articulationOf[badDof]])
                    + " got a non-finite velocity at step " + s.step + " (t = " + s.time
                    + " s); check its masses, gains and torques, or reduce the time step");
        }
        // 6. the second half drift: q^{k+1} = q^{k+1/2} (+) h/2 v^{k+1}
        loop.run(n, secondDriftRange);
        if (articulated != null) {
            articulated.secondHalf(s, pr, h);
            articulated.storeNoSlip(s, pr);
        }
        if (deformable != null) {
            deformable.secondHalf(s, pr, h);
        }
        stateNow = null;
        for (int i = 0; i < m.bodies; i++) {
            if (m.bodyType[i] == BodyType.KINEMATIC) {
                m.trajectory[i].sample(s.time + h, sample);
                System.arraycopy(sample, 0, s.pos, 3 * i, 3);
                System.arraycopy(sample, 3, s.quat, 4 * i, 4);
                System.arraycopy(sample, 7, s.linVel, 3 * i, 3);
                System.arraycopy(sample, 10, s.angVel, 3 * i, 3);
            }
        }
        joints.store(s, pr);
        contacts.store(s, pr);
        if (anyProjected) {
            projectJoints(s, n);
        }
        s.time += h;
        s.step++;
    }

    /**
     * The problem's dense subsystem matrices, once: the articulations' (0 .. count - 1), then the
     * deformable bodies' blocks.
     */
    private void layoutSubsystemMatrices() {
        int na = articulated != null ? m.articulations.count : 0;
        int nb = deformable != null ? m.deformables.blocks.length : 0;
        if (na + nb == 0) {
            return;
        }
        int[] dims = new int[na + nb];
        int[] links = new int[na + nb];
        if (articulated != null) {
            System.arraycopy(articulated.dims(), 0, dims, 0, na);
            System.arraycopy(articulated.dims(), 0, links, 0, na);
        }
        if (deformable != null) {
            System.arraycopy(deformable.dims(), 0, dims, na, nb);
            System.arraycopy(deformable.links(), 0, links, na, nb);
        }
        pr.layoutArticulations(dims, links, na + nb);
        if (articulated != null) {
            articulated.layout(pr, dyn);
        }
        if (deformable != null) {
            deformable.layout(pr, dyn, na);
        }
    }

    /**
     * @return the elastic energy of deformable body {@code d}'s blocks at the state's node positions
     *         (the co-rotational energy at each element's current rotation), J; a diagnostic, not for
     *         the stepping loop: it allocates
     */
    public double deformableElasticEnergy(PhysicsState s, int d) {
        double e = 0;
        for (int k = 0; k < m.deformables.blocks.length; k++) {
            if (m.deformables.blocks[k].deformable() == d) {
                e += deformable.elasticEnergy(s, k);
            }
        }
        return e;
    }

    /** The state as it was at the start of a diverged step. */
    private void restore(PhysicsState s) {
        System.arraycopy(startPos, 0, s.pos, 0, startPos.length);
        System.arraycopy(startQuat, 0, s.quat, 0, startQuat.length);
        if (articulated != null) {
            articulated.restore(s);
        }
        stateNow = null;
    }

    /** 1. for bodies [lo, hi) that are not kinematic: the start velocity, and the first half drift of dynamic ones. */
    private void firstDrift(int lo, int hi, int chunk) {
        PhysicsState s = stateNow;
        for (int i = lo; i < hi; i++) {
            if (m.bodyType[i] != BodyType.KINEMATIC) {
                System.arraycopy(s.linVel, 3 * i, vel, 6 * i, 3);
                System.arraycopy(s.angVel, 3 * i, vel, 6 * i + 3, 3);
                if (m.bodyType[i] == BodyType.DYNAMIC && !isLink[i]) {
                    drift(s, i, vel, 6 * i, 0.5 * m.timeStep);
                }
            }
        }
    }

    /** 2. A, b and the start v of problem bodies [lo, hi). */
    private void dynamics(int lo, int hi, int chunk) {
        PhysicsState s = stateNow;
        double h = m.timeStep;
        double gx = m.gravity[0];
        double gy = m.gravity[1];
        double gz = m.gravity[2];
        double[] iw = chunkInertia[chunk];
        for (int q = lo; q < hi; q++) {
            int i = bodyOf[q];
            if (isLink[i]) {
                // a link: no mass block or right-hand side of its own (its articulation has them);
                // its start velocity Lambda qd^k seeds the solver
                int c = pr.coord(q);
                java.util.Arrays.fill(pr.mass, 36 * q, 36 * q + 36, 0);
                for (int d = 0; d < 6; d++) {
                    pr.b[c + d] = 0;
                    pr.v[c + d] = vel[6 * i + d];
                }
                continue;
            }
            double mass = m.mass[i];
            RigidOps.worldInertia(s.quat, 4 * i, m.inertia[3 * i], m.inertia[3 * i + 1], m.inertia[3 * i + 2], iw, 0);
            int a0 = 36 * q;
            int c = pr.coord(q);
            // every entry of A (layoutStructure does not zero it): m I, 0; 0, I_world
            for (int k = a0; k < a0 + 36; k++) {
                pr.mass[k] = 0;
            }
            for (int d = 0; d < 3; d++) {
                pr.mass[a0 + 7 * d] = mass;
                for (int e = 0; e < 3; e++) {
                    pr.mass[a0 + 6 * (3 + d) + 3 + e] = iw[3 * d + e];
                }
            }
            double vx = vel[6 * i];
            double vy = vel[6 * i + 1];
            double vz = vel[6 * i + 2];
            double wx = vel[6 * i + 3];
            double wy = vel[6 * i + 4];
            double wz = vel[6 * i + 5];
            double lx = iw[0] * wx + iw[1] * wy + iw[2] * wz;
            double ly = iw[3] * wx + iw[4] * wy + iw[5] * wz;
            double lz = iw[6] * wx + iw[7] * wy + iw[8] * wz;
            pr.b[c] = mass * (vx + h * gx);
            pr.b[c + 1] = mass * (vy + h * gy);
            pr.b[c + 2] = mass * (vz + h * gz);
            pr.b[c + 3] = lx - h * (wy * lz - wz * ly);
            pr.b[c + 4] = ly - h * (wz * lx - wx * lz);
            pr.b[c + 5] = lz - h * (wx * ly - wy * lx);
            for (int d = 0; d < 6; d++) {
                pr.v[c + d] = vel[6 * i + d];
            }
        }
    }

    /** 5. the first problem body in [lo, hi) with a non-finite velocity, or -1, into chunkNonFinite. */
    private void finite(int lo, int hi, int chunk) {
        int bad = -1;
        for (int q = lo; q < hi && bad < 0; q++) {
            int c = pr.coord(q);
            for (int d = 0; d < 6; d++) {
                if (!Double.isFinite(pr.v[c + d])) {
                    bad = q;
                    break;
                }
            }
        }
        chunkNonFinite[chunk] = bad;
    }

    /** 6. the second half drift of problem bodies [lo, hi) and their new velocities. */
    private void secondDrift(int lo, int hi, int chunk) {
        PhysicsState s = stateNow;
        for (int q = lo; q < hi; q++) {
            int i = bodyOf[q];
            if (isLink[i]) {
                continue;
            }
            int c = pr.coord(q);
            drift(s, i, pr.v, c, 0.5 * m.timeStep);
            System.arraycopy(pr.v, c, s.linVel, 3 * i, 3);
            System.arraycopy(pr.v, c + 3, s.angVel, 3 * i, 3);
        }
    }

    /** Moves body i's pose by dt times the velocity v[o..o+5] (linear, then angular). */
    private static void drift(PhysicsState s, int i, double[] v, int o, double dt) {
        s.pos[3 * i] += dt * v[o];
        s.pos[3 * i + 1] += dt * v[o + 1];
        s.pos[3 * i + 2] += dt * v[o + 2];
        RigidOps.integrateRotation(s.quat, 4 * i, v[o + 3], v[o + 4], v[o + 5], dt);
    }

    /**
     * Newton steps of the positions onto the manifold of the subsystem-internal joints,
     * min |dx|_A subject to J dx + phi = 0, each solved exactly per subsystem, until every joint
     * row's error is below {@link #PROJECTION_TOLERANCE} (at most {@link #PROJECTION_PASSES}).
     */
    private void projectJoints(PhysicsState s, int n) {
        if (needsPass.length < subsystemCount) {
            needsPass = new boolean[subsystemCount];
            skipPass = new boolean[subsystemCount];
        }
        for (int pass = 0; pass <= PROJECTION_PASSES; pass++) {
            // per subsystem: does it need this pass? (decided per subsystem, so that one
            // subsystem's error never moves another: see the notes, subset equivalence); the
            // errors alone, as most steps need no pass
            java.util.Arrays.fill(needsPass, 0, subsystemCount, false);
            java.util.Arrays.fill(skipPass, 0, subsystemCount, false);
            boolean any = joints.positionErrors(s, dyn, projected, groups, PROJECTION_TOLERANCE, needsPass);
            if (!any || pass == PROJECTION_PASSES) {
                return;
            }
            projection.resetBodies(n);
            projection.group(groups);
            projection.layout();
            joints.assemblePositions(s, projection, dyn, projected, zeroVel);
            System.arraycopy(pr.mass, 0, projection.mass, 0, 36 * n);
            java.util.Arrays.fill(projection.v, 0, 6 * n, 0);
            projector.solve(projection);
            for (int q = 0; q < n; q++) {
                int c = projection.coord(q);
                for (int d = 0; d < 6; d++) {
                    if (!Double.isFinite(projection.v[c + d])) {
                        // a degenerate projection is skipped, never written
                        skipPass[projection.subsystemOf[q]] = true;
                    }
                }
            }
            for (int q = 0; q < n; q++) {
                int sub = projection.subsystemOf[q];
                if (!needsPass[sub] || skipPass[sub]) {
                    continue;
                }
                int i = bodyOf[q];
                int c = projection.coord(q);
                s.pos[3 * i] += projection.v[c];
                s.pos[3 * i + 1] += projection.v[c + 1];
                s.pos[3 * i + 2] += projection.v[c + 2];
                RigidOps.integrateRotation(s.quat, 4 * i, projection.v[c + 3], projection.v[c + 4], projection.v[c + 5], 1.0);
            }
        }
    }

    @Override
    public void close() {
        loop.close();
    }
}
