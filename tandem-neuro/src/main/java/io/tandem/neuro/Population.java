package io.tandem.neuro;

import java.util.Arrays;

/**
 * An ordered selection of node ids, like NEST's {@code NodeCollection} and PyNN's
 * {@code PopulationView}. {@link NetworkBuilder#create} returns a contiguous range; slicing
 * ({@link #slice(int, int, int)}, Python semantics without negative indices), {@link #get} and
 * {@link #concat} give any other selection. Node ids are 0-based, in creation order, shared by
 * neurons and devices.
 *
 * <p>Immutable and thread-safe; the factory and slicing methods allocate.
 */
public final class Population {
    private final int[] ids;
    private final NodeModel model;

    Population(int[] ids, NodeModel model) {
        this.ids = ids;
        this.model = model;
    }

    /**
     * A selection of explicit node ids (in this order).
     *
     * @param ids node ids. Not modified.
     */
    public static Population of(int... ids) {
        for (int id : ids) {
            if (id < 0) {
                throw new IllegalArgumentException("node ids are >= 0, got " + id);
            }
        }
        return new Population(ids.clone(), null);
    }

    /** The contiguous ids {@code [first, first + size)}. */
    public static Population range(int first, int size) {
        if (first < 0 || size < 0) {
            throw new IllegalArgumentException("range needs first >= 0 and size >= 0, got first " + first + ", size " + size);
        }
        int[] ids = new int[size];
        for (int i = 0; i < size; i++) {
            ids[i] = first + i;
        }
        return new Population(ids, null);
    }

    /** @return the number of nodes */
    public int size() {
        return ids.length;
    }

    /** @return the node id at position {@code index} */
    public int id(int index) {
        if (index < 0 || index >= ids.length) {
            throw new IndexOutOfBoundsException("index " + index + " outside a population of " + ids.length);
        }
        return ids[index];
    }

    /** @return the one-node selection at position {@code index} (NEST {@code pop[i]}) */
    public Population get(int index) {
        return new Population(new int[] {id(index)}, model);
    }

    /** @return positions {@code [from, to)} (NEST/Python {@code pop[from:to]}) */
    public Population slice(int from, int to) {
        return slice(from, to, 1);
    }

    /** @return positions {@code from, from + step, ...} below {@code to} (Python {@code pop[from:to:step]}) */
    public Population slice(int from, int to, int step) {
        if (step < 1) {
            throw new IllegalArgumentException("slice step must be >= 1, got " + step);
        }
        if (from < 0 || to > ids.length || from > to) {
            throw new IndexOutOfBoundsException("slice [" + from + ", " + to + ") outside a population of " + ids.length);
        }
        int n = (to - from + step - 1) / step;
        int[] s = new int[n];
        for (int i = 0; i < n; i++) {
            s[i] = ids[from + i * step];
        }
        return new Population(s, model);
    }

    /** @return this selection followed by {@code other} */
    public Population concat(Population other) {
        int[] s = Arrays.copyOf(ids, ids.length + other.ids.length);
        System.arraycopy(other.ids, 0, s, ids.length, other.ids.length);
        return new Population(s, model == other.model ? model : null);
    }

    /** @return the first node id (the range start for a created population) */
    public int first() {
        return id(0);
    }

    /** @return a copy of the node ids */
    public int[] ids() {
        return ids.clone();
    }

    /** @return the model of every node, when the selection came from one {@code create} call; null otherwise */
    public NodeModel model() {
        return model;
    }

    int[] idsNoCopy() {
        return ids;
    }

    @Override
    public String toString() {
        if (ids.length == 0) {
            return "Population[]";
        }
        boolean contiguous = true;
        for (int i = 1; i < ids.length && contiguous; i++) {
            contiguous = ids[i] == ids[i - 1] + 1;
        }
        String m = model == null ? "" : model.nestName() + " ";
        return contiguous ? "Population[" + m + ids[0] + ".." + ids[ids.length - 1] + "]" : "Population[" + m + Arrays.toString(ids) + "]";
    }
}
