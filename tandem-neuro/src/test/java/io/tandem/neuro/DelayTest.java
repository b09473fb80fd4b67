package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A spike reaches its target exactly one delay after it was emitted (issue: delays on the resolution grid). */
class DelayTest {
    @ParameterizedTest
    @ValueSource(doubles = {0.1, 0.5, 1.5, 3.7, 20.0})
    void connect_neuronToNeuron_inputAppearsExactlyAfterTheDelay(double delayMs) {
        NetworkBuilder b = SpikingNetwork.builder();
        Population pre = b.create("iaf_psc_alpha", 1, Map.of("I_e", 1000.0));
        Population post = b.create("iaf_psc_exp", 1, Map.of("V_th", 1e10));
        b.connect(pre, post, Connector.oneToOne(), SynapseSpec.staticSynapse(5.0, delayMs));
        Population rec = b.create("spike_recorder", 1);
        b.connect(pre, rec);
        try (SpikingNetwork net = b.build()) {
            double firstInput = Double.NaN;
            for (int k = 1; k <= 600 && Double.isNaN(firstInput); k++) {
                net.simulateSteps(1);
                if (net.get(post.first(), "I_syn_ex") > 0) {
                    firstInput = net.timeNs() / 1e6;
                }
            }
            List<Double> spikes = Spikes.drain(net, rec.first()).timesMsOf(pre.first());
            assertThat(spikes).isNotEmpty();
            assertThat(firstInput).isCloseTo(spikes.get(0) + delayMs, within(1e-9));
            // the PSC starts at the weight: nothing arrived early
            assertThat(net.get(post.first(), "I_syn_ex")).isCloseTo(5.0, within(1e-12));
        }
    }
}
