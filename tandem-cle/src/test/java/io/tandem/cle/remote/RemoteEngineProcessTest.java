package io.tandem.cle.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cle.ClosedLoop;
import io.tandem.cle.ClosedLoopException;
import io.tandem.cle.HuskyBraitenberg;
import io.tandem.cle.ProgressHandler;
import io.tandem.cosim.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The brain engine in a child JVM over {@code tandem://} (tandem-net): the same trajectory as the
 * all-in-process loop, and a killed server fails the loop within seconds. Every child is killed
 * after each test, whatever happened.
 */
class RemoteEngineProcessTest {
    private static final long SECOND = 1_000_000_000L;

    private final List<Long> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws Exception {
        for (long pid : children) {
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (h.isPresent() && h.get().isAlive()) {
                h.get().destroyForcibly();
                h.get().onExit().get(10, TimeUnit.SECONDS);
            }
        }
    }

    private static void awaitExit(long pid) throws Exception {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isPresent()) {
            h.get().onExit().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void run_brainInChildJvm_sameTrajectoryHashAndSpikesAsInProcess() throws Exception {
        String hash;
        int spikes;
        try (ClosedLoop loop = HuskyBraitenberg.builder().seed(7).build()) {
            loop.run(3 * SECOND, ProgressHandler.NONE);
            hash = loop.trajectory().sha256();
            spikes = loop.spikeTrains().size();
        }
        long pid;
        try (Registry reg = Registry.start("tandem://127.0.0.1:0")) {
            RemoteEngine brain = RemoteEngine.builder(HuskyBraitenberg.BRAIN).registry(reg.uri())
                    .launch(HuskyEngineServer.LAUNCHER, HuskyEngineServer.brain(7, 0, 1)).connect();
            pid = brain.serverPid();
            children.add(pid);
            assertThat(pid).isNotEqualTo(ProcessHandle.current().pid());
            try (ClosedLoop loop = HuskyBraitenberg.builder().brainEngine(brain).build()) {
                loop.run(3 * SECOND, ProgressHandler.NONE);
                assertThat(loop.trajectory().sha256()).isEqualTo(hash);
                assertThat(loop.spikeTrains().size()).isEqualTo(spikes).isPositive();
            }
            // closing the loop shut the server down and ended its JVM
            awaitExit(pid);
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    }

    @Test
    void run_serverKilled_loopFailsWithinSecondsNamingEngineAndPeer() throws Exception {
        // no registry given: the remote engine hosts one for its launched server
        RemoteEngine brain = RemoteEngine.builder(HuskyBraitenberg.BRAIN).launch(HuskyEngineServer.LAUNCHER, HuskyEngineServer.brain(1, 0, 1)).connect();
        long pid = brain.serverPid();
        children.add(pid);
        assertThat(brain.registryUri()).startsWith("tandem://");
        try (ClosedLoop loop = HuskyBraitenberg.builder().brainEngine(brain).build()) {
            long[] killedAt = {0};
            CompletableFuture<RuntimeException> run = CompletableFuture.supplyAsync(() -> {
                try {
                    loop.run(60 * SECOND, (k, t) -> {
                        if (k == 25) {
                            killedAt[0] = System.nanoTime();
                            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                        }
                        return true;
                    });
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            });
            RuntimeException e = run.get(30, TimeUnit.SECONDS);
            long failedAfterNs = System.nanoTime() - killedAt[0];
            assertThat(e).isInstanceOf(ClosedLoopException.class)
                    .hasMessageContaining("remote engine 'brain'")
                    .hasMessageContaining("lost its server 'cle-engine-brain'")
                    .hasMessageContaining("sync iteration");
            assertThat(e.getCause()).isInstanceOf(RemoteEngineException.class);
            RemoteEngineException r = (RemoteEngineException) e.getCause();
            assertThat(r.engine()).isEqualTo("brain");
            assertThat(r.peer()).isEqualTo("cle-engine-brain");
            assertThat(r.iteration()).isBetween(25L, 30L);
            assertThat(failedAfterNs).isLessThan(5 * SECOND);
        }
        awaitExit(pid);
    }

    /** A monitor (a viewer's peers) learns of a killed server without a step to fail on: the loop is idle. */
    @Test
    void lostReason_serverKilledWhileIdle_namesTheLostServer() throws Exception {
        RemoteEngine brain = RemoteEngine.builder(HuskyBraitenberg.BRAIN).launch(HuskyEngineServer.LAUNCHER, HuskyEngineServer.brain(1, 0, 1)).connect();
        long pid = brain.serverPid();
        children.add(pid);
        try {
            assertThat(brain.lostReason()).isNull();
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            awaitExit(pid);
            long deadline = System.nanoTime() + 10 * SECOND;
            while (brain.lostReason() == null && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
            }
            assertThat(brain.lostReason()).contains("lost its server 'cle-engine-brain'");
        } finally {
            brain.close();
        }
    }
}
