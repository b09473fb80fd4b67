package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** Engine-level properties: allocation-free stepping, thread-count independence, joint kinds. */
class EngineTest {

    /** The chain of the reference measurements: 50 box links 0.1 x 0.02 x 0.02 m, 0.1 kg, ball joints, link 0 pinned. */
    static PhysicsModel chain(int links, SolverSettings solver) {
        return chain(links, solver, false);
    }

    /** The same chain; {@code oneSubsystem} puts every link into subsystem 0. */
    static PhysicsModel chain(int links, SolverSettings solver, boolean oneSubsystem) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(solver);
        double lx = 0.1;
        double w = 0.02;
        double m = 0.1;
        double ix = m * (w * w + w * w) / 12;
        double iy = m * (lx * lx + w * w) / 12;
        int prev = -1;
        for (int i = 0; i < links; i++) {
            PhysicsModel.BodyBuilder body = b.body("link" + i).mass(m, ix, iy, iy).position(lx * i + lx / 2, 0, 10);
            int link = (oneSubsystem ? body.subsystem(0) : body).add();
            b.ballJoint(link, prev, lx * i, 0, 10).add();
            prev = link;
        }
        return b.build();
    }

    static double maxJointError(PhysicsModel m, PhysicsState s) {
        double max = 0;
        double[] a = new double[3];
        double[] c = new double[3];
        for (int i = 0; i < m.bodyCount(); i++) {
            // left end of link i must meet the right end of link i-1 (or the pin at (0, 0, 10))
            io.tandem.physics.internal.dynamics.RigidOps.rotate(s.quat, 4 * i, -0.05, 0, 0, a, 0);
            double lx = s.pos[3 * i] + a[0];
            double ly = s.pos[3 * i + 1] + a[1];
            double lz = s.pos[3 * i + 2] + a[2];
            double rx;
            double ry;
            double rz;
            if (i == 0) {
                rx = 0;
                ry = 0;
                rz = 10;
            } else {
                io.tandem.physics.internal.dynamics.RigidOps.rotate(s.quat, 4 * (i - 1), 0.05, 0, 0, c, 0);
                rx = s.pos[3 * (i - 1)] + c[0];
                ry = s.pos[3 * (i - 1) + 1] + c[1];
                rz = s.pos[3 * (i - 1) + 2] + c[2];
            }
            max = Math.max(max, Math.sqrt((lx - rx) * (lx - rx) + (ly - ry) * (ly - ry) + (lz - rz) * (lz - rz)));
        }
        return max;
    }

    @Test
    @SuppressForbidden
    void step_afterWarmUp_allocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (boolean grouped : new boolean[] {false, true}) {
            // grouped: the joints are solved and projected inside one subsystem
            PhysicsModel m = chain(50, SolverSettings.subAdmm(30), grouped);
            PhysicsState s = m.newState();
            try (PhysicsEngine e = new PhysicsEngine(m)) {
                for (int k = 0; k < 200; k++) {
                    e.step(s);
                }
                long before = mx.getCurrentThreadAllocatedBytes();
                for (int k = 0; k < 1000; k++) {
                    e.step(s);
                }
                long allocated = mx.getCurrentThreadAllocatedBytes() - before;
                assertThat(allocated).as("grouped %s: bytes allocated by 1000 steps", grouped).isLessThan(1000);
            }
        }
    }

    @Test
    void chainInOneSubsystem_jointErrorStaysBelowOneMillimetre() {
        // the reference chain scene: joints solved exactly inside the subsystem and projected;
        // one subsystem per link (every joint split) drifts by centimetres in the whip
        PhysicsModel m = chain(50, SolverSettings.subAdmm(60), true);
        PhysicsState s = m.newState();
        double worst = 0;
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 1000; k++) {
                e.step(s);
                worst = Math.max(worst, maxJointError(m, s));
            }
        }
        assertThat(worst).as("max joint separation over 1000 steps (m)").isLessThan(1e-3);
        // it really fell and swung: the free end is far below the pin
        assertThat(s.pos[3 * 49 + 2]).isLessThan(9);
    }

    @Test
    @SuppressForbidden
    void step_withContacts_afterWarmUp_allocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (SolverSettings st : new SolverSettings[] {SolverSettings.subAdmm(20), SolverSettings.pgs(10),
                SolverSettings.projectedJacobi(10), SolverSettings.defaults(), SolverSettings.defaults().withThreads(3)}) {
            // 125 spheres and a box dropped into a corner of planes: sphere-sphere, sphere-plane,
            // box-sphere and box-plane manifolds, warm-start cache and broad phase all in play
            PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(st);
            double s2 = Math.sqrt(0.5);
            b.body("floor").makeStatic().plane().add();
            b.body("wall").makeStatic().plane().position(-0.6, 0, 0).orientation(s2, 0, s2, 0).add();
            for (int i = 0; i < 125; i++) {
                b.body("s" + i).sphere(0.1).density(1000)
                        .position((i % 5) * 0.22 - 0.45, ((i / 5) % 5) * 0.22 - 0.45, 0.12 + (i / 25) * 0.22).add();
            }
            b.body("box").box(0.15, 0.1, 0.05).density(500).position(0.2, 0.1, 1.5).orientation(0.9, 0.1, 0.3, 0.2).add();
            PhysicsModel m = b.build();
            PhysicsState s = m.newState();
            try (PhysicsEngine e = new PhysicsEngine(m)) {
                // buffers only grow (to the largest step seen): while the pile settles there are
                // rare growth steps (measured for SubADMM: the last at step 692, 9.7 KB); after
                // that none
                for (int k = 0; k < 1000; k++) {
                    e.step(s);
                }
                // the stepping thread and the engine's worker threads (threads > 1)
                long[] ids = java.util.stream.LongStream.concat(java.util.stream.LongStream.of(Thread.currentThread().getId()),
                        Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("tandem-physics-"))
                                .mapToLong(Thread::getId)).toArray();
                assertThat(ids.length).as("%s: threads", st).isEqualTo(st.threads());
                long before = allocatedBytes(mx, ids);
                for (int k = 0; k < 300; k++) {
                    e.step(s);
                }
                long allocated = allocatedBytes(mx, ids) - before;
                assertThat(e.contactCount()).as("%s: contacts in play", st.kind()).isGreaterThan(100);
                assertThat(allocated).as("%s: bytes allocated by 300 steps with contacts", st).isLessThan(1000);
            }
        }
    }

    /** Bytes the threads have allocated, read without allocating. */
    @SuppressForbidden
    private static long allocatedBytes(com.sun.management.ThreadMXBean mx, long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += mx.getThreadAllocatedBytes(id);
        }
        return sum;
    }

    @Test
    void subAdmm_oneAndTwoThreads_bitwiseIdenticalTrajectories() {
        PhysicsModel one = chain(200, SolverSettings.subAdmm(20));
        PhysicsModel two = chain(200, SolverSettings.subAdmm(20).withThreads(2));
        PhysicsState a = one.newState();
        PhysicsState b = two.newState();
        try (PhysicsEngine ea = new PhysicsEngine(one); PhysicsEngine eb = new PhysicsEngine(two)) {
            for (int k = 0; k < 50; k++) {
                ea.step(a);
                eb.step(b);
            }
        }
        for (int i = 0; i < a.pos.length; i++) {
            assertThat(Double.doubleToRawLongBits(b.pos[i])).isEqualTo(Double.doubleToRawLongBits(a.pos[i]));
        }
    }

    @Test
    void everySolver_chainHangsTogether() {
        for (SolverSettings st : new SolverSettings[] {SolverSettings.subAdmm(60), SolverSettings.pgs(30),
                SolverSettings.projectedJacobi(200)}) {
            PhysicsModel m = chain(10, st);
            PhysicsState s = m.newState();
            double worst = 0;
            double lowest = Double.POSITIVE_INFINITY;
            try (PhysicsEngine e = new PhysicsEngine(m)) {
                for (int k = 0; k < 480; k++) {
                    e.step(s);
                    worst = Math.max(worst, maxJointError(m, s));
                    lowest = Math.min(lowest, s.pos[3 * 9 + 2]);
                }
            }
            assertThat(worst).as("%s: max joint separation (m)", st.kind()).isLessThan(0.01);
            // the 1 m chain swung down: its last link came close to a full length below the pin
            assertThat(lowest).as("%s: lowest height of the last link", st.kind()).isLessThan(10 - 0.8);
        }
    }

    @Test
    void fixedJoint_keepsBodiesWelded_prismaticSlidesOnlyAlongAxis() {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(SolverSettings.pgs(50));
        int base = b.body("base").mass(1, 0.01, 0.01, 0.01).position(0, 0, 1).add();
        int arm = b.body("arm").mass(1, 0.01, 0.01, 0.01).position(0.5, 0, 1).add();
        b.revoluteJoint(base, -1, 0, 0, 1, 0, 0, 1).add();
        b.fixedJoint(arm, base, 0.25, 0, 1).add();
        int slider = b.body("slider").mass(1, 0.01, 0.01, 0.01).position(0, 2, 1).linearVelocity(0.3, 0.2, 0).add();
        b.prismaticJoint(slider, -1, 0, 2, 1, 1, 0, 0).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 240; k++) {
                e.step(s);
            }
        }
        // the welded arm stays 0.5 m from the base at the base's height (it only hangs by the weld)
        double dx = s.pos[3] - s.pos[0];
        double dy = s.pos[4] - s.pos[1];
        double dz = s.pos[5] - s.pos[2];
        assertThat(Math.sqrt(dx * dx + dy * dy + dz * dz)).isCloseTo(0.5, within(2e-3));
        assertThat(s.pos[2]).isCloseTo(1, within(2e-3));
        // the slider keeps y and z and moves along x at its initial x velocity
        assertThat(s.pos[7]).isCloseTo(2, within(1e-3));
        assertThat(s.pos[8]).isCloseTo(1, within(1e-3));
        assertThat(s.pos[6]).isCloseTo(0.3, within(5e-3));
    }
}
