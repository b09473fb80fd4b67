package io.tandem.cle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.neuro.NetworkBuilder;
import io.tandem.neuro.Population;
import io.tandem.neuro.SpikingNetwork;
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
}
