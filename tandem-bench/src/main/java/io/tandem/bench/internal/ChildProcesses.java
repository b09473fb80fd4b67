package io.tandem.bench.internal;

import io.tandem.cosim.process.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/*
 * Implementation notes.
 *
 * Children talk line by line: the parent writes commands to a child's standard input, the child
 * answers on its standard output; its standard error goes to a log file in a temporary directory,
 * shown when it fails. A child exits when its standard input ends, so a parent killed with -9
 * leaves nothing behind; a shutdown hook destroys the children on Ctrl-C.
 */

/**
 * The child JVMs of a multi-process benchmark: started with this JVM's class path and the JVM
 * options the networked transport needs, destroyed on {@link #close()} and on JVM exit. Not
 * thread-safe (one benchmark thread); each child's output is read by a daemon thread.
 */
public final class ChildProcesses implements AutoCloseable {
    /** the child's answer when its standard input ends: it exits */
    public static final String EOF = "\u0000eof";

    private final Path logDir;
    private final List<Child> children = new ArrayList<>();
    /** closed by the shutdown hook after the children (registries: their media-driver directories) */
    private final List<AutoCloseable> onExit = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Thread hook;
    private boolean closed;

    /** One child JVM ({@link ChildJvm}) and the lines it printed, in a queue ended by {@link #EOF}. */
    public static final class Child {
        public final String name;
        public final ChildJvm jvm;
        public final Path log;
        public final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        private Child(String name, ChildJvm.Builder builder, Path log) {
            this.name = name;
            this.log = log;
            this.jvm = builder.stderrTo(log).tailLines(0).onLine(lines::add).onOutputEnd(() -> lines.add(EOF)).start();
        }

        /** Writes one command line. */
        public void send(String line) throws IOException {
            jvm.send(line);
        }

        /**
         * @param timeoutMs how long to wait
         * @return the next line the child printed
         * @throws TimeoutException      if none came in time
         * @throws IllegalStateException if the child exited (names its exit code and log)
         */
        public String next(long timeoutMs) throws TimeoutException, InterruptedException {
            String line = lines.poll(timeoutMs, TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new TimeoutException(name + " did not answer within " + timeoutMs + " ms" + logTail());
            }
            if (line.equals(EOF)) {
                jvm.waitFor(5_000);
                throw new IllegalStateException(name + " exited" + (jvm.isAlive() ? "" : " with code "
                        + jvm.process().exitValue()) + logTail());
            }
            return line;
        }

        /** @return the last lines of the child's standard error, or "" */
        public String logTail() {
            try {
                List<String> all = Files.readAllLines(log);
                if (all.isEmpty()) {
                    return "";
                }
                return "; its log ends:\n  " + String.join("\n  ", all.subList(Math.max(0, all.size() - 15), all.size()));
            } catch (IOException e) {
                return "";
            }
        }

        /** @return the child's process id */
        public long pid() {
            return jvm.pid();
        }
    }

    public ChildProcesses(String prefix) throws IOException {
        logDir = Files.createTempDirectory(prefix);
        hook = new Thread(() -> {
            destroyAll();
            for (AutoCloseable c : onExit) {
                try {
                    c.close();
                } catch (Exception e) {
                    // the JVM is exiting
                }
            }
        }, "tandem-bench-children");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Starts a child JVM running {@code mainClass} with this JVM's class path ({@link ChildJvm}:
     * this JVM's {@code tandem.*} tuning carries over), many small JVMs on few cores: one GC
     * thread, a small heap and stack. Its standard error goes to a log file.
     *
     * @param name       for messages and the log file
     * @param mainClass  the child's main class
     * @param properties system properties for the child (not modified)
     * @param args       its arguments (not modified)
     * @return the started child
     * @throws java.io.UncheckedIOException when its JVM cannot be started
     */
    public Child start(String name, Class<?> mainClass, Map<String, String> properties, List<String> args) {
        return start(name, mainClass, properties, args, List.of());
    }

    /**
     * {@link #start(String, Class, Map, List)} under a launcher command (e.g. {@code ip netns exec NS},
     * which must exec java).
     *
     * @param launcher the command's words, empty for none
     */
    public Child start(String name, Class<?> mainClass, Map<String, String> properties, List<String> args,
            List<String> launcher) {
        ChildJvm.Builder b = ChildJvm.builder(name, mainClass.getName()).launcher(launcher)
                .jvmOptions(List.of("-XX:+UseSerialGC", "-Xmx256m", "-Xss512k")).args(args);
        properties.forEach(b::property);
        Child child = new Child(name, b, logDir.resolve(name + ".log"));
        children.add(child);
        return child;
    }

    /** @param c closed on JVM exit (Ctrl-C) after the children are destroyed, unless {@link #close()} ran first */
    public void closeOnExit(AutoCloseable c) {
        onExit.add(c);
    }

    /** @return the children started so far, in start order */
    public List<Child> children() {
        return children;
    }

    /** Closes the children's standard input (they exit), then destroys those still alive after a grace period. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Child c : children) {
            c.jvm.closeInput();
        }
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Child c : children) {
            try {
                long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0 || !c.jvm.waitFor(TimeUnit.NANOSECONDS.toMillis(leftNs))) {
                    c.jvm.kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs anyway
        }
        deleteLogs();
    }

    private void destroyAll() {
        for (Child c : children) {
            c.jvm.kill();
        }
        for (Child c : children) {
            try {
                c.jvm.waitFor(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void deleteLogs() {
        try (Stream<Path> files = Files.walk(logDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory
        }
    }
}
