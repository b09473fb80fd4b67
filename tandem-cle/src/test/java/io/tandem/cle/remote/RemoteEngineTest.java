package io.tandem.cle.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cle.ClosedLoop;
import io.tandem.cle.ClosedLoopException;
import io.tandem.cle.Engine;
import io.tandem.cle.FakeEngine;
import io.tandem.cle.HuskyBraitenberg;
import io.tandem.cle.ProgressHandler;
import io.tandem.cle.SyncMode;
import io.tandem.cle.TransferFunction;
import io.tandem.cle.TransferFunctionKind;
import io.tandem.cle.device.Device;
import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.PoissonSource;
import io.tandem.cle.record.SpikeTrains;
import io.tandem.cosim.Participant;
import io.tandem.cosim.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Remote engines over the in-process transport: a closed loop with the brain or the world served
 * by an {@link EngineServer} on another participant gives bitwise the all-in-process results.
 */
class RemoteEngineTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** Starts an in-process registry and serves the engine on it; returns the registry's URI. */
    private String serve(Engine engine) {
        Registry reg = Registry.start("tandem+inproc://cle-remote-" + RUNS.incrementAndGet());
        toClose.add(reg);
        Participant p = Participant.connect(reg.uri(), RemoteEngine.DEFAULT_SIMULATION, "cle-engine-" + engine.name());
        toClose.add(p);
        EngineServer server = new EngineServer(engine, p);
        toClose.add(server);
        return reg.uri();
    }

    private static String[] localRun(long seed, SyncMode mode, boolean blue, long ns) {
        try (ClosedLoop loop = HuskyBraitenberg.builder().seed(seed).redScreenBlue(blue).mode(mode).build()) {
            loop.run(ns, ProgressHandler.NONE);
            return new String[] {loop.trajectory().sha256(), spikes(loop.spikeTrains())};
        }
    }

    private static String spikes(SpikeTrains s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.size(); i++) {
            b.append(s.sender(i)).append('@').append(s.timeNs(i)).append(' ');
        }
        return b.toString();
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void run_brainServedInProcess_sameTrajectoryAndSpikesAsLocal(SyncMode mode) {
        String[] local = localRun(7, mode, false, 3 * SECOND);
        String uri = serve(HuskyBraitenberg.brainEngine(HuskyBraitenberg.BRAIN, 7, 0, 1));
        RemoteEngine brain = RemoteEngine.builder(HuskyBraitenberg.BRAIN).registry(uri).connect();
        assertThat(brain.timestepNs()).isEqualTo(100_000L);
        assertThat(brain.serverName()).isEqualTo("cle-engine-brain");
        try (ClosedLoop loop = HuskyBraitenberg.builder().brainEngine(brain).mode(mode).build()) {
            loop.run(3 * SECOND, ProgressHandler.NONE);
            assertThat(loop.trajectory().sha256()).isEqualTo(local[0]);
            assertThat(spikes(loop.spikeTrains())).isEqualTo(local[1]).isNotEmpty();
            assertThat(brain.timeNs()).isEqualTo(3 * SECOND);
        }
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void run_worldServedInProcess_sameTrajectoryAndSpikesAsLocal(SyncMode mode) {
        String[] local = localRun(5, mode, false, 2 * SECOND);
        String uri = serve(HuskyBraitenberg.worldEngine(HuskyBraitenberg.WORLD, HuskyBraitenberg.findWorldFile(), false));
        RemoteEngine world = RemoteEngine.builder(HuskyBraitenberg.WORLD).registry(uri).connect();
        try (ClosedLoop loop = HuskyBraitenberg.builder().seed(5).worldEngine(world).mode(mode).build()) {
            loop.run(2 * SECOND, ProgressHandler.NONE);
            assertThat(loop.trajectory().sha256()).isEqualTo(local[0]);
            assertThat(spikes(loop.spikeTrains())).isEqualTo(local[1]);
        }
    }

    @Test
    void reset_remoteBrain_repeatsTheTrajectory() {
        String uri = serve(HuskyBraitenberg.brainEngine(HuskyBraitenberg.BRAIN, 3, 0, 1));
        RemoteEngine brain = RemoteEngine.builder(HuskyBraitenberg.BRAIN).registry(uri).connect();
        try (ClosedLoop loop = HuskyBraitenberg.builder().brainEngine(brain).build()) {
            loop.run(SECOND, ProgressHandler.NONE);
            String first = loop.trajectory().sha256();
            int spikes = loop.spikeTrains().size();
            loop.reset();
            loop.run(SECOND / 2, ProgressHandler.NONE);
            loop.run(SECOND / 2, ProgressHandler.NONE);
            assertThat(loop.trajectory().sha256()).isEqualTo(first);
            assertThat(loop.spikeTrains().size()).isEqualTo(spikes);
        }
    }

    @Test
    void device_unknownNameOrWrongType_nullOrTheServersError() {
        String uri = serve(HuskyBraitenberg.brainEngine(HuskyBraitenberg.BRAIN, 1, 0, 1));
        try (RemoteEngine brain = RemoteEngine.builder(HuskyBraitenberg.BRAIN).registry(uri).connect()) {
            assertThat(brain.device("no_such_device", PoissonSource.class)).isNull();
            assertThatThrownBy(() -> brain.device("red_left_eye", LeakyIntegrator.class))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PoissonSource");
            assertThatThrownBy(() -> brain.device("red_left_eye", Device.class))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("concrete");
            PoissonSource eye = brain.device("red_left_eye", PoissonSource.class);
            assertThat(brain.device("red_left_eye", PoissonSource.class)).isSameAs(eye);
            assertThat(eye.engine()).isEqualTo(HuskyBraitenberg.BRAIN);
            assertThat(brain.deviceNames()).anyMatch(s -> s.startsWith("red_left_eye"));
        }
    }

    @Test
    void run_serverEngineFails_loopFailsNamingEngineAndIteration() {
        FakeEngine fake = new FakeEngine("fake", MS, true);
        String uri = serve(fake);
        RemoteEngine remote = RemoteEngine.builder("fake").registry(uri).connect();
        try (ClosedLoop loop = ClosedLoop.builder().engine(remote).loopStepNs(10 * MS).build()) {
            loop.run(30 * MS, ProgressHandler.NONE);
            fake.failOnAdvance = new IllegalStateException("the fake broke");
            assertThatThrownBy(() -> loop.run(10 * MS, ProgressHandler.NONE))
                    .isInstanceOf(ClosedLoopException.class)
                    .hasMessageContaining("remote engine 'fake'").hasMessageContaining("cle-engine-fake")
                    .hasMessageContaining("sync iteration 4").hasMessageContaining("the fake broke");
            fake.failOnAdvance = null;
            loop.reset();
            loop.run(20 * MS, ProgressHandler.NONE);
            assertThat(fake.advances).hasSize(2);
        }
    }

    @Test
    void run_fakeEngineServed_commandsAndReadingsCrossWithTheOneStepDelay() {
        FakeEngine fake = new FakeEngine("fake", MS, true);
        String uri = serve(fake);
        RemoteEngine remote = RemoteEngine.builder("fake").registry(uri).connect();
        List<Double> seen = new ArrayList<>();
        TransferFunction tf = TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "probe", 0, d -> {
            PoissonSource in = d.poissonSource("fake.in");
            LeakyIntegrator out = d.leakyIntegrator("fake.out");
            return (t, k) -> {
                seen.add(out.voltage());
                in.setRate(10.0 * (k + 1));
            };
        });
        try (ClosedLoop loop = ClosedLoop.builder().engine(remote).transferFunction(tf).loopStepNs(5 * MS).build()) {
            loop.run(20 * MS, ProgressHandler.NONE);
        }
        // readings: the fake's time (ms) at the start of each step; commands act from the next step on
        assertThat(seen).containsExactly(0.0, 5.0, 10.0, 15.0);
        assertThat(fake.commandsInEffect).containsExactly(0.0, 10.0, 20.0, 30.0);
    }

    @Test
    void run_serverParticipantLeaves_loopFailsNamingTheLostPeer() throws Exception {
        Registry reg = Registry.start("tandem+inproc://cle-remote-" + RUNS.incrementAndGet());
        toClose.add(reg);
        Participant p = Participant.connect(reg.uri(), RemoteEngine.DEFAULT_SIMULATION, "cle-engine-brain");
        EngineServer server = new EngineServer(HuskyBraitenberg.brainEngine(HuskyBraitenberg.BRAIN, 1, 0, 1), p);
        toClose.add(server);
        RemoteEngine brain = RemoteEngine.builder(HuskyBraitenberg.BRAIN).registry(reg.uri()).connect();
        try (ClosedLoop loop = HuskyBraitenberg.builder().brainEngine(brain).build()) {
            loop.run(200 * MS, ProgressHandler.NONE);
            CompletableFuture<Throwable> failed = CompletableFuture.supplyAsync(() -> {
                try {
                    loop.run(10 * SECOND, (k, t) -> {
                        if (k == 20) {
                            p.close();
                        }
                        return true;
                    });
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            });
            Throwable e = failed.get(20, TimeUnit.SECONDS);
            assertThat(e).isInstanceOf(ClosedLoopException.class).hasMessageContaining("remote engine 'brain'")
                    .hasMessageContaining("lost its server 'cle-engine-brain'").hasMessageContaining("sync iteration");
        }
    }

    @Test
    void connect_noServer_failsWithinTheConnectTimeout() {
        Registry reg = Registry.start("tandem+inproc://cle-remote-" + RUNS.incrementAndGet());
        toClose.add(reg);
        assertThatThrownBy(() -> RemoteEngine.builder("nobody").registry(reg.uri()).connectTimeoutNs(300 * MS).connect())
                .isInstanceOf(RemoteEngineException.class).hasMessageContaining("remote engine 'nobody'")
                .hasMessageContaining("no answer").hasMessageContaining("attach");
    }

    @Test
    void launch_onInProcessRegistry_refused() {
        assertThatThrownBy(() -> RemoteEngine.builder("brain").registry("tandem+inproc://x")
                .launch(HuskyEngineServer.LAUNCHER, HuskyEngineServer.brain(1, 0, 1)).connect())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("networked registry");
    }
}
