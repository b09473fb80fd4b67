package io.tandem.cle.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cle.device.CameraImage;
import io.tandem.world.World;
import io.tandem.world.sdf.SdfLoader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A world engine's cameras render at their SDF update_rate, at most once per sync. */
class WorldEngineCameraTest {
    private static final long MS = 1_000_000;

    private static World world(String updateRate) {
        String sdf = "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\"><world name=\"w\"><physics><max_step_size>0.002</max_step_size></physics>"
                + "<model name=\"bot\"><static>true</static><link name=\"base\">"
                + "<sensor name=\"eye\" type=\"camera\">" + updateRate
                + "<camera><horizontal_fov>1.2</horizontal_fov><image><width>8</width><height>6</height></image></camera></sensor>"
                + "</link></model></world></sdf>\n";
        return SdfLoader.load(new ByteArrayInputStream(sdf.getBytes(StandardCharsets.UTF_8)), "cam.sdf", w -> { });
    }

    /** @return the frame time the loop sees after each of five syncs 20 ms apart (the first at 0) */
    private static List<Long> frameTimesMs(String updateRate) {
        try (WorldEngine e = WorldEngine.builder("world", world(updateRate)).build()) {
            CameraImage cam = e.device("bot::base::eye", CameraImage.class);
            List<Long> seen = new ArrayList<>();
            e.publishOutputs();
            cam.latch();
            seen.add(cam.frameTimeNs() / MS);
            for (int k = 0; k < 4; k++) {
                e.advance(20 * MS);
                e.publishOutputs();
                cam.latch();
                seen.add(cam.frameTimeNs() / MS);
            }
            return seen;
        }
    }

    @Test
    void publishOutputs_cameraSlowerThanTheSync_framesOnlyWhenDue() {
        // 25 Hz: a frame every 40 ms; between frames the loop keeps reading the last one
        assertThat(frameTimesMs("<update_rate>25</update_rate>")).containsExactly(0L, 0L, 40L, 40L, 80L);
    }

    @Test
    void publishOutputs_cameraAsFastOrFasterThanTheSync_aFrameEverySync() {
        assertThat(frameTimesMs("<update_rate>50</update_rate>")).containsExactly(0L, 20L, 40L, 60L, 80L);
        assertThat(frameTimesMs("<update_rate>100</update_rate>")).containsExactly(0L, 20L, 40L, 60L, 80L);
        // no update_rate: every iteration, so every sync
        assertThat(frameTimesMs("")).containsExactly(0L, 20L, 40L, 60L, 80L);
    }
}
