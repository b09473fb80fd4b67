package io.tandem.cle.experiment;

import static io.tandem.cle.experiment.ExperimentFileTestSupport.errors;
import static io.tandem.cle.experiment.ExperimentFileTestSupport.load;
import static io.tandem.cle.experiment.ExperimentFileTestSupport.minimal;
import static io.tandem.cle.experiment.ExperimentFileTestSupport.replace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.neuro.Connector;
import io.tandem.neuro.NodeModel;
import io.tandem.neuro.Population;
import io.tandem.neuro.SynapseSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The brain section: builtins, NEST-style descriptions, selectors, and the builder's messages with lines. */
class BrainSpecTest {
    @TempDir
    Path dir;

    private static String brain(String json) {
        return replace(minimal(), "{\"builtin\": \"braitenberg\"}", json);
    }

    /** Two populations a (4 iaf_psc_alpha) and b (3), then {@code rest} inside the brain object. */
    private static String nest(String rest) {
        return brain("{\n    \"populations\": [\n"
                + "      {\"name\": \"a\", \"model\": \"iaf_psc_alpha\", \"n\": 4},\n"
                + "      {\"name\": \"b\", \"model\": \"iaf_psc_alpha\", \"n\": 3, \"params\": {\"I_e\": 400.0}}\n"
                + "    ]" + (rest.isEmpty() ? "" : ",\n    " + rest) + "\n  }");
    }

    private BrainSpec.Nest nestSpec(String rest) {
        return (BrainSpec.Nest) load(dir, nest(rest)).brain();
    }

    private static int[] ids(Population p) {
        return p.ids();
    }

    @Test
    void load_builtinBrains_nameTheirNodes() {
        BrainSpec b = load(dir, brain("{\"builtin\": \"braitenberg\", \"seed\": 5}")).brain();
        assertThat(b.seed()).isEqualTo(5);
        assertThat(b.resolutionNs()).isEqualTo(100_000L);
        assertThat(b.nodes().keySet()).containsExactly("sensors", "go_on", "actor_neurons", "record", "lpg", "rpg", "gpg",
                "actors", "spikes");
        try (BrainSpec.Built built = b.build()) {
            assertThat(built.network().nodeCount()).isEqualTo(14);
            assertThat(ids(built.node("actors"))).containsExactly(11, 12);
            assertThatThrownBy(() -> built.node("actor")).hasMessageContaining("did you mean 'actors'?");
        }
        BrainSpec brunel = load(dir, brain("{\"builtin\": \"brunel\", \"neurons\": 50, \"seed\": 2, \"threads\": 2}"))
                .brain();
        try (BrainSpec.Built built = brunel.build()) {
            assertThat(built.network().neuronCount()).isEqualTo(50);
            assertThat(ids(built.node("inhibitory"))).containsExactly(40, 41, 42, 43, 44, 45, 46, 47, 48, 49);
            assertThat(ids(built.node("spikes"))).containsExactly(51);
            assertThat(built.network().threads()).isEqualTo(2);
        }
    }

    @Test
    void load_builtinWithForeignKeys_rejected() {
        assertThat(errors(dir, brain("{\"builtin\": \"braitenberg\", \"neurons\": 100}")))
                .endsWith("exp.json:4:39: \"neurons\" applies to the brunel brain only: remove it");
        assertThat(errors(dir, brain("{\"builtin\": \"brunel\", \"neurons\": 5}")))
                .endsWith("exp.json:4:34: \"neurons\" must be an integer >= 10, got 5");
    }

