package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Differential tests of subset equivalence (see PhysicsEngine's notes): a group of bodies that
 * does not interact with the others steps bitwise the same with or without them, whatever the
 * body indices, for every solver; and its state (poses, velocities, joint impulses, contact warm
 * starts) moves into another model and continues bitwise.
 *
 * <p>Scene: a static floor shared by two islands, each a pile of spheres and boxes dropped on the
 * floor next to a 4-link chain pinned to the world that swings down into the pile (contacts,
 * joints, and contacts between chain links and the pile). The islands are 20 m apart and differ in
 * their jitter. Seeds: {@code -Dtandem.test.seed=N}.
 */
class SubsetEquivalenceTest {
    private static final long SEED = Long.getLong("tandem.test.seed", 5);
    private static final long FLOOR = 1_000_000;
    private static final int STEPS = 240;

    /** A body of the scene, built in any order, with its global id. */
    private record BodySpec(long id, String name, java.util.function.Consumer<PhysicsModel.BodyBuilder> setup) {
    }

    /** A ball joint of the scene between bodies given by id (-1 = world). */
    private record JointSpec(long id, long a, long b, double x, double y, double z) {
    }

    private static final class Scene {
        final List<BodySpec> bodies = new ArrayList<>();
        final List<JointSpec> joints = new ArrayList<>();
    }

    /** Island {@code k} (0 or 1) at x = 20 k, its bodies' ids from 1000 k, joints' ids from 100 k. */
    private static void island(Scene sc, int k, boolean chainSubsystem) {
        Random rnd = new Random(SEED * 31 + k);
        double x0 = 20 * k;
        long id = 1000L * k;
        for (int i = 0; i < 12; i++) {
            double x = x0 + (i % 3) * 0.21 + 0.01 * rnd.nextGaussian();
            double y = ((i / 3) % 2) * 0.21 + 0.01 * rnd.nextGaussian();
            double z = 0.12 + (i / 6) * 0.25 + 0.02 * rnd.nextDouble();
            sc.bodies.add(new BodySpec(id + i, "i" + k + "s" + i, b -> b.sphere(0.1).density(1000).position(x, y, z)));
        }
        for (int i = 0; i < 2; i++) {
            double x = x0 + 0.2 + 0.05 * rnd.nextGaussian();
            double z = 0.8 + 0.3 * i;
            double w = 0.9 + 0.1 * rnd.nextDouble();
            sc.bodies.add(new BodySpec(id + 100 + i, "i" + k + "b" + i,
                    b -> b.box(0.12, 0.08, 0.05).density(500).position(x, 0.1, z).orientation(w, 0.1, 0.3, 0.2)));
        }
        // the chain: pinned at (x0 - 0.3, 0.1, 0.6), links along -x, swings down onto the pile's side
        long prev = -1;
        for (int i = 0; i < 4; i++) {
            double cx = x0 - 0.3 - 0.1 * i - 0.05;
            long link = id + 200 + i;
            int group = 10 + k;
            sc.bodies.add(new BodySpec(link, "i" + k + "c" + i, b -> {
                b.box(0.05, 0.02, 0.02).density(800).position(cx, 0.1, 0.6);
                if (chainSubsystem) {
                    b.subsystem(group);
                }
            }));
            sc.joints.add(new JointSpec(100L * k + i, link, prev, x0 - 0.3 - 0.1 * i, 0.1, 0.6));
            prev = link;
        }
    }

    private static Scene scene(boolean withIsland0, boolean withIsland1, boolean chainSubsystem) {
        Scene sc = new Scene();
        sc.bodies.add(new BodySpec(FLOOR, "floor", b -> b.makeStatic().plane()));
        if (withIsland0) {
            island(sc, 0, chainSubsystem);
        }
        if (withIsland1) {
            island(sc, 1, chainSubsystem);
        }
        return sc;
    }

    /** Builds the scene with its bodies and joints in the given order (a seeded shuffle, a reversal, or as is). */
    private static PhysicsModel build(Scene sc, SolverSettings st, int order) {
        List<BodySpec> bodies = new ArrayList<>(sc.bodies);
        List<JointSpec> joints = new ArrayList<>(sc.joints);
        if (order == 1) {
            Collections.reverse(bodies);
            Collections.reverse(joints);
        } else if (order == 2) {
            Collections.shuffle(bodies, new Random(SEED));
            Collections.shuffle(joints, new Random(SEED + 1));
        }
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(st);
        java.util.Map<Long, Integer> index = new java.util.HashMap<>();
        for (BodySpec s : bodies) {
            PhysicsModel.BodyBuilder bb = b.body(s.name()).id(s.id());
            s.setup().accept(bb);
            index.put(s.id(), bb.add());
        }
        for (JointSpec j : joints) {
            int a = index.get(j.a());
            int o = j.b() < 0 ? -1 : index.get(j.b());
            b.ballJoint(a, o, j.x(), j.y(), j.z()).id(j.id()).add();
        }
        return b.build();
    }

    private static SolverSettings[] solvers() {
        return new SolverSettings[] {
            SolverSettings.subAdmm(10),
            SolverSettings.subAdmm(10).withThreads(2),
            new SolverSettings(SolverKind.SUB_ADMM, 30, SolverSettings.DEFAULT_KAPPA, 1e-4, 1),
            // the defaults: adaptive penalty, per-island stop at 1e-4 m/s, cap 20
            SolverSettings.defaults(),
            SolverSettings.defaults().withThreads(2),
            SolverSettings.pgs(10),
            new SolverSettings(SolverKind.PGS, 30, SolverSettings.DEFAULT_KAPPA, 1e-5, 1),
            SolverSettings.projectedJacobi(10),
            SolverSettings.projectedJacobi(10).withThreads(2),
            // the full-system ADMM baseline: one factorization, whose minimum-degree order keeps
            // each island's relative order (not the non-smooth Newton baseline: global line search)
            SolverSettings.fullAdmm(10),
        };
    }

    /** Asserts that every body of {@code ids} has bitwise the same state in both, and the same joint impulses. */
    private static void assertSameBits(String what, PhysicsModel ma, PhysicsState a, PhysicsModel mb, PhysicsState b,
                                       Set<Long> ids) {
        for (long id : ids) {
            int i = ma.bodyIndex(id);
            int j = mb.bodyIndex(id);
            assertThat(i).as("body %d in model A", id).isNotNegative();
            assertThat(j).as("body %d in model B", id).isNotNegative();
            assertThat(bits(b.pos, 3 * j, 3)).as("%s: position of body %d", what, id).isEqualTo(bits(a.pos, 3 * i, 3));
            assertThat(bits(b.quat, 4 * j, 4)).as("%s: orientation of body %d", what, id).isEqualTo(bits(a.quat, 4 * i, 4));
            assertThat(bits(b.linVel, 3 * j, 3)).as("%s: velocity of body %d", what, id).isEqualTo(bits(a.linVel, 3 * i, 3));
            assertThat(bits(b.angVel, 3 * j, 3)).as("%s: angular velocity of body %d", what, id)
                    .isEqualTo(bits(a.angVel, 3 * i, 3));
        }
        int slots = JointAssembly.SLOTS;
        int compared = 0;
        for (int j = 0; j < mb.jointCount(); j++) {
            int i = ma.jointIndex(mb.jointId(j));
            if (i < 0) {
                continue; // a joint of the other island
            }
            compared++;
            assertThat(bits(b.jointImpulse, slots * j, slots)).as("%s: impulses of joint %d", what, mb.jointId(j))
                    .isEqualTo(bits(a.jointImpulse, slots * i, slots));
        }
        assertThat(compared).as("%s: joints compared", what).isPositive();
    }

    private static List<Long> bits(double[] a, int from, int n) {
        List<Long> out = new ArrayList<>(n);
        for (int k = from; k < from + n; k++) {
            out.add(Double.doubleToRawLongBits(a[k]));
        }
        return out;
    }

    private static Set<Long> islandIds(Scene sc, int k) {
        Set<Long> ids = new HashSet<>();
        for (BodySpec s : sc.bodies) {
            if (s.id() != FLOOR && s.id() / 1000 == k) {
                ids.add(s.id());
            }
        }
        return ids;
    }

    private static void run(PhysicsModel m, PhysicsState s, int steps) {
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < steps; k++) {
                e.step(s);
            }
        }
    }

    @Test
    void step_islandAloneOrWithAnother_anyBodyOrder_bitwiseIdentical() {
        for (boolean grouped : new boolean[] {false, true}) {
            for (SolverSettings st : solvers()) {
                String what = st + (grouped ? ", chain in one subsystem" : "");
                Scene both = scene(true, true, grouped);
                Scene alone = scene(true, false, grouped);
                PhysicsModel mBoth = build(both, st, 2);
                PhysicsModel mAlone = build(alone, st, 1);
                PhysicsState sBoth = mBoth.newState();
                PhysicsState sAlone = mAlone.newState();
                try (PhysicsEngine eBoth = new PhysicsEngine(mBoth); PhysicsEngine eAlone = new PhysicsEngine(mAlone)) {
                    int maxContacts = 0;
                    int earlyStops = 0;
                    int maxIterations = 0;
                    for (int k = 0; k < STEPS; k++) {
                        eBoth.step(sBoth);
                        eAlone.step(sAlone);
                        maxContacts = Math.max(maxContacts, eAlone.contactCount());
                        earlyStops += eAlone.lastIterations() < st.iterations() ? 1 : 0;
                        maxIterations = Math.max(maxIterations, eAlone.lastIterations());
                    }
                    assertThat(maxContacts).as("%s: contacts in the island", what).isGreaterThan(10);
                    if (st.tolerance() > 0) {
                        // the early stop really decided the iteration count in some steps
                        assertThat(earlyStops).as("%s: steps that stopped early", what).isPositive();
                    }
                    if (st.adaptive()) {
                        // some steps ran past SubAdmm.ADAPT_EVERY (10) iterations: the penalties were rescaled
                        assertThat(maxIterations).as("%s: most iterations of a step", what).isGreaterThan(10);
                    }
                }
                assertSameBits(what, mAlone, sAlone, mBoth, sBoth, islandIds(alone, 0));
                // the island really moved: the chain swung down
                int tip = mAlone.bodyIndex(203);
                double dx = sAlone.pos[3 * tip] + 0.65;
                double dz = sAlone.pos[3 * tip + 2] - 0.6;
                assertThat(Math.hypot(dx, dz)).as("%s: how far the chain tip moved (m)", what).isGreaterThan(0.1);
            }
        }
    }

    @Test
    void step_sameModelOtherBodyOrder_bitwiseIdentical() {
        for (SolverSettings st : solvers()) {
            Scene sc = scene(true, true, false);
            PhysicsModel m0 = build(sc, st, 0);
            PhysicsModel m2 = build(sc, st, 2);
            PhysicsState s0 = m0.newState();
            PhysicsState s2 = m2.newState();
            run(m0, s0, STEPS);
            run(m2, s2, STEPS);
            Set<Long> all = new HashSet<>(islandIds(sc, 0));
            all.addAll(islandIds(sc, 1));
            assertSameBits(st.toString(), m0, s0, m2, s2, all);
        }
    }

    /** Moves island 0's state from (m1, s1) into a fresh state of m2, by global ids. */
    private static PhysicsState transfer(PhysicsModel m1, PhysicsState s1, PhysicsModel m2, Set<Long> ids, int contacts) {
        PhysicsState s2 = m2.newState();
        for (long id : ids) {
            int i = m1.bodyIndex(id);
            int j = m2.bodyIndex(id);
            System.arraycopy(s1.pos, 3 * i, s2.pos, 3 * j, 3);
            System.arraycopy(s1.quat, 4 * i, s2.quat, 4 * j, 4);
            System.arraycopy(s1.linVel, 3 * i, s2.linVel, 3 * j, 3);
            System.arraycopy(s1.angVel, 3 * i, s2.angVel, 3 * j, 3);
        }
        int slots = s1.jointImpulse.length / m1.jointCount();
        for (int j = 0; j < m2.jointCount(); j++) {
            int i = m1.jointIndex(m2.jointId(j));
            System.arraycopy(s1.jointImpulse, slots * i, s2.jointImpulse, slots * j, slots);
        }
        if (contacts == 1) {
            s2.copyContactWarmStarts(s1, ids::contains);
        } else if (contacts == 2) {
            // as values, as a network handover would send them
            for (ContactWarmStart w : s1.contactWarmStarts(ids::contains)) {
                s2.putContactWarmStart(w);
            }
        }
        s2.time = s1.time;
        s2.step = s1.step;
        return s2;
    }

    @Test
    void transfer_islandStateIntoFreshModel_continuesBitwise() {
        int k = 100;
        for (SolverSettings st : solvers()) {
            Scene both = scene(true, true, true);
            Scene alone = scene(true, false, true);
            Set<Long> ids = islandIds(both, 0);
            PhysicsModel m1 = build(both, st, 0);
            PhysicsModel m2 = build(alone, st, 2);
            PhysicsState continuous = m1.newState();
            run(m1, continuous, k);
            assertThat(continuous.contactWarmStartCount()).as("%s: warm starts held", st).isGreaterThan(10);
            for (int mode = 1; mode <= 2; mode++) {
                PhysicsState moved = transfer(m1, continuous, m2, ids, mode);
                assertThat(moved.contactWarmStartCount()).isLessThan(continuous.contactWarmStartCount());
                PhysicsState reference = m1.newState();
                reference.copyFrom(continuous);
                run(m1, reference, STEPS - k);
                run(m2, moved, STEPS - k);
                assertSameBits(st + ", transfer mode " + mode, m1, reference, m2, moved, ids);
            }
        }
    }

    @Test
    void transfer_withoutContactWarmStarts_differs() {
        // the control: the warm starts are part of the state that has to move
        SolverSettings st = SolverSettings.subAdmm(10);
        Scene both = scene(true, true, false);
        Set<Long> ids = islandIds(both, 0);
        PhysicsModel m1 = build(both, st, 0);
        PhysicsModel m2 = build(scene(true, false, false), st, 0);
        PhysicsState continuous = m1.newState();
        run(m1, continuous, 100);
        PhysicsState moved = transfer(m1, continuous, m2, ids, 0);
        run(m1, continuous, 20);
        run(m2, moved, 20);
        boolean differs = false;
        for (long id : ids) {
            int i = m1.bodyIndex(id);
            int j = m2.bodyIndex(id);
            for (int d = 0; d < 3; d++) {
                differs |= continuous.pos[3 * i + d] != moved.pos[3 * j + d];
            }
        }
        assertThat(differs).as("without its contact warm starts the island takes another path").isTrue();
    }

    @Test
    void newEngine_onSameState_continuesBitwise() {
        // an engine holds no dynamic state: a rebuilt engine continues exactly
        for (SolverSettings st : solvers()) {
            Scene sc = scene(true, true, true);
            PhysicsModel m = build(sc, st, 0);
            PhysicsState a = m.newState();
            PhysicsState b = m.newState();
            try (PhysicsEngine e = new PhysicsEngine(m)) {
                for (int k = 0; k < 150; k++) {
                    e.step(a);
                }
                b.copyFrom(a);
                for (int k = 0; k < 50; k++) {
                    e.step(a);
                }
            }
            PhysicsModel again = build(sc, st, 0);
            run(again, b, 50);
            Set<Long> all = new HashSet<>(islandIds(sc, 0));
            all.addAll(islandIds(sc, 1));
            assertSameBits(st.toString(), m, a, again, b, all);
        }
    }

    @Test
    void removeContactWarmStarts_dropsOnlyTouchingEntries() {
        Scene sc = scene(true, true, false);
        PhysicsModel m = build(sc, SolverSettings.subAdmm(10), 0);
        PhysicsState s = m.newState();
        run(m, s, 100);
        Set<Long> island0 = islandIds(sc, 0);
        int total = s.contactWarmStartCount();
        int touching0 = s.contactWarmStarts(island0::contains).size();
        assertThat(touching0).isPositive().isLessThan(total);
        s.removeContactWarmStarts(island0::contains);
        assertThat(s.contactWarmStartCount()).isEqualTo(total - touching0);
        assertThat(s.contactWarmStarts(island0::contains)).isEmpty();
    }

    @Test
    void build_duplicateBodyId_isRefused() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        b.body("a").mass(1, 1, 1, 1).id(7).add();
        b.body("b").mass(1, 1, 1, 1).id(7).add();
        org.assertj.core.api.Assertions.assertThatThrownBy(b::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("body id 7 is used twice");
    }
}
