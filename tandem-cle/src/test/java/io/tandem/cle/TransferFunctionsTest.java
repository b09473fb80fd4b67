package io.tandem.cle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cle.device.DeviceBinder;
import io.tandem.cle.tf.LinearTwist;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransferFunctionsTest {
    /** A TF with only a no-argument constructor. */
    public static final class NoArgs implements TransferFunction {
        @Override
        public TransferFunctionKind kind() {
            return TransferFunctionKind.NEURON_TO_ROBOT;
        }

        @Override
        public void bind(DeviceBinder devices) {
        }

        @Override
        public void run(long timeNs, long iteration) {
        }
    }

    @Test
    void instantiate_classWithMapConstructor_passesParams() {
        TransferFunction tf = TransferFunctions.instantiate("io.tandem.cle.tf.LinearTwist",
                Map.of("left_wheel_neuron", "l", "right_wheel_neuron", "r", "twist", "base"), null);
        assertThat(tf).isInstanceOf(LinearTwist.class);
        assertThat(tf.kind()).isEqualTo(TransferFunctionKind.NEURON_TO_ROBOT);
        // the params name the devices it maps
        FakeEngine brain = new FakeEngine("b", 100_000L, true);
        assertThatThrownBy(() -> ClosedLoop.builder().engine(brain).transferFunction(tf).build())
                .hasMessageContaining("LeakyIntegrator device named 'l'");
    }

    /** A misspelt parameter was ignored in silence (the default was used); now refused with the names the class reads. */
    @Test
    void instantiate_misspeltParameter_refusedNamingTheKnownOnes() {
        assertThatThrownBy(() -> TransferFunctions.instantiate("io.tandem.cle.tf.LinearTwist",
                Map.of("left_wheel_neuron", "l", "right_wheel_neuron", "r", "twist", "base", "linear_gian", 20), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown parameter 'linear_gian' (LinearTwist reads ")
                .hasMessageContaining("linear_gain")
                .hasMessageEndingWith("); check the spelling");
        assertThatThrownBy(() -> TransferFunctions.instantiate("io.tandem.cle.tf.EyeSensorTransmit",
                Map.of("camera", "c", "max_red_rate", 10, "max_non_red_rate", 1), null))
                .hasMessageContaining("unknown parameters 'max_non_red_rate', 'max_red_rate' (EyeSensorTransmit reads ");
    }

    @Test
    void instantiate_nameFromBeforeTheTfPackage_stillLoadsTheMovedClass() {
        // experiment files written for 0.1 name the tf_lib classes in the root package: mapped for one release
        TransferFunction tf = TransferFunctions.instantiate("io.tandem.cle" + ".LinearTwist",
                Map.of("left_wheel_neuron", "l", "right_wheel_neuron", "r", "twist", "base"), null);
        assertThat(tf).isInstanceOf(io.tandem.cle.tf.LinearTwist.class);
        assertThat(TransferFunctions.instantiate("io.tandem.cle" + ".EyeSensorTransmit", Map.of(), null))
                .isInstanceOf(io.tandem.cle.tf.EyeSensorTransmit.class);
    }

    @Test
    void instantiate_noArgConstructor_works() {
        assertThat(TransferFunctions.instantiate(NoArgs.class.getName(), Map.of(), null)).isInstanceOf(NoArgs.class);
        assertThatThrownBy(() -> TransferFunctions.instantiate(NoArgs.class.getName(), Map.of("x", 1), null))
                .hasMessageContaining("takes no params");
    }

    @Test
    void instantiate_badNames_failWithMessages() {
        assertThatThrownBy(() -> TransferFunctions.instantiate("LinearTwist", Map.of(), null))
                .hasMessageContaining("not found").hasMessageContaining("io.tandem.cle.tf.LinearTwist");
        assertThatThrownBy(() -> TransferFunctions.instantiate("java.lang.String", Map.of(), null))
                .hasMessageContaining("does not implement");
        assertThatThrownBy(() -> TransferFunctions.instantiate("io.tandem.cle.tf.EyeSensorTransmit", Map.of("max_red_rate_hz", "x"), null))
                .hasMessageContaining("constructor failed").hasMessageContaining("'max_red_rate_hz' must be a number");
    }
}
