package io.tandem.cli.tools;

import io.tandem.cli.TandemCli;
import io.tandem.cosim.process.ChildJvm;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A JVM started by a test ({@link ChildJvm}: the tandem command, or a test main class) with a small
 * heap and the C1 compiler, its standard output and error collected line by line. It gets none of
 * this JVM's system properties (other tests set some), only warnings from its logger.
 * {@link #close()} kills it (SIGKILL) if it still runs; tests close every child in {@code @AfterEach}.
 */
public final class TestChild implements AutoCloseable {
    final String name;
    public final Process process;
    private final ChildJvm jvm;
    private final List<String> lines = new ArrayList<>();
    private final List<Long> arrivalsNs = new ArrayList<>(); // guarded by lines, System.nanoTime per line
    private boolean eof; // guarded by lines
    private long endNs; // guarded by lines

    private TestChild(String name, String mainClass, String... args) {
        this(name, List.of(), mainClass, args);
    }

    private TestChild(String name, List<String> launcher, String mainClass, String... args) {
        this(name, launcher, java.util.Map.of(), mainClass, args);
    }

    private TestChild(String name, List<String> launcher, java.util.Map<String, String> properties, String mainClass,
                      String... args) {
        this(name, launcher, properties, mainClass, List.of(), args);
    }

    private TestChild(String name, List<String> launcher, java.util.Map<String, String> properties, String mainClass,
                      List<String> moreJvmOptions, String... args) {
        this.name = name;
        ChildJvm.Builder b = ChildJvm.builder(name, mainClass).launcher(launcher);
        properties.forEach(b::property);
        this.jvm = b
                .jvmOptions(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")).jvmOptions(moreJvmOptions)
                .property("org.slf4j.simpleLogger.defaultLogLevel", "warn").inheritProperties(false)
                .args(List.of(args)).tailLines(0).onLine(this::add).onOutputEnd(this::ended).start();
        this.process = jvm.process();
    }

    /** Starts {@code tandem ARGS...} in a new JVM. */
    public static TestChild tandem(String name, String... args) {
        return new TestChild(name, TandemCli.class.getName(), args);
    }

    /** Starts {@code tandem ARGS...} in a new JVM with these JVM options after the defaults (a later -Xmx wins). */
    public static TestChild tandemWithJvm(List<String> jvmOptions, String name, String... args) {
        return new TestChild(name, List.of(), java.util.Map.of(), TandemCli.class.getName(), jvmOptions, args);
    }

    /** Starts {@code tandem ARGS...} in a new JVM under a launcher command (which must exec java). */
    public static TestChild tandemUnder(List<String> launcher, String name, String... args) {
        return new TestChild(name, launcher, TandemCli.class.getName(), args);
    }

    /** Starts {@code tandem ARGS...} in a new JVM in network namespace {@code ns} ({@code ip netns exec}). */
    public static TestChild tandemIn(String ns, String name, String... args) {
        return tandemIn(ns, java.util.Map.of(), name, args);
    }

    /** {@link #tandemIn(String, String, String...)} with system properties for the JVM. */
    public static TestChild tandemIn(String ns, java.util.Map<String, String> properties, String name, String... args) {
        return new TestChild(name, List.of("ip", "netns", "exec", ns), properties, TandemCli.class.getName(), args);
    }

    /** Starts a main class in a new JVM. */
    static TestChild start(String name, String mainClass, String... args) {
        return new TestChild(name, mainClass, args);
    }

    private void add(String line) {
        synchronized (lines) {
            lines.add(line);
            arrivalsNs.add(System.nanoTime());
            lines.notifyAll();
        }
    }

    private void ended() {
        synchronized (lines) {
            eof = true;
            endNs = System.nanoTime();
            lines.notifyAll();
        }
    }

    /**
     * Waits for an output line.
     *
     * @return the first line that matches
     * @throws AssertionError with the output so far if none matches within the timeout or the process exits
     */
    public String awaitLine(Predicate<String> match, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        int seen = 0;
        synchronized (lines) {
            while (true) {
                for (; seen < lines.size(); seen++) {
                    if (match.test(lines.get(seen))) {
                        return lines.get(seen);
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || eof) {
                    throw new AssertionError(name + ": no matching line within " + timeoutMs + " ms (alive "
                            + process.isAlive() + "); output:\n" + String.join("\n", lines));
                }
                lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)), 0);
            }
        }
    }

    /**
     * @return when (System.nanoTime) the first line that matches was read
     * @throws AssertionError with the output if no line matches yet
     */
    public long lineReadAtNs(Predicate<String> match) {
        synchronized (lines) {
            for (int i = 0; i < lines.size(); i++) {
                if (match.test(lines.get(i))) {
                    return arrivalsNs.get(i);
                }
            }
            throw new AssertionError(name + ": no matching line; output:\n" + String.join("\n", lines));
        }
    }

    /** @return when (System.nanoTime) its output ended, which is when it exited; fails if it has not ended */
    public long outputEndedAtNs() {
        synchronized (lines) {
            if (!eof) {
                throw new AssertionError(name + ": its output has not ended");
            }
            return endNs;
        }
    }

    /** @return the exit code, waiting at most {@code timeoutMs}; fails with the output if it still runs */
    public int awaitExit(long timeoutMs) throws InterruptedException {
        if (!jvm.waitFor(timeoutMs)) {
            throw new AssertionError(name + " still runs after " + timeoutMs + " ms; output:\n" + output());
        }
        jvm.awaitOutput(5_000);
        return process.exitValue();
    }

    /** @return everything it printed so far */
    public String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    /** Kills it (SIGKILL) if it runs and waits for it. */
    @Override
    public void close() {
        jvm.close();
    }
}
