package io.tandem.net.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.net.MalformedFrameException;
import io.tandem.net.ProtocolVersionException;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The decoders every peer can reach (Jazzer): control frames (the registry's join protocol) and
 * data-plane frames (co-simulation messages). A message, or a MalformedFrameException /
 * ProtocolVersionException with a one-line message; never another exception. The fuzzer picks a
 * frame type and writes a valid header for it (mostly), so it reaches the bodies.
 */
class WireFuzzTest {
    private static byte[] frame(FuzzedDataProvider d, int type) {
        boolean validHeader = d.consumeProbabilityDouble() < 0.9;
        byte[] body = d.consumeRemainingAsBytes();
        byte[] f = new byte[WireFormat.HEADER_LENGTH + body.length];
        UnsafeBuffer b = new UnsafeBuffer(f);
        if (validHeader) {
            WireFormat.putHeader(b, 0, WireFormat.VERSION, type);
        } else if (body.length >= WireFormat.HEADER_LENGTH) {
            System.arraycopy(body, 0, f, 0, WireFormat.HEADER_LENGTH);
        }
        System.arraycopy(body, 0, f, WireFormat.HEADER_LENGTH, body.length);
        return f;
    }

    @FuzzTest(maxDuration = "10s")
    void controlDecode_anyFrame_decodesOrRefusesInOneLine(FuzzedDataProvider d) {
        byte[] f = frame(d, WireFormat.JOIN_REQUEST + d.consumeInt(0, 8));
        try {
            assertThat(ControlCodec.decode(f, 0, f.length, WireFormat.VERSION, "fuzz")).isNotNull();
        } catch (MalformedFrameException | ProtocolVersionException e) {
            assertThat(e.getMessage()).isNotBlank().doesNotContain("\n");
        }
    }

    @FuzzTest(maxDuration = "10s")
    void messageDecode_anyFrame_decodesOrRefusesInOneLine(FuzzedDataProvider d) {
        byte[] f = frame(d, d.consumeInt(WireFormat.SERVICE_ANNOUNCEMENT, WireFormat.BARRIER_REPLY));
        UnsafeBuffer b = new UnsafeBuffer(f);
        try {
            // decode takes the co-simulation messages' types (the others have readers of their own)
            if (MessageCodec.check(b, 0, f.length, WireFormat.VERSION, "fuzz") <= WireFormat.BARRIER_REPLY) {
                assertThat(MessageCodec.decode(new FrameReader(WireFormat.ERRORS), b, 0, f.length)).isNotNull();
            }
        } catch (MalformedFrameException | ProtocolVersionException e) {
            assertThat(e.getMessage()).isNotBlank().doesNotContain("\n");
        }
    }

    private static final FrameTag TAG = SharedSecret.of("a fuzzing secret of some length").frameTag();

    /**
     * A group with a shared secret: a fuzzed control frame, signed correctly half of the time (so
     * the bodies are reached through the signed path) and otherwise as it came (unsigned, or with
     * a fuzzed tag). A message, or a one-line refusal; never another exception.
     */
    @FuzzTest(maxDuration = "10s")
    void signedControlDecode_anyFrame_authenticatesAndDecodesOrRefusesInOneLine(FuzzedDataProvider d) {
        boolean sign = d.consumeBoolean();
        byte[] plain = frame(d, WireFormat.JOIN_REQUEST + d.consumeInt(0, 8));
        byte[] f = plain;
        if (sign) {
            f = java.util.Arrays.copyOf(plain, plain.length + FrameTag.LENGTH);
            UnsafeBuffer b = new UnsafeBuffer(f);
            b.putInt(WireFormat.MAGIC_OFFSET, WireFormat.SIGNED_MAGIC, WireFormat.ORDER);
            TAG.begin(ControlCodec.SIGNING_SESSION, ControlCodec.SIGNING_STREAM);
            TAG.update(f, 0, plain.length);
            TAG.finish(f, plain.length);
        }
        try {
            assertThat(ControlCodec.decode(f, 0, f.length, WireFormat.VERSION, "fuzz", TAG)).isNotNull();
        } catch (MalformedFrameException | ProtocolVersionException | UnauthenticatedFrameException e) {
            assertThat(e.getMessage()).isNotBlank().doesNotContain("\n");
            if (e instanceof UnauthenticatedFrameException) {
                assertThat(sign).as("a frame signed with the secret refused as unauthenticated").isFalse();
            }
        }
    }
}
