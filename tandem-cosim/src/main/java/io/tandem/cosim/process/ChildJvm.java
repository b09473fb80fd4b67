package io.tandem.cosim.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A child JVM of a Tandem process: a local secondary of {@code tandem sim}, an engine server of
 * the closed loop, a participant of a multi-process benchmark.
 *
 * <p>Its command line is this JVM's {@code java}, the export Aeron needs
 * ({@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}), the builder's JVM options and
 * system properties, then this JVM's {@code tandem.*} and {@code org.slf4j.*} system properties
 * (tuning and logging carry over; one given explicitly wins; {@link Builder#inheritProperties}
 * turns this off), the class path (by default the test class path under Maven, else this JVM's),
 * the main class and its arguments.
 *
 * <p>Its output (standard output and error merged, unless {@link Builder#stderrTo} sends the
 * error stream to a file) is read line by line by a daemon thread, which hands each line to the
 * builder's line handler and keeps the last lines for {@link #exitReport()}. Its standard input
 * stays open until {@link #closeInput()} or {@link #end}: a child that watches it
 * ({@link #exitWhenParentEnds}) ends when this JVM does, however it ends.
 *
 * <p>Thread-safe. Starting and reading allocate; nothing here is on a stepping path.
 */
public final class ChildJvm implements AutoCloseable {
    private final String name;
    private final Process process;
    private final OutputStream input;
    private final ArrayDeque<String> tail = new ArrayDeque<>();
    private final int tailLines;
    private final Thread reader;

    private ChildJvm(Builder b, Process process) {
        this.name = b.name;
        this.process = process;
        this.input = process.getOutputStream();
        this.tailLines = b.tailLines;
        Consumer<String> onLine = b.onLine;
        Runnable onEnd = b.onEnd;
        this.reader = new Thread(() -> read(process.getInputStream(), onLine, onEnd), "tandem-" + name + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * @param name      the child's name, for messages, logs and thread names
     * @param mainClass the fully qualified name of the child's main class
     * @return a builder
     */
    public static Builder builder(String name, String mainClass) {
        return new Builder(name, mainClass);
    }

    /** @return the class path children get by default: the test class path under Maven, else this JVM's */
    public static String defaultClasspath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /**
     * Child side: starts a daemon thread that reads standard input until it ends (the parent
     * closed it, or ended however it ended) and then calls {@code onParentEnd} (which typically
     * reports and exits the process).
     *
     * @param onParentEnd what to do when the parent is gone
     */
    public static void exitWhenParentEnds(Runnable onParentEnd) {
        Thread watchdog = new Thread(() -> {
            InputStream in = System.in;
            byte[] sink = new byte[256];
            try {
                while (in.read(sink) >= 0) {
                    // discard
                }
            } catch (IOException e) {
                // treated as the end
            }
            onParentEnd.run();
        }, "tandem-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private void read(InputStream out, Consumer<String> onLine, Runnable onEnd) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (tail) {
                    if (tail.size() == tailLines) {
                        tail.pollFirst();
                    }
                    if (tailLines > 0) {
                        tail.addLast(line);
                    }
                }
                onLine.accept(line);
            }
        } catch (IOException e) {
            // the child is gone
        }
        onEnd.run();
    }

    /** @return the child's name */
    public String name() {
        return name;
    }

    /** @return the process id */
    public long pid() {
        return process.pid();
    }

    /** @return whether the child still runs */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** @return the process, for its exit value and handle */
    public Process process() {
        return process;
    }

    /**
     * Writes one line to the child's standard input.
     *
     * @param line the line, without its line break
     * @throws IOException when the child's input is closed
     */
    public void send(String line) throws IOException {
        synchronized (input) {
            input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
        }
    }

    /** Closes the child's standard input (a child watching it exits); idempotent. */
    public void closeInput() {
        try {
            input.close();
        } catch (IOException e) {
            // already gone
        }
    }

    /**
     * @param timeoutMs how long to wait, ms
     * @return whether the child exited within the time
     * @throws InterruptedException when interrupted
     */
    public boolean waitFor(long timeoutMs) throws InterruptedException {
        return process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Waits for the reader to hand over the child's last lines (after it exited).
     *
     * @param timeoutMs how long to wait, ms
     */
    public void awaitOutput(long timeoutMs) {
        try {
            reader.join(timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the last non-blank line the child printed, trimmed, or "(no output)" */
    public String lastLine() {
        synchronized (tail) {
            var it = tail.descendingIterator();
            while (it.hasNext()) {
                String l = it.next();
                if (!l.isBlank()) {
                    return l.trim();
                }
            }
        }
        return "(no output)";
    }

    /**
     * @return a sentence on how the child ended and what it printed last, for error messages;
     *         waits briefly for its last output
     */
    public String exitReport() {
        awaitOutput(1_000);
        StringBuilder b = new StringBuilder();
        b.append(process.isAlive() ? "it still runs" : "it exited with code " + process.exitValue());
        synchronized (tail) {
            if (!tail.isEmpty()) {
                b.append("; its last output:");
                for (String l : tail) {
                    b.append("\n  ").append(l);
                }
            }
        }
        return b.toString();
    }

    /**
     * Ends the child: closes its standard input (a child watching it exits), waits up to
     * {@code graceMs} for it to exit, then kills it (SIGKILL) and waits for it and its output.
     *
     * @param graceMs how long to let it exit by itself, ms
     */
    public void end(long graceMs) {
        closeInput();
        stop(graceMs, false);
    }

    /**
     * Ends the child the way Ctrl-C would: SIGTERM (its shutdown hooks run), then SIGKILL after
     * {@code graceMs}; waits for its output.
     *
     * @param graceMs how long to let it exit after SIGTERM, ms
     */
    public void terminate(long graceMs) {
        stop(graceMs, true);
    }

    private void stop(long graceMs, boolean sigterm) {
        try {
            if (process.isAlive()) {
                if (sigterm) {
                    process.toHandle().destroy(); // Process.destroy() would also close its output
                }
                if (!process.waitFor(graceMs, TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            }
            reader.join(2_000);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Kills the child at once (SIGKILL) if it still runs; does not wait. */
    public void kill() {
        process.destroyForcibly();
    }

    /** {@link #end(long) Ends} the child with no grace period beyond closing its input. */
    @Override
    public void close() {
        end(0);
    }

    @Override
    public String toString() {
        return "child JVM " + name + " (pid " + process.pid() + (process.isAlive() ? ", running)" : ", ended)");
    }

    /** Builds a child's command line and starts it; validates eagerly. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private final String mainClass;
        private final List<String> jvmOptions = new ArrayList<>();
        private final List<String> launcher = new ArrayList<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final List<String> args = new ArrayList<>();
        private String classpath;
        private Consumer<String> onLine = line -> { };
        private Runnable onEnd = () -> { };
        private Path stderr;
        private int tailLines = 40;
        private boolean inheritProperties = true;

        private Builder(String name, String mainClass) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a child JVM needs a name");
            }
            if (mainClass == null || mainClass.isBlank()) {
                throw new IllegalArgumentException("child JVM " + name + " needs a main class");
            }
            this.name = name;
            this.mainClass = mainClass;
        }

        /**
         * @param command a command that runs the java command line given after it, in order: e.g.
         *                {@code ip netns exec NS} (another network namespace) or {@code taskset -c 0};
         *                it must exec java (so that the child's process is the JVM). Not modified.
         * @return this
         */
        public Builder launcher(List<String> command) {
            launcher.addAll(command);
            return this;
        }

        /**
         * @param options JVM options (heap, GC, JIT), in order; not modified
         * @return this
         */
        public Builder jvmOptions(List<String> options) {
            jvmOptions.addAll(options);
            return this;
        }

        /**
         * @param key   a system property of the child (wins over this JVM's of the same name)
         * @param value its value
         * @return this
         */
        public Builder property(String key, String value) {
            properties.put(key, value);
            return this;
        }

        /**
         * @param cp the child's class path (default {@link #defaultClasspath()})
         * @return this
         */
        public Builder classpath(String cp) {
            classpath = cp;
            return this;
        }

        /**
         * @param arguments the main class's arguments, appended in order; not modified
         * @return this
         */
        public Builder args(List<String> arguments) {
            args.addAll(arguments);
            return this;
        }

        /**
         * @param handler called on the reader thread with each line the child prints (default: dropped)
         * @return this
         */
        public Builder onLine(Consumer<String> handler) {
            if (handler == null) {
                throw new IllegalArgumentException("child JVM " + name + ": the line handler must not be null");
            }
            onLine = handler;
            return this;
        }

        /**
         * @param handler called on the reader thread once the child's output has ended
         * @return this
         */
        public Builder onOutputEnd(Runnable handler) {
            if (handler == null) {
                throw new IllegalArgumentException("child JVM " + name + ": the end handler must not be null");
            }
            onEnd = handler;
            return this;
        }

        /**
         * @param file where the child's standard error goes (default: merged into its output)
         * @return this
         */
        public Builder stderrTo(Path file) {
            stderr = file;
            return this;
        }

        /**
         * @param lines how many last lines {@link ChildJvm#exitReport()} shows (default 40)
         * @return this
         */
        public Builder tailLines(int lines) {
            if (lines < 0) {
                throw new IllegalArgumentException("child JVM " + name + ": tail lines must be >= 0, got " + lines);
            }
            tailLines = lines;
            return this;
        }

        /**
         * @param inherit whether the child gets this JVM's {@code tandem.*} and {@code org.slf4j.*}
         *                system properties (default true); false gives it only the builder's
         *                options and properties, e.g. for a test whose children must not depend
         *                on properties that other tests of its JVM set
         * @return this
         */
        public Builder inheritProperties(boolean inherit) {
            inheritProperties = inherit;
            return this;
        }

        /** @return the command line the child runs */
        public List<String> command() {
            List<String> cmd = new ArrayList<>(launcher);
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("--add-exports");
            cmd.add("java.base/jdk.internal.misc=ALL-UNNAMED");
            cmd.addAll(jvmOptions);
            for (Map.Entry<String, String> p : properties.entrySet()) {
                cmd.add("-D" + p.getKey() + "=" + p.getValue());
            }
            if (inheritProperties) {
                for (String key : System.getProperties().stringPropertyNames()) {
                    if ((key.startsWith("tandem.") || key.startsWith("org.slf4j.")) && !given(key)) {
                        cmd.add("-D" + key + "=" + System.getProperty(key));
                    }
                }
            }
            cmd.add("-cp");
            cmd.add(classpath != null ? classpath : defaultClasspath());
            cmd.add(mainClass);
            cmd.addAll(args);
            return cmd;
        }

        private boolean given(String key) {
            if (properties.containsKey(key)) {
                return true;
            }
            for (String o : jvmOptions) {
                if (o.startsWith("-D" + key + "=") || o.equals("-D" + key)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Starts the child.
         *
         * @return the running child
         * @throws UncheckedIOException when the JVM cannot be started, naming the child
         */
        public ChildJvm start() {
            ProcessBuilder pb = new ProcessBuilder(command());
            if (stderr != null) {
                pb.redirectError(stderr.toFile());
            } else {
                pb.redirectErrorStream(true);
            }
            try {
                return new ChildJvm(this, pb.start());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the JVM of " + name + ": " + e.getMessage(), e);
            }
        }
    }
}
