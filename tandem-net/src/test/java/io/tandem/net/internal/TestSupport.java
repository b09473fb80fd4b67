package io.tandem.net.internal;

import io.tandem.cosim.process.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Helpers for tests: poll a condition with a deadline (never sleep); start a participant in another JVM. */
final class TestSupport {
    private TestSupport() {
    }

    /** Polls every 0.2 ms until the condition holds; fails after {@code timeoutMs} with the diagnostic. */
    static void awaitTrue(long timeoutMs, BooleanSupplier condition, Supplier<String> diagnostic) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("condition not met within " + timeoutMs + " ms: " + diagnostic.get());
            }
            LockSupport.parkNanos(200_000);
        }
    }

    /**
     * Starts {@link RemoteParticipantMain} in a separate JVM on the test class path (the command
     * line of {@link ChildJvm}, none of this JVM's properties: tests here set some).
     *
     * @param log  where its standard output and error go
     * @param args its arguments (mode, registry URI, simulation, name, ...)
     * @return the process
     */
    static Process spawnParticipant(Path log, String... args) throws IOException {
        List<String> cmd = ChildJvm.builder("participant", RemoteParticipantMain.class.getName())
                .property("org.slf4j.simpleLogger.defaultLogLevel", "warn").inheritProperties(false)
                .jvmOptions(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1")).args(List.of(args)).command();
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
