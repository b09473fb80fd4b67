package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The builder and the network reject bad input at once, naming the thing and the fix. */
class ValidationTest {
    private final NetworkBuilder b = SpikingNetwork.builder();

    @Test
    void create_unknownParameter_namesItAndSuggestsTheClosest() {
        assertThatThrownBy(() -> b.create("iaf_cond_alpha", 1, Map.of("V_thresh", -50.0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown parameter 'V_thresh' for iaf_cond_alpha")
                .hasMessageContaining("did you mean 'V_th'?");
        assertThatThrownBy(() -> b.create("iaf_cond_alpha", 1, Map.of("cm", 0.025)))
                .hasMessageContaining("PyNN's 'cm' is NEST's 'C_m', in pF");
    }

    @Test
    void create_unknownModel_listsTheKnownOnes() {
        assertThatThrownBy(() -> b.create("iaf_psc_alfa", 1))
                .hasMessageContaining("unknown model 'iaf_psc_alfa'")
                .hasMessageContaining("did you mean 'iaf_psc_alpha'?");
    }

    @Test
    void create_badValues_rejectedWithTheRule() {
        assertThatThrownBy(() -> b.create("iaf_psc_alpha", 1, Map.of("V_reset", -50.0, "V_th", -55.0)))
                .hasMessageContaining("V_reset < V_th");
        assertThatThrownBy(() -> b.create("iaf_psc_exp", 1, Map.of("tau_m", 0.0)))
                .hasMessageContaining("tau_m must be > 0 ms");
        assertThatThrownBy(() -> b.create("poisson_generator", 1, Map.of("rate", -1.0)))
                .hasMessageContaining("rate must be >= 0 Hz");
        assertThatThrownBy(() -> b.create("iaf_psc_alpha", 0)).hasMessageContaining("n >= 1");
    }

    @Test
    void connect_delayOffTheGrid_suggestsTheNeighbours() {
        Population n = b.create("iaf_psc_alpha", 2);
        assertThatThrownBy(() -> b.connect(n, n, Connector.allToAll(), SynapseSpec.staticSynapse(1, 0.15)))
                .hasMessageContaining("delay 0.15 ms is not a multiple of the resolution 0.1 ms: use 0.1")
                .hasMessageContaining("or 0.2");
    }

    @Test
    void connect_delayBelowResolution_namesTheMinimum() {
        Population n = b.create("iaf_psc_alpha", 2);
        assertThatThrownBy(() -> b.connect(n, n, Connector.allToAll(), SynapseSpec.staticSynapse(1, 0.05)))
                .hasMessageContaining("delay 0.05 ms is below the resolution 0.1 ms");
    }

    @Test
    void synapseSpec_negativeOrZeroDelay_rejected() {
        assertThatThrownBy(() -> SynapseSpec.staticSynapse(1, -1.0)).hasMessageContaining("delay must be > 0 ms");
        assertThatThrownBy(() -> SynapseSpec.staticSynapse(1, 0.0)).hasMessageContaining("delay must be > 0 ms");
    }

    @Test
    void synapseSpec_badTsodyksParameters_rejected() {
        assertThatThrownBy(() -> SynapseSpec.tsodyks(1, 1, 1.5, 3, 800, 0)).hasMessageContaining("U must be in [0, 1]");
        assertThatThrownBy(() -> SynapseSpec.of("tsodyks_synapse", Map.of("tau_recovery", 1.0)))
                .hasMessageContaining("unknown parameter 'tau_recovery' for tsodyks_synapse");
        assertThatThrownBy(() -> SynapseSpec.tsodyks(1, 1, 0.5, 5, 5, 0)).hasMessageContaining("tau_psc must differ");
        assertThatThrownBy(() -> SynapseSpec.of("stdp_synapse", Map.of())).hasMessageContaining("unknown synapse model");
    }

    @Test
    void connect_impossiblePairings_explained() {
        Population n = b.create("iaf_psc_alpha", 2);
        Population pg = b.create("poisson_generator", 1);
        Population rec = b.create("spike_recorder", 1);
        assertThatThrownBy(() -> b.connect(n, pg)).hasMessageContaining("stimulators only send");
        assertThatThrownBy(() -> b.connect(rec, n)).hasMessageContaining("a spike_recorder only receives");
        assertThatThrownBy(() -> b.connect(pg, n, Connector.allToAll(), SynapseSpec.tsodyks(1, 1, 0.5, 3, 800, 0)))
                .hasMessageContaining("static_synapse only");
        assertThatThrownBy(() -> b.connect(n, Population.of(99))).hasMessageContaining("no node 99");
    }

    @Test
    void connect_oneToOneSizeMismatch_namesBothSizes() {
        Population a = b.create("iaf_psc_alpha", 2);
        Population c = b.create("iaf_psc_alpha", 3);
        assertThatThrownBy(() -> b.connect(a, c, Connector.oneToOne(), SynapseSpec.staticSynapse(1, 1)))
                .hasMessageContaining("2 sources and 3 targets");
    }

    @Test
    void builder_outOfOrderCalls_rejected() {
        b.create("iaf_psc_alpha", 1);
        assertThatThrownBy(() -> b.resolutionMs(0.2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("before creating nodes");
        assertThatThrownBy(() -> SpikingNetwork.builder().resolutionMs(0.00001234)).hasMessageContaining("whole number");
        Population n = b.create("iaf_psc_alpha", 10);
        b.connect(n, n, Connector.fixedIndegree(2), SynapseSpec.staticSynapse(1, 1));
        assertThatThrownBy(() -> b.seed(5)).hasMessageContaining("before the first fixed_indegree");
    }

    @Test
    void spikeTimes_offGridOrNotAGenerator_rejected() {
        Population g = b.create("spike_generator", 1);
        Population n = b.create("iaf_psc_alpha", 1);
        assertThatThrownBy(() -> b.spikeTimesMs(g, 1.05)).hasMessageContaining("positive multiple of the resolution");
        assertThatThrownBy(() -> b.spikeTimesMs(g, 0.0)).hasMessageContaining("positive multiple");
        assertThatThrownBy(() -> b.spikeTimesMs(n, 1.0)).hasMessageContaining("not a spike_generator");
    }

    @Test
    void network_wrongNodeKindOrDuration_rejected() {
        Population n = b.create("iaf_psc_alpha", 1);
        Population pg = b.create("poisson_generator", 1);
        try (SpikingNetwork net = b.build()) {
            assertThatThrownBy(() -> net.setRate(n.first(), 10)).hasMessageContaining("not a poisson_generator");
            assertThatThrownBy(() -> net.vm(pg.first())).hasMessageContaining("not a neuron");
            assertThatThrownBy(() -> net.setRate(pg.first(), -5)).hasMessageContaining(">= 0 Hz");
            assertThatThrownBy(() -> net.simulate(150_000L)).hasMessageContaining("multiple of the resolution");
            assertThatThrownBy(() -> net.get(n.first(), "V_thresh")).hasMessageContaining("unknown state or parameter");
            assertThatThrownBy(() -> net.set(pg.first(), "amplitude", 1)).hasMessageContaining("cannot set 'amplitude'");
            net.set(pg.first(), "rate", 12.0);
            assertThat(net.get(pg.first(), "rate")).isEqualTo(12.0);
            assertThat(net.get(n.first(), "V_th")).isEqualTo(-55.0);
        }
    }

    /**
     * A network too large for int indices or for this JVM's heap is refused at the connect that
     * would make it so, before anything is added (a Brunel network of 10^8 neurons ran 69 s into an
     * OutOfMemoryError).
     */
    @Test
    void connect_beyondIndicesOrHeap_refusedUpFrontWithTheFix() {
        Population src = b.create("iaf_psc_alpha", 40_000);
        Population tgt = b.create("iaf_psc_alpha", 60_000);
        assertThatThrownBy(() -> b.connect(src, tgt, Connector.fixedIndegree(40_000), SynapseSpec.staticSynapse(1, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the network would hold 2.40e+09 synapses, more than the 2147483639 one network holds");
        // just beyond what this heap could build, whatever -Xmx the test JVM has
        long fits = Runtime.getRuntime().maxMemory() / NetworkBuilder.BUILD_BYTES_PER_SYNAPSE;
        int k = (int) Math.min(30_000, fits / 60_000 + 1);
        if ((long) k * 60_000 > fits && (long) k * 60_000 <= NetworkBuilder.MAX_SYNAPSES) {
            assertThatThrownBy(() -> b.connect(src, tgt, Connector.fixedIndegree(k, true, true), SynapseSpec.staticSynapse(1, 1)))
                    .hasMessageContaining("GB of heap while it is built").hasMessageContaining("JAVA_OPTS=-Xmx");
        }
        // nothing was added: a small connect still works
        b.connect(src, tgt, Connector.fixedIndegree(1), SynapseSpec.staticSynapse(1, 1));
        assertThat(b.nodeCount()).isEqualTo(100_000);
    }
}
