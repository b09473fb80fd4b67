package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.physics.internal.parallel.ParallelLoop;
import io.tandem.physics.internal.solver.ConstraintProblem;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The warm-start table: a run sorted by pair, its lookups against a linear scan, its order after the engine's store. */
class ContactCacheTest {
    /** Random keys over few bodies and shapes, so that pairs repeat and some full keys do too. */
    private static long[] randomKey(Random rnd) {
        long a = rnd.nextInt(6) - 2;
        long b = rnd.nextInt(6) - 2;
        long p = ContactCache.packed(rnd.nextInt(3), rnd.nextInt(3), rnd.nextInt(4) - 1);
        return new long[] {a, b, p};
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void order_randomAdds_sortsByPairAndKeepsTheLastOfEqualKeys(long seed) {
        Random rnd = new Random(seed);
        ContactCache c = new ContactCache();
        Map<List<Long>, Double> last = new LinkedHashMap<>();
        for (int i = 0; i < 300; i++) {
            long[] k = randomKey(rnd);
            double v = rnd.nextDouble();
            c.add(k[0], k[1], k[2], v, -v, 2 * v);
            last.put(List.of(k[0], k[1], k[2]), v);
        }
        c.order();

        assertThat(c.size()).isEqualTo(last.size());
        for (int i = 0; i < c.size(); i++) {
            List<Long> key = List.of(c.bodyA(i), c.bodyB(i), c.packed(i));
            assertThat(c.value(i, 0)).as("entry %d %s", i, key).isEqualTo(last.get(key));
            assertThat(c.value(i, 1)).isEqualTo(-last.get(key));
            if (i > 0) {
                assertThat(ContactCache.comparePairs(c.bodyA(i - 1), c.bodyB(i - 1), c.packed(i - 1), c.bodyA(i), c.bodyB(i),
                        c.packed(i))).as("entries %d, %d in pair order", i - 1, i).isLessThanOrEqualTo(0);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void seekAndMatch_walkInPairOrder_agreeWithLinearScan(long seed) {
        Random rnd = new Random(seed);
        ContactCache c = new ContactCache();
        for (int i = 0; i < 200; i++) {
            long[] k = randomKey(rnd);
            c.add(k[0], k[1], k[2], i, 0, 0);
        }
        c.order();
        // queries in pair order, as a chunk of the rows loop makes them, some absent from the table
        List<long[]> queries = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            queries.add(randomKey(rnd));
        }
        queries.sort((x, y) -> ContactCache.comparePairs(x[0], x[1], x[2], y[0], y[1], y[2]));
        int cursor = 0;
        int found = 0;
        for (long[] q : queries) {
            cursor = c.seek(cursor, q[0], q[1], q[2]);
            int expectedAt = 0;
            while (expectedAt < c.size()
                    && ContactCache.comparePairs(c.bodyA(expectedAt), c.bodyB(expectedAt), c.packed(expectedAt), q[0], q[1], q[2]) < 0) {
                expectedAt++;
            }
            assertThat(cursor).isEqualTo(expectedAt);
            int expected = -1;
            for (int i = 0; i < c.size(); i++) {
                if (c.bodyA(i) == q[0] && c.bodyB(i) == q[1] && c.packed(i) == q[2]) {
                    expected = i;
                }
            }
            assertThat(c.match(cursor, q[0], q[1], q[2])).isEqualTo(expected);
            found += expected >= 0 ? 1 : 0;
        }
        assertThat(found).as("queries present in the table").isBetween(10, 140);
    }

    @Test
    void retain_keepsOrderAndDropsRejectedEntries() {
        ContactCache c = new ContactCache();
        for (int i = 0; i < 20; i++) {
            c.add(i % 5, 10 + i % 3, ContactCache.packed(0, 0, i), i, 0, 0);
        }
        c.order();
        c.retain((a, b) -> a != 2 && b != 11);
        for (int i = 0; i < c.size(); i++) {
            assertThat(c.bodyA(i)).isNotEqualTo(2);
            assertThat(c.bodyB(i)).isNotEqualTo(11);
        }
        assertThat(c.size()).isEqualTo(20 - 4 - 7 + 1);
    }

    /**
     * The engine's store writes the step's impulses in block order, which must be pair order for
     * the next step's lookups: bodies whose ids run against their model order, several shapes per
     * body, a negative id. Then the rows read the same warm starts from that run as from the same
     * entries added in shuffled order and sorted.
     */
    @Test
    void store_idsAgainstModelOrderAndCompounds_runIsInPairOrderAndLookupsMatchASortedCopy() {
        PhysicsModel m = compoundScene();
        PhysicsState s = m.newState();
        try (PhysicsEngine e = new PhysicsEngine(m)) {
            for (int k = 0; k < 60; k++) {
                e.step(s);
            }
        }
        ContactCache run = s.contacts;
        assertThat(run.size()).isGreaterThan(30);
        for (int i = 1; i < run.size(); i++) {
            assertThat(ContactCache.comparePairs(run.bodyA(i - 1), run.bodyB(i - 1), run.packed(i - 1), run.bodyA(i),
                    run.bodyB(i), run.packed(i))).as("entries %d, %d in pair order", i - 1, i).isLessThanOrEqualTo(0);
        }
        PhysicsState shuffled = m.newState();
        shuffled.copyFrom(s);
        shuffled.removeContactWarmStarts(id -> true);
        List<ContactWarmStart> entries = new ArrayList<>(s.contactWarmStarts(id -> true));
        java.util.Collections.shuffle(entries, new Random(3));
        for (ContactWarmStart w : entries) {
            shuffled.putContactWarmStart(w);
        }

        ConstraintProblem fromRun = assemble(m, s);
        ConstraintProblem fromSorted = assemble(m, shuffled);
        int warm = 0;
        for (int c = 0; c < fromRun.constraints; c++) {
            int r = fromRun.rowStart[c];
            for (int d = 0; d < 3; d++) {
                assertThat(fromSorted.p[r + d]).as("block %d row %d", c, d).isEqualTo(fromRun.p[r + d]);
            }
            warm += fromRun.p[r] != 0 ? 1 : 0;
        }
        assertThat(warm).as("blocks warm-started").isGreaterThan(fromRun.constraints / 2);
    }

    private static ConstraintProblem assemble(PhysicsModel m, PhysicsState s) {
        int[] dyn = new int[m.bodies];
        int n = 0;
        for (int k = 0; k < m.bodies; k++) {
            int i = m.bodyOrder[k];
            dyn[i] = m.bodyType[i] == BodyType.DYNAMIC ? n++ : -1;
        }
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(n);
        pr.layout();
        new ContactAssembly(m, ParallelLoop.serial()).assemble(s, pr, dyn, new double[6 * m.bodies], m.timeStep());
        return pr;
    }

    /** 40 bodies of one to three shapes in three touching layers on a plane; ids descending against the model order, one negative. */
    private static PhysicsModel compoundScene() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        b.body("ground").makeStatic().plane().id(1000).add();
        Random rnd = new Random(7);
        for (int i = 0; i < 40; i++) {
            PhysicsModel.BodyBuilder body = b.body("b" + i).id(i == 17 ? -5 : 500 - 7 * i)
                    .position(0.12 * (i % 4) + 0.02 * rnd.nextDouble(), 0.12 * (i / 4 % 4) + 0.02 * rnd.nextDouble(),
                            0.07 + 0.12 * (i / 16));
            body.sphere(0.06);
            if (i % 2 == 0) {
                body.box(0.05, 0.04, 0.03).at(0.07, 0, 0, 1, 0, 0, 0);
            }
            if (i % 3 == 0) {
                body.capsule(0.03, 0.05).at(0, 0.07, 0, 1, 0.3, 0, 0);
            }
            body.mass(0.5, 0.002, 0.002, 0.002).add();
        }
        return b.build();
    }
}
