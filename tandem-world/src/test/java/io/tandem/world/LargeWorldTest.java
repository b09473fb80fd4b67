package io.tandem.world;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.physics.SolverSettings;
import io.tandem.world.sdf.SdfLoader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Loading a world is linear in its size. The bound is generous for a slow machine (the load takes
 * about 3 s here): what it catches is quadratic work, such as the physics compiler's List.contains
 * over the loaded models and the body builder's scan for a repeated name, which made 10^5 bodies
 * take minutes (30 000 took 7 s, 10 000 1.6 s).
 */
class LargeWorldTest {
    static String world(int models) {
        StringBuilder sdf = new StringBuilder(300 * models + 400);
        sdf.append("<?xml version=\"1.0\"?>\n<sdf version=\"1.9\"><world name=\"big\">\n")
                .append("<model name=\"ground\"><static>true</static><link name=\"l\"><collision name=\"c\"><geometry>")
                .append("<plane><normal>0 0 1</normal></plane></geometry></collision></link></model>\n");
        int side = (int) Math.cbrt(models) + 1;
        for (int i = 0; i < models; i++) {
            sdf.append("<model name=\"b").append(i).append("\"><pose>").append(0.3 * (i % side)).append(' ')
                    .append(0.3 * (i / side % side)).append(' ').append(0.2 + 0.3 * (i / (side * side)))
                    .append(" 0 0 0</pose><link name=\"l\"><inertial><mass>1</mass><inertia><ixx>0.004</ixx>")
                    .append("<iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision name=\"c\"><geometry>")
                    .append("<sphere><radius>0.1</radius></sphere></geometry></collision></link></model>\n");
        }
        return sdf.append("</world></sdf>\n").toString();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void load_hundredThousandModels_buildsInLinearTime() {
        int n = 100_000;
        World w = SdfLoader.load(new ByteArrayInputStream(world(n).getBytes(StandardCharsets.UTF_8)), "big.sdf", x -> { });
        assertThat(w.models()).hasSize(n + 1);
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
            assertThat(r.bodyCount()).isEqualTo(n + 1);
            assertThat(r.loadedModels()).hasSize(n + 1);
        }
    }
}
