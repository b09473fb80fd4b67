package io.tandem.cle.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cle.device.CameraImage;
import io.tandem.cle.device.DcSource;
import io.tandem.cle.device.Device;
import io.tandem.cle.device.JointState;
import io.tandem.cle.device.JointVelocityCommand;
import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.ModelPose;
import io.tandem.cle.device.Multimeter;
import io.tandem.cle.device.PoissonSource;
import io.tandem.cle.device.PopulationRate;
import io.tandem.cle.device.SpikeRecorder;
import io.tandem.cle.device.TwistCommand;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every device type's value survives the remote-engine codec bitwise: a server-side device's
 * value written into a frame and read into a mirror built from the device's descriptor.
 */
class DeviceCodecTest {
    private final EngineProtocol.Outbox writer = new EngineProtocol.Outbox(16);
    private final FrameReader reader = new FrameReader(EngineProtocol.ERRORS);

    /** Encodes d's descriptor and value; returns a reader at the mirror's descriptor, then the value. */
    private Device roundTrip(Device d) {
        byte id = DeviceCodec.typeId(d.getClass());
        assertThat(id).isPositive();
        assertThat(DeviceCodec.type(id)).isEqualTo(d.getClass());
        FrameWriter w = writer.begin(EngineProtocol.VALUES);
        writer.seq(42);
        DeviceCodec.writeDescriptor(d, w);
        DeviceCodec.writeValue(id, d, w);
        byte[] frame = writer.seal();
        FrameReader r = EngineProtocol.wrap(reader, frame);
        assertThat(EngineProtocol.seq(r)).isEqualTo(42);
        Device mirror = DeviceCodec.readDescriptor(id, d.name(), "client", r);
        assertThat(mirror).isInstanceOf(d.getClass());
        assertThat(mirror.name()).isEqualTo(d.name());
        DeviceCodec.readValue(id, mirror, r);
        r.expectEnd();
        if (!mirror.isCommand()) {
            assertThat(mirror.latch()).isTrue();
        }
        return mirror;
    }

    @Test
    void roundTrip_poissonSource_sameRateAndInitialRateAndChanged() {
        PoissonSource d = new PoissonSource("eye", "brain", 12.5);
        d.setRate(Math.nextUp(337.25));
        PoissonSource m = (PoissonSource) roundTrip(d);
        assertThat(m.rate()).isEqualTo(Math.nextUp(337.25));
        assertThat(m.takeChanged()).isTrue();
        m.clear();
        assertThat(m.rate()).isEqualTo(12.5);
    }