    @Test
    void load_selectors_followPythonIndexing() {
        BrainSpec.Nest spec = nestSpec("\"views\": {\"all\": \"a + b\", \"odd\": \"all[1::2]\", \"tail\": \"a[-2:]\","
                + " \"picked\": \"b[2,0] + a[3]\", \"one\": \"all[-1]\", \"obj\": {\"population\": \"b\", \"ids\": [1]},"
                + " \"whole\": {\"population\": \"a\"}}");
        assertThat(spec.views()).extracting(BrainSpec.ViewSpec::name)
                .containsExactly("all", "odd", "tail", "picked", "one", "obj", "whole");
        assertThat(ids(spec.views().get(0).nodes())).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(ids(spec.views().get(1).nodes())).containsExactly(1, 3, 5);
        assertThat(ids(spec.views().get(2).nodes())).containsExactly(2, 3);
        assertThat(ids(spec.views().get(3).nodes())).containsExactly(6, 4, 3);
        assertThat(ids(spec.views().get(4).nodes())).containsExactly(6);
        assertThat(ids(spec.views().get(5).nodes())).containsExactly(5);
        assertThat(ids(spec.views().get(6).nodes())).containsExactly(0, 1, 2, 3);
        assertThat(spec.views().get(5).selector()).isEqualTo("b[1]");
        assertThat(ids(spec.nodes().get("b"))).containsExactly(4, 5, 6);
    }

    @Test
    void load_badSelectors_pointAtTheOffendingCharacter() {
        // the views line is line 9; the selector string starts at column 20
        String prefix = "\"views\": {\"v\": ";
        assertThat(errors(dir, nest(prefix + "\"a[0:9]\"}"))).endsWith("exp.json:9:23: selector \"a[0:9]\": slice [0:9]"
                + " is outside a (4 nodes, positions 0..3)");
        assertThat(errors(dir, nest(prefix + "\"a + c\"}"))).endsWith("exp.json:9:25: unknown population \"c\""
                + " (defined so far: a, b; connections see populations and views, devices also earlier devices)");
        assertThat(errors(dir, nest(prefix + "\"aa[1]\"}"))).endsWith("exp.json:9:21: unknown population \"aa\" (defined so"
                + " far: a, b; connections see populations and views, devices also earlier devices)");
        assertThat(errors(dir, nest(prefix + "\"a[4]\"}"))).endsWith("exp.json:9:23: selector \"a[4]\": position 4 is"
                + " outside a (4 nodes, positions 0..3)");
        assertThat(errors(dir, nest(prefix + "\"a[1:1]\"}"))).endsWith("slice [1:1] of a selects no nodes");
        assertThat(errors(dir, nest(prefix + "\"a[::-1]\"}"))).endsWith("a slice step must be >= 1 (reversed slices are"
                + " not supported)");
        assertThat(errors(dir, nest(prefix + "\"a[0,x]\"}"))).endsWith("exp.json:9:25: selector \"a[0,x]\": 'x' is not"
                + " an integer position");
        assertThat(errors(dir, nest(prefix + "\"a[0\"}"))).endsWith("exp.json:9:22: selector \"a[0\": missing ']'");
        assertThat(errors(dir, nest(prefix + "\"a b\"}"))).endsWith("exp.json:9:23: selector \"a b\": unexpected 'b':"
                + " join selections with '+'");
        assertThat(errors(dir, nest(prefix + "\"a + a[0]\"}"))).endsWith("exp.json:9:20: selector \"a + a[0]\" names"
                + " node 0 twice: select each node once");
        assertThat(errors(dir, nest(prefix + "{\"population\": \"b\", \"ids\": [3]}}"))).endsWith("exp.json:9:48:"
                + " position 3 is outside \"b\" (3 nodes, positions 0..2)");
    }

