package io.tandem.cle.remote;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tandem.cle.device.Device;
import io.tandem.cosim.spi.FrameReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The remote-engine protocol's reader and the device codec on any frame a peer could send
 * (Jazzer): a device-found frame's descriptor, then a values frame for that device. A device and
 * its value, or an IllegalArgumentException with a one-line message; never another exception.
 * The fuzzer picks the device type; the headers are mostly valid, so it reaches the bodies.
 */
class RemoteEngineFuzzTest {
    /** A frame of {@code kind}: a valid header, or (when {@code bad} is not 0) one whose version or length is {@code bad}. */
    private static byte[] frame(byte kind, byte[] body, int bad) {
        ByteBuffer b = ByteBuffer.allocate(EngineProtocol.HEADER + body.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 'T').put((byte) 'C').put((byte) 'L').put(bad != 0 && (bad & 1) == 0 ? (byte) bad : EngineProtocol.VERSION)
                .put(kind).putInt(bad != 0 && (bad & 1) == 1 ? bad : EngineProtocol.HEADER + body.length).putLong(7)
                .put(body);
        return b.array();
    }

    @FuzzTest(maxDuration = "10s")
    void deviceFoundThenValues_anyFrames_readOrRefuseInOneLine(FuzzedDataProvider d) {
        int id = d.consumeInt(-1, 16);
        // mostly valid headers
        int bad1 = d.consumeProbabilityDouble() < 0.9 ? 0 : d.consumeInt();
        int bad2 = d.consumeProbabilityDouble() < 0.9 ? 0 : d.consumeInt();
        byte[] descriptor = d.consumeBytes(d.consumeInt(0, 256));
        byte[] values = d.consumeRemainingAsBytes();
        FrameReader r = new FrameReader(EngineProtocol.ERRORS);
        try {
            EngineProtocol.wrap(r, frame(EngineProtocol.DEVICE_FOUND, descriptor, bad1));
            Device dev = DeviceCodec.readDescriptor(id, "fuzz", "engine", r);
            assertThat(dev).isNotNull();
            EngineProtocol.wrap(r, frame(EngineProtocol.VALUES, values, bad2));
            DeviceCodec.readValue(id, dev, r);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank().doesNotContain("\n");
        }
    }
}
