package io.tandem.cle.experiment;

import static io.tandem.cle.experiment.ExperimentFileTestSupport.examples;
import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cle.SyncMode;
import io.tandem.neuro.BraitenbergBrain;
import io.tandem.neuro.NodeModel;
import io.tandem.neuro.Population;
import io.tandem.neuro.SpikingNetwork;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The shipped examples/experiments/husky-braitenberg.json: it loads as documented, --set
 * screen_color recolours the red screen, and its brain, written as data, is the same network as
 * tandem-neuro's BraitenbergBrain (same nodes, parameters and synapses, and bitwise the same
 * V_m traces and spikes under the same inputs and seed).
 */
class ExperimentFileHuskyBraitenbergTest {
    private static final long MS = 1_000_000L;

    private static Path file() {
        return examples().resolve("husky-braitenberg.json");
    }

    @Test
    void load_example_hasTheExperimentsWorldLoopAndTransferFunctions() {
        ExperimentFile e = ExperimentFile.load(file());
        assertThat(e.name()).isEqualTo("Husky Braitenberg experiment");
        assertThat(e.parameters()).containsExactly(Map.entry("screen_color", "red"));
        assertThat(e.world().file()).isEqualTo(examples().resolve("husky_braitenberg/world.sdf").toAbsolutePath().normalize());
        assertThat(e.world().visualColors()).singleElement().satisfies(c -> {
            assertThat(c.model()).isEqualTo("red_screen");
            assertThat(c.rgb()).containsExactly(1.0, 0.0, 0.0);
        });
        assertThat(e.engines()).isEqualTo(new ExperimentFile.Engines(2 * MS, 20 * MS, 20 * MS, SyncMode.PARALLEL));
        assertThat(e.timeoutNs()).isEqualTo(15_000 * MS);
        assertThat(e.loopSteps()).isEqualTo(750);
        assertThat(e.transferFunctions()).extracting(ExperimentFile.TransferFunctionEntry::className)
                .containsExactly("io.tandem.cle.tf.EyeSensorTransmit", "io.tandem.cle.tf.LinearTwist");
        ExperimentFile.TransferFunctionEntry eye = e.transferFunctions().get(0);
        assertThat(eye.priority()).isEqualTo(10);
        assertThat(eye.stringParam("camera")).isEqualTo("husky::base_link::camera");
        assertThat(eye.numberParam("max_red_rate_hz")).isEqualTo(BraitenbergBrain.MAX_RED_RATE_HZ);
        assertThat(eye.numberParam("max_non_red_rate_hz")).isEqualTo(BraitenbergBrain.MAX_NON_RED_RATE_HZ);
        ExperimentFile.TransferFunctionEntry twist = e.transferFunctions().get(1);
        assertThat(twist.numberParam("linear_gain")).isEqualTo(20.0);
        assertThat(twist.numberParam("angular_gain")).isEqualTo(100.0);
        assertThat(twist.stringParam("left_wheel_neuron")).isEqualTo("actors[0]");
        assertThat(twist.stringParam("right_wheel_neuron")).isEqualTo("actors[1]");
        assertThat(e.robot()).contains(new ExperimentFile.Robot("husky", Optional.of("red_screen"),
                Optional.of(new ExperimentFile.Drive(List.of("husky::front_left_wheel_joint", "husky::rear_left_wheel_joint"),
                        List.of("husky::front_right_wheel_joint", "husky::rear_right_wheel_joint"), 0.275, 7.0))));
        assertThat(e.outputs()).isEqualTo(ExperimentFile.Outputs.DEFAULT);
        assertThat(e.world().sdf().model("red_screen")).isPresent();
    }

    @Test
    void load_exampleWithScreenColorBlue_recoloursTheRedScreen() {
        ExperimentFile e = ExperimentFile.load(file(), ExperimentOverrides.parse(List.of("screen_color=blue")));
        assertThat(e.world().visualColors().get(0).model()).isEqualTo("red_screen");
        assertThat(e.world().visualColors().get(0).rgb()).containsExactly(0.0, 0.0, 1.0);
    }

    @Test
    void brain_example_namesTheSameNodesAsTheBuiltin() {
        BrainSpec data = ExperimentFile.load(file()).brain();
        BrainSpec builtin = new BrainSpec.Builtin("braitenberg", 1, 0, 1, true, 0, data.location());
        assertThat(data).isInstanceOf(BrainSpec.Nest.class);
        assertThat(data.nodes().keySet()).containsExactlyElementsOf(builtin.nodes().keySet());
        for (Map.Entry<String, Population> n : builtin.nodes().entrySet()) {
            assertThat(data.nodes().get(n.getKey()).ids()).as(n.getKey()).containsExactly(n.getValue().ids());
        }
    }