    @Test
    void roundTrip_generatorWindows_sameWindowResolutionAndInitialWindow() {
        PoissonSource d = new PoissonSource("eye", "brain", 1.0, 0.1, 5.0, Double.POSITIVE_INFINITY, 2.0);
        d.setWindowMs(10.0, 20.5, 3.0);
        PoissonSource m = (PoissonSource) roundTrip(d);
        assertThat(m.startMs()).isEqualTo(10.0);
        assertThat(m.stopMs()).isEqualTo(20.5);
        assertThat(m.originMs()).isEqualTo(3.0);
        assertThat(m.takeWindowChanged()).isTrue();
        // the mirror checks the grid of the server's resolution
        assertThatThrownBy(() -> m.setWindowMs(0.05, 1.0, 0.0)).hasMessageContaining("multiples of the resolution 0.1 ms");
        m.clear();
        assertThat(m.startMs()).isEqualTo(5.0);
        assertThat(m.stopMs()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(m.originMs()).isEqualTo(2.0);
        DcSource dc = new DcSource("dc", "brain", 4.0, 0.5, 0.0, 10.0, 0.0);
        dc.setAmplitude(7.0);
        DcSource mdc = (DcSource) roundTrip(dc);
        assertThat(mdc.amplitude()).isEqualTo(7.0);
        assertThat(mdc.stopMs()).isEqualTo(10.0);
        assertThat(mdc.takeWindowChanged()).as("the window did not change").isFalse();
        assertThatThrownBy(() -> mdc.setWindowMs(5.0, 4.0, 0.0)).hasMessageContaining("stop >= start");
        assertThatThrownBy(() -> mdc.setWindowMs(Double.NaN, 4.0, 0.0)).hasMessageContaining("finite and >= 0 ms");
    }

    @Test
    void roundTrip_dcSource_sameAmplitudeAndInitialAmplitude() {
        DcSource d = new DcSource("dc", "brain", -3.0);
        d.setAmplitude(-1e-300);
        DcSource m = (DcSource) roundTrip(d);
        assertThat(Double.doubleToRawLongBits(m.amplitude())).isEqualTo(Double.doubleToRawLongBits(-1e-300));
        assertThat(m.takeChanged()).isTrue();
        m.clear();
        assertThat(m.amplitude()).isEqualTo(-3.0);
    }

    @Test
    void roundTrip_leakyIntegrator_sameVoltage() {
        LeakyIntegrator d = new LeakyIntegrator("left_wheel_neuron", "brain");
        d.publish(-64.123456789);
        d.latch();
        assertThat(((LeakyIntegrator) roundTrip(d)).voltage()).isEqualTo(-64.123456789);
    }

    @Test
    void roundTrip_populationRate_sameRate() {
        PopulationRate d = new PopulationRate("rate", "brain");
        d.publish(Double.MIN_VALUE);
        d.latch();
        assertThat(((PopulationRate) roundTrip(d)).rateHz()).isEqualTo(Double.MIN_VALUE);
    }

    @Test
    void roundTrip_spikeRecorder_sameSendersAndTimesInOrder() {
        SpikeRecorder d = new SpikeRecorder("all_neurons", "brain", 2);
        d.beginPublish();
        for (int i = 0; i < 5000; i++) {
            d.publishSpike(i % 8, 1_000_000L * i + 100_000L);
        }
        d.latch();
        SpikeRecorder m = (SpikeRecorder) roundTrip(d);
        assertThat(m.count()).isEqualTo(5000);
        for (int i = 0; i < 5000; i++) {
            assertThat(m.sender(i)).isEqualTo(i % 8);
            assertThat(m.timeNs(i)).isEqualTo(1_000_000L * i + 100_000L);
        }
    }

    @Test
    void roundTrip_multimeter_sameVariablesSendersTimesAndValuesBitwise() {
        Multimeter d = new Multimeter("vm", "brain", List.of("V_m", "g_ex"), 2);
        double[] row = new double[2];
        d.beginPublish();
        for (int i = 0; i < 3000; i++) {
            row[0] = -70.0 + i * 1e-3;
            row[1] = i == 7 ? Double.NaN : Math.nextUp(i * 0.25);
            d.publishSample(i % 5, 100_000L * (i / 5 + 1), row, 0);
        }
        d.latch();
        Multimeter m = (Multimeter) roundTrip(d);
        assertThat(m.recordFrom()).containsExactly("V_m", "g_ex");
        assertThat(m.count()).isEqualTo(3000);
        for (int i = 0; i < 3000; i++) {
            assertThat(m.sender(i)).isEqualTo(i % 5);
            assertThat(m.timeNs(i)).isEqualTo(100_000L * (i / 5 + 1));
            for (int v = 0; v < 2; v++) {
                assertThat(Double.doubleToRawLongBits(m.value(i, v))).isEqualTo(Double.doubleToRawLongBits(d.value(i, v)));
            }
        }
        assertThat(m.value(7, 1)).isNaN();
        assertThatThrownBy(() -> m.value(0, 2)).hasMessageContaining("variable 2 of [V_m, g_ex]");
    }

    @Test
    void roundTrip_spikeRecorderEmptyInterval_noSpikes() {
        SpikeRecorder d = new SpikeRecorder("all_neurons", "brain", 4);
        d.beginPublish();
        d.latch();
        assertThat(((SpikeRecorder) roundTrip(d)).count()).isZero();
    }

    @Test
    void roundTrip_cameraImage_sameSizePixelsAndFrameTime() {
        CameraImage d = new CameraImage("husky::base_link::camera", "world", 160, 120);
        byte[] back = d.backBuffer();
        for (int i = 0; i < back.length; i++) {
            back[i] = (byte) (i * 31 + 7);
        }
        byte[] expected = back.clone();
        d.published(40_000_000L);
        d.latch();
        CameraImage m = (CameraImage) roundTrip(d);
        assertThat(m.width()).isEqualTo(160);
        assertThat(m.height()).isEqualTo(120);
        assertThat(m.frameTimeNs()).isEqualTo(40_000_000L);
        assertThat(Arrays.equals(m.image(), expected)).isTrue();
    }

    @Test
    void readValue_cameraOfAnotherSize_throwsNamingBothSizes() {
        CameraImage d = new CameraImage("cam", "world", 4, 3);
        d.published(0);
        d.latch();
        DeviceCodec.writeValue(DeviceCodec.CAMERA, d, writer.begin(EngineProtocol.VALUES));
        FrameReader r = EngineProtocol.wrap(reader, writer.seal());
        assertThatThrownBy(() -> DeviceCodec.readValue(DeviceCodec.CAMERA, new CameraImage("cam", "client", 2, 2), r))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 x 2").hasMessageContaining("4 x 3");
    }

    @Test
    void roundTrip_jointState_samePositionAndVelocity() {
        JointState d = new JointState("husky::front_left_wheel_joint", "world");
        d.publish(1.25, -0.5);
        d.latch();
        JointState m = (JointState) roundTrip(d);
        assertThat(m.position()).isEqualTo(1.25);
        assertThat(m.velocity()).isEqualTo(-0.5);
    }

    @Test
    void roundTrip_modelPose_samePoseNaNIncluded() {
        ModelPose d = new ModelPose("husky", "world");
        d.publish(0.1, -0.2, 0.3, Math.sqrt(0.5), 0, 0, -Math.sqrt(0.5));
        d.latch();
        ModelPose m = (ModelPose) roundTrip(d);
        double[] got = new double[7];
        double[] want = new double[7];
        m.copyTo(got);
        d.copyTo(want);
        assertThat(got).containsExactly(want);
        ModelPose absent = new ModelPose("gone", "world");
        absent.publish(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        absent.latch();
        assertThat(((ModelPose) roundTrip(absent)).x()).isNaN();
    }

    @Test
    void roundTrip_jointVelocityCommand_sameVelocityAndChanged() {
        JointVelocityCommand d = new JointVelocityCommand("husky::front_left_wheel_joint", "world");
        d.setVelocity(-3.5);
        JointVelocityCommand m = (JointVelocityCommand) roundTrip(d);
        assertThat(m.velocity()).isEqualTo(-3.5);
        assertThat(m.takeChanged()).isTrue();
    }

    @Test
    void roundTrip_jointPositionCommand_sameTargetGainsAndChanged() {
        io.tandem.cle.device.JointPositionCommand d = new io.tandem.cle.device.JointPositionCommand("panda::joint4", "world");
        d.setTarget(-1.8, 0.25);
        io.tandem.cle.device.JointPositionCommand m = (io.tandem.cle.device.JointPositionCommand) roundTrip(d);
        assertThat(m.position()).isEqualTo(-1.8);
        assertThat(m.velocity()).isEqualTo(0.25);
        assertThat(m.kp()).isNaN();
        assertThat(m.takeChanged()).isTrue();
        d.setGains(3500, 350);
        m = (io.tandem.cle.device.JointPositionCommand) roundTrip(d);
        assertThat(m.kp()).isEqualTo(3500);
        assertThat(m.kd()).isEqualTo(350);
    }

    @Test
    void roundTrip_twistCommand_sameLinearAndAngular() {
        TwistCommand d = new TwistCommand("husky", "world");
        d.set(0.75, -1.0 / 3);
        TwistCommand m = (TwistCommand) roundTrip(d);
        assertThat(m.linearX()).isEqualTo(0.75);
        assertThat(m.angularZ()).isEqualTo(-1.0 / 3);
        assertThat(m.takeChanged()).isTrue();
    }

    @Test
    void valuesFrame_everyDeviceType_sameBytesAsProtocolVersion3Always() throws Exception {
        PoissonSource poisson = new PoissonSource("eye", "brain", 1.0, 0.1, 5.0, Double.POSITIVE_INFINITY, 2.0);
        poisson.setWindowMs(10.0, 20.5, 3.0);
        DcSource dc = new DcSource("dc", "brain", -3.0);
        dc.setAmplitude(Math.nextDown(2.0));
        LeakyIntegrator leaky = new LeakyIntegrator("left_wheel_neuron", "brain");
        leaky.publish(-64.123456789);
        PopulationRate rate = new PopulationRate("rate", "brain");
        rate.publish(Double.MIN_VALUE);
        SpikeRecorder spikes = new SpikeRecorder("all_neurons", "brain", 2);
        spikes.beginPublish();
        for (int i = 0; i < 50; i++) {
            spikes.publishSpike(i % 8, 1_000_000L * i + 100_000L);
        }
        Multimeter vm = new Multimeter("vm", "brain", List.of("V_m", "g_ex"), 2);
        vm.beginPublish();
        for (int i = 0; i < 30; i++) {
            vm.publishSample(i % 5, 100_000L * (i / 5 + 1), new double[] {-70.0 + i * 1e-3, i == 7 ? Double.NaN : i}, 0);
        }
        CameraImage camera = new CameraImage("husky::base_link::camera", "world", 4, 3);
        byte[] back = camera.backBuffer();
        for (int i = 0; i < back.length; i++) {
            back[i] = (byte) (i * 31 + 7);
        }
        camera.published(40_000_000L);
        JointState joint = new JointState("husky::front_left_wheel_joint", "world");
        joint.publish(1.25, -0.5);
        ModelPose pose = new ModelPose("husky", "world");
        pose.publish(0.1, -0.2, 0.3, Math.sqrt(0.5), 0, 0, -Math.sqrt(0.5));
        JointVelocityCommand velocity = new JointVelocityCommand("husky::front_left_wheel_joint", "world");
        velocity.setVelocity(-3.5);
        TwistCommand twist = new TwistCommand("husky", "world");
        twist.set(0.75, -1.0 / 3);
        io.tandem.cle.device.JointPositionCommand target = new io.tandem.cle.device.JointPositionCommand("panda::joint4", "world");
        target.setGains(3500, 350);
        target.setTarget(-1.8, 0.125);
        // the digest of each device's descriptor and value frame as version 3 writes them (it added
        // the joint position command); a change here changes the wire format
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        long seq = 1;
        for (Device d : List.of(poisson, dc, leaky, rate, spikes, vm, camera, joint, pose, velocity, twist, target)) {
            if (!d.isCommand()) {
                d.latch();
            }
            FrameWriter w = writer.begin(EngineProtocol.VALUES);
            writer.seq(seq++ << 40);
            DeviceCodec.writeDescriptor(d, w);
            DeviceCodec.writeValue(DeviceCodec.typeId(d.getClass()), d, w);
            int length = writer.position();
            byte[] frame = writer.seal();
            sha.update(frame, 0, length);
            sha.update((byte) (frame.length - length));
        }
        assertThat(HexFormat.of().formatHex(sha.digest()))
                .isEqualTo("8dbfff67e7e3fca37197bae9db440c718454642525e6b381794728fc04e134ae");
    }

    @Test
    void typeId_abstractDevice_zero() {
        assertThat(DeviceCodec.typeId(Device.class)).isZero();
        assertThatThrownBy(() -> DeviceCodec.type(99)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("99");
    }

    @Test
    void wrap_otherProtocolVersion_throwsNamingBothVersions() {
        writer.begin(EngineProtocol.HELLO);
        byte[] frame = writer.seal().clone();
        frame[3] = (byte) (EngineProtocol.VERSION + 1);
        assertThatThrownBy(() -> EngineProtocol.wrap(reader, frame)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version " + (EngineProtocol.VERSION + 1)).hasMessageContaining("version " + EngineProtocol.VERSION);
    }

    @Test
    void getters_pastTheFrameEnd_throwTruncated() {
        writer.begin(EngineProtocol.VALUES).putInt(7);
        FrameReader r = EngineProtocol.wrap(reader, writer.seal());
        assertThat(r.getInt()).isEqualTo(7);
        // the padding after the frame is not readable
        assertThatThrownBy(r::getLong).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("truncated");
    }

    @Test
    void seal_reusedBuffersOfPaddedLength_atMostAnEighthLonger() {
        writer.begin(EngineProtocol.STEP);
        byte[] a = writer.seal();
        writer.begin(EngineProtocol.STEP);
        byte[] b = writer.seal();
        assertThat(b).isSameAs(a);
        for (int n : new int[] {1, 17, 64, 65, 513, 1000, 57_617, 1 << 20}) {
            int p = EngineProtocol.Outbox.paddedLength(n);
            assertThat(p).isGreaterThanOrEqualTo(n).isLessThanOrEqualTo(Math.max(64, n + n / 8 + 64));
        }
    }
}
