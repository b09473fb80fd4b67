package io.tandem.bench.physics;

import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverSettings;

/**
 * The reference scenes of shared/specs/physics.md 2.2, z-up (the peers were y-up; same scenes
 * with the axes swapped). Stateless.
 */
final class PhysicsScenes {
    /** chain link length along x, m */
    static final double LINK = 0.1;
    static final double LINK_WIDTH = 0.02;
    static final double LINK_MASS = 0.1;
    static final double PIN_HEIGHT = 10;

    private PhysicsScenes() {
    }

    /**
     * chain: box links 0.1 x 0.02 x 0.02 m, 0.1 kg, joined end to end by ball joints, starting
     * horizontal along x, link 0 pinned to the world at (0, 0, 10); no link-link collisions.
     *
     * @param oneSubsystem put every link into one subsystem (SubADMM then solves the chain's joints
     *                     exactly inside it, as the paper groups cable segments); otherwise one
     *                     subsystem per link
     */
    static PhysicsModel chain(int links, double timeStep, SolverSettings solver, boolean oneSubsystem) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(timeStep).solver(solver);
        double w = LINK_WIDTH;
        double ix = LINK_MASS * (w * w + w * w) / 12;
        double iy = LINK_MASS * (LINK * LINK + w * w) / 12;
        int prev = -1;
        for (int i = 0; i < links; i++) {
            PhysicsModel.BodyBuilder body = b.body("link" + i).mass(LINK_MASS, ix, iy, iy)
                    .position(LINK * i + LINK / 2, 0, PIN_HEIGHT);
            int link = (oneSubsystem ? body.subsystem(0) : body).add();
            b.ballJoint(link, prev, LINK * i, 0, PIN_HEIGHT).add();
            prev = link;
        }
        return b.build();
    }

    /** Largest distance between joined link ends (and link 0 to its pin), m. Allocates nothing. */
    static double chainJointError(PhysicsModel m, PhysicsState s, double[] scratch) {
        double max = 0;
        for (int i = 0; i < m.bodyCount(); i++) {
            end(s, i, -LINK / 2, scratch, 0);
            if (i == 0) {
                scratch[3] = 0;
                scratch[4] = 0;
                scratch[5] = PIN_HEIGHT;
            } else {
                end(s, i - 1, LINK / 2, scratch, 3);
            }
            double dx = scratch[0] - scratch[3];
            double dy = scratch[1] - scratch[4];
            double dz = scratch[2] - scratch[5];
            max = Math.max(max, Math.sqrt(dx * dx + dy * dy + dz * dz));
        }
        return max;
    }

    /** World position of the point at local x = {@code along} of body i into out[o..o+3). */
    private static void end(PhysicsState s, int i, double along, double[] out, int o) {
        double w = s.quat[4 * i];
        double x = s.quat[4 * i + 1];
        double y = s.quat[4 * i + 2];
        double z = s.quat[4 * i + 3];
        // first column of R(q) times along
        out[o] = s.pos[3 * i] + along * (1 - 2 * (y * y + z * z));
        out[o + 1] = s.pos[3 * i + 1] + along * 2 * (x * y + w * z);
        out[o + 2] = s.pos[3 * i + 2] + along * 2 * (x * z - w * y);
    }

    /** pile: sphere radius, m */
    static final double PILE_RADIUS = 0.1;

    /**
     * pile: 1000 spheres r 0.1 m, 1 kg, friction 0.5, on a 10 x 10 x 10 grid with 0.22 m spacing
     * and +-1 cm jitter (seed 42), the lowest layer at 0.3 m, in a static box whose inner faces are
     * at |x|, |y| = 1.2 m with its floor at z = 0 (planes).
     */
    static PhysicsModel pile(int perSide, double timeStep, SolverSettings solver) {
        return pile(perSide, timeStep, solver, 42);
    }

    /** {@link #pile(int, double, SolverSettings)} with another seed for the jitter. */
    static PhysicsModel pile(int perSide, double timeStep, SolverSettings solver, long seed) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(timeStep).solver(solver);
        double s2 = Math.sqrt(0.5);
        b.body("floor").makeStatic().plane().friction(0.5).add();
        // walls: planes whose +z normal points into the box
        b.body("wall-x").makeStatic().plane().friction(0.5).position(-1.2, 0, 0).orientation(s2, 0, s2, 0).add();
        b.body("wall+x").makeStatic().plane().friction(0.5).position(1.2, 0, 0).orientation(s2, 0, -s2, 0).add();
        b.body("wall-y").makeStatic().plane().friction(0.5).position(0, -1.2, 0).orientation(s2, -s2, 0, 0).add();
        b.body("wall+y").makeStatic().plane().friction(0.5).position(0, 1.2, 0).orientation(s2, s2, 0, 0).add();
        java.util.Random rnd = new java.util.Random(seed);
        double inertia = 0.4 * PILE_RADIUS * PILE_RADIUS;
        double half = (perSide - 1) / 2.0;
        for (int k = 0; k < perSide; k++) {
            for (int j = 0; j < perSide; j++) {
                for (int i = 0; i < perSide; i++) {
                    double x = (i - half) * 0.22 + (rnd.nextDouble() * 2 - 1) * 0.01;
                    double y = (j - half) * 0.22 + (rnd.nextDouble() * 2 - 1) * 0.01;
                    double z = 0.3 + k * 0.22 + (rnd.nextDouble() * 2 - 1) * 0.01;
                    b.body("s" + i + "_" + j + "_" + k).sphere(PILE_RADIUS).friction(0.5)
                            .mass(1, inertia, inertia, inertia).position(x, y, z).add();
                }
            }
        }
        return b.build();
    }

    /** Bodies before the spheres in {@link #pile}. */
    static final int PILE_STATIC = 5;

    /** Largest overlap between spheres or with the floor and walls, m (O(n^2)). */
    static double pileMaxPenetration(PhysicsModel m, PhysicsState s) {
        double r = PILE_RADIUS;
        double max = 0;
        int n = m.bodyCount();
        for (int i = PILE_STATIC; i < n; i++) {
            double x = s.pos[3 * i];
            double y = s.pos[3 * i + 1];
            double z = s.pos[3 * i + 2];
            max = Math.max(max, r - z);
            max = Math.max(max, r - (x + 1.2));
            max = Math.max(max, r - (1.2 - x));
            max = Math.max(max, r - (y + 1.2));
            max = Math.max(max, r - (1.2 - y));
            for (int j = i + 1; j < n; j++) {
                double dx = s.pos[3 * j] - x;
                double dy = s.pos[3 * j + 1] - y;
                double dz = s.pos[3 * j + 2] - z;
                double d2 = dx * dx + dy * dy + dz * dz;
                if (d2 < 4 * r * r) {
                    max = Math.max(max, 2 * r - Math.sqrt(d2));
                }
            }
        }
        return max;
    }

    /** Mean height of the sphere centres, m. */
    static double pileMeanHeight(PhysicsModel m, PhysicsState s) {
        double sum = 0;
        for (int i = PILE_STATIC; i < m.bodyCount(); i++) {
            sum += s.pos[3 * i + 2];
        }
        return sum / (m.bodyCount() - PILE_STATIC);
    }

    /** stir: layers of spheres before the rod starts */
    static final int STIR_LAYERS = 10;

    /**
     * stir (our re-authored scene, shared/specs/physics.md 1.6): n spheres r 0.1 m, 1 kg,
     * friction 0.5, on a square grid of 10 layers with 0.22 m spacing (+-1 cm jitter, seed 7) in a
     * box of planes just wide enough, stirred by a kinematic vertical rod (capsule r 0.05 m)
     * circling at half the box's half width at 1 m/s. Bodies: 5 planes, the rod, then the spheres.
     */
    static PhysicsModel stir(int n, double timeStep, SolverSettings solver) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(timeStep).solver(solver);
        int side = (int) Math.ceil(Math.sqrt(n / (double) STIR_LAYERS));
        double half = Math.max(1.2, side * 0.22 / 2 + 0.2);
        double s2 = Math.sqrt(0.5);
        b.body("floor").makeStatic().plane().friction(0.5).add();
        b.body("wall-x").makeStatic().plane().friction(0.5).position(-half, 0, 0).orientation(s2, 0, s2, 0).add();
        b.body("wall+x").makeStatic().plane().friction(0.5).position(half, 0, 0).orientation(s2, 0, -s2, 0).add();
        b.body("wall-y").makeStatic().plane().friction(0.5).position(0, -half, 0).orientation(s2, -s2, 0, 0).add();
        b.body("wall+y").makeStatic().plane().friction(0.5).position(0, half, 0).orientation(s2, s2, 0, 0).add();
        double radius = 0.5 * half;
        double omega = 1.0 / radius;
        double rodHalf = STIR_LAYERS * 0.22 / 2 + 0.3;
        b.body("rod").kinematic((t, out) -> {
            double c = Math.cos(omega * t);
            double sn = Math.sin(omega * t);
            out[0] = radius * c;
            out[1] = radius * sn;
            out[2] = rodHalf + 0.05;
            out[3] = 1;
            out[4] = 0;
            out[5] = 0;
            out[6] = 0;
            out[7] = -radius * omega * sn;
            out[8] = radius * omega * c;
            out[9] = 0;
            out[10] = 0;
            out[11] = 0;
            out[12] = 0;
        }).capsule(0.05, rodHalf).friction(0.5).add();
        java.util.Random rnd = new java.util.Random(7);
        double inertia = 0.4 * PILE_RADIUS * PILE_RADIUS;
        int made = 0;
        double off = (side - 1) / 2.0;
        for (int k = 0; made < n; k++) {
            for (int j = 0; j < side && made < n; j++) {
                for (int i = 0; i < side && made < n; i++) {
                    double x = (i - off) * 0.22 + (rnd.nextDouble() * 2 - 1) * 0.01;
                    double y = (j - off) * 0.22 + (rnd.nextDouble() * 2 - 1) * 0.01;
                    double z = 0.12 + k * 0.22;
                    b.body("s" + made).sphere(PILE_RADIUS).friction(0.5).mass(1, inertia, inertia, inertia)
                            .position(x, y, z).add();
                    made++;
                }
            }
        }
        return b.build();
    }

    /**
     * The cable scaling scene (ours): a cable of n segments of 5 cm (the cable scenario's: d 2 cm,
     * E 1e7 Pa, nu 0.45, 1200 kg/m^3, 10 segments per subsystem) lying straight along x on the
     * ground, its first segment welded to a kinematic handle that drags it sideways in a circle of
     * radius 0.5 m at 0.5 m/s; h = 2 ms, friction 0.5. Every segment touches the ground, so the
     * step's work (segments, connections, contacts) grows with n.
     */
    static PhysicsModel cableDrag(int n, SolverSettings solver) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(0.002).solver(solver);
        b.body("floor").makeStatic().plane().friction(0.5).add();
        double r = 0.01;
        double radius = 0.5;
        double omega = 0.5 / radius;
        int handle = b.body("handle").kinematic((t, out) -> {
            double c = Math.cos(omega * t);
            double sn = Math.sin(omega * t);
            out[0] = radius * sn;
            out[1] = radius * (1 - c);
            out[2] = r;
            out[3] = 1;
            out[4] = 0;
            out[5] = 0;
            out[6] = 0;
            out[7] = radius * omega * c;
            out[8] = radius * omega * sn;
            out[9] = 0;
            out[10] = 0;
            out[11] = 0;
            out[12] = 0;
        }).add();
        int first = b.cable("cable").from(0, 0, r).to(-0.05 * n, 0, r).segments(n).diameter(2 * r)
                .material(1e7, 0.45, 1200).segmentsPerSubsystem(10).add();
        b.fixedJoint(first, handle, 0, 0, r).add();
        return b.build();
    }
}
