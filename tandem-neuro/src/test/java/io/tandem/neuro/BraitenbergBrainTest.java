package io.tandem.neuro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Husky Braitenberg brain (nrp.md section 3) behaves as the experiment needs: it turns in
 * place without red, towards red on one side, and drives forward with red on both sides. The
 * closed loop's rhythm is copied: the eye rates are set every 20 ms, then the brain runs 20 ms.
 */
class BraitenbergBrainTest {
    private static final long CLE_STEP_NS = 20_000_000L;

    /** Runs one second with constant camera input; returns {V_left, V_right} averaged over the last half. */
    private static double[] drive(BraitenbergBrain brain, double redLeft, double redRight, double nonRed) {
        double left = 0;
        double right = 0;
        int steps = 50;
        for (int i = 0; i < steps; i++) {
            brain.setEyeInput(redLeft, redRight, nonRed);
            brain.network().simulate(CLE_STEP_NS);
            if (i >= steps / 2) {
                left += brain.leftVoltage() / (steps / 2);
                right += brain.rightVoltage() / (steps / 2);
            }
        }
        return new double[] {left, right};
    }

    @Test
    void build_hasTheExperimentsNodesAndSynapses() {
        try (BraitenbergBrain brain = BraitenbergBrain.build(1)) {
            SpikingNetwork net = brain.network();
            assertThat(net.nodeCount()).isEqualTo(14);
            for (int i = 0; i < 8; i++) {
                assertThat(net.model(i)).isEqualTo(NodeModel.IAF_COND_ALPHA);
            }
            assertThat(net.model(brain.leftIntegrator())).isEqualTo(NodeModel.IAF_PSC_ALPHA);
            // 2->7, 3->6, {0,1}->4, {0,1}->5, 4->7, 5->7, and the actors to their integrators
            assertThat(net.synapseCount()).isEqualTo(8 + 2);
            assertThat(net.get(5, "V_th")).isEqualTo(-60.51);
            assertThat(net.vm(0)).isEqualTo(-60.5);
        }
    }

    @Test
    void simulate_noRed_rightActorAboveLeftSoItTurnsInPlace() {
        try (BraitenbergBrain brain = BraitenbergBrain.build(1)) {
            double[] v = drive(brain, 0, 0, 1);
            assertThat(v[1]).isGreaterThan(v[0]);
            assertThat(v[1]).isGreaterThan(0.01);
            assertThat(brain.angularZ()).isPositive();
            // the go-on neuron fires on its own: from V_reset -61.6 it relaxes towards E_L -60.5 and crosses
            // V_th -60.51 after tau_m ln((E_L - V_reset) / (E_L - V_th)), plus t_ref; the left actor stays silent
            Spikes s = Spikes.drain(brain.network(), brain.spikeRecorder());
            List<Double> goOn = s.timesMsOf(5);
            double period = 10.0 + 10.0 * Math.log(1.1 / 0.01);
            assertThat(goOn).hasSize((int) (1000 / period) + 1);
            for (int i = 1; i < goOn.size(); i++) {
                assertThat(goOn.get(i) - goOn.get(i - 1)).isCloseTo(period, within(0.1 + 1e-9));
            }
            assertThat(s.timesMsOf(7)).isNotEmpty();
            assertThat(s.timesMsOf(6)).isEmpty();
        }
    }

    @Test
    void simulate_redOnBothHalves_bothActorsRiseAndItDrivesForward() {
        double[] dark;
        double forwardDark;
        try (BraitenbergBrain brain = BraitenbergBrain.build(1)) {
            dark = drive(brain, 0, 0, 1);
            forwardDark = brain.linearX();
        }
        try (BraitenbergBrain brain = BraitenbergBrain.build(1)) {
            double[] red = drive(brain, 0.5, 0.5, 0);
            assertThat(red[0]).isGreaterThan(dark[0] + 0.01);
            assertThat(red[1]).isGreaterThan(0.01);
            assertThat(brain.linearX()).isGreaterThan(forwardDark);
            // red silences the go-on neuron through 0 and 1
            Spikes s = Spikes.drain(brain.network(), brain.spikeRecorder());
            assertThat(s.timesMsOf(6)).isNotEmpty();
        }
    }

    @Test
    void simulate_redOnOneSide_turnsTowardsIt() {
        try (BraitenbergBrain brain = BraitenbergBrain.build(2)) {
            double[] v = drive(brain, 0, 0.5, 0.5);
            // red on the right drives the left wheel (3 -> 6): turn right
            assertThat(v[0]).isGreaterThan(v[1]);
            assertThat(brain.angularZ()).isNegative();
        }
        try (BraitenbergBrain brain = BraitenbergBrain.build(2)) {
            double[] v = drive(brain, 0.5, 0, 0.5);
            assertThat(v[1]).isGreaterThan(v[0]);
            assertThat(brain.angularZ()).isPositive();
        }
    }
}
