package io.tandem.cle.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cle.ClosedLoop;
import io.tandem.cle.ProgressHandler;
import io.tandem.cle.TransferFunction;
import io.tandem.cle.TransferFunctionKind;
import io.tandem.cle.device.DcSource;
import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.Multimeter;
import io.tandem.cle.device.PoissonSource;
import io.tandem.cle.device.PopulationRate;
import io.tandem.cle.device.SpikeRecorder;
import io.tandem.cle.record.MultimeterTraces;
import io.tandem.cle.record.SpikeTrains;
import io.tandem.neuro.NetworkBuilder;
import io.tandem.neuro.Population;
import io.tandem.neuro.SpikingNetwork;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BrainEngineTest {
    private static final long MS = 1_000_000L;

    /** 20 iaf_psc_alpha neurons driven by a Poisson source and a DC source, with every read device. */
    private static BrainEngine engine() {
        NetworkBuilder b = SpikingNetwork.builder().seed(5);
        Population neurons = b.create("iaf_psc_alpha", 20, Map.of("E_L", 0.0, "V_reset", 0.0, "V_th", 15.0, "V_m", 0.0));
        int poisson = BrainDevices.addPoissonSource(b, neurons, 100.0, 0.1);
        int dc = BrainDevices.addDcSource(b, neurons);
        int li = BrainDevices.addLeakyIntegratorAlpha(b, neurons);
        int lie = BrainDevices.addLeakyIntegratorExp(b, neurons);
        int rate = BrainDevices.addPopulationRate(b, neurons);
        int rec = BrainDevices.addSpikeRecorder(b, neurons);
        return BrainEngine.builder("brain", b.build()).poissonSource("noise", poisson).dcSource("bias", dc)
                .leakyIntegrator("li", li).leakyIntegrator("lie", lie).populationRate("rate", rate).spikeRecorder("spikes", rec)
                .build();
    }

    @Test
    void run_devices_drivePopulationAndReadItBack() {
        BrainEngine e = engine();
        double[] lastRate = new double[1];
        double[] lastVoltage = new double[1];
        long[] spikes = new long[1];
        TransferFunction drive = TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "drive", 0, d -> {
            PoissonSource noise = d.poissonSource("noise");
            DcSource bias = d.dcSource("bias");
            LeakyIntegrator li = d.leakyIntegrator("li");
            PopulationRate rate = d.populationRate("rate");
            SpikeRecorder rec = d.spikeRecorder("spikes");
            return (t, k) -> {
                noise.setRate(3000);
                bias.setAmplitude(100);
                lastRate[0] = rate.rateHz();
                lastVoltage[0] = li.voltage();
                spikes[0] += rec.count();
            };
        });
        try (ClosedLoop loop = ClosedLoop.builder().engine(e).transferFunction(drive).recordSpikes("spikes").build()) {
            loop.run(1000 * MS, ProgressHandler.NONE);
            assertThat(e.network().rate(20)).isEqualTo(3000.0);
            // the firing population drives the integrator and the rate cell
            assertThat(lastVoltage[0]).isPositive();
            long recorded = loop.spikeTrains().size();
            assertThat(recorded).isGreaterThan(100);
            // the last 20 ms interval is recorded by the loop but not yet seen by the TF
            assertThat(spikes[0]).isLessThanOrEqualTo(recorded);
            // the filtered rate is near the mean rate per neuron over the last half second (Hz)
            int late = 0;
            for (int i = 0; i < loop.spikeTrains().size(); i++) {
                if (loop.spikeTrains().timeNs(i) > 500 * MS) {
                    late++;
                }
            }
            double meanHz = late / 20.0 / 0.5;
            assertThat(lastRate[0]).isCloseTo(meanHz, org.assertj.core.data.Percentage.withPercentage(35));
        }
    }

    @Test
    void builder_wrongNodeModels_failWithMessages() {
        NetworkBuilder b = SpikingNetwork.builder();
        Population n = b.create("iaf_psc_alpha", 2);
        int p = BrainDevices.addPoissonSource(b, n);
        try (SpikingNetwork net = b.build()) {
            assertThatThrownBy(() -> BrainEngine.builder("brain", net).poissonSource("x", 0))
                    .hasMessageContaining("needs a poisson_generator node, but node 0 is a iaf_psc_alpha");
            assertThatThrownBy(() -> BrainEngine.builder("brain", net).leakyIntegrator("x", p))
                    .hasMessageContaining("needs a neuron");
            assertThatThrownBy(() -> BrainEngine.builder("brain", net).spikeRecorder("x", 99))
                    .hasMessageContaining("network has nodes 0..2");
            assertThatThrownBy(() -> BrainEngine.builder("brain", net).poissonSource("x", p).poissonSource("x", p))
                    .hasMessageContaining("defined twice");
        }
    }

    @Test
    void run_multimeterAndTwoSpikeRecorders_theLoopCollectsEveryRowAndSpike() {
        double iE = 300.0;
        NetworkBuilder b = SpikingNetwork.builder().seed(3);
        Population passive = b.create("iaf_psc_alpha", 3, Map.of("I_e", iE, "V_th", 1e10));
        Population firing = b.create("iaf_psc_exp", 10, Map.of("I_e", 500.0));
        Population mm = b.create("multimeter", 1, Map.of("interval", 1.0, "start", 5.0));
        b.recordFrom(mm, "V_m", "I_syn_ex");
        b.connect(mm, passive);
        int some = BrainDevices.addSpikeRecorder(b, firing.slice(0, 4));
        int all = BrainDevices.addSpikeRecorder(b, firing);
        BrainEngine e = BrainEngine.builder("brain", b.build()).multimeter("vm", mm.first()).spikeRecorder("some", some)
                .spikeRecorder("all", all).build();
        long[] rows = new long[1];
        TransferFunction read = TransferFunction.of(TransferFunctionKind.NEURON_TO_ROBOT, "read", 0, d -> {
            Multimeter vm = d.multimeter("vm");
            return (t, k) -> {
                for (int i = 0; i < vm.count(); i++) {
                    // the rows of the advance that ended at t
                    assertThat(vm.timeNs(i)).isGreaterThan(t - 20 * MS).isLessThanOrEqualTo(t);
                }
                rows[0] += vm.count();
            };
        });
        try (ClosedLoop loop = ClosedLoop.builder().engine(e).transferFunction(read).recordSpikes("some")
                .recordSpikes("all").recordSamples("vm").build()) {
            loop.run(200 * MS, ProgressHandler.NONE);
            MultimeterTraces traces = loop.multimeterTraces().get(0);
            assertThat(traces.multimeter()).isEqualTo("vm");
            assertThat(traces.recordFrom()).containsExactly("V_m", "I_syn_ex");
            // samples at 6, 7, ..., 200 ms of the three passive neurons
            assertThat(traces.size()).isEqualTo(195 * 3);
            assertThat(rows[0]).isLessThanOrEqualTo(traces.size()).isGreaterThan(0);
            for (int i = 0; i < traces.size(); i++) {
                double tMs = traces.timeNs(i) / 1e6;
                assertThat(tMs).isCloseTo(6.0 + i / 3, org.assertj.core.data.Offset.offset(1e-9));
                assertThat(traces.sender(i)).isEqualTo(passive.id(i % 3));
                // a passive LIF under I_e: V_m = E_L + I_e tau_m / C_m (1 - exp(-t / tau_m)), NEST's defaults
                double expected = -70.0 + iE * 10.0 / 250.0 * (1 - Math.exp(-tMs / 10.0));
                assertThat(traces.value(i, 0)).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-10));
                assertThat(traces.value(i, 1)).isZero();
            }
            List<SpikeTrains> trains = loop.allSpikeTrains();
            assertThat(trains).extracting(SpikeTrains::recorder).containsExactly("some", "all");
            assertThat(loop.spikeTrains()).isSameAs(trains.get(0));
            int fromSome = 0;
            for (int i = 0; i < trains.get(1).size(); i++) {
                if (trains.get(1).sender(i) < firing.id(4)) {
                    fromSome++;
                }
            }
            assertThat(trains.get(0).size()).isPositive().isEqualTo(fromSome);
            assertThat((long) trains.get(1).size()).isEqualTo(e.network().recordedSpikes(all));
            loop.reset();
            assertThat(loop.multimeterTraces().get(0).size()).isZero();
        }
    }

    @Test
    void run_transferFunctionSetsAGeneratorWindow_trainStopsAndResumesFromTheNextSync() {
        NetworkBuilder b = SpikingNetwork.builder().seed(8);
        Population counters = b.create("iaf_psc_exp", 5, Map.of("tau_syn_ex", 1e9, "V_th", 1e10));
        Population pg = b.create("poisson_generator", 1, Map.of("rate", 5000.0));
        b.connect(pg, counters, io.tandem.neuro.Connector.allToAll(), io.tandem.neuro.SynapseSpec.staticSynapse(1.0, 0.1));
        Population mm = b.create("multimeter", 1, Map.of("interval", 1.0));
        b.recordFrom(mm, "I_syn_ex");
        b.connect(mm, counters.get(0));
        BrainEngine e = BrainEngine.builder("brain", b.build()).poissonSource("pg", pg.first()).multimeter("count", mm.first())
                .build();
        TransferFunction window = TransferFunction.of(TransferFunctionKind.ROBOT_TO_NEURON, "window", 0, d -> {
            PoissonSource source = d.poissonSource("pg");
            return (t, k) -> {
                if (k == 2) {
                    // applied at the next sync, 60 ms
                    source.setWindowMs(0.0, 60.0, 0.0);
                } else if (k == 6) {
                    // a later window: the engine moves stop before start
                    source.setWindowMs(200.0, 250.0, 0.0);
                }
            };
        });
        try (ClosedLoop loop = ClosedLoop.builder().engine(e).transferFunction(window).recordSamples("count").build()) {
            loop.run(300 * MS, ProgressHandler.NONE);
            MultimeterTraces c = loop.multimeterTraces().get(0);
            assertThat(c.size()).isEqualTo(300);
            // row i is the number of spikes that arrived by i + 1 ms (the current decays by 1e-9 per ms)
            double[] n = new double[300];
            for (int i = 0; i < 300; i++) {
                n[i] = Math.rint(c.value(i, 0));
            }
            assertThat(n[59]).isGreaterThan(n[29]).isGreaterThan(n[0]);
            for (int i = 60; i < 200; i++) {
                assertThat(n[i]).as("%d ms", i + 1).isEqualTo(n[60]);
            }
            assertThat(n[230]).isGreaterThan(n[200]);
            for (int i = 250; i < 300; i++) {
                assertThat(n[i]).as("%d ms", i + 1).isEqualTo(n[250]);
            }
            assertThat(e.network().get(pg.first(), "start")).isEqualTo(200.0);
            assertThat(e.network().get(pg.first(), "stop")).isEqualTo(250.0);
        }
    }
}
