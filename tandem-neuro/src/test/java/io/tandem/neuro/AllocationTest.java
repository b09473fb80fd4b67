package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Steady-state stepping allocates nothing: the calling thread's allocated bytes over many runs
 * after warm-up stay under a small bound (the measurement and rare JIT events may allocate a
 * little). Recorder logs are drained each run, as the closed loop does.
 */
@SuppressForbidden // per-thread allocation counters live in com.sun.management
class AllocationTest {
    private static final long BOUND_BYTES = 4_096;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static final SpikeHandler IGNORE = (sender, timeNs) -> { };
    private static final SampleHandler IGNORE_SAMPLES = (sender, timeNs, values, offset, count) -> { };

    @Test
    void simulate_braitenbergClosedLoop_allocatesNothingAfterWarmUp() {
        try (BraitenbergBrain brain = BraitenbergBrain.build(3)) {
            long allocated = 0;
            for (int round = 0; round < 2; round++) {
                long before = allocatedBytes();
                for (int i = 0; i < 200; i++) {
                    brain.setEyeInput(0.3, 0.1 * (i % 5), 0.6);
                    brain.network().simulate(20_000_000L);
                    brain.network().drainSpikes(brain.spikeRecorder(), IGNORE);
                    allocated = brain.linearX() > 1e9 ? -1 : allocated;
                }
                allocated = allocatedBytes() - before;
            }
            assertThat(allocated).isLessThan(BOUND_BYTES);
        }
    }

    @Test
    void simulate_brunelTwoThreads_allocatesNothingAfterWarmUp() {
        try (SpikingNetwork net = BrunelNetwork.build(500, 2, 1, true)) {
            long allocated = 0;
            for (int round = 0; round < 2; round++) {
                long before = allocatedBytes();
                for (int i = 0; i < 20; i++) {
                    net.simulate(10_000_000L);
                    net.drainSpikes(501, IGNORE);
                }
                allocated = allocatedBytes() - before;
            }
            assertThat(net.totalSpikes()).isPositive();
            assertThat(allocated).isLessThan(BOUND_BYTES);
        }
    }

    @Test
    void simulate_windowedGeneratorsAndMultimeterTwoThreads_allocatesNothingAfterWarmUp() {
        NetworkBuilder b = SpikingNetwork.builder().seed(2).threads(2);
        Population neurons = BrunelNetwork.define(b, 500, true);
        int recorder = b.nodeCount() - 1;
        Population pg = b.create("poisson_generator", 1, Map.of("rate", 3000.0, "start", 5.0, "stop", 1000.0));
        b.connect(pg, neurons, Connector.allToAll(), SynapseSpec.staticSynapse(10.0, 1.5));
        Population dc = b.create("dc_generator", 1, Map.of("amplitude", 50.0, "origin", 20.0));
        b.connect(dc, neurons, Connector.allToAll(), SynapseSpec.staticSynapse(1.0, 1.5));
        Population mm = b.create("multimeter", 1, Map.of("interval", 0.2));
        b.recordFrom(mm, "V_m", "I_syn_ex", "I_syn_in");
        b.connect(mm, neurons.slice(0, 500, 7));
        try (SpikingNetwork net = b.build()) {
            long allocated = 0;
            for (int round = 0; round < 2; round++) {
                long before = allocatedBytes();
                for (int i = 0; i < 20; i++) {
                    // a transfer function moving the window between runs
                    net.set(pg.first(), "stop", 1000.0 + i * 0.1);
                    net.simulate(10_000_000L);
                    net.drainSpikes(recorder, IGNORE);
                    net.drainSamples(mm.first(), IGNORE_SAMPLES);
                }
                allocated = allocatedBytes() - before;
            }
            assertThat(net.recordedSamples(mm.first())).isEqualTo(2 * 20 * 50 * 72L);
            assertThat(allocated).isLessThan(BOUND_BYTES);
        }
    }

    @Test
    void simulate_windowedSpikeRecorderAndOffsetMultimeterTwoThreads_allocatesNothingAfterWarmUp() {
        NetworkBuilder b = SpikingNetwork.builder().seed(3).threads(2);
        Population neurons = BrunelNetwork.define(b, 500, false);
        Population rec = b.create("spike_recorder", 1, Map.of("start", 5.0, "origin", 1.0));
        b.connect(neurons, rec);
        Population mm = b.create("multimeter", 1, Map.of("interval", 0.5, "offset", 0.3, "start", 2.0));
        b.recordFrom(mm, "V_m");
        b.connect(mm, neurons.slice(0, 500, 10));
        try (SpikingNetwork net = b.build()) {
            long allocated = 0;
            for (int round = 0; round < 2; round++) {
                long before = allocatedBytes();
                for (int i = 0; i < 20; i++) {
                    // a transfer function moving the recorder's window between runs
                    net.set(rec.first(), "stop", 10_000.0 + i * 0.1);
                    net.simulate(10_000_000L);
                    net.drainSpikes(rec.first(), IGNORE);
                    net.drainSamples(mm.first(), IGNORE_SAMPLES);
                }
                allocated = allocatedBytes() - before;
            }
            assertThat(net.recordedSpikes(rec.first())).isPositive();
            assertThat(allocated).isLessThan(BOUND_BYTES);
        }
    }
}