    @Test
    void load_connectionsAndDevices_resolveToNeuroSpecs() {
        BrainSpec.Nest spec = nestSpec("\"connections\": [\n"
                + "      {\"from\": \"a\", \"to\": \"b\", \"rule\": {\"fixed_indegree\": 2, \"allow_autapses\": false},"
                + " \"synapse\": {\"weight\": 5.0, \"delay_ms\": 1.5}},\n"
                + "      {\"from\": \"a[0:3]\", \"to\": \"b\", \"rule\": \"one_to_one\", \"synapse\": {\"model\":"
                + " \"tsodyks_synapse\", \"U\": 0.5, \"tau_rec\": 100}},\n"
                + "      {\"from\": \"a[0]\", \"to\": \"a[1]\"}\n    ],\n"
                + "    \"devices\": [\n"
                + "      {\"name\": \"pg\", \"type\": \"poisson\", \"targets\": \"a[0,2]\", \"weight\": 2.0, \"params\":"
                + " {\"rate\": 100}},\n"
                + "      {\"name\": \"li\", \"type\": \"leaky_integrator_exp\", \"targets\": \"b\"},\n"
                + "      {\"name\": \"dc\", \"type\": \"dc_source\", \"targets\": \"a\", \"params\": {\"amplitude\": 5}},\n"
                + "      {\"name\": \"rec\", \"type\": \"spike_recorder\", \"targets\": \"a + li\"}\n    ]");
        assertThat(spec.connections()).hasSize(3);
        BrainSpec.ConnectionSpec c0 = spec.connections().get(0);
        assertThat(c0.rule().rule()).isEqualTo(Connector.Rule.FIXED_INDEGREE);
        assertThat(c0.rule().indegree()).isEqualTo(2);
        assertThat(c0.rule().allowAutapses()).isFalse();
        assertThat(c0.synapse().model()).isEqualTo(SynapseSpec.Model.STATIC);
        assertThat(c0.synapse().weight()).isEqualTo(5.0);
        assertThat(c0.synapse().delayMs()).isEqualTo(1.5);
        BrainSpec.ConnectionSpec c1 = spec.connections().get(1);
        assertThat(c1.synapse().get("U")).isEqualTo(0.5);
        assertThat(c1.synapse().get("tau_rec")).isEqualTo(100.0);
        assertThat(c1.synapse().get("tau_psc")).as("NEST default").isEqualTo(3.0);
        assertThat(spec.connections().get(2).synapse().delayMs()).as("NEST default").isEqualTo(1.0);
        assertThat(spec.devices()).extracting(BrainSpec.DeviceSpec::name).containsExactly("pg", "li", "dc", "rec");
        BrainSpec.DeviceSpec li = spec.devices().get(1);
        assertThat(li.model()).isEqualTo(NodeModel.IAF_PSC_EXP);
        assertThat(li.weight()).isEqualTo(10.0);
        assertThat(li.delayMs()).isEqualTo(0.1);
        assertThat(li.params()).containsEntry("V_th", 1e10).containsEntry("C_m", 1000.0);
        assertThat(spec.nodes()).containsKeys("a", "b", "pg", "li", "dc", "rec");
        assertThat(ids(spec.nodes().get("li"))).containsExactly(8, 9, 10);
        assertThat(ids(spec.nodes().get("rec"))).containsExactly(12);
        assertThat(ids(spec.devices().get(3).targets())).containsExactly(0, 1, 2, 3, 8, 9, 10);
        try (BrainSpec.Built built = spec.build()) {
            assertThat(built.network().nodeCount()).isEqualTo(13);
            assertThat(built.network().synapseCount()).isEqualTo(3 * 2 + 3 + 1 + 3);
            assertThat(built.network().model(12)).isEqualTo(NodeModel.SPIKE_RECORDER);
            assertThat(built.network().get(7, "rate")).isEqualTo(100.0);
            assertThat(built.network().get(11, "amplitude")).isEqualTo(5.0);
        }
    }

    @Test
    void load_unknownModelAndParameters_passTheBuildersMessageWithTheLine() {
        String badModel = replace(nest(""), "\"model\": \"iaf_psc_alpha\", \"n\": 4", "\"model\": \"iaf_psc_alfa\", \"n\": 4");
        assertThat(errors(dir, badModel)).endsWith("exp.json:6:21: unknown model 'iaf_psc_alfa'; known: [iaf_psc_alpha,"
                + " iaf_psc_exp, iaf_cond_alpha, poisson_generator, dc_generator, spike_generator, spike_recorder, multimeter]"
                + " (did"
                + " you mean 'iaf_psc_alpha'?)");
        String pynn = replace(nest(""), "{\"I_e\": 400.0}", "{\"I_e\": 400.0, \"v_thresh\": -50}");
        assertThat(errors(dir, pynn)).endsWith("exp.json:7:80: unknown parameter 'v_thresh' for iaf_psc_alpha; known:"
                + " [C_m, E_L, I_e, V_reset, V_th, V_min, t_ref, tau_m, tau_syn_ex, tau_syn_in, V_m] (PyNN's 'v_thresh'"
                + " is NEST's 'V_th')");
        String rule = replace(nest(""), "{\"I_e\": 400.0}", "{\"V_reset\": -50, \"V_th\": -60}");
        assertThat(errors(dir, rule)).endsWith("exp.json:7:55: iaf_psc_alpha needs V_reset < V_th (NEST's rule), got"
                + " V_reset -50.0 mV, V_th -60.0 mV");
        String syn = nest("\"connections\": [{\"from\": \"a\", \"to\": \"b\", \"synapse\": {\"weight\": 1, \"U\": 0.2}}]");
        assertThat(errors(dir, syn)).endsWith("exp.json:9:71: unknown parameter 'U' for static_synapse; known: [weight,"
                + " delay] (set \"model\": \"tsodyks_synapse\" for it)");
        String delay = nest("\"connections\": [{\"from\": \"a\", \"to\": \"b\", \"synapse\": {\"delay\": 1}}]");
        assertThat(errors(dir, delay)).endsWith("exp.json:9:58: write the delay as \"delay_ms\" (milliseconds)");
        String tau = nest("\"connections\": [{\"from\": \"a\", \"to\": \"b\", \"synapse\": {\"model\": \"tsodyks_synapse\","
                + " \"U\": 2}}]");
        assertThat(errors(dir, tau)).contains("exp.json:9:46: tsodyks_synapse");
    }

