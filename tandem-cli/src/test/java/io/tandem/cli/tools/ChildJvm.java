package io.tandem.cli.tools;

import io.tandem.cli.TandemCli;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A JVM started by a test on the test class path (the tandem command, or a test main class), its
 * standard output and error collected line by line. {@link #close()} kills it (SIGKILL) if it still
 * runs; tests close every child in {@code @AfterEach}.
 */
public final class ChildJvm implements AutoCloseable {
    final String name;
    public final Process process;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;
    private boolean eof; // guarded by lines

    private ChildJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        reader = new Thread(this::read, "child-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code tandem ARGS...} in a new JVM. */
    public static ChildJvm tandem(String name, String... args) throws IOException {
        return start(name, TandemCli.class.getName(), args);
    }

    /** Starts a main class in a new JVM. */
    static ChildJvm start(String name, String mainClass, String... args) throws IOException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", classpath, mainClass));
        cmd.addAll(List.of(args));
        return new ChildJvm(name, new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process is gone
        } finally {
            synchronized (lines) {
                eof = true;
                lines.notifyAll();
            }
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

    /** @return the exit code, waiting at most {@code timeoutMs}; fails with the output if it still runs */
    public int awaitExit(long timeoutMs) throws InterruptedException {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " still runs after " + timeoutMs + " ms; output:\n" + output());
        }
        reader.join(5_000);
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
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
