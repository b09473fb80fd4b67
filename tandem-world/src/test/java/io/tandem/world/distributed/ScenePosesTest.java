package io.tandem.world.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.world.Pose;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenePosesTest {
    private static final ScenePoses SCENE = new ScenePoses("relay", 340, 680_000_000L, List.of("ball", "crate_1"),
            new double[] {1.5, -2.25, 0.5, 1, 0, 0, 0, 42.5, 3.0, -8.0, 0.70710678, 0, 0, 0.70710678}, List.of("a1", "a2"));

    @Test
    void decode_encoded_roundTripsExactly() {
        ScenePoses back = ScenePoses.decode(SCENE.encode());
        assertThat(back).isEqualTo(SCENE);
        assertThat(back.pose("crate_1")).isEqualTo(new Pose(42.5, 3.0, -8.0, 0.70710678, 0, 0, 0.70710678));
        assertThat(back.pose("absent")).isNull();
    }

    @Test
    void constructor_posesNotSevenPerModel_refusedNamingCounts() {
        assertThatThrownBy(() -> new ScenePoses("w", 0, 0, List.of("a"), new double[6], List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 models, 6 values");
    }

    @Test
    void poses_isACopy_theSceneCannotBeChangedThroughIt() {
        SCENE.poses()[0] = 99;
        assertThat(SCENE.pose(0).x()).isEqualTo(1.5);
    }

    @Test
    void decode_truncatedOrForeignOrOtherVersion_refusedWithTheReason() {
        byte[] frame = SCENE.encode();
        assertThatThrownBy(() -> ScenePoses.decode(Arrays.copyOf(frame, frame.length - 3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scene");
        assertThatThrownBy(() -> ScenePoses.decode("hello".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a Tandem scene message");
        byte[] other = frame.clone();
        other[3] = (byte) (ScenePoses.VERSION + 1);
        assertThatThrownBy(() -> ScenePoses.decode(other)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version " + (ScenePoses.VERSION + 1));
        byte[] longer = Arrays.copyOf(frame, frame.length + 2);
        assertThatThrownBy(() -> ScenePoses.decode(longer)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unexpected bytes");
    }
}