    @Test
    void load_builderRejectsTheWiring_reportsTheConnectionsLine() {
        String offGrid = nest("\"connections\": [{\"from\": \"a\", \"to\": \"b\", \"synapse\": {\"delay_ms\": 0.15}}]");
        assertThat(errors(dir, offGrid)).isEqualTo(dir.resolve("exp.json") + ":9:21: connection a -> b: delay 0.15 ms is"
                + " not a multiple of the resolution 0.1 ms: use 0.100000 or 0.200000 ms");
        String sizes = nest("\"connections\": [{\"from\": \"a\", \"to\": \"b\", \"rule\": \"one_to_one\"}]");
        assertThat(errors(dir, sizes)).endsWith("exp.json:9:21: one_to_one needs as many sources as targets, got 4 (a)"
                + " and 3 (b): select matching slices or use all_to_all");
        String kinds = nest("\"devices\": [{\"name\": \"pg\", \"type\": \"poisson\", \"targets\": \"a\"}],\n"
                + "    \"views\": {}");
        assertThat(load(dir, kinds).brain().nodes()).containsKey("pg");
        String deviceOnDevice = nest("\"devices\": [{\"name\": \"pg\", \"type\": \"poisson\", \"targets\": \"a\"},\n"
                + "      {\"name\": \"pg2\", \"type\": \"poisson\", \"targets\": \"pg\"}]");
        assertThat(errors(dir, deviceOnDevice)).endsWith("exp.json:10:7: device \"pg2\" (poisson): cannot connect"
                + " poisson_generator node 8 to poisson_generator node 7 (stimulators only send: connect them as the"
                + " source)");
    }

    @Test
    void load_namesClash_rejected() {
        String dup = nest("\"views\": {\"a\": \"b\"}");
        assertThat(errors(dir, dup)).endsWith("exp.json:9:15: the name \"a\" is already used (at 6:8): populations,"
                + " views and devices share one namespace; rename one");
        String recorderWeight = nest("\"devices\": [{\"name\": \"r\", \"type\": \"spike_recorder\", \"targets\": \"a\","
                + " \"weight\": 1}]");
        assertThat(errors(dir, recorderWeight)).endsWith("a spike_recorder has no \"weight\": remove it");
    }

