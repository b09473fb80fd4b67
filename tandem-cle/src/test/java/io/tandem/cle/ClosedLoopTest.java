package io.tandem.cle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cle.device.Device;
import io.tandem.cle.device.DeviceBinder;
import io.tandem.cle.device.JointState;
import io.tandem.cle.device.JointVelocityCommand;
import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.PoissonSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ClosedLoopTest {
    private static final long MS = 1_000_000L;

    /** An R2N TF that sets the brain fake's rate to the iteration and records what it read from both fakes. */
    private static final class Probe implements TransferFunction {
        final TransferFunctionKind kind;
        final String target;
        final String read;
        final List<long[]> runs = new ArrayList<>();
        final List<Double> seen = new ArrayList<>();
        private Device in;
        private Device out;

        Probe(TransferFunctionKind kind, String target, String read) {
            this.kind = kind;
            this.target = target;
            this.read = read;
        }

        @Override
        public TransferFunctionKind kind() {
            return kind;
        }

        @Override
        public void bind(DeviceBinder d) {
            in = kind == TransferFunctionKind.ROBOT_TO_NEURON ? d.poissonSource(target + ".in") : d.jointVelocity(target + ".in");
            out = read.startsWith("b") ? d.leakyIntegrator(read + ".out") : d.jointState(read + ".out");
        }

        @Override
        public void run(long timeNs, long iteration) {
            runs.add(new long[] {timeNs, iteration});
            seen.add(out instanceof LeakyIntegrator ? ((LeakyIntegrator) out).voltage() : ((JointState) out).position());
            if (in instanceof PoissonSource) {
                ((PoissonSource) in).setRate(iteration + 1);
            } else {
                ((JointVelocityCommand) in).setVelocity(iteration + 1);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void run_tfCommandAtStepK_takesEffectAtStepKPlusOne(SyncMode mode) {
        FakeEngine brain = new FakeEngine("brain", MS / 10, true);
        FakeEngine world = new FakeEngine("world", 2 * MS, false);
        Probe r2n = new Probe(TransferFunctionKind.ROBOT_TO_NEURON, "brain", "world");
        try (ClosedLoop loop = ClosedLoop.builder().engine(brain).engine(world).transferFunction(r2n).mode(mode).build()) {
            loop.run(100 * MS, ProgressHandler.NONE);
        }
        // step k's TF writes k + 1; the advance of step k runs with what step k - 1 wrote (k), the first with 0
        assertThat(brain.commandsInEffect).containsExactly(0.0, 1.0, 2.0, 3.0, 4.0);
        assertThat(brain.advances).extracting(a -> a[0]).containsExactly(0L, 20 * MS, 40 * MS, 60 * MS, 80 * MS);
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void run_tfReadsAtStepK_dataFromStartOfStepK(SyncMode mode) {
        FakeEngine brain = new FakeEngine("brain", MS / 10, true);
        FakeEngine world = new FakeEngine("world", 2 * MS, false);
        Probe n2r = new Probe(TransferFunctionKind.NEURON_TO_ROBOT, "world", "brain");
        try (ClosedLoop loop = ClosedLoop.builder().engine(brain).engine(world).transferFunction(n2r).mode(mode).build()) {
            loop.run(100 * MS, ProgressHandler.NONE);
            assertThat(loop.timeNs()).isEqualTo(100 * MS);
            assertThat(loop.iteration()).isEqualTo(5);
        }
        // the brain publishes its time in ms: at step k the TF sees t_k, though the brain is at t_k+1 by the step's end
        assertThat(n2r.runs).extracting(r -> r[0]).containsExactly(0L, 20 * MS, 40 * MS, 60 * MS, 80 * MS);
        assertThat(n2r.seen).containsExactly(0.0, 20.0, 40.0, 60.0, 80.0);
        assertThat(world.commandsInEffect).containsExactly(0.0, 1.0, 2.0, 3.0, 4.0);
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void run_engineWithLongerSyncStep_syncsAndRunsItsTfsOnlyAtItsMultiples(SyncMode mode) {
        FakeEngine brain = new FakeEngine("brain", MS / 10, true);
        FakeEngine world = new FakeEngine("world", 2 * MS, false);
        Probe toBrain = new Probe(TransferFunctionKind.ROBOT_TO_NEURON, "brain", "world");
        Probe toWorld = new Probe(TransferFunctionKind.NEURON_TO_ROBOT, "world", "brain");
        try (ClosedLoop loop = ClosedLoop.builder().engine(brain).engine(world, 60 * MS).transferFunction(toBrain)
                .transferFunction(toWorld).mode(mode).loopStepNs(20 * MS).build()) {
            loop.run(180 * MS, ProgressHandler.NONE);
            assertThat(world.timeNs()).isEqualTo(180 * MS);
        }
        // the world syncs at 0, 60, 120 ms, advancing 60 ms each time
        assertThat(world.advances).extracting(a -> a[0]).containsExactly(0L, 60 * MS, 120 * MS);
        assertThat(world.advances).extracting(a -> a[1]).containsOnly(60 * MS);
        // its TF runs only then, and its command reaches the world at the world's next sync
        assertThat(toWorld.runs).extracting(r -> r[0]).containsExactly(0L, 60 * MS, 120 * MS);
        assertThat(toWorld.runs).extracting(r -> r[1]).containsExactly(0L, 3L, 6L);
        assertThat(world.commandsInEffect).containsExactly(0.0, 1.0, 4.0);
        // the brain's TF runs every loop step and sees the world's data of its last sync
        assertThat(toBrain.runs).hasSize(9);
        assertThat(toBrain.seen).containsExactly(0.0, 0.0, 0.0, 60.0, 60.0, 60.0, 120.0, 120.0, 120.0);
        assertThat(brain.advances).hasSize(9);
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void run_priorities_higherFirstThenRegistrationOrder(SyncMode mode) {
        List<String> order = new ArrayList<>();
        FakeEngine brain = new FakeEngine("brain", MS / 10, true);
        ClosedLoop.Builder b = ClosedLoop.builder().engine(brain).mode(mode);
        String[] names = {"low", "high-a", "mid", "high-b", "negative"};
        int[] priorities = {0, 5, 1, 5, -3};
        for (int i = 0; i < names.length; i++) {
            String n = names[i];
            b.transferFunction(TransferFunction.of(TransferFunctionKind.NEURON_TO_ROBOT, n, priorities[i], d -> (t, k) -> order.add(n)));
        }
        try (ClosedLoop loop = b.transferFunction(TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "override", 0,
                d -> (t, k) -> order.add("override")), 3).build()) {
            assertThat(loop.transferFunctions()).extracting(TransferFunction::name)
                    .containsExactly("high-a", "high-b", "override", "mid", "low", "negative");
            loop.run(40 * MS, ProgressHandler.NONE);
        }
        assertThat(order).containsExactly("high-a", "high-b", "override", "mid", "low", "negative",
                "high-a", "high-b", "override", "mid", "low", "negative");
    }

    @Test
    void run_progressHandlerSaysStop_stopsAfterThatStep() {
        FakeEngine brain = new FakeEngine("brain", MS / 10, true);
        try (ClosedLoop loop = ClosedLoop.builder().engine(brain).build()) {
            StepTimings t = loop.run(200 * MS, (k, timeNs) -> timeNs < 60 * MS);
            assertThat(t.steps()).isEqualTo(3);
            assertThat(loop.timeNs()).isEqualTo(60 * MS);
            assertThat(brain.timeNs()).isEqualTo(60 * MS);
        }
    }

    @Test
    void run_timeout_stopsAtTimeout() {
        FakeEngine brain = new FakeEngine("brain", MS / 10, true);
        try (ClosedLoop loop = ClosedLoop.builder().engine(brain).timeoutNs(100 * MS).build()) {
            loop.run(ProgressHandler.NONE);
            assertThat(loop.timeNs()).isEqualTo(100 * MS);
            assertThat(loop.run(40 * MS, ProgressHandler.NONE).steps()).isZero();
        }
    }

    @Test
    void run_timingsInjectedClock_recordsEveryPart() {
        long[] now = {0};
        FakeEngine brain = new FakeEngine("brain", MS / 10, true);
        try (ClosedLoop loop = ClosedLoop.builder().engine(brain).mode(SyncMode.SERIAL).wallClock(() -> now[0] += 10).build()) {
            StepTimings t = loop.run(60 * MS, ProgressHandler.NONE);
            assertThat(t.steps()).isEqualTo(3);
            assertThat(t.engineNs("brain", 0)).isEqualTo(10);
            assertThat(t.tfNs(0)).isEqualTo(10);
            assertThat(t.wallNs(0)).isEqualTo(50);
            assertThat(t.meanMaxEngineNs()).isEqualTo(10);
        }
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void run_engineFails_throwsNamingEngineAndNeedsReset(SyncMode mode) {
        FakeEngine brain = new FakeEngine("brain", MS / 10, true);
        brain.failOnAdvance = new IllegalStateException("boom");
        try (ClosedLoop loop = ClosedLoop.builder().engine(brain).mode(mode).build()) {
            assertThatThrownBy(() -> loop.run(20 * MS, ProgressHandler.NONE)).isInstanceOf(ClosedLoopException.class)
                    .hasMessageContaining("engine 'brain'").hasMessageContaining("boom");
            assertThatThrownBy(() -> loop.run(20 * MS, ProgressHandler.NONE)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("reset()");
            brain.failOnAdvance = null;
            loop.reset();
            loop.run(20 * MS, ProgressHandler.NONE);
            assertThat(brain.timeNs()).isEqualTo(20 * MS);
        }
    }

    @Test
    void build_loopStepNotMultipleOfEngineTimestep_failsNamingEngine() {
        FakeEngine world = new FakeEngine("world", 3 * MS, false);
        assertThatThrownBy(() -> ClosedLoop.builder().engine(world).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("loop step 20 ms is not a multiple of engine 'world''s timestep 3 ms")
                .hasMessageContaining("21 ms");
    }

    @Test
    void build_syncStepNotMultipleOfLoopStep_fails() {
        FakeEngine world = new FakeEngine("world", 2 * MS, false);
        assertThatThrownBy(() -> ClosedLoop.builder().engine(world, 30 * MS).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sync step 30 ms is not a multiple of the loop step 20 ms");
        FakeEngine w2 = new FakeEngine("w2", 7 * MS, false);
        assertThatThrownBy(() -> ClosedLoop.builder().engine(w2, 40 * MS).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sync step 40 ms is not a multiple of its timestep 7 ms");
    }

    @Test
    void build_invalidSetups_failWithMessages() {
        assertThatThrownBy(() -> ClosedLoop.builder().build()).hasMessageContaining("at least one engine");
        assertThatThrownBy(() -> ClosedLoop.builder().engine(new FakeEngine("a", MS, true)).engine(new FakeEngine("a", MS, false)))
                .hasMessageContaining("two engines are named 'a'");
        assertThatThrownBy(() -> ClosedLoop.builder().loopStepNs(0)).hasMessageContaining("loop step must be > 0");
        assertThatThrownBy(() -> ClosedLoop.builder().engine(new FakeEngine("b", MS, true))
                .transferFunction(TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "eyes", 0, d -> {
                    d.poissonSource("red_left_eye");
                    return (t, k) -> { };
                })).build())
                .hasMessageContaining("transfer function 'eyes'").hasMessageContaining("no engine has a PoissonSource device named"
                        + " 'red_left_eye'").hasMessageContaining("b.in");
        assertThatThrownBy(() -> ClosedLoop.builder().engine(new FakeEngine("b", MS, true))
                .transferFunction(TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "eyes", 0, d -> {
                    d.leakyIntegrator("b.in");
                    return (t, k) -> { };
                })).build())
                .hasMessageContaining("'b.in' is a PoissonSource");
        assertThatThrownBy(() -> ClosedLoop.builder().engine(new FakeEngine("w", MS, false))
                .transferFunction(TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "wrong", 0, d -> {
                    d.jointVelocity("w.in");
                    return (t, k) -> { };
                })).build())
                .hasMessageContaining("ROBOT_TO_NEURON transfer function commands brain devices");
        assertThatThrownBy(() -> ClosedLoop.builder().engine(new FakeEngine("b1", MS, true)).engine(new FakeEngine("b2", MS, true))
                .transferFunction(TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "both", 0, d -> {
                    d.poissonSource("b1.in");
                    d.poissonSource("b2.in");
                    return (t, k) -> { };
                })).build())
                .hasMessageContaining("a transfer function commands one engine");
        assertThatThrownBy(() -> ClosedLoop.builder().engine(new FakeEngine("b", MS, true)).recordTrajectory("husky").build())
                .hasMessageContaining("cannot track model 'husky'");
    }

    @Test
    void run_durationNotMultipleOfLoopStep_fails() {
        try (ClosedLoop loop = ClosedLoop.builder().engine(new FakeEngine("b", MS, true)).build()) {
            assertThatThrownBy(() -> loop.run(30 * MS, ProgressHandler.NONE)).hasMessageContaining("multiple of the loop step");
            assertThatThrownBy(() -> loop.run(ProgressHandler.NONE)).hasMessageContaining("has none");
        }
    }
}