    @Test
    void brain_example_isTheBraitenbergBrainNodeForNodeAndSynapseForSynapse() {
        try (BrainSpec.Built data = ExperimentFile.load(file()).brain().build();
                BraitenbergBrain reference = BraitenbergBrain.build(1)) {
            SpikingNetwork a = data.network();
            SpikingNetwork b = reference.network();
            assertThat(a.nodeCount()).isEqualTo(b.nodeCount()).isEqualTo(14);
            assertThat(a.neuronCount()).isEqualTo(b.neuronCount());
            assertThat(a.synapseCount()).isEqualTo(b.synapseCount());
            assertThat(a.resolutionNs()).isEqualTo(b.resolutionNs());
            for (int id = 0; id < a.nodeCount(); id++) {
                NodeModel m = b.model(id);
                assertThat(a.model(id)).as("node %d", id).isEqualTo(m);
                if (m.kind() == NodeModel.Kind.NEURON) {
                    for (String p : m.parameterNames()) {
                        assertThat(a.get(id, p)).as("node %d %s", id, p).isEqualTo(b.get(id, p));
                    }
                } else if (m.kind() == NodeModel.Kind.STIMULATOR) {
                    assertThat(a.get(id, "rate")).isEqualTo(b.get(id, "rate"));
                }
            }
            assertThat(data.node("lpg").first()).isEqualTo(reference.leftEyeGenerator());
            assertThat(data.node("rpg").first()).isEqualTo(reference.rightEyeGenerator());
            assertThat(data.node("gpg").first()).isEqualTo(reference.greenBlueGenerator());
            assertThat(data.node("actors").ids()).containsExactly(reference.leftIntegrator(), reference.rightIntegrator());
            assertThat(data.node("spikes").first()).isEqualTo(reference.spikeRecorder());
        }
    }

    /** One spike: sender and time (ns). */
    private record Spike(int node, long timeNs) {
    }

    private static List<Spike> drain(SpikingNetwork net, int recorder) {
        List<Spike> out = new ArrayList<>();
        net.drainSpikes(recorder, (sender, timeNs) -> out.add(new Spike(sender, timeNs)));
        return out;
    }

    @Test
    void brain_example_runsBitwiseLikeTheBraitenbergBrainUnderTheSameInputs() {
        try (BrainSpec.Built data = ExperimentFile.load(file()).brain().build();
                BraitenbergBrain reference = BraitenbergBrain.build(1)) {
            SpikingNetwork a = data.network();
            SpikingNetwork b = reference.network();
            int[] lpg = {data.node("lpg").first(), data.node("rpg").first(), data.node("gpg").first()};
            int[] traced = {0, 1, 2, 3, 4, 5, 6, 7, reference.leftIntegrator(), reference.rightIntegrator()};
            SplittableRandom inputs = new SplittableRandom(7);
            long spikes = 0;
            // 2 s of closed-loop rhythm: new eye rates every 20 ms (the eye TF), V_m compared every 1 ms
            for (int loop = 0; loop < 100; loop++) {
                double left = loop < 25 ? 0 : inputs.nextDouble();
                double right = loop < 50 ? 0 : inputs.nextDouble();
                double nonRed = 1 - 0.5 * (left + right);
                reference.setEyeInput(left, right, nonRed);
                a.setRate(lpg[0], BraitenbergBrain.MAX_RED_RATE_HZ * left);
                a.setRate(lpg[1], BraitenbergBrain.MAX_RED_RATE_HZ * right);
                a.setRate(lpg[2], BraitenbergBrain.MAX_NON_RED_RATE_HZ * nonRed);
                for (int ms = 0; ms < 20; ms++) {
                    a.simulate(MS);
                    b.simulate(MS);
                    for (int id : traced) {
                        assertThat(Double.doubleToRawLongBits(a.vm(id))).as("V_m of node %d at %d ms", id, a.timeNs() / MS)
                                .isEqualTo(Double.doubleToRawLongBits(b.vm(id)));
                    }
                }
                List<Spike> sa = drain(a, data.node("spikes").first());
                List<Spike> sb = drain(b, reference.spikeRecorder());
                assertThat(sa).isEqualTo(sb);
                spikes += sa.size();
            }
            assertThat(a.timeNs()).isEqualTo(2_000 * MS);
            // the comparison means something: the brain was active and the actors moved
            assertThat(spikes).isGreaterThan(50);
            assertThat(reference.rightVoltage()).isNotZero();
            assertThat(reference.leftVoltage()).isNotZero();
        }
    }
}
