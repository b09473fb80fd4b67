package io.tandem.cle;

import java.util.Arrays;
import java.util.List;

/**
 * Wall time per loop step of one {@link ClosedLoop#run}: the whole step, each engine's advance and
 * publish (measured on the thread that ran it; 0 in a step where the engine did not start an
 * advance), and the transfer functions. Nanoseconds of the loop's injected clock. The arrays are
 * allocated when the run starts; reading them allocates nothing.
 */
public final class StepTimings {
    private final List<String> engineNames;
    private final long[] wallNs;
    private final long[] tfNs;
    /** engine x step */
    private final long[][] engineNs;
    private int steps;

    StepTimings(List<String> engineNames, int capacity) {
        this.engineNames = List.copyOf(engineNames);
        this.wallNs = new long[capacity];
        this.tfNs = new long[capacity];
        this.engineNs = new long[engineNames.size()][capacity];
    }

    void record(int step, long wall, long tf) {
        wallNs[step] = wall;
        tfNs[step] = tf;
        steps = Math.max(steps, step + 1);
    }

    void recordEngine(int engine, int step, long ns) {
        engineNs[engine][step] = ns;
    }

    /** @return the loop steps run */
    public int steps() {
        return steps;
    }

    /** @return the engines' names, in the loop's order */
    public List<String> engineNames() {
        return engineNames;
    }

    /** @return wall time of step {@code i}, ns */
    public long wallNs(int i) {
        return wallNs[check(i)];
    }

    /** @return the transfer functions' wall time in step {@code i}, ns */
    public long tfNs(int i) {
        return tfNs[check(i)];
    }

    /**
     * @param engine the engine's name
     * @param i      the step
     * @return the engine's advance-and-publish wall time started in step {@code i}, ns
     */
    public long engineNs(String engine, int i) {
        return engineNs[engineIndex(engine)][check(i)];
    }

    /** @return mean wall time per step, ns */
    public double meanWallNs() {
        return mean(wallNs);
    }

    /** @return mean transfer-function time per step, ns */
    public double meanTfNs() {
        return mean(tfNs);
    }

    /** @return mean time per step of engine {@code engine}, ns (steps without an advance count as 0) */
    public double meanEngineNs(String engine) {
        return mean(engineNs[engineIndex(engine)]);
    }

    /** @return the mean over steps of the slowest engine's time in that step, ns (the parallel lower bound) */
    public double meanMaxEngineNs() {
        double sum = 0;
        for (int i = 0; i < steps; i++) {
            long m = 0;
            for (long[] e : engineNs) {
                m = Math.max(m, e[i]);
            }
            sum += m;
        }
        return steps == 0 ? 0 : sum / steps;
    }

    /** @return the mean over steps of the engines' and transfer functions' summed time, ns (the serial cost) */
    public double meanSumNs() {
        double sum = 0;
        for (int i = 0; i < steps; i++) {
            long s = tfNs[i];
            for (long[] e : engineNs) {
                s += e[i];
            }
            sum += s;
        }
        return steps == 0 ? 0 : sum / steps;
    }

    /**
     * @param from first step counted (to skip warm-up)
     * @return mean wall time per step from {@code from} on, ns
     */
    public double meanWallNs(int from) {
        return mean(wallNs, from);
    }

    /**
     * @param engine the engine's name
     * @param from   first step counted
     * @return the engine's mean time from {@code from} on, ns
     */
    public double meanEngineNs(String engine, int from) {
        return mean(engineNs[engineIndex(engine)], from);
    }

    /**
     * @param from first step counted
     * @return mean transfer-function time from {@code from} on, ns
     */
    public double meanTfNs(int from) {
        return mean(tfNs, from);
    }

    private double mean(long[] a) {
        return mean(a, 0);
    }

    private double mean(long[] a, int from) {
        if (from >= steps) {
            return 0;
        }
        double s = 0;
        for (int i = from; i < steps; i++) {
            s += a[i];
        }
        return s / (steps - from);
    }

    private int engineIndex(String engine) {
        int i = engineNames.indexOf(engine);
        if (i < 0) {
            throw new IllegalArgumentException("no engine '" + engine + "'; the loop has " + engineNames);
        }
        return i;
    }

    private int check(int i) {
        if (i < 0 || i >= steps) {
            throw new IndexOutOfBoundsException("step " + i + " of " + steps);
        }
        return i;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("StepTimings[steps=").append(steps).append(", wall=").append(us(meanWallNs())).append(" us");
        for (String e : engineNames) {
            b.append(", ").append(e).append('=').append(us(meanEngineNs(e))).append(" us");
        }
        return b.append(", tf=").append(us(meanTfNs())).append(" us]").toString();
    }

    private static long us(double ns) {
        return Math.round(ns / 1000);
    }

    long[] wallArray() {
        return Arrays.copyOf(wallNs, steps);
    }
}
