package io.tandem.physics.internal.solver;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.physics.internal.parallel.ParallelLoop;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The structure builds that run on every thread of the loop (islands by a lock-free union-find, the
 * per-body lists of split pairs by atomic counts and places): the serial build's result, exactly,
 * on problems with many chunks of bodies and blocks, shared bodies, subsystems and exact blocks.
 */
class SharedBuildTest {
    /**
     * Grouped ball chains (their joints are exact, internal equalities), singleton chains, and
     * random contacts among 300 bodies (which join islands and touch a body up to about ten times),
     * shuffled into one problem by the seed.
     */
    private static ConstraintProblem mixed(long seed) {
        Random rnd = new Random(seed);
        List<ConstraintProblem> parts = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            int links = 2 + rnd.nextInt(8);
            int[] groups = rnd.nextBoolean() ? new int[links] : null;
            parts.add(Problems.ballChain(links, seed + k, groups));
            if (k % 5 == 0) {
                parts.add(Problems.randomContacts(60 + rnd.nextInt(40), 150 + rnd.nextInt(300), seed * 31 + k, false));
            }
        }
        ConstraintProblem pr = Problems.disjointUnion(parts.toArray(new ConstraintProblem[0]));
        assertThat(pr.bodies).isGreaterThan(4 * ParallelLoop.CHUNK);
        assertThat(pr.constraints).isGreaterThan(8 * ParallelLoop.CHUNK);
        return pr;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void islands_fourThreads_matchSerialBuild(long seed) {
        ConstraintProblem pr = mixed(seed);
        // contacts across the parts, so that unions race for the same roots
        Random rnd = new Random(seed);
        ConstraintProblem joined = Problems.disjointUnion(pr, Problems.randomContacts(2, 1, seed, false));
        for (int k = 0; k < 40; k++) {
            joined.addBlock(ConstraintProblem.CONTACT, 3, rnd.nextInt(joined.bodies), rnd.nextInt(joined.bodies), 0.5);
        }
        Islands serial = assertSharedBuildsMatchSerial(joined, 20);
        // and the serial build is right: bodies joined by a two-sided block share an island,
        // islands are numbered in the order of their first body
        assertThat(serial.count).isGreaterThan(1).isLessThan(joined.bodies);
        for (int c = 0; c < joined.constraints; c++) {
            if (joined.bodyA[c] >= 0 && joined.bodyB[c] >= 0) {
                assertThat(serial.ofBody[joined.bodyA[c]]).isEqualTo(serial.ofBody[joined.bodyB[c]]);
            }
        }
        int seen = -1;
        for (int b = 0; b < joined.bodies; b++) {
            assertThat(serial.ofBody[b]).isLessThanOrEqualTo(seen + 1);
            seen = Math.max(seen, serial.ofBody[b]);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12})
    void islands_manyThreadsMergingOneGiantIsland_matchSerialBuild(long seed) {
        // random blocks among 3000 bodies, about one per body: components merge all the time, so
        // concurrent unions race to link the same roots (a lost link would split an island)
        Random rnd = new Random(seed);
        int n = 3000;
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(n);
        pr.layout();
        for (int k = 0; k < n; k++) {
            pr.addBlock(ConstraintProblem.CONTACT, 3, rnd.nextInt(n), rnd.nextInt(n), 0.5);
        }
        assertSharedBuildsMatchSerial(pr, 200);
    }

    /** Builds the islands serially, then {@code builds} times on 4 threads: each the same; returns the serial build. */
    private static Islands assertSharedBuildsMatchSerial(ConstraintProblem pr, int builds) {
        Islands serial = new Islands();
        serial.build(pr);
        Islands shared = new Islands();
        try (ParallelLoop four = ParallelLoop.withThreads(4)) {
            for (int repeat = 0; repeat < builds; repeat++) {
                shared.build(pr, four);
                assertThat(shared.count).as("islands, build %d", repeat).isEqualTo(serial.count);
                assertThat(Arrays.copyOf(shared.ofBody, pr.bodies)).as("islands of the bodies, build %d", repeat)
                        .isEqualTo(Arrays.copyOf(serial.ofBody, pr.bodies));
                assertThat(Arrays.copyOf(shared.ofBlock, pr.constraints)).as("islands of the blocks, build %d", repeat)
                        .isEqualTo(Arrays.copyOf(serial.ofBlock, pr.constraints));
            }
        }
        return serial;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void splitPairLists_fourThreads_matchSerialPrepare(long seed) {
        ConstraintProblem pr = mixed(seed);
        Pairs pairs = new Pairs();
        pairs.build(pr);
        boolean[] exact = new boolean[pr.constraints];
        int exactBlocks = 0;
        for (int c = 0; c < pr.constraints; c++) {
            // as SubAdmm: a hard or soft block inside one subsystem
            exact[c] = (pr.kind[c] == ConstraintProblem.HARD || pr.kind[c] == ConstraintProblem.SOFT) && pairs.count[c] > 0
                    && (pairs.count[c] == 1 || pairs.sub[2 * c] == pairs.sub[2 * c + 1]);
            exactBlocks += exact[c] ? 1 : 0;
        }
        assertThat(exactBlocks).isPositive().isLessThan(pr.constraints);
        RigidSubsystems serial = new RigidSubsystems();
        int serialSplit = serial.prepare(pr, pairs, exact, ParallelLoop.serial());
        RigidSubsystems shared = new RigidSubsystems();
        try (ParallelLoop four = ParallelLoop.withThreads(4)) {
            for (int repeat = 0; repeat < 20; repeat++) {
                assertThat(shared.prepare(pr, pairs, exact, four)).isEqualTo(serialSplit);
                assertThat(shared.exactRows()).isEqualTo(serial.exactRows());
                for (int b = 0; b <= pr.bodies; b++) {
                    assertThat(shared.splitPairStart(b)).as("start of body %d", b).isEqualTo(serial.splitPairStart(b));
                }
                for (int e = 0; e < serial.splitPairStart(pr.bodies); e++) {
                    assertThat(shared.splitPair(e)).as("entry %d", e).isEqualTo(serial.splitPair(e));
                }
            }
        }
        // the serial lists hold each body's split pairs in constraint order
        for (int b = 0; b < pr.bodies; b++) {
            for (int e = serial.splitPairStart(b); e < serial.splitPairStart(b + 1); e++) {
                int entry = serial.splitPair(e);
                assertThat(pairs.body[entry]).isEqualTo(b);
                assertThat(exact[entry / 2]).isFalse();
                if (e > serial.splitPairStart(b)) {
                    assertThat(entry).isGreaterThan(serial.splitPair(e - 1));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void subAdmm_mixedProblemOneAndFourThreads_bitwiseIdentical(long seed) {
        // exact rows in grouped chains, split pairs, islands stopping at different iterations
        ConstraintProblem a = mixed(seed);
        ConstraintProblem b = mixed(seed);
        SubAdmm serial = new SubAdmm(200, 4, 1e-6, true, ParallelLoop.serial());
        serial.solve(a);
        SubAdmm threaded;
        try (ParallelLoop four = ParallelLoop.withThreads(4)) {
            threaded = new SubAdmm(200, 4, 1e-6, true, four);
            threaded.solve(b);
        }
        assertThat(threaded.lastIterations()).isEqualTo(serial.lastIterations()).isGreaterThan(SubAdmm.ADAPT_EVERY);
        Problems.assertBitwiseSameSolution(a, b);
    }
}
