package io.tandem.cle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An engine server's JVM started by a {@link RemoteEngine} ({@link EngineServerMain} on this
 * JVM's class path): its output is logged line by line (and its last lines kept for error
 * messages); its standard input stays open, so a server started with {@code --exit-with-parent}
 * ends when this JVM does, however it ends. Thread-safe.
 */
final class EngineProcess {
    private static final Logger LOG = LoggerFactory.getLogger(EngineProcess.class);
    private static final int TAIL_LINES = 40;

    private final String label;
    private final Process process;
    private final ArrayDeque<String> tail = new ArrayDeque<>();
    private final Thread reader;

    private EngineProcess(String label, Process process) {
        this.label = label;
        this.process = process;
        this.reader = new Thread(this::forward, "tandem-cle-" + label + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * The command of an engine server JVM: this JVM's {@code java}, the export Aeron needs, this
     * JVM's {@code tandem.*} and {@code org.slf4j.*} properties, {@code jvmOptions}, the class path,
     * {@link EngineServerMain} and its arguments.
     *
     * @param classpath  the class path (null: the test class path under Maven, else this JVM's)
     * @param jvmOptions options for the JVM
     * @param args       the server's arguments
     * @return the command
     */
    static List<String> command(String classpath, List<String> jvmOptions, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--add-exports");
        cmd.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("tandem.") || key.startsWith("org.slf4j.")) {
                cmd.add("-D" + key + "=" + System.getProperty(key));
            }
        }
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classpath != null ? classpath : System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        cmd.add(EngineServerMain.class.getName());
        cmd.addAll(args);
        return cmd;
    }

    /**
     * @param label   a name for logs and thread names (the server's participant name)
     * @param command the command line
     * @return the started process
     * @throws UncheckedIOException when the JVM cannot be started
     */
    static EngineProcess start(String label, List<String> command) {
        try {
            LOG.debug("Starting engine server {}: {}", label, command);
            return new EngineProcess(label, new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the JVM of engine server " + label, e);
        }
    }

    private void forward() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                LOG.info("[{}] {}", label, line);
                synchronized (tail) {
                    if (tail.size() == TAIL_LINES) {
                        tail.removeFirst();
                    }
                    tail.addLast(line);
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
    }

    /** @return whether the JVM still runs */
    boolean isAlive() {
        return process.isAlive();
    }

    /** @return the process id */
    long pid() {
        return process.pid();
    }

    /** @return a sentence on how it ended and what it printed last (for error messages); waits briefly for its last output */
    String exitReport() {
        try {
            reader.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
     * Ends the JVM: closes its standard input (a server with {@code --exit-with-parent} exits),
     * waits up to {@code graceMs}, then kills it (SIGKILL) and waits for it.
     *
     * @param graceMs how long to let it exit by itself, ms
     */
    void end(long graceMs) {
        try {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // already gone
            }
            if (!process.waitFor(graceMs, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            reader.join(1_000);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
