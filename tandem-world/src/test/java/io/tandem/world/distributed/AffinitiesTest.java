package io.tandem.world.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.world.World;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AffinitiesTest {

    private static World.Level level(String name, double x) {
        return new World.Level(name, x, 0, 0, 10, 10, 10, 1, List.of(), 1);
    }

    /** Levels a (x 0), b (x 11: touches a through the buffers), c (x 100, alone). */
    private static World world() {
        return new World("w", "t.sdf", 0, 0, -9.8, 1_000_000, 1, List.of(), List.of(),
                List.of(level("a", 0), level("b", 11), level("c", 100)), true);
    }

    private static Map<String, List<String>> levels(Object... pairs) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<String> l = (List<String>) pairs[i + 1];
            m.put((String) pairs[i], l);
        }
        return m;
    }

    @Test
    void update_firstStep_gazeboRoundRobinOverLevelsThenPerformers() {
        Affinities aff = new Affinities(world(), List.of("s2", "s1"));
        List<Affinities.Change> c = aff.update(levels(
                "p1", List.of("c"), "p2", List.of("a"), "p3", List.of("a"), "p4", List.of(), "p5", List.of()));
        // level a (first in world order) -> s1 with both its performers; level c -> s2; then p4, p5 round-robin from s1
        assertThat(c).extracting(Affinities.Change::performer, Affinities.Change::to).containsExactly(
                org.assertj.core.groups.Tuple.tuple("p2", "s1"), org.assertj.core.groups.Tuple.tuple("p3", "s1"),
                org.assertj.core.groups.Tuple.tuple("p1", "s2"), org.assertj.core.groups.Tuple.tuple("p4", "s1"),
                org.assertj.core.groups.Tuple.tuple("p5", "s2"));
        assertThat(c).allMatch(ch -> ch.from() == null);
    }

    @Test
    void update_performerInTwoLevels_assignedOnce() {
        Affinities aff = new Affinities(world(), List.of("s1", "s2"));
        List<Affinities.Change> c = aff.update(levels("p1", List.of("a", "c")));
        assertThat(c).hasSize(1);
        assertThat(aff.secondaryOf("p1")).isEqualTo("s1");
    }

    @Test
    void update_performersMeetInTouchingLevels_handedToMajoritySecondary() {
        Affinities aff = new Affinities(world(), List.of("s1", "s2"));
        aff.update(levels("p1", List.of(), "p2", List.of(), "p3", List.of()));
        assertThat(aff.assignment()).containsEntry("p1", "s1").containsEntry("p2", "s2").containsEntry("p3", "s1");
        // nobody near anybody: no change
        assertThat(aff.update(levels("p1", List.of("a"), "p2", List.of("c"), "p3", List.of()))).isEmpty();
        // p2 enters b, which touches a (p1's level): p2 joins p1 on s1
        List<Affinities.Change> c = aff.update(levels("p1", List.of("a"), "p2", List.of("b"), "p3", List.of()));
        assertThat(c).containsExactly(new Affinities.Change("p2", "s2", "s1"));
        // they part again: nothing moves back
        assertThat(aff.update(levels("p1", List.of("a"), "p2", List.of("c"), "p3", List.of()))).isEmpty();
    }

    @Test
    void update_clusterOfThree_movesMinority() {
        Affinities aff = new Affinities(world(), List.of("s1", "s2"));
        aff.update(levels("p1", List.of(), "p2", List.of(), "p3", List.of()));
        // p1 (s1), p2 (s2), p3 (s1) all in level c: p2 is the minority
        List<Affinities.Change> c = aff.update(levels("p1", List.of("c"), "p2", List.of("c"), "p3", List.of("c")));
        assertThat(c).containsExactly(new Affinities.Change("p2", "s2", "s1"));
    }

    @Test
    void update_runtimePerformer_assignedRoundRobin() {
        Affinities aff = new Affinities(world(), List.of("s1", "s2"));
        aff.update(levels("p1", List.of()));
        List<Affinities.Change> c = aff.update(levels("p1", List.of(), "perf_x", List.of()));
        assertThat(c).containsExactly(new Affinities.Change("perf_x", null, "s2"));
    }

    @Test
    void constructor_noSecondaries_rejected() {
        assertThatThrownBy(() -> new Affinities(world(), List.of())).hasMessageContaining("at least one secondary");
    }
}
