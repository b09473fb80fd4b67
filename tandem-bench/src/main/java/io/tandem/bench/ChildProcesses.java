package io.tandem.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
final class ChildProcesses implements AutoCloseable {
    /** the child's answer when its standard input ends: it exits */
    static final String EOF = "\u0000eof";

    private final Path logDir;
    private final List<Child> children = new ArrayList<>();
    /** closed by the shutdown hook after the children (registries: their media-driver directories) */
    private final List<AutoCloseable> onExit = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Thread hook;
    private boolean closed;

    /** One child JVM. */
    static final class Child {
        final String name;
        final Process process;
        final Path log;
        final OutputStream in;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Child(String name, Process process, Path log) {
            this.name = name;
            this.process = process;
            this.log = log;
            this.in = process.getOutputStream();
        }

        /** Writes one command line. */
        void send(String line) throws IOException {
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /**
         * @param timeoutMs how long to wait
         * @return the next line the child printed
         * @throws TimeoutException      if none came in time
         * @throws IllegalStateException if the child exited (names its exit code and log)
         */
        String next(long timeoutMs) throws TimeoutException, InterruptedException {
            String line = lines.poll(timeoutMs, TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new TimeoutException(name + " did not answer within " + timeoutMs + " ms" + logTail());
            }
            if (line.equals(EOF)) {
                process.waitFor(5, TimeUnit.SECONDS);
                throw new IllegalStateException(name + " exited" + (process.isAlive() ? "" : " with code "
                        + process.exitValue()) + logTail());
            }
            return line;
        }

        /** @return the last lines of the child's standard error, or "" */
        String logTail() {
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
        long pid() {
            return process.pid();
        }
    }

    ChildProcesses(String prefix) throws IOException {
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
     * Starts a child JVM running {@code mainClass} with this JVM's class path.
     *
     * @param name       for messages and the log file
     * @param mainClass  the child's main class
     * @param properties system properties for the child (not modified)
     * @param args       its arguments (not modified)
     * @return the started child
     */
    Child start(String name, Class<?> mainClass, Map<String, String> properties, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--add-exports");
        cmd.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        // many small JVMs on few cores: one GC thread, a small heap
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-Xmx256m");
        cmd.add("-Xss512k");
        for (Map.Entry<String, String> p : properties.entrySet()) {
            cmd.add("-D" + p.getKey() + "=" + p.getValue());
        }
        // tuning given to the parent (tandem.*) applies to the children too
        for (String key : System.getProperties().stringPropertyNames()) {
            if ((key.startsWith("tandem.") || key.startsWith("org.slf4j.")) && !properties.containsKey(key)) {
                cmd.add("-D" + key + "=" + System.getProperty(key));
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        cmd.add(mainClass.getName());
        cmd.addAll(args);
        Path log = logDir.resolve(name + ".log");
        Process process = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        Child child = new Child(name, process, log);
        children.add(child);
        Thread reader = new Thread(() -> readLines(child), "tandem-bench-" + name + "-out");
        reader.setDaemon(true);
        reader.start();
        return child;
    }

    private static void readLines(Child child) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                child.lines.add(line);
            }
        } catch (IOException e) {
            // the child is gone
        }
        child.lines.add(EOF);
    }

    /** @param c closed on JVM exit (Ctrl-C) after the children are destroyed, unless {@link #close()} ran first */
    void closeOnExit(AutoCloseable c) {
        onExit.add(c);
    }

    /** @return the children started so far, in start order */
    List<Child> children() {
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
            try {
                c.in.close();
            } catch (IOException e) {
                // already gone
            }
        }
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Child c : children) {
            try {
                long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0 || !c.process.waitFor(leftNs, TimeUnit.NANOSECONDS)) {
                    c.process.destroyForcibly();
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
            if (c.process.isAlive()) {
                c.process.destroyForcibly();
            }
        }
        for (Child c : children) {
            try {
                c.process.waitFor(5, TimeUnit.SECONDS);
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