    @Test
    void load_generatorWindowsAndMultimeter_resolveAndBuild() {
        BrainSpec.Nest spec = nestSpec("\"devices\": [\n"
                + "      {\"name\": \"pg\", \"type\": \"poisson\", \"targets\": \"a\", \"params\": {\"rate\": 100, \"start\": 5,"
                + " \"stop\": 50.5, \"origin\": 10}},\n"
                + "      {\"name\": \"dc\", \"type\": \"dc_source\", \"targets\": \"b\", \"params\": {\"amplitude\": 5, \"stop\": 20}},\n"
                + "      {\"name\": \"vm\", \"type\": \"multimeter\", \"targets\": \"a[0:2] + b[2]\", \"record_from\": [\"V_m\","
                + " \"I_syn_ex\"], \"params\": {\"interval\": 0.5, \"start\": 1}}\n    ]");
        BrainSpec.DeviceSpec vm = spec.devices().get(2);
        assertThat(vm.model()).isEqualTo(NodeModel.MULTIMETER);
        assertThat(vm.recordFrom()).containsExactly("V_m", "I_syn_ex");
        assertThat(spec.devices().get(0).recordFrom()).isEmpty();
        assertThat(ids(spec.nodes().get("vm"))).containsExactly(9);
        try (BrainSpec.Built built = spec.build()) {
            var net = built.network();
            assertThat(net.get(7, "start")).isEqualTo(5.0);
            assertThat(net.get(7, "stop")).isEqualTo(50.5);
            assertThat(net.get(7, "origin")).isEqualTo(10.0);
            assertThat(net.get(8, "stop")).isEqualTo(20.0);
            assertThat(net.get(8, "start")).isZero();
            assertThat(net.model(9)).isEqualTo(NodeModel.MULTIMETER);
            assertThat(net.recordFrom(9)).containsExactly("V_m", "I_syn_ex");
            assertThat(net.get(9, "interval")).isEqualTo(0.5);
            net.simulate(10_000_000L);
            // samples at 1.5, 2.0, ..., 10 ms of a[0], a[1], b[2], in that order
            var s = net.samples(9);
            assertThat(s.size()).isEqualTo(18 * 3);
            assertThat(s.senders()).startsWith(0, 1, 6);
            assertThat(s.timesMs()).startsWith(1.5, 1.5, 1.5, 2.0);
        }
    }

    @Test
    void load_recorderWindowsAndMultimeterOffset_resolveAndBuild() {
        BrainSpec.Nest spec = nestSpec("\"devices\": [\n"
                + "      {\"name\": \"rec\", \"type\": \"spike_recorder\", \"targets\": \"a\", \"params\": {\"start\": 5,"
                + " \"stop\": 50.5, \"origin\": 10}},\n"
                + "      {\"name\": \"vm\", \"type\": \"multimeter\", \"targets\": \"a[0]\", \"record_from\": [\"V_m\"],"
                + " \"params\": {\"interval\": 1, \"offset\": 0.3}}\n    ]");
        assertThat(spec.devices().get(0).model()).isEqualTo(NodeModel.SPIKE_RECORDER);
        try (BrainSpec.Built built = spec.build()) {
            var net = built.network();
            assertThat(net.model(7)).isEqualTo(NodeModel.SPIKE_RECORDER);
            assertThat(net.get(7, "start")).isEqualTo(5.0);
            assertThat(net.get(7, "stop")).isEqualTo(50.5);
            assertThat(net.get(7, "origin")).isEqualTo(10.0);
            assertThat(net.get(8, "offset")).isCloseTo(0.3, within(1e-12));
            net.simulate(3_000_000L);
            // samples at 0.3, 1.3 and 2.3 ms
            assertThat(net.samples(8).timesMs()).hasSize(3);
            assertThat(net.samples(8).timesMs()[0]).isCloseTo(0.3, within(1e-9));
        }
    }

    @Test
    void load_badRecorderWindowAndOffset_reportedWithTheirLines() {
        String window = nest("\"devices\": [{\"name\": \"r\", \"type\": \"spike_recorder\", \"targets\": \"a\","
                + " \"params\": {\"start\": 5, \"stop\": 4}}]");
        assertThat(errors(dir, window)).contains("spike_recorder: stop 4 ms is before start 5 ms");
        String offset = nest("\"devices\": [{\"name\": \"vm\", \"type\": \"multimeter\", \"targets\": \"a\","
                + " \"record_from\": [\"V_m\"], \"params\": {\"offset\": -1}}]");
        assertThat(errors(dir, offset)).contains("multimeter: offset -1 ms must be >= 0 ms");
        String unknown = nest("\"devices\": [{\"name\": \"r\", \"type\": \"spike_recorder\", \"targets\": \"a\","
                + " \"params\": {\"interval\": 1}}]");
        assertThat(errors(dir, unknown)).contains("unknown parameter 'interval' for spike_recorder");
    }

