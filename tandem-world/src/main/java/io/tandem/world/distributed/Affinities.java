package io.tandem.world.distributed;

import io.tandem.world.World;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/*
 * Implementation notes.
 *
 * First assignment: Gazebo's NetworkManagerPrimary::PopulateAffinities (shared/specs/gazebo.md
 * 1.7): secondaries in name order; levels in the world's order, each level with performers gives
 * all of them to the current secondary, then the iterator moves on (round-robin over levels);
 * then every performer in no level goes to the current secondary and the iterator moves on
 * (round-robin over performers). Unlike Gazebo, a performer in several levels is assigned once
 * (by its first level): Gazebo's duplicate entries made secondaries delete the model they should
 * run (its issue behind the unmerged PR #3214).
 *
 * Every later step (Gazebo never re-evaluates; its code has a TODO): performers are grouped into
 * clusters, joining two performers when they are in a common level or in levels whose boxes touch
 * (closed boxes, buffers included: a buffer keeps a level loaded, so two performers near touching
 * levels may soon share one). A cluster whose members are on different secondaries moves to the
 * secondary that holds most of them (ties: the secondary of the cluster's first performer in
 * world order), so it hands over as few performers as possible. Clusters that split keep their
 * assignments: nothing forces a move. Deterministic: lists and insertion-ordered maps only.
 */

/**
 * Assigns performers to secondaries: Gazebo's first-step rule, then a re-evaluation every step so
 * that performers that may interact are simulated by one secondary. Not thread-safe; the
 * primary's stepping thread drives it. Allocates its small results.
 */
final class Affinities {
    /** One change of assignment: {@code from} is null for a first assignment. */
    record Change(String performer, String from, String to) {
    }

    private final List<String> secondaries;
    private final List<World.Level> levels;
    /** level index pairs whose boxes (plus buffers) touch */
    private final boolean[][] touching;
    private final Map<String, String> assignment = new LinkedHashMap<>();

