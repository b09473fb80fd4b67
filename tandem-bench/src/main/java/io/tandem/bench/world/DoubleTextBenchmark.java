package io.tandem.bench.world;

import io.tandem.world.record.ShortestDecimal;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/*
 * Implementation notes.
 *
 * One operation writes one recorded pose row's seven doubles (position in [-10, 10] m, quaternion
 * components in [-1, 1], as a recording of the light world holds) into a reused StringBuilder (or
 * byte array, as the recorder writes them),
 * cycling through 4096 seeded poses so that branch predictors do not learn the digits.
 */

/**
 * JMH benchmark of the recorder's number formatting: seven doubles of a pose as text with JDK's
 * {@link Double#toString} (StringBuilder.append(double)) and with {@link ShortestDecimal}, appended
 * to a StringBuilder and written into a byte array (the recorder's path). Run with {@code ./tandem bench jmh DoubleTextBenchmark -prof gc}.
 *
 * <p>JMH drives it from one benchmark thread; not for other use.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Threads(1)
public class DoubleTextBenchmark {
    private static final int POSES = 4096;

    private final double[] values = new double[7 * POSES];
    private final StringBuilder text = new StringBuilder(256);
    private final byte[] bytes = new byte[7 * (ShortestDecimal.MAX_LENGTH + 1)];
    private final ShortestDecimal decimal = new ShortestDecimal();
    private int next;

    @Setup
    public void setUp() {
        SplittableRandom r = new SplittableRandom(18);
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 7 < 3 ? r.nextDouble(-10, 10) : r.nextDouble(-1, 1);
        }
    }

    /** @return the row's length (consumed by JMH) */
    @Benchmark
    public int doubleToString() {
        StringBuilder b = text;
        b.setLength(0);
        int o = row();
        for (int i = 0; i < 7; i++) {
            b.append(values[o + i]).append(',');
        }
        return b.length();
    }

    /** @return the row's length (consumed by JMH) */
    @Benchmark
    public int shortestDecimal() {
        StringBuilder b = text;
        b.setLength(0);
        int o = row();
        for (int i = 0; i < 7; i++) {
            decimal.append(b, values[o + i]).append(',');
        }
        return b.length();
    }

    /** @return the row's length (consumed by JMH): the recorder's own path, straight into bytes */
    @Benchmark
    public int shortestDecimalBytes() {
        byte[] b = bytes;
        int n = 0;
        int o = row();
        for (int i = 0; i < 7; i++) {
            n = decimal.write(b, n, values[o + i]);
            b[n++] = ',';
        }
        return n;
    }

    private int row() {
        int o = 7 * next;
        next = (next + 1) & (POSES - 1);
        return o;
    }
}
