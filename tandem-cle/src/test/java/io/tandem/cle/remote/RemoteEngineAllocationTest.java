package io.tandem.cle.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cle.ClosedLoop;
import io.tandem.cle.HuskyBraitenberg;
import io.tandem.cle.ProgressHandler;
import io.tandem.cle.SyncMode;
import io.tandem.cle.TransferFunction;
import io.tandem.cle.TransferFunctionKind;
import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.PoissonSource;
import io.tandem.cle.internal.SuppressForbidden;
import io.tandem.cosim.Participant;
import io.tandem.cosim.Registry;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.neuro.BraitenbergBrain;
import java.lang.management.ManagementFactory;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A remote engine's steps allocate nothing beyond tandem-cosim's own message copies: a serial
 * loop (the loop thread encodes, publishes, waits and decodes) over a served Braitenberg brain,
 * after warm-up, allocates per step at most what publishing one frame of the same size costs in
 * tandem-cosim (measured on the same participants), plus a small slack.
 */
@SuppressForbidden // per-thread allocation counters live in com.sun.management
class RemoteEngineAllocationTest {
    private static final long STEP_NS = 20_000_000L;
    private static final int STEPS = 500;
    private static final long SLACK_BYTES_PER_STEP = 64;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void run_serialLoopWithRemoteBrain_allocatesOnlyTandemCosimsMessageCopies() throws Exception {
        try (Registry reg = Registry.start("tandem+inproc://cle-remote-alloc");
             Participant server = Participant.connect(reg.uri(), RemoteEngine.DEFAULT_SIMULATION, "cle-engine-brain");
             EngineServer es = new EngineServer(HuskyBraitenberg.brainEngine("brain", BraitenbergBrain.build(3)), server)) {
            RemoteEngine brain = RemoteEngine.builder("brain").registry(reg.uri()).connect();
            TransferFunction eyes = TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "eyes", 0, d -> {
                PoissonSource l = d.poissonSource("red_left_eye");
                PoissonSource r = d.poissonSource("red_right_eye");
                PoissonSource g = d.poissonSource("green_blue_eye");
                LeakyIntegrator vl = d.leakyIntegrator("left_wheel_neuron");
                return (t, k) -> {
                    l.setRate(500 + (k % 7) * 100);
                    r.setRate(vl.voltage() > 1e9 ? 0 : 300);
                    g.setRate(75);
                };
            });
            try (ClosedLoop loop = ClosedLoop.builder().engine(brain).transferFunction(eyes).recordSpikes(HuskyBraitenberg.SPIKES)
                    .mode(SyncMode.SERIAL).build()) {
                long allocated = 0;
                for (int round = 0; round < 3; round++) {
                    long before = allocatedBytes();
                    loop.run(STEPS * STEP_NS, ProgressHandler.NONE);
                    allocated = allocatedBytes() - before;
                }
                assertThat(loop.spikeTrains().size()).isPositive();
                // the run's StepTimings (arrays of STEPS entries) and one cosim publish per step
                long timings = 3L * 8 * STEPS + 4_096;
                long perPublish = cosimPublishBytes(reg.uri(), requestFrameLength());
                assertThat((allocated - timings) / STEPS).as("bytes per step; one cosim publish costs %d", perPublish)
                        .isLessThanOrEqualTo(perPublish + SLACK_BYTES_PER_STEP);
            }
        }
    }

    /** The length of the brain's step request: header, iteration, duration, 3 Poisson values. */
    private static int requestFrameLength() {
        return EngineProtocol.Outbox.paddedLength(EngineProtocol.HEADER + 16 + 4 + 3 * (2 + 8));
    }

    /** What publishing one frame of {@code length} bytes to a matched peer allocates on the publishing thread. */
    private static long cosimPublishBytes(String uri, int length) throws Exception {
        try (Participant a = Participant.connect(uri, RemoteEngine.DEFAULT_SIMULATION, "alloc-a");
             Participant b = Participant.connect(uri, RemoteEngine.DEFAULT_SIMULATION, "alloc-b")) {
            LinkedBlockingQueue<byte[]> got = new LinkedBlockingQueue<>();
            b.createDataSubscriber("in", PubSubSpec.of("alloc", ""), e -> got.add(e.data()));
            DataPublisher p = a.createDataPublisher("out", PubSubSpec.of("alloc", ""), 1);
            byte[] frame = new byte[length];
            p.publish(frame);
            assertThat(got.poll(10, TimeUnit.SECONDS)).isNotNull();
            long perPublish = Long.MAX_VALUE;
            for (int round = 0; round < 3; round++) {
                long before = allocatedBytes();
                for (int i = 0; i < STEPS; i++) {
                    p.publish(frame);
                }
                perPublish = Math.min(perPublish, (allocatedBytes() - before) / STEPS);
                for (int i = 0; i < STEPS; i++) {
                    assertThat(got.poll(10, TimeUnit.SECONDS)).isNotNull();
                }
            }
            return perPublish;
        }
    }
}
