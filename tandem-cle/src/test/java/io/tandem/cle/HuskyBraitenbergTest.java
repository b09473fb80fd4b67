package io.tandem.cle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cle.record.Trajectory;
import org.junit.jupiter.api.Test;

/**
 * The acceptance of the Husky Braitenberg experiment (nrp.md 3): started at the origin facing the
 * blue screen (yaw pi), the robot turns in place until red is in view, then drives to the red
 * screen at (+4, 0); with the red screen blue it keeps turning. Short simulated times keep each
 * run to a second or two of wall time.
 */
class HuskyBraitenbergTest {
    private static final long SECOND = 1_000_000_000L;

    private static double bearingToRed(Trajectory tr, int i) {
        return Math.atan2(0 - tr.y(i), 4 - tr.x(i));
    }

    private static double angleBetween(double a, double b) {
        return Math.abs(Math.IEEEremainder(a - b, 2 * Math.PI));
    }

    @Test
    void run_redScreen_turnsInPlaceThenReachesWithinOneMetre() {
        try (ClosedLoop loop = HuskyBraitenberg.builder().seed(1).build()) {
            long[] reachedNs = {-1};
            loop.run(10 * SECOND, (k, t) -> {
                if (reachedNs[0] < 0 && loop.planarDistance(HuskyBraitenberg.ROBOT, HuskyBraitenberg.RED_SCREEN) < 1.0) {
                    reachedNs[0] = t;
                }
                return true;
            });
            Trajectory tr = loop.trajectory();
            assertThat(tr.size()).isEqualTo(501);
            assertThat(angleBetween(tr.yaw(0), Math.PI)).isLessThan(1e-6);
            // first it turns in place: until it faces the screen (within 30 degrees) it stays at the origin
            int facing = -1;
            for (int i = 0; i < tr.size() && facing < 0; i++) {
                if (angleBetween(tr.yaw(i), bearingToRed(tr, i)) < Math.toRadians(30)) {
                    facing = i;
                }
            }
            assertThat(facing).isPositive();
            assertThat(tr.timeNs(facing)).isGreaterThan(SECOND / 2);
            for (int i = 0; i <= facing; i++) {
                assertThat(Math.hypot(tr.x(i), tr.y(i))).isLessThan(0.15);
            }
            // then it drives towards the screen and ends within 1 m of it
            assertThat(reachedNs[0]).isBetween(tr.timeNs(facing), 8 * SECOND);
            assertThat(loop.planarDistance(HuskyBraitenberg.ROBOT, HuskyBraitenberg.RED_SCREEN)).isLessThan(1.0);
            assertThat(loop.spikeTrains().size()).isPositive();
        }
    }

    @Test
    void run_redScreenBlue_keepsTurningAndNeverApproaches() {
        try (ClosedLoop loop = HuskyBraitenberg.builder().seed(1).redScreenBlue(true).build()) {
            loop.run(8 * SECOND, ProgressHandler.NONE);
            Trajectory tr = loop.trajectory();
            double turned = 0;
            for (int i = 0; i < tr.size(); i++) {
                assertThat(Math.hypot(tr.x(i), tr.y(i))).isLessThan(0.15);
                if (i > 0) {
                    turned += Math.IEEEremainder(tr.yaw(i) - tr.yaw(i - 1), 2 * Math.PI);
                }
            }
            // more than a full turn, always the same way
            assertThat(Math.abs(turned)).isGreaterThan(2 * Math.PI);
            assertThat(loop.planarDistance(HuskyBraitenberg.ROBOT, HuskyBraitenberg.RED_SCREEN)).isGreaterThan(3.8);
        }
    }

    @Test
    void run_parallelAndSerial_identicalTrajectoriesAndSpikes() {
        String[] hashes = new String[2];
        int[] spikes = new int[2];
        SyncMode[] modes = {SyncMode.PARALLEL, SyncMode.SERIAL};
        for (int m = 0; m < 2; m++) {
            try (ClosedLoop loop = HuskyBraitenberg.builder().seed(7).mode(modes[m]).build()) {
                loop.run(4 * SECOND, ProgressHandler.NONE);
                hashes[m] = loop.trajectory().sha256();
                spikes[m] = loop.spikeTrains().size();
                // it has moved: the hash covers a real trajectory
                assertThat(loop.trajectory().yaw(loop.trajectory().size() - 1)).isNotEqualTo(loop.trajectory().yaw(0));
            }
        }
        assertThat(hashes[0]).isEqualTo(hashes[1]).hasSize(64);
        assertThat(spikes[0]).isEqualTo(spikes[1]).isPositive();
    }

    @Test
    void run_splitRunsAndReset_repeatTheTrajectory() {
        try (ClosedLoop loop = HuskyBraitenberg.builder().seed(3).build()) {
            loop.run(2 * SECOND, ProgressHandler.NONE);
            String whole = loop.trajectory().sha256();
            loop.reset();
            assertThat(loop.timeNs()).isZero();
            loop.run(SECOND, ProgressHandler.NONE);
            loop.run(SECOND, ProgressHandler.NONE);
            assertThat(loop.trajectory().size()).isEqualTo(101);
            assertThat(loop.trajectory().sha256()).isEqualTo(whole);
        }
    }
}
