package io.tandem.world.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The distributed world's decoder on any frame a peer could send (Jazzer): a message, or an
 * IllegalArgumentException with a one-line message; never another exception. Half the inputs get
 * the valid magic and version in front, so the fuzzer reaches the message bodies.
 */
class DistributedMessagesFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void decode_anyFrame_decodesOrRefusesInOneLine(byte[] data) {
        byte[] frame = data;
        if (data.length > 0 && (data[0] & 1) == 0) {
            frame = new byte[data.length + 3];
            frame[0] = 'T';
            frame[1] = 'W';
            frame[2] = 'D';
            frame[3] = (byte) DistributedMessages.VERSION;
            System.arraycopy(data, 1, frame, 4, data.length - 1);
        }
        try {
            assertThat(DistributedMessages.decode(frame)).isNotNull();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank().doesNotContain("\n");
        }
    }
}
