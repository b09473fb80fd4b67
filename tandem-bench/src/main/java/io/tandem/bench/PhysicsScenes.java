package io.tandem.bench;

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
     */
    static PhysicsModel chain(int links, double timeStep, SolverSettings solver) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(timeStep).solver(solver);
        double w = LINK_WIDTH;
        double ix = LINK_MASS * (w * w + w * w) / 12;
        double iy = LINK_MASS * (LINK * LINK + w * w) / 12;
        int prev = -1;
        for (int i = 0; i < links; i++) {
            int link = b.body("link" + i).mass(LINK_MASS, ix, iy, iy)
                    .position(LINK * i + LINK / 2, 0, PIN_HEIGHT).add();
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
}