    /**
     * @param world       the world (its levels)
     * @param secondaries the secondaries' names, at least one
     */
    Affinities(World world, List<String> secondaries) {
        if (secondaries.isEmpty()) {
            throw new IllegalArgumentException("a distributed run needs at least one secondary");
        }
        List<String> sorted = new ArrayList<>(secondaries);
        sorted.sort(null);
        this.secondaries = List.copyOf(sorted);
        this.levels = world.levels();
        int n = levels.size();
        touching = new boolean[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                touching[a][b] = a == b || touch(levels.get(a), levels.get(b));
            }
        }
    }

    private static boolean touch(World.Level a, World.Level b) {
        return Math.abs(a.x() - b.x()) <= (a.sizeX() + b.sizeX()) / 2 + a.buffer() + b.buffer()
                && Math.abs(a.y() - b.y()) <= (a.sizeY() + b.sizeY()) / 2 + a.buffer() + b.buffer()
                && Math.abs(a.z() - b.z()) <= (a.sizeZ() + b.sizeZ()) / 2 + a.buffer() + b.buffer();
    }

    /** @return the current assignment, performer to secondary, in first-assignment order */
    Map<String, String> assignment() {
        return Map.copyOf(assignment);
    }

    /** @return the secondary of a performer, or null */
    String secondaryOf(String performer) {
        return assignment.get(performer);
    }

    /**
     * Assigns a performer created while the run is under way (a runtime performer) to the
     * secondary that simulates its model; later updates treat it like any other.
     *
     * @return the change (from null)
     * @throws IllegalArgumentException for an unknown secondary or a performer already assigned
     */
    Change assign(String performer, String secondary) {
        if (!secondaries.contains(secondary) || assignment.containsKey(performer)) {
            throw new IllegalArgumentException("cannot assign performer '" + performer + "' to '" + secondary
                    + "': secondaries " + secondaries + ", assigned " + assignment.keySet());
        }
        assignment.put(performer, secondary);
        return new Change(performer, null, secondary);
    }

    /**
     * Assigns or re-assigns performers for this step.
     *
     * @param performerLevels every performer (world order) with the levels it is in or near
     * @return the changes, in performer order; empty when nothing moves
     */
    List<Change> update(Map<String, List<String>> performerLevels) {
        List<Change> changes = new ArrayList<>();
        if (assignment.isEmpty()) {
            firstAssignment(performerLevels, changes);
            return changes;
        }
        // performers new since the first step (runtime performers): round-robin after the others
        for (String p : performerLevels.keySet()) {
            if (!assignment.containsKey(p)) {
                String to = secondaries.get(assignment.size() % secondaries.size());
                assignment.put(p, to);
                changes.add(new Change(p, null, to));
            }
        }
        List<String> names = new ArrayList<>(performerLevels.keySet());
        int[] cluster = clusters(names, performerLevels);
        for (int c = 0; c < names.size(); c++) {
            if (cluster[c] != c) {
                continue;
            }
            // members of the cluster rooted at c, their secondaries counted in secondary order
            int[] count = new int[secondaries.size()];
            int first = -1;
            for (int i = 0; i < names.size(); i++) {
                if (cluster[i] == c) {
                    int s = secondaries.indexOf(assignment.get(names.get(i)));
                    count[s]++;
                    if (first < 0) {
                        first = s;
                    }
                }
            }
            int best = first;
            for (int s = 0; s < count.length; s++) {
                if (count[s] > count[best]) {
                    best = s;
                }
            }
            String to = secondaries.get(best);
            for (int i = 0; i < names.size(); i++) {
                String from = assignment.get(names.get(i));
                if (cluster[i] == c && !from.equals(to)) {
                    assignment.put(names.get(i), to);
                    changes.add(new Change(names.get(i), from, to));
                }
            }
        }
        return changes;
    }

    private void firstAssignment(Map<String, List<String>> performerLevels, List<Change> changes) {
        int it = 0;
        for (World.Level level : levels) {
            boolean any = false;
            for (Map.Entry<String, List<String>> p : performerLevels.entrySet()) {
                if (p.getValue().contains(level.name())) {
                    any = true;
                    if (!assignment.containsKey(p.getKey())) {
                        assignment.put(p.getKey(), secondaries.get(it));
                        changes.add(new Change(p.getKey(), null, secondaries.get(it)));
                    }
                }
            }
            if (any) {
                it = (it + 1) % secondaries.size();
            }
        }
        for (String p : performerLevels.keySet()) {
            if (!assignment.containsKey(p)) {
                assignment.put(p, secondaries.get(it));
                changes.add(new Change(p, null, secondaries.get(it)));
                it = (it + 1) % secondaries.size();
            }
        }
    }

    /** Union-find over performers joined by shared or touching levels; returns each one's root index. */
    private int[] clusters(List<String> names, Map<String, List<String>> performerLevels) {
        int n = names.size();
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (related(performerLevels.get(names.get(a)), performerLevels.get(names.get(b)))) {
                    int ra = root(parent, a);
                    int rb = root(parent, b);
                    // the smaller index is the root, so a cluster's root is its first performer
                    parent[Math.max(ra, rb)] = Math.min(ra, rb);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            parent[i] = root(parent, i);
        }
        return parent;
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i) {
            i = parent[i];
        }
        return i;
    }

    private boolean related(List<String> a, List<String> b) {
        for (String la : a) {
            int ia = levelIndex(la);
            for (String lb : b) {
                int ib = levelIndex(lb);
                if (ia >= 0 && ib >= 0 && touching[ia][ib]) {
                    return true;
                }
            }
        }
        return false;
    }

    private int levelIndex(String name) {
        for (int l = 0; l < levels.size(); l++) {
            if (levels.get(l).name().equals(name)) {
                return l;
            }
        }
        return -1;
    }
}
