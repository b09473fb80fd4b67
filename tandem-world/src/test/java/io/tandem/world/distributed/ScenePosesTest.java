package io.tandem.world.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.world.Pose;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
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
    void encode_scene_exactBytes() throws Exception {
        ScenePoses small = new ScenePoses("w", 2, 3, List.of("m"), new double[] {1, 0, 0, 1, 0, 0, -0.0}, List.of("l"));
        // "TWS" 1, world, iteration, sim time, 1 model, 7 doubles, 1 level
        assertThat(HexFormat.of().formatHex(small.encode())).isEqualTo("54575301" + "01000000" + "77"
                + "0200000000000000" + "0300000000000000" + "01000000" + "01000000" + "6d" + "07000000"
                + "000000000000f03f" + "0000000000000000" + "0000000000000000" + "000000000000f03f"
                + "0000000000000000" + "0000000000000000" + "0000000000000080" + "01000000" + "01000000" + "6c");
        // and a larger one, as this codec wrote it before its writer moved to tandem-cosim's FrameWriter
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(SCENE.encode())))
                .isEqualTo("1ff82b8be2631054469beee95f78e85ae18d813f91540e45939de0351d3745ab");
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
