package io.tandem.world;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DistributedMessagesTest {
    private static DistributedMessages.ModelState state(String model, int links) {
        double[] v = new double[13 * links];
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.scalb(1.0 + i / 7.0, i - 20);
        }
        v[0] = -0.0;
        v[1] = Double.MIN_VALUE;
        return new DistributedMessages.ModelState(model, v, new double[] {1.5, -2.25});
    }

    @Test
    void step_roundTrip_bitwiseEqual() {
        DistributedMessages.Step s = new DistributedMessages.Step(42, 42_000_000, 1_000_000, true,
                List.of(new Affinities.Change("perf_ä", null, "s1"), new Affinities.Change("p2", "s1", "s2")),
                List.of(state("vehicle", 4), state("ball", 1)));
        DistributedMessages.Step back = DistributedMessages.decodeStep(DistributedMessages.encode(s));
        assertThat(back.iteration()).isEqualTo(42);
        assertThat(back.simTimeNs()).isEqualTo(42_000_000);
        assertThat(back.paused()).isTrue();
        assertThat(back.affinity()).isEqualTo(s.affinity());
        for (int i = 0; i < 2; i++) {
            assertThat(back.handovers().get(i).model()).isEqualTo(s.handovers().get(i).model());
            // bitwise: -0.0 and subnormals survive
            assertThat(Arrays.equals(back.handovers().get(i).links(), s.handovers().get(i).links())).isTrue();
            assertThat(Double.doubleToRawLongBits(back.handovers().get(i).links()[0])).isEqualTo(Double.doubleToRawLongBits(-0.0));
            assertThat(back.handovers().get(i).jointImpulses()).containsExactly(1.5, -2.25);
        }
    }

    @Test
    void ack_roundTrip_namesSecondaryAndIteration() {
        DistributedMessages.Ack a = new DistributedMessages.Ack("s2", 7, List.of(state("box", 1)));
        DistributedMessages.Ack back = DistributedMessages.decodeAck(DistributedMessages.encode(a));
        assertThat(back.secondary()).isEqualTo("s2");
        assertThat(back.iteration()).isEqualTo(7);
        assertThat(Arrays.equals(back.states().get(0).links(), a.states().get(0).links())).isTrue();
    }

    @Test
    void decode_badFrames_refusedWithReason() {
        byte[] ack = DistributedMessages.encode(new DistributedMessages.Ack("s1", 1, List.of(state("b", 1))));
        byte[] other = ack.clone();
        other[3] = 9;
        assertThatThrownBy(() -> DistributedMessages.decodeAck(other)).hasMessageContaining("version 9")
                .hasMessageContaining("version " + DistributedMessages.VERSION);
        assertThatThrownBy(() -> DistributedMessages.decodeStep(ack)).hasMessageContaining("expected message kind");
        assertThatThrownBy(() -> DistributedMessages.decodeAck(Arrays.copyOf(ack, ack.length - 3))).hasMessageContaining("truncated");
        assertThatThrownBy(() -> DistributedMessages.decodeAck(Arrays.copyOf(ack, ack.length + 2))).hasMessageContaining("unexpected bytes");
        assertThatThrownBy(() -> DistributedMessages.decodeAck(new byte[] {1, 2, 3})).hasMessageContaining("not a Tandem");
        assertThatThrownBy(() -> new DistributedMessages.ModelState("m", new double[5], new double[0])).hasMessageContaining("13");
    }
}