    @Test
    void load_badWindowsAndMultimeters_reportedWithTheirLines() {
        String order = nest("\"devices\": [{\"name\": \"pg\", \"type\": \"poisson\", \"targets\": \"a\", \"params\":"
                + " {\"start\": 5, \"stop\": 4}}]");
        assertThat(errors(dir, order)).endsWith("exp.json:9:67: poisson_generator: stop 4 ms is before start 5 ms; NEST"
                + " requires stop >= start: use a stop of at least 5 ms (at run time, move stop before moving start past it)");
        String grid = nest("\"devices\": [{\"name\": \"dc\", \"type\": \"dc_source\", \"targets\": \"a\", \"params\":"
                + " {\"origin\": 0.25}}]");
        assertThat(errors(dir, grid)).endsWith("exp.json:9:69: dc_generator: origin 0.25 ms is not a multiple of the"
                + " resolution 0.1 ms (NEST requires device times on the grid): use 0.2 or 0.3 ms");
        String unknown = nest("\"devices\": [{\"name\": \"vm\", \"type\": \"multimeter\", \"targets\": \"a\","
                + " \"record_from\": [\"V_m\", \"v_m\", \"g_exc\"]}]");
        assertThat(errors(dir, unknown)).contains("exp.json:9:93: unknown record_from variable \"v_m\"; valid: [V_m,"
                + " I_syn_ex, I_syn_in, g_ex, g_in] (V_m for every neuron model, I_syn_ex and I_syn_in for iaf_psc_alpha and"
                + " iaf_psc_exp, g_ex and g_in for iaf_cond_alpha); did you mean \"V_m\"?")
                .contains("exp.json:9:100: unknown record_from variable \"g_exc\"");
        String missing = nest("\"devices\": [{\"name\": \"vm\", \"type\": \"multimeter\", \"targets\": \"a\"}]");
        assertThat(errors(dir, missing)).endsWith("exp.json:9:17: multimeter \"vm\" needs \"record_from\": the variables to"
                + " sample, e.g. [\"V_m\"] ([V_m, I_syn_ex, I_syn_in, g_ex, g_in])");
        String foreign = nest("\"devices\": [{\"name\": \"pg\", \"type\": \"poisson\", \"targets\": \"a\","
                + " \"record_from\": [\"V_m\"]}]");
        assertThat(errors(dir, foreign)).endsWith("exp.json:9:67: \"record_from\" is for multimeter devices: remove it, or"
                + " set \"type\": \"multimeter\"");
        String weight = nest("\"devices\": [{\"name\": \"vm\", \"type\": \"multimeter\", \"targets\": \"a\","
                + " \"record_from\": [\"V_m\"], \"weight\": 2}]");
        assertThat(errors(dir, weight)).endsWith("a multimeter has no \"weight\" (it samples, it sends nothing): remove it;"
                + " its params are interval, offset, start, stop and origin");
        String interval = nest("\"devices\": [{\"name\": \"vm\", \"type\": \"multimeter\", \"targets\": \"a\","
                + " \"record_from\": [\"V_m\"], \"params\": {\"interval\": 0.05}}]");
        assertThat(errors(dir, interval)).endsWith("multimeter: interval 0.05 ms must be at least the resolution 0.1 ms"
                + " (NEST's rule): use 0.1 ms or a multiple of it");
        // the target's model decides what it can record: the builder's message, at the device's line
        String model = nest("\"devices\": [{\"name\": \"vm\", \"type\": \"multimeter\", \"targets\": \"b\","
                + " \"record_from\": [\"g_ex\"]}]");
        assertThat(errors(dir, model)).endsWith("exp.json:9:17: device \"vm\" (multimeter): multimeter node 7 records"
                + " 'g_ex', which iaf_psc_alpha node 4 does not have; iaf_psc_alpha can record [V_m, I_syn_ex, I_syn_in]");
        String population = replace(nest(""), "\"model\": \"iaf_psc_alpha\", \"n\": 4", "\"model\": \"multimeter\","
                + " \"n\": 4");
        assertThat(errors(dir, population)).contains("exp.json:6:21: declare a multimeter as a device");
    }
}
